import Foundation
import ImageFeedCore
import TerminalImage
import CMemory

/// The run loop: the one thread that talks to the terminal. It reads input, asks the view models what
/// it means, hands their effects to async work, takes the results back as events, and draws.
public final class TerminalApp {
    /// What other threads hand to the run loop.
    enum Message: Sendable {
        case event(AppViewModel.Event)
        case picture(ImagePipeline.Result)
    }

    /// A thread-safe mailbox; posting wakes the run loop.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [Message] = []
        private let wake: @Sendable () -> Void

        init(wake: @escaping @Sendable () -> Void) {
            self.wake = wake
        }

        func post(_ message: Message) {
            lock.withLock { messages.append(message) }
            wake()
        }

        var isEmpty: Bool { lock.withLock { messages.isEmpty } }

        /// Effects under way (timers left out): the app is busy until they have answered.
        private var inFlight = 0
        func began() { lock.withLock { inFlight += 1 } }
        /// After the effect's answers were posted.
        func ended() { lock.withLock { inFlight -= 1 } }
        var isIdle: Bool { lock.withLock { messages.isEmpty && inFlight == 0 } }

        func take() -> [Message] {
            lock.withLock {
                defer { messages.removeAll(keepingCapacity: true) }
                return messages
            }
        }
    }

    public private(set) var state: AppState
    public private(set) var ui = UIState()
    private let backend: TerminalBackend
    private var screen: AppFrame
    private let performer: EffectPerformer
    private let inbox: Inbox
    private var pipeline: ImagePipeline!
    private var dirty = true
    private var lastTrim = Date.distantPast
    private var workSinceTrim = false
    private var lastTick = Date()
    /// How often spinners turn.
    private let tickInterval = 0.1

    /// `graphics`: what the terminal draws photos with (pixels for Kitty graphics and Sixel, else characters).
    /// `blitter`: the characters photos are drawn with when they are not pixels.
    public init(backend: TerminalBackend, theme: Theme, imageSource: any ImageSource, performer: EffectPerformer,
                state: AppState = AppState(), logo: RGBImage? = nil, graphics: GraphicsChoice = .cells,
                blitter kind: BlitterKind = .half, keyMap: KeyMap = .standard, animations: AnimationSetting = .hover) {
        self.backend = backend
        let blitter = HalfBlockBlitter(mode: theme.colorMode, unicode: theme.unicode)
        let pixels = graphics.mode != .cells
        var drawer = pixels ? PictureDrawer(blitter: blitter, cellWidth: graphics.cellWidth, cellHeight: graphics.cellHeight,
                                            playback: graphics.playback)
            : PictureDrawer(blitter: blitter, kind: kind)
        drawer.cropsPlacements = pixels && PictureProtocols.of(graphics.mode).cropsPlacements
        // Photos are laid out with the cell's real shape (the viewer, cards, tiles, the detail): the pixels' cells, or,
        // for characters, the cell the terminal (or tmux) said it has (9x19 in xterm's DejaVu Sans Mono: a box 1:2
        // cells was 5% too tall there, 16% in alacritty); 1:2 where nothing was said.
        let shape = pixels ? drawer.cellAspect : Double(graphics.cellHeight) / Double(max(1, graphics.cellWidth))
        screen = AppFrame(theme: theme, logo: logo, cellAspect: min(4, max(1, shape)),
                           picturesNote: graphics == .cells ? nil : Self.picturesNote(graphics), blitter: pixels ? nil : kind,
                           keyMap: keyMap)
        self.imageSource = imageSource
        self.performer = performer
        self.state = state
        let waker = backend.waker
        inbox = Inbox(wake: { waker.wake() })
        let inbox = self.inbox
        pipeline = Self.makePipeline(source: imageSource, drawer: drawer, inbox: inbox)
        pipeline.animationSetting = animations
    }

    private let imageSource: any ImageSource

    private static func makePipeline(source: any ImageSource, drawer: PictureDrawer, inbox: Inbox) -> ImagePipeline {
        ImagePipeline(source: source, drawer: drawer) { result in
            inbox.post(.picture(result))
        }
    }

    /// "Kitty graphics, 9x18-pixel cells: the terminal (kitty(0.26.5)) answered the Kitty graphics query."
    static func picturesNote(_ graphics: GraphicsChoice) -> String {
        let what = graphics.mode.title
            + (graphics.mode.drawsForCellSize ? ", \(graphics.cellWidth)x\(graphics.cellHeight)-pixel cells" : "")
        return "\(what): \(graphics.reason). The graphics setting changes it."
    }

    /// Runs until the user quits or a signal asks to. Returns the final state.
    @discardableResult
    public func run() -> AppState {
        // Two arenas, not one per thread: the picture workers' freed memory is reused instead of kept apart.
        ifm_limit_arenas(2)
        // Pictures (decoded photos, their cells, their bytes for the terminal) in pages of their own, given back
        // when freed: the footprint stays that of what is held, however long the feed is scrolled.
        ifm_fix_mmap_threshold(128 << 10)
        backend.trapSignals()
        defer { backend.releaseSignals() }
        dispatch(.start)
        while !state.quitting {
            if backend.quitSignal != nil {
                state.quitting = true
                break
            }
            step(timeout: waitLimit())
        }
        return state
    }

    /// How long the loop may wait for input: until the next spinner step or animation frame, at most a second.
    private func waitLimit() -> Int {
        var limit = isAnimating ? Int(tickInterval * 1_000) : 1_000
        if let due = pipeline.nextAnimationFrame {
            limit = min(limit, max(1, Int(((due - ProcessInfo.processInfo.systemUptime) * 1_000).rounded(.up))))
        }
        return limit
    }

    /// One turn of the loop: draw if needed, wait for input or messages at most `timeout` ms, handle them.
    public func step(timeout: Int) {
        // A frame is drawn once the terminal has taken the last one: on a slow link the frames a key or a
        // picture asked for meanwhile become one, of the latest state.
        if dirty, backend.readyForFrame { drawFrame() }
        let input = backend.readInput(timeout: timeout)
        if let drawn = animationFrameDrawn, !drawn.told, !backend.outputWaiting {
            animationFrameDrawn?.told = true
            animationFrameObserver?(drawn.frame, ProcessInfo.processInfo.systemUptime - drawn.due, pipeline.linkPacingSummary)
        }
        if input == nil, workSinceTrim, Date().timeIntervalSince(lastTrim) >= 2 {
            // Between keys, at most every two seconds: give the memory freed since (decoded pages and
            // images, pictures dropped from the cache) back to the system, so a long session's footprint
            // follows what it holds rather than what it once held.
            ifm_release_free_memory()
            lastTrim = Date()
            workSinceTrim = false
        }
        if let input {
            workSinceTrim = true
            handle(input)
            // Take whatever else is already waiting before drawing again (held keys, pasted text).
            var extra = 0
            while extra < 64, let more = backend.readInput(timeout: 0) {
                handle(more)
                extra += 1
            }
        }
        for message in inbox.take() {
            switch message {
            case let .event(event):
                dispatch(event)
            case let .picture(result):
                if let failure = pipeline.deliver(result), state.viewer != nil {
                    dispatch(.viewer(failure.error.map { .imageFailed($0) } ?? .imageUnavailable))
                }
                dirty = true
            }
        }
        // The terminal's colour scheme changed (it said so: mode 2031): a theme that follows it changes with it.
        if let light = backend.reportedLightScheme, light != schemeShown, let follow = themeFollowing {
            schemeShown = light
            let theme = follow(light)
            if theme.name != screen.theme.name {
                screen = AppFrame(theme: theme, logo: screen.logo, cellAspect: screen.cellAspect, picturesNote: screen.picturesNote,
                                  blitter: screen.blitter, keyMap: screen.keyMap)
                themeObserver?(theme.name)
                backend.invalidate()
                dirty = true
            }
        }
        // Hidden (the terminal said so), the animation stands where it is: nothing is drawn or sent for nobody to see.
        if pipeline.windowHidden == backend.terminalVisible {
            pipeline.windowHidden = !backend.terminalVisible
            dirty = true
        }
        // The viewer's animation moves on to the frame due now (frames missed while the terminal was busy are skipped;
        // over a slow link, paced by what the frames before cost).
        pipeline.linkRate = backend.linkRate
        pipeline.bytesWritten = backend.bytesWritten
        if pipeline.advanceAnimation() { dirty = true }
        if isAnimating, Date().timeIntervalSince(lastTick) >= tickInterval {
            ui.tick += 1
            lastTick = Date()
            dirty = true
        }
    }

    public func handle(_ input: InputEvent) {
        if input == .key(.suspend) {
            // Stopped here until `fg`; then every cell and picture is drawn again.
            if !backend.suspend() {
                dispatch(.notify("Ctrl-Z: no shell with job control started ImageFeed, so nothing could bring it back (fg); it goes on."))
            }
            dirty = true
            return
        }
        if input == .key(.redraw) { backend.invalidate() }
        // Ctrl-L and r (reload, retry) give the pictures that failed another try, whatever their wait.
        if input == .key(.redraw) || (input == .key(.character("r")) && state.viewer == nil) { pipeline.retryFailed() }
        for event in screen.handle(input, app: state, ui: &ui, width: backend.width, height: backend.height) {
            dispatch(event)
        }
        // Space, `.` or `,` in the viewer: the animation's player takes it.
        if let request = ui.playbackRequest {
            ui.playbackRequest = nil
            pipeline.control(request)
        }
        // b in the viewer chose other characters for photos: every picture is drawn again with them.
        if let kind = ui.blitter, kind != pipeline.drawer.kind, !pipeline.drawer.drawsPixels {
            pipeline.closeViewer()
            pipeline.beginFrame()
            pipeline.endFrame() // nothing wanted: the old pipeline's work is cancelled
            pipeline = Self.makePipeline(source: imageSource,
                                         drawer: PictureDrawer(blitter: pipeline.drawer.blitter, kind: kind), inbox: inbox)
        }
        dirty = true
    }

    /// Hands an event to the run loop from any thread (it is dispatched there, between frames).
    public var post: @Sendable (AppViewModel.Event) -> Void {
        let inbox = self.inbox
        return { event in inbox.post(.event(event)) }
    }

    /// Whether anything is still on its way (pictures, pages, likes, a download: any effect but a timer): the
    /// benchmarks wait for this to settle before they press a key.
    public var isBusy: Bool { pipeline.isBusy || !inbox.isIdle }

    /// A spinner was on the last frame: it asked for the next one (so the loop animates while one is shown,
    /// whatever is in flight, and no list of states needs to know which screens show spinners).
    private var spinnerShown = false
    private var isAnimating: Bool { spinnerShown || pipeline.isBusy }

    /// Told of each notice the status line shows, and whether it is an error (the log keeps the failures a key
    /// caused).
    public var noticeObserver: ((StatusNotice) -> Void)?
    /// Where no theme is set: the theme for the terminal's colour scheme (true: light), which a reported change of
    /// scheme (mode 2031) switches to within a frame. nil: the theme stays as set.
    public var themeFollowing: ((_ light: Bool) -> Theme)?
    /// Told the theme's name each time it follows the terminal's scheme (the session logs it).
    public var themeObserver: ((ThemeName) -> Void)?
    /// The scheme the theme last followed (nil: none reported yet).
    private var schemeShown: Bool?

    public func dispatch(_ event: AppViewModel.Event) {
        let hadViewer = state.viewer?.photo.id
        let noticeBefore = state.notice?.serial
        let effects = AppViewModel.update(&state, event)
        followListContents()
        if let notice = state.notice, notice.serial != noticeBefore { noticeObserver?(notice) }
        if hadViewer != nil, state.viewer?.photo.id != hadViewer { pipeline.closeViewer() }
        dirty = true
        for effect in effects { start(effect) }
    }

    /// A list whose content was replaced (another topic for the feed, another search) starts at its first item.
    private func followListContents() {
        ui.feedList.follow(state.feedTopic.map { "\($0.id) \(state.feedTopicOrder)" } ?? "editorial")
        let search = state.search
        ui.searchList.follow("\(search.kind) \(search.submitted ?? "") \(search.order) \(search.filters)")
    }

    private func start(_ effect: AppViewModel.Effect) {
        switch effect {
        case .viewer(.reloadImage):
            pipeline.reloadViewer()
            return
        case let .viewer(.share(url)):
            // The copy goes to the terminal (or tmux) from this thread, between frames; what became of it is said
            // before the browser is asked.
            inbox.post(.event(.viewer(.copied(backend.copyToClipboard(url.absoluteString)))))
        case let .detail(.viewer(.share(url))):
            inbox.post(.event(.detail(.viewer(.copied(backend.copyToClipboard(url.absoluteString))))))
        case let .login(.copy(url)):
            inbox.post(.event(.login(.copied(backend.copyToClipboard(url.absoluteString)))))
            return
        default:
            break
        }
        let performer = self.performer
        let inbox = self.inbox
        let counted = !effect.isTimer
        if counted { inbox.began() }
        Task.detached {
            let events = await performer.perform(effect) { inbox.post(.event($0)) }
            for event in events { inbox.post(.event(event)) }
            if counted { inbox.ended() }
        }
    }

    /// Writes every byte waiting for the terminal (benchmarks that count a frame's bytes).
    public func flushOutput() { backend.flushOutput() }
    /// Writes the frames waiting for the terminal, not the pictures after them.
    public func flushText() { backend.flushText() }

    /// Told of each frame of an animation the program draws once all of its bytes are written to the terminal: its
    /// index, and how many seconds after it was due (the session logs it; the slow-link benchmark reads the log).
    public var animationFrameObserver: ((_ frame: Int, _ late: Double, _ link: String?) -> Void)?
    /// The animation frame last drawn, and whether it was told yet.
    private var animationFrameDrawn: (frame: Int, due: Double, told: Bool)?

    /// Called after each frame until it returns true (the session uses it to note that its start went well).
    public var frameObserver: (() -> Bool)?

    /// Draws the current state.
    public func drawFrame() {
        var buffer = CellBuffer(width: backend.width, height: backend.height)
        buffer.placesCellPictures = backend.placesCellPictures
        ui.linkNote = backend.linkSummary
        pipeline.linkRate = backend.linkRate
        pipeline.beginFrame()
        screen.theme.animation.reset()
        screen.render(state, ui: ui, pictures: pipeline, into: &buffer)
        spinnerShown = screen.theme.animation.wasAsked
        backend.draw(buffer)
        if animationFrameObserver != nil, let drawn = pipeline.drawnFrameDue,
           drawn.frame != animationFrameDrawn?.frame || drawn.due != animationFrameDrawn?.due {
            animationFrameDrawn = (drawn.frame, drawn.due, false)
        }
        // The pictures the frame asked for start loading once the frame is out: decoding them (as many at once as
        // there are cores) would otherwise take the cores the frame itself is being made and written on.
        pipeline.endFrame()
        dirty = false
        if let observer = frameObserver, observer() { frameObserver = nil }
        noteShownList()
    }

    /// Once a frame: how far into its paged list the frame shows. The list's rule decides whether its next page
    /// is due; only then is there anything to draw again (no frame follows a frame that changed nothing).
    private func noteShownList() {
        guard let shown = screen.shownEnd(state, ui: ui, width: backend.width, height: backend.height) else { return }
        let effects = AppViewModel.update(&state, .listShown(shown.list, lastIndex: shown.lastIndex))
        guard !effects.isEmpty else { return }
        dirty = true
        for effect in effects { start(effect) }
    }
}
