import ImageFeedCore

/// The help overlay (`?`): the keys of the screen in front of the user first, then the ones that work
/// everywhere, as the keymap's records and the user's `[keys]` make them; it scrolls when the terminal is too
/// small to hold it. `AppFrame` draws it; this names what it says, for the key list in docs/keys.md and the tests.
public enum HelpContent {
    public typealias Line = (keys: String, what: String)

    /// What the help is about: the screen in front of the user.
    public static func title(_ app: AppState) -> String {
        AppFrame(theme: Theme(colorMode: .none, unicode: true)).help(app).title
    }

    /// The lines for the screen in front of the user, then the ones that work everywhere.
    public static func lines(_ app: AppState, keyMap: KeyMap = .standard) -> [Line] {
        AppFrame(theme: Theme(colorMode: .none, unicode: true), keyMap: keyMap).help(app).lines.map { ($0.keys, $0.what) }
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
        // The viewer as it lists the most: an animation, from a list.
        var viewer = AppState()
        var animation = Photo(id: "x")
        animation.isAnimated = true
        viewer.viewer = ViewerState(photo: animation)
        viewer.viewer?.source = .feed
        states.append(viewer)
        var detail = AppState()
        detail.detail = PhotoDetail(photo: Photo(id: "x"), source: .feed)
        states.append(detail)
        var page = AppState()
        page.explore = ExploreStack(tab: .feed, sheets: [.photographer(PhotographerSheet(username: "x"))])
        states.append(page)
        // One of your own collections: the page's keys a photographer's page has not (taking a photo out).
        var own = AppState()
        let you = User(id: "you", username: "you", name: "You")
        own.profile.phase = .content(you)
        own.explore = ExploreStack(tab: .feed, sheets: [.collection(CollectionSheet(collection: PhotoCollection(id: "c", title: "Yours", user: you)))])
        states.append(own)
        var topics = AppState()
        topics.explore = ExploreStack(tab: .feed, sheets: [.topics(TopicsSheet())])
        states.append(topics)
        return states
    }
}

/// The help box over the screen in front: its keys as the records and the user's keys make them, what the pictures
/// are drawn with, and scrolling when the terminal is too small to hold it.
struct HelpOverlay {
    let root: AppFrame
    var theme: Theme { root.theme }

    /// The help's rows for a box `width` wide: keys and what they do side by side, or on narrow terminals the
    /// keys on a row of their own and what they do wrapped under them, so that nothing is cut.
    func helpRows(_ app: AppState, width: Int, link: String? = nil) -> [(keys: String, what: String)] {
        let keyWidth = 22
        let inner = max(10, width - 4)
        var rows: [(keys: String, what: String)] = []
        for line in root.help(app).lines {
            let keys = theme.unicode ? line.keys : line.keys.replacingOccurrences(of: "↑ ↓", with: "Up Down")
                .replacingOccurrences(of: "← →", with: "Left Right")
            if inner - keyWidth >= 40 {
                rows.append((keys, line.what))
            } else {
                rows.append((keys, ""))
                for part in Widgets.wrap(line.what, width: inner - 2) { rows.append(("", "  " + part)) }
            }
        }
        // What the photos are drawn with and why (graphics = … in the settings changes it).
        if var picturesNote = root.picturesNote {
            if let link { picturesNote += " " + link }
            rows.append(("", ""))
            if inner - keyWidth >= 40 {
                for (index, part) in Widgets.wrap(picturesNote, width: inner - keyWidth).enumerated() {
                    rows.append((index == 0 ? "Pictures" : " ", part)) // " ": under the first line's text
                }
            } else {
                rows.append(("Pictures", ""))
                for part in Widgets.wrap(picturesNote, width: inner - 2) { rows.append(("", "  " + part)) }
            }
        }
        return rows
    }

    static func helpBox(width: Int, height: Int, rows: Int) -> (width: Int, height: Int, shown: Int) {
        let boxWidth = min(width - 2, 76)
        let boxHeight = min(height - 2, rows + 4)
        return (boxWidth, boxHeight, max(1, boxHeight - 4))
    }

