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
        case .page: "Keys: " + pageTitle(app.shownPage)
        }
    }

    static func pageTitle(_ page: BrowsePage?) -> String {
        switch page {
        case .photographer: "a photographer's page"
        case .collection: "a collection"
        case .collectionPicker: "your collections"
        case .topics, nil: "topics"
        }
    }

    enum Context {
        case login, feed, favorites, search, searchField, detail, albums, albumField, viewer, page
    }

    static func context(_ app: AppState) -> Context {
        if app.session != .loggedIn { return .login }
        if app.viewer != nil { return .viewer }
        if app.shownDetail != nil { return .detail }
        if app.shownPage != nil { return .page }
        switch app.tab {
        case .feed: return .feed
        case .profile: return .favorites
        case .search: return app.search.editing ? .searchField : .search
        case .albums: return app.albums.isEditing ? .albumField : .albums
        }
    }

    /// The keymap's context for the screen in front of the user; nil in a text field (every key is text there).
    public static func keyContext(_ app: AppState) -> KeyContext? {
        switch context(app) {
        case .login: .login
        case .feed: .feed
        case .favorites: .favorites
        case .search: .search
        case .detail: .detail
        case .albums: .albums
        case .page: .page
        case .viewer: .viewer
        case .searchField, .albumField: nil
        }
    }

    /// The lines for the screen in front of the user, then the ones that work everywhere: the keymap's rows, with
    /// the keys the user gave (`[keys]`).
    public static func lines(_ app: AppState, keyMap: KeyMap = .standard) -> [Line] {
        switch context(app) {
        case .searchField:
            return [("Enter", "search"), ("↑ ↓  Tab", "pick an earlier query"), ("Esc", "leave the field"),
                    ("Ctrl-C", "quit")]
        case .albumField:
            return [("Enter", "show the user's albums"), ("Esc", "leave the field"),
                    ("Tab  Shift-Tab", "leave it for another pane"), ("Ctrl-C", "quit")]
        case .login:
            return keyMap.rows(.login, demo: app.isDemo).map { ($0.keys, $0.what) }
        default:
            guard let context = keyContext(app) else { return [] }
            return (keyMap.rows(context) + keyMap.rows(.everywhere)).map { ($0.keys, $0.what) }
        }
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
        var page = AppState()
        page.browse = Browse(tab: .feed, pages: [.photographer(PhotographerPage(username: "x"))])
        states.append(page)
        return states
    }
}
