import Foundation
import ImageFeedCore
import TerminalImage

/// Draws the whole app for a state, and turns keys and clicks into the app's events.
public struct AppFrame {
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
        var themed = theme
        themed.keys = keyMap
        themed.cellAspect = cellAspect
        self.theme = themed
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
        case .login: LoginScreen(theme: theme, logo: logo, pictures: loginPictures)
        case .viewer: ViewerScreen(theme: theme, cellAspect: cellAspect, blitter: blitter.map { ui.blitter ?? $0 })
        case .detail: DetailScreen(theme: theme)
        case .sheet: SheetScreen(theme: theme)
        case .pane(.feed): FeedPane(theme: theme)
        case .pane(.search): SearchScreen(theme: theme, picker: ui.filterPicker)
        case .pane(.profile): ProfileScreen(theme: theme)
        case .pane(.albums): AlbumsScreen(theme: theme)
        }
    }

    /// How many hints the status line keeps before the connection and the quota (at 80 columns the quota gives way
    /// to them; wider, the further hints give way to it).
    static let firstHints = 6

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

    /// The tab bar, the status line and the too-small notice.
    var chromeView: ChromeView { ChromeView(theme: theme) }
    /// The help over the screen in front.
    var helpOverlay: HelpOverlay { HelpOverlay(root: self) }

    /// The tab bar's tabs, with where each is drawn (for clicks).
    public func tabRects(_ tabs: [Tab], width: Int) -> [(Tab, Rect)] { chromeView.tabRects(tabs, width: width) }

    // MARK: Rendering

    public func render(_ app: AppState, ui: UIState, pictures: PictureProvider, into buffer: inout CellBuffer) {
        buffer.fill(buffer.bounds)
        buffer.ellipsis = theme.ellipsis
        let width = buffer.width
        let height = buffer.height
        if Self.isTooSmall(width: width, height: height) {
            chromeView.renderTooSmall(into: &buffer)
            return
        }
        let front = Front.of(app)
        let screen = screen(front, ui: ui)
        switch screen.chrome {
        case .none:
            screen.render(app, ui: ui, area: buffer.bounds, pictures: pictures, into: &buffer)
        case .status:
            screen.render(app, ui: ui, area: Rect(x: 0, y: 0, width: width, height: height - 1), pictures: pictures, into: &buffer)
            chromeView.renderStatusLine(app, hints: hints(app, ui: ui), into: &buffer)
        case .tabsAndStatus:
            chromeView.renderTabBar(app, position: screen.listPosition(app, ui: ui), into: &buffer)
            screen.render(app, ui: ui, area: contentRect(width: width, height: height), pictures: pictures, into: &buffer)
            chromeView.renderStatusLine(app, hints: hints(app, ui: ui), into: &buffer)
        }
        if app.helpVisible {
            helpOverlay.render(app, title: screen.title(app), top: ui.helpTop, link: ui.linkNote, into: &buffer)
        }
        if app.quitAsked, let running = app.downloads.summary(unicode: theme.unicode) {
            let files = app.downloads.count == 1 ? "A photo is" : "\(app.downloads.count) photos are"
            Widgets.modal(title: "Quit while downloading?", message: "\(files) still downloading (\(running)). Quitting stops "
                          + "\(app.downloads.count == 1 ? "it" : "them") and keeps nothing of \(app.downloads.count == 1 ? "it" : "them").",
                          buttons: ["Quit", "Keep downloading"], focused: ui.modalFocus,
                          in: Rect(x: 0, y: 0, width: width, height: height - 1), theme: theme, into: &buffer)
        }
    }

    /// The keys to show in the status line, the ones that matter most first (help, leaving, back); at 80
    /// columns the last ones give way.
    /// Under a dialog, the dialog's keys: the screen's do nothing then.
    func hints(_ app: AppState, ui: UIState = UIState()) -> [String] {
        if app.quitAsked, app.downloads.summary(unicode: theme.unicode) != nil {
            return Widgets.dialogHints(["Quit", "Keep downloading"], focused: ui.modalFocus)
        }
        let screen = screen(Front.of(app), ui: ui)
        return screen.dialogHints(app, ui: ui) ?? screen.hints(app, ui: ui)
    }

    /// The help's title and lines for what is in front, with the keys in force.
    func help(_ app: AppState) -> (title: String, lines: [KeyMap.Line]) {
        let screen = screen(Front.of(app))
        let shown = screen.helpShows(app)
        return (screen.title(app), keyMap.lines(screen.keyContext(app), demo: app.isDemo) { shown?.contains($0) ?? true })
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
        if events.contains(where: Self.opensSheet) {
            ui.startSheet(atDepth: app.explore?.tab == app.tab ? app.explore?.sheets.count ?? 0 : 0)
        }
        return events
    }

    private static func opensSheet(_ event: AppViewModel.Event) -> Bool {
        switch event {
        case .explore(.openPhotographer), .explore(.openCollection), .explore(.openTopics): true
        default: false
        }
    }

    private func route(_ input: InputEvent, app: AppState, ui: inout UIState, width: Int, height: Int) -> [AppViewModel.Event] {
        if case .key(.interrupt) = input { return [.quitNow] }
        // q while a download runs: the question has the keys (Enter quits, Esc or q keeps downloading).
        if app.quitAsked {
            switch Widgets.modalChoice(input, focus: &ui.modalFocus) {
            case .first: return [.quitNow]
            case .second: return [.quitCancelled]
            case nil: return []
            }
        }
        if case .resize = input {
            keepSelectionsInView(app, ui: &ui, width: width, height: height)
            return []
        }
        let front = Front.of(app)
        let screen = screen(front, ui: ui)
        let context = screen.keyContext(app)
        if app.helpVisible {
            return helpOverlay.handle(input, intent: keyMap.intent(of: input, in: context), app: app, ui: &ui, width: width, height: height)
        }
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
        // The viewer has no tab bar, but its keys are the panes' too (its help lists them): Tab, the pane numbers, `/`.
        let keyInViewer: Bool
        if front == .viewer, case .key = input { keyInViewer = true } else { keyInViewer = false }
        if screen.chrome == .tabsAndStatus || keyInViewer {
            if let events = sharedKeys(input, intent: intent, app: app, dialog: dialog, width: width) { return events }
        }
        // q goes back from a sub-screen (the viewer, a detail, a page, an open album).
        if intent == .quit, screen.isSubScreen(app) { intent = .back }
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
        // The page open over the pane in view keeps its selection in view too.
        if app.shownSheet != nil { screen(.sheet).keepSelectionInView(app, ui: &ui, area: area) }
    }

}