    /// The help box: the keys of the screen in front of the user, from row `top` (it scrolls on small terminals).
    func render(_ app: AppState, title: String, top: Int, link: String?, into buffer: inout CellBuffer) {
        let keyWidth = 22
        let box = Self.helpBox(width: buffer.width, height: buffer.height, rows: helpRows(app, width: min(buffer.width - 2, 76), link: link).count)
        let rows = helpRows(app, width: box.width, link: link)
        let rect = Rect(x: (buffer.width - box.width) / 2, y: (buffer.height - box.height) / 2, width: box.width, height: box.height)
        // A blank cell around the box (the tab bar and the status line aside): a caption's last character showing
        // through right next to the border reads as part of the help.
        let marginTop = max(1, rect.y - 1), marginBottom = min(buffer.height - 1, rect.maxY + 1)
        buffer.fill(Rect(x: max(0, rect.x - 1), y: marginTop, width: min(buffer.width, rect.maxX + 1) - max(0, rect.x - 1),
                         height: max(0, marginBottom - marginTop)), with: Cell(" "))
        Widgets.box(rect, title: title, style: theme.modal, theme: theme, into: &buffer)
        let first = Self.helpTop(top, lines: rows.count, shown: box.shown)
        var keyStyle = theme.modal
        keyStyle.bold = true
        for (index, row) in rows.dropFirst(first).prefix(box.shown).enumerated() {
            let y = rect.y + 2 + index
            if !row.keys.isEmpty { buffer.write(row.keys, x: rect.x + 2, y: y, style: keyStyle, maxWidth: box.width - 4) }
            let x = row.keys.isEmpty ? rect.x + 2 : rect.x + 2 + keyWidth
            if !row.what.isEmpty {
                buffer.write(row.what, x: x, y: y, style: theme.modal, maxWidth: rect.maxX - 2 - x, ellipsis: theme.ellipsis)
            }
        }
        let scrolls = rows.count > box.shown
        // Which way there is more: "↓ more" at the top, "↑ more" at the end, both between.
        let above = first > 0, below = first + box.shown < rows.count
        let arrows = theme.unicode ? (above ? "↑" : "") + (below ? "↓" : "") : (above ? "k" : "") + (above && below ? "/" : "") + (below ? "j" : "")
        let footer = scrolls ? "\(arrows) more, other keys close" : "any key closes this"
        buffer.write(footer, x: rect.x + 2, y: rect.maxY - 1, style: theme.modal, maxWidth: box.width - 4, ellipsis: theme.ellipsis)
    }

    /// The first help line shown, kept so that the box is full.
    static func helpTop(_ top: Int, lines: Int, shown: Int) -> Int {
        max(0, min(top, lines - shown))
    }

    /// The help has the keyboard: the keys that move a list (up and down, a screen) scroll a help longer than the
    /// terminal, as the screen behind names them (`intent`); any other key closes it.
    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        let count = helpRows(app, width: min(width - 2, 76), link: ui.linkNote).count
        let shown = Self.helpBox(width: width, height: height, rows: count).shown
        ui.helpTop = Self.helpTop(ui.helpTop, lines: count, shown: shown)
        var step = 0
        switch (input, intent) {
        case (.key(.down), _), (_, .next?), (_, .down?): step = 1
        case (.key(.up), _), (_, .previous?), (_, .up?): step = -1
        case (.key(.pageDown), _), (_, .pageDown?): step = shown
        case (.key(.pageUp), _), (_, .pageUp?): step = -shown
        default: break
        }
        switch input {
        case let .mouse(mouse) where mouse.kind == .wheelDown: step = 1
        case let .mouse(mouse) where mouse.kind == .wheelUp: step = -1
        default: break
        }
        if step != 0, count > shown {
            ui.helpTop = Self.helpTop(ui.helpTop + step, lines: count, shown: shown)
            return []
        }
        switch input {
        case .key:
            ui.helpTop = 0
            return [.toggleHelp]
        case let .mouse(mouse) where mouse.kind == .press:
            ui.helpTop = 0
            return [.toggleHelp]
        default:
            return []
        }
    }
}
