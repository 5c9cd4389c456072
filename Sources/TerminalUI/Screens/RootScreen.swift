import Foundation
import ImageFeedCore
import TerminalImage

/// Draws the whole app for a state, and turns keys and clicks into the app's events.
public struct RootScreen {
    public static let minimumWidth = 40
    public static let minimumHeight = 12

    public let theme: Theme
    public let logo: RGBImage?
    /// A cell's height over its width in pixels, for pictures drawn in pixels (2 for half blocks).
    public let cellAspect: Double
    /// What pictures are drawn with and why, for the help.
    public let picturesNote: String?
    /// The characters photos are drawn with as the settings say; nil when the terminal draws pixels.
    public let blitter: BlitterKind?
    /// The keys, as `[keys]` in the settings rebinds them.
    public let keyMap: KeyMap
    /// The login screens' logo and QR code, drawn once.
    let loginPictures = LoginPictures()

    public init(theme: Theme, logo: RGBImage? = nil, cellAspect: Double = 2, picturesNote: String? = nil,
                blitter: BlitterKind? = .half, keyMap: KeyMap = .standard) {
        self.keyMap = keyMap
        self.theme = theme
        self.logo = logo
        self.cellAspect = cellAspect
        self.picturesNote = picturesNote
        self.blitter = blitter
    }

    // MARK: Geometry

    /// The feed list's area: everything between the tab bar and the status line.
    public func contentRect(width: Int, height: Int) -> Rect {
        Rect(x: 0, y: 1, width: width, height: height - 2)
    }

    public func feedLayout(_ app: AppState, width: Int, height: Int) -> CardLayout {
        FeedPane(theme: theme).layout(app, area: contentRect(width: width, height: height))
    }

    /// The screen of what is in front: the one place that names the screens (each one's drawing, keys, hints,
    /// dialogs and paging are its own).
    func screen(_ front: Front, ui: UIState = UIState()) -> any Screen {
        switch front {
        case .login: LoginScreen(theme: theme, logo: logo, pictures: loginPictures, keys: keyMap)
        case .viewer: ViewerScreen(theme: theme, cellAspect: cellAspect, blitter: blitter.map { ui.blitter ?? $0 }, keys: keyMap)
        case .detail: DetailScreen(theme: theme)
        case .page: PageScreen(theme: theme, keys: keyMap)
        case .pane(.feed): FeedPane(theme: theme, keys: keyMap)
        case .pane(.search): SearchScreen(theme: theme, keys: keyMap)
        case .pane(.profile): ProfileScreen(theme: theme, keys: keyMap)
        case .pane(.albums): AlbumsScreen(theme: theme, keys: keyMap)
        }
    }

    /// The keys that work in every screen but the login's.
    static let keys: [KeyRecord] = [
        KeyRecord([(.nextPane, [.tab]), (.previousPane, [.backTab])], "switch panes (4: Imgur albums)", extra: "  1-4",
                  hint: "panes", hintFirstOnly: true, rank: 55),
        KeyRecord([(.search, [.character("/")])], "search, from anywhere", hint: "search", rank: 65),
        KeyRecord([(.help, [.character("?"), .function(1)])], "this help", hint: "help", rank: 10),
        KeyRecord([(.redraw, [.redraw])], "paint the screen again"),
        KeyRecord([(.quit, [.character("q")])], "quit from a pane; back from a sub-screen", hint: "quit", rank: 20),
        KeyRecord(fixed: "Ctrl-C", "quit from anywhere"),
    ]

    public static func isTooSmall(width: Int, height: Int) -> Bool {
        width < minimumWidth || height < minimumHeight
    }

    // MARK: Rendering

    public func render(_ app: AppState, ui: UIState, pictures: PictureProvider, into buffer: inout CellBuffer) {
        buffer.fill(buffer.bounds)
        buffer.ellipsis = theme.ellipsis
        let width = buffer.width
        let height = buffer.height
        if Self.isTooSmall(width: width, height: height) {
            renderTooSmall(into: &buffer)
            return
        }
        let front = Front.of(app)
        let screen = screen(front, ui: ui)
        switch screen.chrome {
        case .none:
            screen.render(app, ui: ui, area: buffer.bounds, pictures: pictures, into: &buffer)
        case .status:
            screen.render(app, ui: ui, area: Rect(x: 0, y: 0, width: width, height: height - 1), pictures: pictures, into: &buffer)
            renderStatusLine(app, hints: screen.hints(app, ui: ui, keys: keyMap), into: &buffer)
        case .tabsAndStatus:
            renderTabBar(app, into: &buffer)
            screen.render(app, ui: ui, area: contentRect(width: width, height: height), pictures: pictures, into: &buffer)
            renderStatusLine(app, hints: screen.hints(app, ui: ui, keys: keyMap), into: &buffer)
        }
        if app.helpVisible {
            renderHelp(app, screen: screen, top: ui.helpTop, link: ui.linkNote, into: &buffer)
        }
    }

