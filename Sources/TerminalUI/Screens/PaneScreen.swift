import ImageFeedCore

/// What the root screen asks of a pane of the tab bar. Everything about a pane (drawing, keys, the status line's
/// hints, how far its list shows, where its selection goes) lives in its own screen; `RootScreen.pane(_:)` is the
/// one place that names the panes.
protocol PaneScreen {
    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer)
    func handle(_ input: InputEvent, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event]
    /// The status line's keys, the ones that matter most first (at 80 columns the last ones give way).
    func hints(_ app: AppState) -> [String]
    /// How far into its paged list the pane's frame shows (`RootScreen.shownEnd`); nil when it pages nothing.
    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)?
    /// Back from the viewer, the pane selects the photo the viewer was on (n/p may have moved it), in view.
    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect)
    /// After a resize, the pane's selection stays in view.
    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect)
    /// A screen of the pane's own is open over it (an album): `q` goes back to the pane rather than quitting.
    func showsSubScreen(_ app: AppState) -> Bool
}

extension PaneScreen {
    func showsSubScreen(_ app: AppState) -> Bool { false }
}

extension Tab {
    /// The pane the viewer's photo came from.
    init?(_ source: ViewerState.Source?) {
        switch source {
        case .feed: self = .feed
        case .favorites: self = .profile
        case .search: self = .search
        case .album: self = .albums
        case .page, nil: return nil
        }
    }
}
