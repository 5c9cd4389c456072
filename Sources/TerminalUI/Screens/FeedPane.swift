import ImageFeedCore

/// The Feed pane: the editorial feed as a list of cards.
struct FeedPane: PaneScreen {
    let theme: Theme

    func layout(_ app: AppState, area: Rect) -> CardLayout {
        CardLayout(photos: app.feed.photos, width: area.width, viewportHeight: area.height)
    }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        CardListScreen(theme: theme).render(app.feed, layout: layout(app, area: area), ui: ui, area: area, pictures: pictures, into: &buffer)
    }

    func handle(_ input: InputEvent, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        CardListScreen(theme: theme).handle(input, feed: app.feed, layout: layout(app, area: area), ui: &ui, area: area)
    }

    func hints(_ app: AppState) -> [String] {
        ["? help", "q quit", "Enter open", "l like", "r reload", "Tab panes", "↑↓ move"]
    }

    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        layout(app, area: area).lastShown(top: ui.feedTop).map { (.feed, max($0, ui.feedSelected)) }
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let index = app.feed.photos.firstIndex(where: { $0.id == photoID }) else { return }
        ui.feedSelected = index
        ui.feedTop = layout(app, area: area).scroll(toShow: index, from: ui.feedTop)
    }

    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        ui.feedTop = layout(app, area: area).scroll(toShow: ui.feedSelected, from: ui.feedTop)
    }
}
