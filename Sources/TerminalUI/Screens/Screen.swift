import ImageFeedCore

/// What is in front of the user: the one answer every part of the root (drawing, input, hints, paging, the help)
/// asks for. The help and a screen's dialog sit over it.
public enum Front: Equatable, Sendable {
    /// The first screen and the login (logged out).
    case login
    /// A photo full screen.
    case viewer
    /// A photo's details, over the pane or page it was opened from.
    case detail
    /// A page (a photographer, a collection, topics, your collections) over a pane.
    case sheet
    /// A pane of the tab bar.
    case pane(Tab)

    /// The precedence, in one place: the login, then a text field the user is typing in, the viewer, a detail, a
    /// page, the pane.
    public static func of(_ app: AppState) -> Front {
        if app.session != .loggedIn { return .login }
        if app.viewer != nil { return .viewer }
        if app.tab == .search, app.search.editing { return .pane(.search) }
        if app.shownDetail != nil { return .detail }
        if app.shownSheet != nil { return .sheet }
        return .pane(app.tab)
    }
}

/// What the root asks of the screen in front: every screen (the panes, a page, a detail, the viewer, the login)
/// answers the same questions. `AppFrame.screen(_:)` is the one place that names them.
protocol Screen {
    /// What the root draws around the screen.
    var chrome: Chrome { get }
    /// The context its keys are in now (a text field being typed in has its own).
    func keyContext(_ app: AppState) -> KeyContext
    /// Which of its context's intents the help lists for what the screen shows now (nil: all of them).
    func helpShows(_ app: AppState) -> Set<Intent>?
    /// Where the selection is in the list shown ("7/30", "7/30+" while more pages come), for the status line.
    func listPosition(_ app: AppState, ui: UIState) -> String?
    /// The help's title.
    func title(_ app: AppState) -> String
    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer)
    /// The events a key, a click or a resize means; `intent` is what the key means in `keyContext` (nil for a
    /// key that means nothing there, and in a dialog, whose keys are its own).
    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event]
    /// The status line's keys, the ones that matter most first (at 80 columns the last ones give way).
    func hints(_ app: AppState, ui: UIState) -> [String]
    /// A dialog of the screen is up: it has the keyboard.
    func dialogIsOpen(_ app: AppState) -> Bool
    /// The status line's keys while a dialog of the screen is up (its own, not the screen's); nil without one.
    func dialogHints(_ app: AppState, ui: UIState) -> [String]?
    /// How far into its paged list the screen's frame shows (`AppFrame.shownEnd`); nil when it pages nothing.
    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)?
    /// Back from the viewer, the screen selects the photo the viewer was on (n/p may have moved it), in view.
    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect)
    /// After a resize, the screen's selection stays in view.
    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect)
    /// A screen of its own is open over a pane (an album), or the screen is one (a detail, a page): `q` goes back
    /// rather than quitting.
    func isSubScreen(_ app: AppState) -> Bool
}

/// What the root draws around a screen.
enum Chrome {
    /// The tab bar above, the status line below (panes, pages, a detail).
    case tabsAndStatus
    /// The status line only (the login screens).
    case status
    /// Nothing: the screen has the whole terminal (the viewer).
    case none
}

extension Screen {
    func helpShows(_ app: AppState) -> Set<Intent>? { nil }
    func listPosition(_ app: AppState, ui: UIState) -> String? { nil }
    var chrome: Chrome { .tabsAndStatus }
    func dialogIsOpen(_ app: AppState) -> Bool { false }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { nil }
    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? { nil }
    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {}
    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {}
    func isSubScreen(_ app: AppState) -> Bool { true }
}

extension Tab {
    /// The pane the viewer's photo came from.
    init?(_ source: ViewerState.Source?) {
        switch source {
        case .feed: self = .feed
        case .favorites: self = .profile
        case .search: self = .search
        case .album: self = .albums
        case .sheet, nil: return nil
        }
    }
}