    private func renderTooSmall(into buffer: inout CellBuffer) {
        let lines = ["Terminal too small", "Needs \(Self.minimumWidth)x\(Self.minimumHeight), is \(buffer.width)x\(buffer.height).",
                     "Enlarge it, or press q."]
        let top = max(0, (buffer.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            buffer.writeCentered(line, in: buffer.bounds, y: top + index, style: index == 0 ? theme.error : .plain)
        }
    }

    /// The tab bar's tabs, with where each is drawn (for clicks).
    public func tabRects(_ tabs: [Tab], width: Int) -> [(Tab, Rect)] {
        // The name goes first when there is room for it and the tabs.
        var x = showsBrand(tabs, width: width) ? DisplayWidth.of(" ImageFeed ") + 1 : 0
        return tabs.map { tab in
            let label = " \(tab.rawValue + 1) \(tab.title) "
            let rect = Rect(x: x, y: 0, width: DisplayWidth.of(label), height: 1)
            x += rect.width + 1
            return (tab, rect)
        }
    }

    private func showsBrand(_ tabs: [Tab], width: Int) -> Bool {
        let tabsWidth = tabs.reduce(0) { $0 + DisplayWidth.of(" \($1.rawValue + 1) \($1.title) ") + 1 }
        return DisplayWidth.of(" ImageFeed ") + 1 + tabsWidth <= width
    }

    private func renderTabBar(_ app: AppState, into buffer: inout CellBuffer) {
        buffer.fill(Rect(x: 0, y: 0, width: buffer.width, height: 1), with: Cell(" ", style: theme.bar))
        var brand = theme.bar
        brand.bold = true
        if showsBrand(app.tabs, width: buffer.width) { buffer.write(" ImageFeed ", x: 0, y: 0, style: brand) }
        for (tab, rect) in tabRects(app.tabs, width: buffer.width) {
            buffer.write(" \(tab.rawValue + 1) \(tab.title) ", x: rect.x, y: 0, style: tab == app.tab ? theme.activeTab : theme.bar)
        }
    }

    private func renderStatusLine(_ app: AppState, hints: [String], into buffer: inout CellBuffer) {
        let y = buffer.height - 1
        let width = buffer.width
        buffer.fill(Rect(x: 0, y: y, width: width, height: 1), with: Cell(" ", style: theme.bar))
        // The right-hand side: what must show (offline, failing, saved), then what may give way (online, the quota).
        var needed: (text: String, style: CellStyle)?
        var optional: [String] = []
        var errorOnBar = theme.error
        errorOnBar.background = theme.bar.background
        let shownList: PhotoListState? = app.session != .loggedIn || app.viewer != nil ? nil
            : app.tab == .search ? app.search.results : app.photos(in: app.tab)
        if let savedAt = shownList?.savedAt {
            // What is on screen came from the offline store: say so, and from when.
            let when = CardListScreen.dateAndTime(savedAt)
            if case .offline = app.connection {
                needed = ("offline \(theme.unicode ? "—" : "-") showing what was saved \(when)", errorOnBar)
            } else if shownList?.nextPage == .loading(page: 1) {
                needed = ("saved \(when), refreshing", theme.bar)
            } else {
                // Back online, but this list still is the saved one (its refresh failed): r asks again.
                needed = ("saved \(when), r reloads", theme.bar)
            }
        } else {
            switch app.connection {
            case .online: optional.append("online")
            case .offline: needed = ("offline", errorOnBar)
            case let .failing(what): needed = (what, errorOnBar)
            case .unknown: break
            }
        }
        if let limit = app.rateLimit { optional.append("quota \(limit.remaining)/\(limit.limit)") }
        let neededWidth = needed.map { DisplayWidth.of($0.text) + 2 } ?? 0
        var left = 1
        if let notice = app.notice {
            // A notice about what a key just did takes the hints' place until it goes.
            var style = notice.kind == .error ? errorOnBar : theme.bar
            style.bold = true
            let text = UntrustedText.sanitize(notice.text)
            left += buffer.write(text, x: 1, y: y, style: style, maxWidth: max(10, width - 2 - neededWidth), ellipsis: theme.ellipsis)
        } else {
            // The hints, most important first; each one whole or not at all.
            let shown = hints.map { theme.unicode ? $0 : $0.replacingOccurrences(of: "↑↓←→", with: "arrows").replacingOccurrences(of: "↑↓", with: "j/k") }
            let line = Widgets.hintLine(shown, room: width - neededWidth)
            left += buffer.write(line, x: 1, y: y, style: theme.bar)
        }
        var right = width
        if let needed {
            let neededText = needed.text + " "
            let shown = min(DisplayWidth.of(neededText), max(0, width - left))
            right = width - shown
            buffer.write(neededText, x: right, y: y, style: needed.style, maxWidth: shown, ellipsis: theme.ellipsis)
        }
        // Then what may give way, as far as there is room.
        for text in optional.reversed() {
            let textWidth = DisplayWidth.of(text) + 2
            guard right - textWidth >= left else { break }
            right -= textWidth
            buffer.write(text, x: right, y: y, style: theme.bar)
        }
    }

    /// The keys to show in the status line, the ones that matter most first (help, leaving, back); at 80
    /// columns the last ones give way.
    func hints(_ app: AppState, ui: UIState = UIState()) -> [String] {
        screen(Front.of(app), ui: ui).hints(app, ui: ui, keys: keyMap)
    }

    /// The help's title and lines for what is in front, with the keys in force.
    func help(_ app: AppState) -> (title: String, lines: [KeyMap.Line]) {
        let screen = screen(Front.of(app))
        return (screen.title(app), keyMap.lines(screen.keyContext(app), demo: app.isDemo))
    }

    /// The help's rows for a box `width` wide: keys and what they do side by side, or on narrow terminals the
    /// keys on a row of their own and what they do wrapped under them, so that nothing is cut.
    func helpRows(_ app: AppState, width: Int, link: String? = nil) -> [(keys: String, what: String)] {
        let keyWidth = 22
        let inner = max(10, width - 4)
        var rows: [(keys: String, what: String)] = []
        for line in help(app).lines {
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
        if var picturesNote {
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
    private func renderHelp(_ app: AppState, screen: any Screen, top: Int, link: String?, into buffer: inout CellBuffer) {
        let keyWidth = 22
        let box = Self.helpBox(width: buffer.width, height: buffer.height, rows: helpRows(app, width: min(buffer.width - 2, 76), link: link).count)
        let rows = helpRows(app, width: box.width, link: link)
        let rect = Rect(x: (buffer.width - box.width) / 2, y: (buffer.height - box.height) / 2, width: box.width, height: box.height)
        Widgets.box(rect, title: screen.title(app), style: theme.modal, theme: theme, into: &buffer)
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
        let footer = scrolls ? "\(theme.unicode ? "↑↓" : "j/k") more, other keys close" : "any key closes this"
        buffer.write(footer, x: rect.x + 2, y: rect.maxY - 1, style: theme.modal, maxWidth: box.width - 4, ellipsis: theme.ellipsis)
    }

    /// The first help line shown, kept so that the box is full.
    static func helpTop(_ top: Int, lines: Int, shown: Int) -> Int {
        max(0, min(top, lines - shown))
    }

    // MARK: Paging

    /// How far into its paged list the frame for this state shows: the last item in view (or the selection,
    /// if further), or the photo the viewer shows. The run loop sends it once a frame (`listShown`), and the
    /// list's own rule decides whether the next page is due: no key handler or step computes it.
    public func shownEnd(_ app: AppState, ui: UIState, width: Int, height: Int) -> (list: ShownList, lastIndex: Int)? {
        guard app.session == .loggedIn, !Self.isTooSmall(width: width, height: height) else { return nil }
        return screen(Front.of(app), ui: ui).shownEnd(app, ui: ui, area: contentRect(width: width, height: height))
    }

    // MARK: Input

    /// Back from the viewer, the list selects the photo the viewer was on (n/p may have moved it), in view.
    private func followViewer(_ viewer: ViewerState, app: AppState, ui: inout UIState, width: Int, height: Int) {
        var behind = app
        behind.viewer = nil
        screen(Front.of(behind)).select(photoID: viewer.photo.id, app: behind, ui: &ui, area: contentRect(width: width, height: height))
    }

    /// The events a key or click means in this state; `ui` follows the selection and scrolling.
    ///
    /// What is in front (`Front.of`) has the input: Ctrl-C, resizes and the help come first, as they hold
    /// everywhere; then a dialog of that screen, which has its own keys; then the keys every screen shares; then
    /// the screen, which gets the key's intent in its context (the user's keys included).
    public func handle(_ input: InputEvent, app: AppState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        let events = route(input, app: app, ui: &ui, width: width, height: height)
        // A page about to open starts at its top.
        if events.contains(where: Self.opensPage) {
            ui.startPage(atDepth: app.browse?.tab == app.tab ? app.browse?.pages.count ?? 0 : 0)
        }
        return events
    }

    private static func opensPage(_ event: AppViewModel.Event) -> Bool {
        switch event {
        case .browse(.openPhotographer), .browse(.openCollection), .browse(.openTopics): true
        default: false
        }
    }

    private func route(_ input: InputEvent, app: AppState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        if case .key(.interrupt) = input { return [.quit] }
        if case .resize = input {
            keepSelectionsInView(app, ui: &ui, width: width, height: height)
            return []
        }
        if app.helpVisible { return handleHelp(input, app: app, ui: &ui, width: width, height: height) }
        let front = Front.of(app)
        let screen = screen(front, ui: ui)
        let context = screen.keyContext(app)
        let dialog = screen.dialogIsOpen(app)
        // A dialog's keys and a text field's are their own: no intent there.
        var intent = dialog ? nil : keyMap.intent(of: input, in: context)
        if Self.isTooSmall(width: width, height: height) {
            if intent == .quit || intent == .back { return [.quit] }
            return intent == .help ? [.toggleHelp] : []
        }
        if intent == .help { return [.toggleHelp] }
        let area = screen.chrome == .none ? Rect(x: 0, y: 0, width: width, height: height) : contentRect(width: width, height: height)
        if context.isTextField, case let .key(key) = input {
            // Every key typed in a field is text, until Enter or Esc; F1 still opens the help.
            if case .function = key, keyMap.intent(of: key, in: .everywhere) == .help { return [.toggleHelp] }
            return screen.handle(input, intent: nil, app: app, ui: &ui, area: area)
        }
        if screen.chrome == .tabsAndStatus {
            if let events = sharedKeys(input, intent: intent, app: app, dialog: dialog, width: width) { return events }
            // q goes back from a sub-screen (a detail, a page, an open album).
            if intent == .quit, screen.isSubScreen(app) { intent = .back }
        }
        let events = screen.handle(input, intent: intent, app: app, ui: &ui, area: area)
        if front == .viewer, events.contains(.closeViewer), let viewer = app.viewer {
            followViewer(viewer, app: app, ui: &ui, width: width, height: height)
        }
        return events
    }

    /// What works in every pane, page and detail: the tab bar, Tab and the pane numbers, `/`, and `q` (which
    /// quits from a pane). Nil: the screen's own input.
    private func sharedKeys(_ input: InputEvent, intent: Intent?, app: AppState, dialog: Bool, width: Int) -> [AppViewModel.Event]? {
        if case let .mouse(mouse) = input, mouse.y == 0, mouse.kind == .press {
            guard let tab = tabRects(app.tabs, width: width).first(where: { $0.1.contains(x: mouse.x, y: mouse.y) })?.0 else { return [] }
            return [.selectTab(tab)]
        }
        guard case let .key(key) = input, !dialog else { return nil }
        switch intent {
        case .nextPane: return [.nextTab]
        case .previousPane: return [.previousTab]
        case .search: return [.focusSearch]
        case .quit where !screen(Front.of(app)).isSubScreen(app): return [.quit]
        default: break
        }
        // The pane of a number, as the tab bar shows it (unless the number means something in this screen).
        if intent == nil, case let .character(digit) = key, let number = digit.wholeNumberValue, (1...9).contains(number),
           let tab = Tab(rawValue: number - 1), app.tabs.contains(tab) {
            return [.selectTab(tab)]
        }
        return nil
    }

    /// A resize keeps each list's selection in view at the new size.
    private func keepSelectionsInView(_ app: AppState, ui: inout UIState, width: Int, height: Int) {
        let area = contentRect(width: width, height: height)
        for tab in Tab.allCases where tab == .feed || app.session == .loggedIn {
            screen(.pane(tab)).keepSelectionInView(app, ui: &ui, area: area)
        }
    }

    /// The help has the keyboard: the arrows scroll a help longer than the terminal; any other key closes it.
    private func handleHelp(_ input: InputEvent, app: AppState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        let count = helpRows(app, width: min(width - 2, 76), link: ui.linkNote).count
        let shown = Self.helpBox(width: width, height: height, rows: count).shown
        ui.helpTop = Self.helpTop(ui.helpTop, lines: count, shown: shown)
        var step = 0
        switch input {
        case .key(.down), .key(.character("j")): step = 1
        case .key(.up), .key(.character("k")): step = -1
        case .key(.pageDown): step = shown
        case .key(.pageUp): step = -shown
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
