import ImageFeedCore

/// The help overlay (`?`): the keys of the screen in front of the user first, then the ones that work
/// everywhere; it scrolls when the terminal is too small to hold it.
public enum HelpScreen {
    public typealias Line = (keys: String, what: String)

    /// What the help is about: the screen in front of the user.
    public static func title(_ app: AppState) -> String {
        switch context(app) {
        case .login: "Keys: logging in"
        case .feed: "Keys: the feed"
        case .favorites: "Keys: your profile and favorites"
        case .search: "Keys: search"
        case .searchField: "Keys: the search field"
        case .detail: "Keys: a photo's details"
        case .albums: "Keys: Imgur albums"
        case .albumField: "Keys: the username field"
        case .viewer: "Keys: the photo, full screen"
        }
    }

    enum Context {
        case login, feed, favorites, search, searchField, detail, albums, albumField, viewer
    }

    static func context(_ app: AppState) -> Context {
        if app.session != .loggedIn { return .login }
        if app.viewer != nil { return .viewer }
        if app.shownDetail != nil { return .detail }
        switch app.tab {
        case .feed: return .feed
        case .profile: return .favorites
        case .search: return app.search.editing ? .searchField : .search
        case .albums: return app.albums.isEditing ? .albumField : .albums
        }
    }

    /// The lines for the screen in front of the user, then the ones that work everywhere.
    public static func lines(_ app: AppState) -> [Line] {
        var lines: [Line]
        let list: [Line] = [
            ("↑ ↓  j k", "previous / next photo"),
            ("PgUp PgDn", "a screen up / down"),
            ("Ctrl-E Ctrl-Y, wheel", "move the list by a line (wheel: 3)"),
            ("g G  Home End", "first / last photo"),
            ("Enter, click", "open the photo full screen"),
            ("i", "details: description, place, camera, author"),
            ("l  Space", "like / unlike"),
        ]
        switch context(app) {
        case .login:
            lines = [("Enter", app.isDemo ? "log in (the demo: no account needed)" : "log in"),
                     ("c  o", "copy the login link (OSC 52); open it here"),
                     ("p", "paste the code the browser shows"),
                     ("Esc", "back to the first screen")]
            if app.isDemo { lines.append(("a", "approve as the demo user")) }
            return lines + [("?", "this help"), ("q  Ctrl-C", "quit")]
        case .feed:
            lines = list + [("r", "reload the feed, or retry what failed")]
        case .favorites:
            lines = list + [("r", "refresh the profile, or retry what failed"), ("o", "log out")]
        case .search:
            lines = [("/", "type a query (Esc leaves the field)"),
                     ("↑ ↓ ← →  j k", "move between results"),
                     ("Enter, click", "details of the result"),
                     ("l  Space", "like / unlike"),
                     ("s  v", "sort by relevance or date; 1 or 2 columns"),
                     ("r", "retry what failed")]
        case .searchField:
            return [("Enter", "search"), ("↑ ↓  Tab", "pick an earlier query"), ("Esc", "leave the field"),
                    ("Ctrl-C", "quit")]
        case .detail:
            lines = [("Enter, click", "open the photo full screen"),
                     ("l  f  Space", "like / unlike"),
                     ("s  o", "copy the link (and open it)"),
                     ("d", "download the full-size photo"),
                     ("r", "retry the details"),
                     ("Esc  q", "back to the list")]
        case .albums:
            lines = [("u, click the field", "type an Imgur username"),
                     ("↑ ↓ ← →  h j k l", "move between tiles"),
                     ("Enter, click", "open the album, or the photo"),
                     ("r", "reload, or retry what failed"),
                     ("Esc  q", "back from an album")]
        case .albumField:
            return [("Enter", "show the user's albums"), ("Esc", "leave the field"),
                    ("Tab  Shift-Tab", "leave it for another pane"), ("Ctrl-C", "quit")]
        case .viewer:
            lines = [("n p  ] [", "next / previous photo of the list"),
                     ("← →  h l", "the same at fit; zoomed in, pan"),
                     ("↑ ↓  j k", "pan when zoomed in"),
                     ("+ -  wheel", "zoom in / out"),
                     ("z", "the whole photo, or the largest zoom"),
                     ("r", "rotate by 90° (retry when it failed)"),
                     ("0", "the whole photo, upright"),
                     ("f  Space", "like / unlike"),
                     ("s  d", "copy the link (and open it); download"),
                     ("i, click", "hide or show the status line"),
                     ("b", "photos in half blocks, quadrants or sextants"),
                     ("Esc  q", "back")]
        }
        return lines + [
            ("Tab  Shift-Tab  1-4", "switch panes (4: Imgur albums)"),
            ("/", "search, from anywhere"),
            ("?  F1  Ctrl-L", "this help; paint the screen again"),
            ("q", "quit from a pane; back from a sub-screen"),
            ("Ctrl-C", "quit from anywhere"),
        ]
    }

    /// Every line of every screen (the README's key list and the tests go through them).
    public static var allContexts: [AppState] {
        var states: [AppState] = []
        var login = AppState(session: .loggedOut)
        login.isDemo = true
        states.append(login)
        for tab in Tab.allCases {
            var state = AppState()
            state.albumsEnabled = true
            state.albums.isEditing = false
            state.tab = tab
            states.append(state)
        }
        var searchField = AppState()
        searchField.tab = .search
        searchField.search.editing = true
        states.append(searchField)
        var albumField = AppState()
        albumField.albumsEnabled = true
        albumField.tab = .albums
        albumField.albums.isEditing = true
        states.append(albumField)
        var viewer = AppState()
        viewer.viewer = ViewerState(photo: Photo(id: "x"))
        states.append(viewer)
        var detail = AppState()
        detail.detail = PhotoDetail(photo: Photo(id: "x"), source: .feed)
        states.append(detail)
        return states
    }
}
