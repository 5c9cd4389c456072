import ImageFeedCore

/// The help overlay (`?`): the keys of the screen in front of the user first, then the ones that work
/// everywhere, as the keymap's records and the user's `[keys]` make them; it scrolls when the terminal is too
/// small to hold it. `RootScreen` draws it; this names what it says, for the key list in docs/keys.md and the tests.
public enum HelpScreen {
    public typealias Line = (keys: String, what: String)

    /// What the help is about: the screen in front of the user.
    public static func title(_ app: AppState) -> String {
        RootScreen(theme: Theme(colorMode: .none, unicode: true)).help(app).title
    }

    /// The lines for the screen in front of the user, then the ones that work everywhere.
    public static func lines(_ app: AppState, keyMap: KeyMap = .standard) -> [Line] {
        RootScreen(theme: Theme(colorMode: .none, unicode: true), keyMap: keyMap).help(app).lines.map { ($0.keys, $0.what) }
    }

    /// A state for every screen the help can be about (docs/keys.md's key list and the tests go through them).
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
