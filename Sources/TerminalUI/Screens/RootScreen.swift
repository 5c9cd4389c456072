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

    /// The pane of a tab: the one place that names the panes (each one's drawing, keys, hints and paging are its own).
    func pane(_ tab: Tab) -> any PaneScreen {
        switch tab {
        case .feed: FeedPane(theme: theme)
        case .search: SearchScreen(theme: theme)
        case .profile: ProfileScreen(theme: theme)
        case .albums: AlbumsScreen(theme: theme)
        }
    }

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
        if app.session != .loggedIn {
            let screen = LoginScreen(theme: theme, logo: logo, pictures: loginPictures)
            let area = Rect(x: 0, y: 0, width: width, height: height - 1)
            if app.session == .splash {
                screen.renderSplash(tick: ui.tick, in: area, into: &buffer)
            } else {
                screen.render(app, tick: ui.tick, modalFocus: ui.modalFocus, in: area, into: &buffer)
            }
            renderStatusLine(app, into: &buffer)
        } else if let viewer = app.viewer {
            ViewerScreen(theme: theme, cellAspect: cellAspect, blitter: blitter.map { ui.blitter ?? $0 }).render(viewer, app: app, ui: ui, pictures: pictures, into: &buffer)
        } else {
            renderTabBar(app, into: &buffer)
            let content = contentRect(width: width, height: height)
            if let detail = app.shownDetail {
                DetailScreen(theme: theme).render(detail, ui: ui, area: content, pictures: pictures, into: &buffer)
            } else if app.shownPage != nil {
                PageScreen(theme: theme).render(app, ui: ui, area: content, pictures: pictures, into: &buffer)
            } else {
                pane(app.tab).render(app, ui: ui, area: content, pictures: pictures, into: &buffer)
            }
            renderStatusLine(app, into: &buffer)
        }
        if app.helpVisible {
            renderHelp(app, top: ui.helpTop, link: ui.linkNote, into: &buffer)
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

    private func renderStatusLine(_ app: AppState, into buffer: inout CellBuffer) {
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
            let shown = hints(app).map { theme.unicode ? $0 : $0.replacingOccurrences(of: "↑↓←→", with: "arrows").replacingOccurrences(of: "↑↓", with: "j/k") }
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
    func hints(_ app: AppState) -> [String] {
        switch app.session {
        case .splash: return ["Ctrl-C quit"]
        case .loggedOut: return ["? help", "Ctrl-C quit"]
        case .loggedIn where app.shownDetail != nil && !(app.tab == .search && app.search.editing):
            return ["Esc back", "? help", "Enter full screen", "l like", "u photographer", "s link", "d download"]
        case .loggedIn where app.shownPage != nil && !(app.tab == .search && app.search.editing):
            return PageScreen(theme: theme).hints(app)
        case .loggedIn: return pane(app.tab).hints(app)
        }
    }

    /// The help's rows for a box `width` wide: keys and what they do side by side, or on narrow terminals the
    /// keys on a row of their own and what they do wrapped under them, so that nothing is cut.
    func helpRows(_ app: AppState, width: Int, link: String? = nil) -> [(keys: String, what: String)] {
        let keyWidth = 22
        let inner = max(10, width - 4)
        var rows: [(keys: String, what: String)] = []
        for line in HelpScreen.lines(app, keyMap: keyMap) {
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
    private func renderHelp(_ app: AppState, top: Int, link: String?, into buffer: inout CellBuffer) {
        let keyWidth = 22
        let box = Self.helpBox(width: buffer.width, height: buffer.height, rows: helpRows(app, width: min(buffer.width - 2, 76), link: link).count)
        let rows = helpRows(app, width: box.width, link: link)
        let rect = Rect(x: (buffer.width - box.width) / 2, y: (buffer.height - box.height) / 2, width: box.width, height: box.height)
        Widgets.box(rect, title: HelpScreen.title(app), style: theme.modal, theme: theme, into: &buffer)
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
        let area = contentRect(width: width, height: height)
        if let viewer = app.viewer {
            guard let source = viewer.source, let name = ShownList(source),
                  let index = app.pagedList(source)?.photos.firstIndex(where: { $0.id == viewer.photo.id }) else { return nil }
            return (name, index)
        }
        guard app.shownDetail == nil else { return nil }
        if app.shownPage != nil { return PageScreen(theme: theme).shownEnd(app, ui: ui, area: area) }
        return pane(app.tab).shownEnd(app, ui: ui, area: area)
    }

    // MARK: Input

    /// Back from the viewer, the list selects the photo the viewer was on (n/p may have moved it), in view.
    private func followViewer(_ viewer: ViewerState, app: AppState, ui: inout UIState, width: Int, height: Int) {
        if viewer.source == .page {
            PageScreen(theme: theme).select(photoID: viewer.photo.id, app: app, ui: &ui, area: contentRect(width: width, height: height))
            return
        }
        guard let tab = Tab(viewer.source) else { return }
        pane(tab).select(photoID: viewer.photo.id, app: app, ui: &ui, area: contentRect(width: width, height: height))
    }

    /// A dialog has the keyboard (its buttons' keys are its own).
    static func dialogIsOpen(_ app: AppState) -> Bool {
        app.feed.modal != nil || app.favorites.modal != nil || app.profile.confirmingLogout || app.search.results.modal != nil
            || app.shownDetail?.viewer.modal != nil || app.viewer?.modal != nil
    }

    /// The events a key or click means in this state; `ui` follows the selection and scrolling.
    ///
    /// One question decides where input goes: which context has the keyboard (`HelpScreen.context`: the login,
    /// a text field, the viewer, a detail, a pane). Ctrl-C, resizes and the help come first, as they hold
    /// everywhere; the user's keys are translated to the screens' own on the way (not in text fields or dialogs).
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
        let context = HelpScreen.context(app)
        var input = input
        // The user's keys become the ones the screens know; a key whose intent was given others does nothing.
        // Not in a text field, the pasted code's field or a dialog: keys there are text, or the dialog's own.
        if case let .key(key) = input, let keys = HelpScreen.keyContext(app), !app.login.editingPaste, !Self.dialogIsOpen(app) {
            guard let translated = keyMap.translate(key, in: keys) else { return [] }
            input = .key(translated)
        }
        if case .key(.function(1)) = input { return [.toggleHelp] }
        if Self.isTooSmall(width: width, height: height) {
            if case .key(.character("q")) = input { return [.quit] }
            return []
        }
        let area = contentRect(width: width, height: height)
        switch context {
        case .login:
            guard app.session == .loggedOut else { return [] } // the splash takes no keys
            if case .key(.character("?")) = input, !app.login.editingPaste { return [.toggleHelp] }
            return LoginScreen(theme: theme, logo: logo, pictures: loginPictures).handle(input, app: app)
        case .searchField where isKey(input), .albumField where isKey(input):
            // A pane's text field: every key is text, until Enter or Esc (a click still reaches the tab bar).
            return pane(app.tab).handle(input, app: app, ui: &ui, area: area)
        case .viewer:
            guard let viewer = app.viewer else { return [] }
            if case .key(.character("?")) = input { return [.toggleHelp] }
            let events = ViewerScreen(theme: theme, cellAspect: cellAspect, blitter: blitter.map { ui.blitter ?? $0 })
                .handle(input, viewer: viewer, ui: &ui, width: width, height: height)
            if events.contains(.closeViewer) { followViewer(viewer, app: app, ui: &ui, width: width, height: height) }
            return events
        case .feed, .favorites, .search, .searchField, .albums, .albumField, .detail, .page:
            if let events = paneKeys(input, app: app, width: width) { return events }
            if context == .detail {
                guard let detail = app.shownDetail else { return [] }
                return DetailScreen(theme: theme).handle(input, detail: detail, ui: &ui)
            }
            if context == .page { return PageScreen(theme: theme).handle(input, app: app, ui: &ui, area: area) }
            return pane(app.tab).handle(input, app: app, ui: &ui, area: area)
        }
    }

    private func isKey(_ input: InputEvent) -> Bool {
        if case .key = input { return true }
        return false
    }

    /// What works in every pane and on a detail: `?`, the tab bar, Tab and the pane numbers, `/`, and `q` (which
    /// quits from a pane and goes back from a sub-screen: a detail, an open album). Nil: the screen's own input.
    private func paneKeys(_ input: InputEvent, app: AppState, width: Int) -> [AppViewModel.Event]? {
        if case .key(.character("?")) = input { return [.toggleHelp] }
        if case let .mouse(mouse) = input, mouse.y == 0, mouse.kind == .press {
            guard let tab = tabRects(app.tabs, width: width).first(where: { $0.1.contains(x: mouse.x, y: mouse.y) })?.0 else { return [] }
            return [.selectTab(tab)]
        }
        guard case let .key(key) = input, !Self.dialogIsOpen(app) else { return nil }
        let subScreen = app.shownDetail != nil || app.shownPage != nil || pane(app.tab).showsSubScreen(app)
        switch key {
        case .tab: return [.nextTab]
        case .backTab: return [.previousTab]
        case let .character(digit) where digit.wholeNumberValue.map({ (1...9).contains($0) }) == true:
            // The pane of that number, as the tab bar shows it.
            guard let tab = Tab(rawValue: digit.wholeNumberValue! - 1), app.tabs.contains(tab) else { return nil }
            return [.selectTab(tab)]
        case .character("q") where !subScreen: return [.quit]
        case .character("/"): return [.focusSearch]
        default: return nil
        }
    }

    /// A resize keeps each list's selection in view at the new size.
    private func keepSelectionsInView(_ app: AppState, ui: inout UIState, width: Int, height: Int) {
        let area = contentRect(width: width, height: height)
        for tab in Tab.allCases where tab == .feed || app.session == .loggedIn {
            pane(tab).keepSelectionInView(app, ui: &ui, area: area)
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
