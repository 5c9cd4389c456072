import CNcursesw
import ImageFeedCore
import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal, through ncursesw, opened as a `TerminalProfile` says. Only the thread that created it may call it.
///
/// It draws, writes and reads, in rooms of its own: this file opens the terminal and plans each frame (`draw`);
/// `CursesCells` hands curses the cells that changed and captures what curses made of them; `ScrollPlan` shows a
/// move further than curses scrolls at once in steps, and stages a frame too large for a slow link; the
/// `OutputQueue` is the one writer of the terminal, never blocking (curses' frames first, then the picture layer's
/// chunks, with DA1 asked behind them where the terminal answers); `CursesInput` reads keys and the terminal's
/// answers; `CursesLeaving` gives the terminal back (on the way out, and for Ctrl-Z). Pictures in pixels are
/// written after curses' frame by the `PictureLayer` `makePictureLayer` chose, into cells curses keeps blank.
public final class NcursesBackend: TerminalBackend {
    public enum Failure: Error, CustomStringConvertible {
        case noTerminal(String)
        public var description: String {
            switch self {
            case let .noTerminal(detail): detail
            }
        }
    }

    public let colorMode: ColorMode
    public let unicode: Bool
    /// Set when ncurses did not know `TERM` and the screen is driven as xterm-256color instead: what to tell the user.
    public let termFallback: String?
    /// The terminal has no alternate screen (vt100): the last frame is cleared on the way out.
    let clearsOnExit: Bool
    /// The session's environment (where a copy goes is asked of the multiplexer it names).
    let environment: [String: String]
    /// Where the queue's bytes are written: the terminal, opened again without blocking (curses keeps its own
    /// descriptor, which blocks, for the terminal's modes and for what it writes on the way out).
    let writeDescriptor: Int32
    /// The one writer of the terminal.
    var output: OutputQueue!
    /// `writeDescriptor` shares curses' open file and had O_NONBLOCK set on it: the flags to put back.
    var sharedFlags: Int32?
    /// Where curses writes while it draws a frame (its output descriptor points there meanwhile).
    let captureDescriptor: Int32
    /// The terminal, kept to point curses' descriptor back at it.
    let terminalCopy: Int32
    /// The last frame drawn as the app gave it (drawn again when the pictures ask, the link having had room).
    var lastFrame: CellBuffer?
    /// When the screen last changed: a picture goes again in full only once the view has stayed put.
    var lastChange = 0.0
    let screen: OpaquePointer
    let window: UnsafeMutablePointer<WINDOW>
    var previous: CellBuffer?
    var pairs: [PairKey: Int32] = [:]
    /// A direct-mapped cache in front of `pairs` (frames ask for a pair per changed cell; a screen of photos in
    /// 24-bit colour has thousands of pairs, which a smaller cache kept evicting).
    static let pairCacheBits = 16
    var pairCacheKeys = [UInt64](repeating: .max, count: 1 << pairCacheBits)
    var pairCacheValues = [Int32](repeating: 0, count: 1 << pairCacheBits)
    var wakePipe: [Int32] = [-1, -1]
    var restored = false
    var decoder = InputDecoder()
    /// What the terminal last reported of its window (mode 2033): false while nobody can see it.
    public internal(set) var terminalVisible = true
    /// The colour scheme the terminal last reported (mode 2031): true light, false dark.
    public internal(set) var reportedLightScheme: Bool?
    var decoded: [InputEvent] = []
    /// How long the rest of an escape sequence may take to arrive before a lone Esc counts as the key.
    let escapeWait: Int32 = 30
    /// How long the rest of a control string is waited for before its letters count as keys again.
    let stringWait: Int32 = 300
    let inputDescriptor: Int32
    let outputDescriptor: Int32
    let inputFile: UnsafeMutablePointer<FILE>
    let outputFile: UnsafeMutablePointer<FILE>
    /// Pictures in pixels (Kitty graphics, Sixel), written after curses' frame; nil: pictures are characters.
    let pictures: PictureLayer?
    /// The next frame's pictures must be drawn whole (the screen was cleared).
    var picturesRepainted = true
    /// The row hashes of the last frame drawn (`scrollMove` compares them with the next frame's).
    var previousRowHashes: [Int]?
    /// OSC 8 hyperlinks over curses' frame, where the terminal makes them clickable; nil: links are plain text.
    var hyperlinks: HyperlinkLayer?

    struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    // Attribute bits (curses.h builds them with macros Swift cannot import).
    static let underline: attr_t = 1 << 17
    static let reverse: attr_t = 1 << 18
    static let dim: attr_t = 1 << 20
    static let bold: attr_t = 1 << 21
    static let invisible: attr_t = 1 << 23
    /// What a cell past ASCII shows where the terminal has no Unicode.
    static let question = CellText("?")
    // Mouse masks, likewise (NCURSES_MOUSE_VERSION 2).
    static let button1Pressed: mmask_t = 0o2
    static let button4Pressed: mmask_t = 0o2 << 15
    static let button5Pressed: mmask_t = 0o2 << 20

    /// Opens the terminal on standard input and output, as `profile` (`TerminalProfile.decide`) says.
    public convenience init(profile: TerminalProfile) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Failure.noTerminal("ImageFeed's full-screen interface needs a terminal on standard input and output.")
        }
        SignalTrap.saveTerminal()
        try self.init(input: STDIN_FILENO, output: STDOUT_FILENO, profile: profile)
    }

    /// Opens the terminal on the given descriptors (a pseudo-terminal in the benchmarks and tests), whose type is
    /// `environment["TERM"]`, deciding as a session does; `graphics`, `hyperlinks` and `sixelScrolls` are given, not
    /// decided. `colors` overrides what is detected (nil: detect; `NO_COLOR` always means none).
    public convenience init(input: Int32, output: Int32, environment: [String: String], colors: ColorMode? = nil,
                            abilities: TerminalAbilities? = nil, graphics: GraphicsMode = .cells, hyperlinks: Bool = false,
                            link: LinkSetting = .auto, sixelScrolls: Bool = false) throws {
        var profile = TerminalProfile.decide(environment: environment, abilities: abilities, tmux: nil,
                                             settings: .init(colors: colors, graphics: graphics, link: link), unicode: true)
        profile.graphics = GraphicsChoice(mode: graphics, reason: "given")
        profile.terminfo = Terminfo.plan(environment: environment, abilities: abilities, colors: colors, graphics: graphics)
        profile.colors.value = profile.terminfo.colorMode
        profile.hyperlinks.value = hyperlinks
        profile.sixelScrolls = sixelScrolls
        try self.init(input: input, output: output, profile: profile)
    }

    /// Opens the terminal on the given descriptors as `profile` says; they stay open after `restore`.
    public init(input: Int32, output: Int32, profile: TerminalProfile) throws {
        let environment = profile.environment, abilities = profile.abilities
        self.environment = environment
        let graphics = profile.graphics.mode
        // The start-up answers may have left off inside a control string: what follows of it is no key.
        decoder = InputDecoder(insideString: abilities?.unfinishedString)
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        unicode = codeset.uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else {
            throw Failure.noTerminal("ImageFeed needs a terminal (TERM is \(environment["TERM"].map { "\"\($0)\"" } ?? "not set")).")
        }
        set_escdelay(25)
        // Own copies of the descriptors, so closing the FILEs leaves the caller's open.
        let inputCopy = dup(input)
        let outputCopy = dup(output)
        guard inputCopy >= 0, outputCopy >= 0,
              let outputFile = fdopen(outputCopy, "w"), let inputFile = fdopen(inputCopy, "r") else {
            throw Failure.noTerminal("Cannot open the terminal: \(String(cString: strerror(errno))).")
        }
        // The window's size is followed here, not by curses: curses would ask its descriptor, which points at
        // the frame's file while a frame is drawn. (curses installs its own handler only where none is.)
        if pipe(&wakePipe) == 0 {
            for descriptor in wakePipe {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        Self.installResizeTrap(wakeDescriptor: wakePipe[1])
        var opened: OpaquePointer?
        let candidates = profile.terminfo.entries.isEmpty ? [term, Terminfo.fallbackEntry] : profile.terminfo.entries
        var fallback: String?
        for entry in candidates where opened == nil {
            opened = newterm(entry, outputFile, inputFile)
            if opened != nil, entry == Terminfo.fallbackEntry, term != Terminfo.fallbackEntry { fallback = Terminfo.fallbackMessage(term) }
        }
        guard let screen = opened else {
            fclose(outputFile)
            fclose(inputFile)
            throw Failure.noTerminal("The terminal type \(term) is not known to ncurses.")
        }
        termFallback = fallback
        inputDescriptor = inputCopy
        outputDescriptor = outputCopy
        terminalCopy = dup(outputCopy)
        var capture = imagefeed_memory_file()
        if capture < 0, let file = tmpfile() { capture = dup(fileno(file)); fclose(file) }
        captureDescriptor = capture
        // A description of the terminal of its own, so that not blocking there leaves curses' (and the
        // shell's) descriptor as it was.
        var reopened = open("/proc/self/fd/\(outputCopy)", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        if reopened < 0 || isatty(reopened) != isatty(outputCopy) {
            if reopened >= 0 { close(reopened) }
            reopened = dup(outputCopy)
            let flags = fcntl(reopened, F_GETFL)
            sharedFlags = flags
            _ = fcntl(reopened, F_SETFL, flags | O_NONBLOCK)
        }
        writeDescriptor = reopened
        self.inputFile = inputFile
        self.outputFile = outputFile
        self.screen = screen
        set_term(screen)
        // After newterm, ncurses flushes its output after every cursor move (until the screen has once been
        // left and resumed, it takes the caller for a low-level terminfo program), so a frame went out as
        // hundreds of small writes: about a third of a frame's time at 200x60 was spent in them. Leaving
        // and resuming once, before anything is set up or drawn, lets doupdate write a frame in large blocks.
        endwin()
        doupdate()
        window = imagefeed_stdscr()
        raw()
        noecho()
        nonl()
        // Keys are decoded by InputDecoder, not by curses: curses knows only the sequences terminfo lists for
        // this TERM, and hands the rest over as loose characters (End from PuTTY, ESC [ 4 ~, became `4`, `~`).
        keypad(window, false)
        nodelay(window, true)
        curs_set(0)
        var mode = ColorMode.none
        if has_colors(), (environment["NO_COLOR"] ?? "").isEmpty {
            start_color()
            use_default_colors()
            mode = Terminfo.colorMode(colors: Int(imagefeed_colors()), rgb: tigetflag("RGB") > 0)
        }
        // As planned (the same entry, and the `colors` setting, which the plan has taken in).
        colorMode = Terminfo.capped(mode, at: profile.colors.value)
        self.hyperlinks = profile.hyperlinks.value ? HyperlinkLayer(colorMode: colorMode) : nil
        let descriptor = wakePipe[1]
        pictures = makePictureLayer(graphics, profile: profile, colorMode: colorMode, unicode: unicode) {
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
        // Inserting and deleting lines would move pictures in pixels out from under the cells curses believes
        // they are in: with pictures that neither are text (placeholders) nor follow scrolls (Sixel in xterm), curses
        // does not. It still scrolls regions of the terminal (index and reverse index inside a scrolling region,
        // whatever `idlok` says), so each frame's output is read for the rows it moved (`RowMoves`) and the layer
        // told (`PictureLayer.moved`): kitty moves its placements with those rows.
        self.output = OutputQueue(descriptor: reopened, pictures: pictures, meter: LinkMeter(setting: profile.link), abilities: abilities)
        idlok(window, pictures.map { $0.movesWithText || $0.followsScrolls } ?? true)
        // Inserting and deleting characters shifts the cells of a row, which some terminals (foot) do not do
        // to the pixels drawn there: with pictures drawn into cells, curses writes the cells instead.
        idcok(window, !(pictures.map { !$0.movesWithText } ?? false))
        // GNU screen holds a lone Esc while the window reports the mouse (until another key comes): there, no mouse,
        // so Esc goes back at once.
        if profile.mouse.value {
            mousemask(Self.button1Pressed | Self.button4Pressed | Self.button5Pressed, nil)
            mouseinterval(0)
            mouseReported = true
        }

        // The screen is cleared on the way out: where the alternate screen is missing (no smcup; GNU screen without
        // `altscreen on`; mosh) the last frame would stay on the user's terminal, and where it is there, clearing it
        // before leaving it changes nothing the user sees.
        clearsOnExit = true
        // The SGR mouse encoding where the terminal has it (positions past column 223, and no raw bytes);
        // InputDecoder reads both encodings.
        reportsThemeChanges = profile.themeChanges.value
        self.output.synchronizes = profile.synchronizedFrames.value
        SignalTrap.modesSet = (profile.synchronizedFrames.value ? 1 : 0) | (reportsThemeChanges ? 2 : 0)
        self.output.queue("\u{1B}[?1006h" + reportsOn)
        self.output.pump()
    }

    /// The terminal reports changes of its colour scheme (mode 2031, asked for where it said it has it): `CSI ? 997 ; 1 n`
    /// dark, `; 2 n` light.
    private(set) var reportsThemeChanges = false
    /// What the terminal is asked to report while the program has it (visibility, and theme changes where it has them),
    /// and the sequence that stops it.
    var reportsOn: String { Self.visibilityReportsOn + (reportsThemeChanges ? "\u{1B}[?2031h" : "") }
    var reportsOff: String { Self.visibilityReportsOff + (reportsThemeChanges ? "\u{1B}[?2031l" : "") }

    /// Visibility reports (DEC mode 2033: kitty 0.48, Ghostty): the terminal says when its window is hidden and seen
    /// again (`CSI ? 999 ; 2 n`, `; 1 n`), and playback pauses meanwhile. A terminal without the mode ignores it.
    static let visibilityReportsOn = "\u{1B}[?2033h"
    static let visibilityReportsOff = "\u{1B}[?2033l"

    deinit {
        restore()
        for descriptor in wakePipe where descriptor >= 0 { close(descriptor) }
        for descriptor in [writeDescriptor, captureDescriptor, terminalCopy] where descriptor >= 0 { close(descriptor) }
    }

    public var width: Int { Int(getmaxx(window)) }
    public var height: Int { Int(getmaxy(window)) }

    // MARK: Output

    public func draw(_ frame: CellBuffer) {
        guard !restored else { return }
        var buffer = frame
        // When the screen last changed matters to pictures in pixels only (the link's state they are planned by).
        // (Not for pictures in characters, which do not wait for the link to be idle.)
        if pictures?.drawsPixels == true,
           lastFrame.map({ $0.cells != frame.cells || $0.placements.map(\.picture.id) != frame.placements.map(\.picture.id) }) ?? true {
            lastChange = OutputQueue.clock()
        }
        lastFrame = frame
        if let previous, previous.width != buffer.width || previous.height != buffer.height {
            self.previous = nil
            wclear(window)
        }
        if previous == nil { picturesRepainted = true }
        let before = previous
        let link = linkState(buffer)
        if let pictures {
            // Pictures that are text (Kitty's placeholders, pictures waiting for room on a slow link) become
            // text in the frame curses draws.
            buffer = pictures.prepare(buffer, repainted: picturesRepainted, link: link)
        }
        let scrolls = pictures.map { $0.movesWithText || $0.followsScrolls } ?? true
        // Where curses may scroll Sixel pictures, each picture row's cells differ from every other's (by an unseen
        // colour), so that curses recognises a moved row and scrolls it instead of leaving identical blanks be.
        let followsScrolls = pictures?.followsScrolls == true
        let drawn = followsScrolls && [.palette256, .truecolor].contains(colorMode) ? ScrollPlan.tagged(buffer) : buffer
        var moves = RowMoves(height: buffer.height, cursorRow: Int(imagefeed_cursor_row()))
        // curses' output is read for the rows it moved wherever a picture layer draws: Sixel pixels, kitty's
        // placements and the rows of pictures in characters move with them (read from the row curses left the
        // cursor in: a scroll by one line is a line feed there). (curses scrolls the terminal wherever it can, whatever `idlok` says: that
        // governs only inserting and deleting lines.)
        func read(_ bytes: [UInt8]) { if pictures != nil, !(pictures?.movesWithText ?? false) { moves.read(bytes) } }
        // Once curses has written the frame (or its part): the pictures follow the rows it moved, and a clear it sent of
        // its own accord takes them away as a repaint does.
        func followCurses() {
            if let pictures, !moves.isIdentity { pictures.moved(moves) }
            if moves.cleared { picturesRepainted = true }
        }
        // Most of the screen moved up or down (the next card). curses scrolls the terminal when rows moved,
        // but leaves out a block moved further than it is tall, and a next-card step moves the rows that stay
        // by about a card: the move is shown in steps curses takes (the rows moved in are blank until the
        // frame itself fills them), so only the new rows are sent.
        let rowHashes = scrolls ? ScrollPlan.rowHashes(drawn) : []
        var scrolled = false
        if scrolls, var shown = previous,
           let move = ScrollPlan.scrollMove(before: previousRowHashes ?? ScrollPlan.rowHashes(shown), after: rowHashes, blankRow: ScrollPlan.blankRowHash(drawn.width)) {
            let step = ScrollPlan.scrollStep(move)
            scrolled = true
            var moved = 0
            // The whole move, the last step too: left to curses, a last step of several rows after others was
            // rewritten row by row instead of scrolled (every picture row in it sent again).
            while moved < abs(move.shift) {
                // The step is made in curses' own window (its lines move as pointers, no cell is copied again),
                // and the frame shown becomes what the terminal holds after it: the cells the next frame brings
                // back into place are not handed to curses a second time.
                let size = min(step, abs(move.shift) - moved)
                shown.shiftRows(top: move.top, bottom: move.bottom, by: move.shift > 0 ? size : -size)
                read(scrollWindow(top: move.top, bottom: move.bottom, by: move.shift > 0 ? size : -size, showing: shown))
                moved += size
            }
            if pictures?.leavesPixelsInRowsScrolledIn == true {
                // The rows the move brought in are written whole with the frame: xterm copies a picture's Sixel pixels
                // with a scroll but leaves them in the lines the scroll brings in too, which curses takes for blank
                // and would not write (a picture scrolled down showed again above itself, beside a narrower one drawn
                // there). A cell written over Sixel pixels clears them. After the last step, so that curses still
                // finds each step's scroll by its lines.
                let count = min(abs(move.shift), move.bottom - move.top + 1)
                wredrawln(window, Int32(move.shift > 0 ? move.bottom - count + 1 : move.top), Int32(count))
            }
        }
        staged = false
        if !scrolled, let rate = output.meter.rate, let shown = previous, let part = ScrollPlan.stage(drawn, over: shown,
                                                                                         budget: Int(rate * ScrollPlan.stageSeconds),
                                                                                         bytesPerCell: bytesPerCell) {
            // A slow link and a frame that takes long to cross it (a photo in characters): its rows go in parts,
            // top first, each once the last has crossed; a key meanwhile is answered by the next part's frame.
            read(present(part))
            followCurses()
            previousRowHashes = nil
            staged = true
            queueHyperlinks(part, before: before, moved: true)
            output.askBehindPictures()
            output.pump()
            return
        }
        read(present(drawn))
        followCurses()
        let hashesBefore = previousRowHashes
        previousRowHashes = scrolls ? rowHashes : nil
        if let pictures {
            pictures.plan(buffer, repainted: picturesRepainted, link: link)
            picturesRepainted = false
            // Pictures in characters are part of the frame: on a fast link their rows go with it.
            pictures.sendFrameBytes { output.queue($0) }
        }
        queueHyperlinks(buffer, before: before, moved: scrolled, hashesBefore: hashesBefore, rowHashes: rowHashes, scrolls: scrolls)
        output.askBehindPictures()
        output.pump()
    }

    /// Moves rows `top…bottom` of curses' window by `shift` (positive: up; the rows moved in blank), then lets
    /// curses send the terminal the step (its scroll, found by its line hashes). `shown` is the frame that leaves on
    /// the screen. Returns what curses wrote.
    func scrollWindow(top: Int, bottom: Int, by shift: Int, showing shown: CellBuffer) -> [UInt8] {
        wsetscrreg(window, Int32(top), Int32(bottom))
        scrollok(window, true)
        wscrl(window, Int32(shift))
        scrollok(window, false)
        wsetscrreg(window, 0, Int32(max(0, height - 1)))
        previous = shown
        wnoutrefresh(window)
        return captured { doupdate() }
    }

    /// The hyperlinks over the frame just drawn.
    func queueHyperlinks(_ buffer: CellBuffer, before: CellBuffer?, moved scrolled: Bool, hashesBefore: [Int]? = nil,
                                 rowHashes: [Int] = [], scrolls: Bool = false) {
        if hyperlinks != nil {
            // curses may scroll rows of its own accord (idlok) when several changed: their links may have moved.
            // The rows' hashes, which the scroll check made anyway, say which changed.
            var rowsChanged = false
            if scrolls, let before, before.width == buffer.width, before.height == buffer.height {
                let old = hashesBefore ?? ScrollPlan.rowHashes(before)
                rowsChanged = zip(old, rowHashes).lazy.filter { $0 != $1 }.prefix(2).count >= 2
            }
            let bytes = hyperlinks!.frame(buffer, before: before, moved: scrolled || rowsChanged)
            if !bytes.isEmpty { output.queue(bytes) }
        }
    }

    /// The last frame went out in part: the rest follows once the terminal has taken it.
    var staged = false

    /// About what a changed cell costs in curses' output, by the colours drawn with.
    var bytesPerCell: Int {
        switch colorMode {
        case .truecolor: 32
        case .palette256: 16
        default: 8
        }
    }

    /// Copies text as the session's clipboard route says (`ClipboardRoute`: OSC 52 to the terminal, through GNU
    /// screen, or tmux's buffer); the sequence goes after the frame, outside curses' picture of the screen.
    public func copyToClipboard(_ text: String) -> CopyOutcome {
        let (sequence, outcome) = ClipboardRoute.copy(text, environment: environment)
        if let sequence {
            output.queue(sequence)
            output.pump()
        }
        return outcome
    }

    /// What the link is, for the pictures' plans.
    func linkState(_ buffer: CellBuffer) -> LinkState {
        let now = OutputQueue.clock()
        let idle = output.idleSince.map { min(now - $0, now - lastChange) } ?? 0
        return LinkState(rate: output.meter.rate, idle: idle, screenCells: buffer.width * buffer.height)
    }

    /// What the terminal has been found to take, for the help overlay (and the log).
    public var linkSummary: String? { pictures?.drawsPixels == true ? output.meter.summary : nil }
    /// Pictures in characters are placed, and their rows sent by `CellPictureLayer`.
    public var placesCellPictures: Bool { pictures?.drawsPixels == false }
    public var linkRate: Double? { output.meter.rate }
    public var bytesWritten: Int { output.totalWritten }
    public var outputWaiting: Bool { output.hasPending }

    /// The mouse is reported (everywhere but GNU screen): taken up again after a suspend.
    var mouseReported = false

    /// The terminal's input hung up: nothing more will be read.
    var inputGone = false

    public func flushOutput() {
        flushAll(within: 30, preparing: true)
    }

    public func flushText() {
        output.flushText(within: 30)
    }

    /// The terminal has taken the last frame, and not more than a window of bytes is still crossing the link.
    public var readyForFrame: Bool { output.readyForFrame }

    /// A write failed for good: the terminal is not there any more.
    var terminalGone: Bool { output.terminalGone }


}
