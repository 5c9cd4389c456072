import ImageFeedCore

/// The Feed pane: the editorial feed, or the topic chosen with `t`, as a list of cards.
struct FeedPane: Screen {
    let theme: Theme
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    /// The feed's keys: a list of cards', a topic and its order, reloading.
    static let keys: [KeyRecord] = SharedKeys.cardList + [
        KeyRecord([(.topics, [.character("t")])], "a topic instead of the editorial feed", hint: "topics", rank: 80),
        KeyRecord([(.sort, [.character("s")])], "the topic's order: latest, oldest, popular", hint: "sort", rank: 75),
        SharedKeys.reload("reload the feed, or retry what failed"),
    ]

    func keyContext(_ app: AppState) -> KeyContext { .feed }
    func title(_ app: AppState) -> String { "Keys: the feed" }
    func isSubScreen(_ app: AppState) -> Bool { false }
    func dialogIsOpen(_ app: AppState) -> Bool { app.feed.modal != nil }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { PhotoParts.dialogHints(app.feed, ui: ui) }

    /// The cards' area: all of it, or under the topic's line when a topic is shown.
    func listArea(_ app: AppState, area: Rect) -> Rect {
        guard app.feedTopic != nil else { return area }
        return Rect(x: area.x, y: area.y + 1, width: area.width, height: area.height - 1)
    }

    func layout(_ app: AppState, area: Rect) -> CardLayout {
        CardLayout(photos: app.feed.photos, width: area.width, viewportHeight: listArea(app, area: area).height,
                   cellAspect: theme.cellAspect)
    }

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        if let topic = app.feedTopic {
            let written = buffer.write("Topic: " + UntrustedText.sanitize(topic.title), x: area.x + 2, y: area.y, style: theme.title,
                                       maxWidth: area.width - 4, ellipsis: theme.ellipsis)
            let sort = keys.hintKeys(.sort, in: .feed)
            let topics = keys.hintKeys(.topics, in: .feed)
            buffer.write("  \(app.feedTopicOrder.rawValue) first (\(sort))   \(topics) changes it", x: area.x + 2 + written, y: area.y, style: theme.muted,
                         maxWidth: max(0, area.width - 4 - written), ellipsis: theme.ellipsis)
        }
        let list = listArea(app, area: area)
        var texts = ListTexts.feed
        if let topic = app.feedTopic {
            texts.loading = "Loading \(UntrustedText.sanitize(topic.title))"
            texts.failed = "Couldn't load the \(UntrustedText.sanitize(topic.title)) topic"
            texts.end = "That's all of \(UntrustedText.sanitize(topic.title))."
        }
        CardList(theme: theme, texts: texts).render(app.feed, layout: layout(app, area: area), ui: ui, area: list, pictures: pictures,
                                                          into: &buffer)
    }

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        if intent == .topics, app.feed.modal == nil { return [.explore(.openTopics)] }
        if intent == .sort, app.feed.modal == nil {
            // The editorial feed has one order: say so rather than do nothing.
            guard app.feedTopic != nil else {
                return [.notify("The editorial feed has one order; \(theme.key(.topics)) picks a topic, which sorts.")]
            }
            ui.feedList = ListPosition()
            return [.explore(.cycleTopicOrder)]
        }
        return CardList(theme: theme).handle(input, intent: intent, feed: app.feed, layout: layout(app, area: area), ui: &ui,
                                                   area: listArea(app, area: area))
    }

    func listPosition(_ app: AppState, ui: UIState) -> String? { ChromeView.position(ui.feedList.selected, of: app.feed) }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        keys.hints(.feed) { $0 != .sort || app.feedTopic != nil }
    }

    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        layout(app, area: area).lastShown(top: ui.feedTop).map { (.feed, max($0, ui.feedSelected)) }
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let index = app.feed.photos.firstIndex(ofID: photoID) else { return }
        ui.feedSelected = index
        ui.feedTop = layout(app, area: area).scroll(toShow: index, from: ui.feedTop)
    }

    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        ui.feedTop = layout(app, area: area).scroll(toShow: ui.feedSelected, from: ui.feedTop)
    }
}
