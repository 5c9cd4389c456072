import CNcursesw
import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// The real terminal, through ncursesw. Only the thread that created it may call it.
///
/// Each frame writes the cells that changed since the previous frame into curses' screen, and
/// `doupdate` works out what to send. curses scrolls the terminal when rows moved, instead of repainting
/// them (a move further than curses takes at once is shown in steps). Pictures in pixels (Kitty graphics,
/// Sixel, iTerm2) are written after curses' frame by a `PictureLayer`, into cells curses keeps blank.
///
/// Nothing here waits for the terminal. curses writes each frame into a file in memory; what it wrote, and the
/// pictures' chunks, wait in a queue the run loop empties as fast as the terminal takes them (non-blocking
/// writes, and `readInput` wakes when the terminal can take more). curses' frames go first; a picture is
/// cut only between its chunks. How fast the terminal takes bytes when it pushes back is the link's rate
/// (`LinkMeter`), which pictures are sized to.
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
    private let clearsOnExit: Bool
    /// Where the queue's bytes are written: the terminal, opened again without blocking (curses keeps its own
    /// descriptor, which blocks, for the terminal's modes and for what it writes on the way out).
    private let writeDescriptor: Int32
    /// `writeDescriptor` shares curses' open file and had O_NONBLOCK set on it: the flags to put back.
    private var sharedFlags: Int32?
    /// Where curses writes while it draws a frame (its output descriptor points there meanwhile).
    private let captureDescriptor: Int32
    /// The terminal, kept to point curses' descriptor back at it.
    private let terminalCopy: Int32
    /// Curses' frames and other text, waiting for the terminal, and how much of it has been written.
    private var text: [UInt8] = []
    private var textWritten = 0
    /// A picture chunk being written, and how much of it has gone.
    private var chunk: [UInt8]?
    private var chunkWritten = 0
    private var meter: LinkMeter
    /// When the queue last became empty (nil: it is not).
    private var idleSince: Double? = 0
    /// The last frame drawn as the app gave it (drawn again when the pictures ask, the link having had room).
    private var lastFrame: CellBuffer?
    /// When the screen last changed: a picture goes again in full only once the view has stayed put.
    private var lastChange = 0.0
    /// Whether the terminal answers DA1, which is asked behind pictures: its answers say what has crossed the link
    /// (over SSH the program's own writes never wait: sshd takes megabytes before the link pushes back).
    private var asksTerminal: Bool
    /// DA1 questions written and not yet answered: when, and how many bytes had been written before each.
    private var probes: [(sentAt: Double, bytesBefore: Int)] = []
    /// Every byte written to the terminal, and how many of them it has confirmed by its answers.
    private var totalWritten = 0
    private var acknowledged = 0
    private var lastAcknowledgement = (time: 0.0, bytes: 0)
    /// Pictures were held back since the last answer (the link, not the program, set the pace).
    private var heldBack = false
    private var answersSeen = 0
    /// The rate the terminal's answers showed, while the program waited for them; nil until then.
    private var confirmedRate: Double?
    /// The terminal's answers take long enough to come from far away (not from a terminal on this machine that
    /// is merely slow to draw): its rate sizes pictures.
    private var terminalIsFar: Bool
    /// Bytes the terminal took without pushing back, since `flowStart`.
    private var flowBytes = 0
    private var flowStart = 0.0
    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private var previous: CellBuffer?
    private var pairs: [PairKey: Int32] = [:]
    /// A direct-mapped cache in front of `pairs` (frames ask for a pair per changed cell).
    private var pairCacheKeys = [UInt64](repeating: .max, count: 4096)
    private var pairCacheValues = [Int32](repeating: 0, count: 4096)
    private var wakePipe: [Int32] = [-1, -1]
    private var restored = false
    private var decoder = InputDecoder()
    private var decoded: [InputEvent] = []
    /// How long the rest of an escape sequence may take to arrive before a lone Esc counts as the key.
    private let escapeWait: Int32 = 30
    /// How long the rest of a control string is waited for before its letters count as keys again.
    private let stringWait: Int32 = 300
    private let inputDescriptor: Int32
    private let outputDescriptor: Int32
    private let inputFile: UnsafeMutablePointer<FILE>
    private let outputFile: UnsafeMutablePointer<FILE>
    /// Pictures in pixels (Kitty graphics, Sixel), written after curses' frame; nil: pictures are characters.
    private let pictures: PictureLayer?
    /// The next frame's pictures must be drawn whole (the screen was cleared).
    private var picturesRepainted = true
    /// The row hashes of the last frame drawn (`scrollMove` compares them with the next frame's).
    private var previousRowHashes: [Int]?
    /// OSC 8 hyperlinks over curses' frame, where the terminal makes them clickable; nil: links are plain text.
    private var hyperlinks: HyperlinkLayer?

    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    // Attribute bits (curses.h builds them with macros Swift cannot import).
    private static let underline: attr_t = 1 << 17
    private static let reverse: attr_t = 1 << 18
    private static let dim: attr_t = 1 << 20
    private static let bold: attr_t = 1 << 21
    private static let invisible: attr_t = 1 << 23
    // Mouse masks, likewise (NCURSES_MOUSE_VERSION 2).
    private static let button1Pressed: mmask_t = 0o2
    private static let button4Pressed: mmask_t = 0o2 << 15
    private static let button5Pressed: mmask_t = 0o2 << 20

    /// Opens the terminal on standard input and output. `environment` decides colour: `NO_COLOR` turns it off.
    public convenience init(environment: [String: String] = ProcessInfo.processInfo.environment, colors: ColorMode? = nil,
                            abilities: TerminalAbilities? = nil, graphics: GraphicsMode = .cells, hyperlinks: Bool = false,
                            link: LinkSetting = .auto, sixelScrolls: Bool = false) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Failure.noTerminal("ImageFeed's full-screen interface needs a terminal on standard input and output.")
        }
        SignalTrap.saveTerminal()
        try self.init(input: STDIN_FILENO, output: STDOUT_FILENO, environment: environment, colors: colors,
                      abilities: abilities, graphics: graphics, hyperlinks: hyperlinks, link: link, sixelScrolls: sixelScrolls)
    }

    /// Opens the terminal on the given descriptors (a pseudo-terminal in the benchmarks), whose type is
    /// `environment["TERM"]`. The descriptors stay open after `restore`. `colors` overrides what is detected
    /// (nil: detect; `NO_COLOR` always means none).
    /// `abilities`: what the terminal answered when asked (TerminalProbe): 24-bit colour that `COLORTERM` did
    /// not announce (over SSH it rarely arrives). `graphics`: how pictures in pixels are sent.
    /// `hyperlinks`: the terminal makes OSC 8 links clickable (`TerminalProbe.drawsHyperlinks`).
    /// `link`: how pictures are sized for the link. `sixelScrolls`: the terminal moves Sixel pixels with the rows
    /// it scrolls (`TerminalProbe.sixelFollowsScrolls`), so curses may scroll it while Sixel pictures show.
    public init(input: Int32, output: Int32, environment: [String: String], colors: ColorMode? = nil,
                abilities: TerminalAbilities? = nil, graphics: GraphicsMode = .cells, hyperlinks: Bool = false,
                link: LinkSetting = .auto, sixelScrolls: Bool = false) throws {
        meter = LinkMeter(setting: link)
        // The start-up answers may have left off inside a control string: what follows of it is no key.
        decoder = InputDecoder(insideString: abilities?.unfinishedString)
        asksTerminal = abilities?.answered == true
        terminalIsFar = abilities?.isFar == true
        meter.near = abilities?.answered == true && abilities?.isFar == false
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
        let candidates = Self.terminfoEntries(term: term, environment: environment, abilities: abilities,
                                              colors: colors, graphics: graphics)
        var fallback: String?
        for entry in candidates where opened == nil {
            opened = newterm(entry, outputFile, inputFile)
            if opened != nil, entry == Self.fallbackEntry, term != Self.fallbackEntry { fallback = Self.fallbackMessage(term) }
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
        var inline: InlinePictureLayer?
        switch graphics {
        case .kitty: pictures = KittyPictureLayer()
        case .kittyPlaceholders: pictures = KittyPlaceholderLayer(tmux: TerminalProbe.isMultiplexed(environment))
        case .sixel:
            inline = InlinePictureLayer(format: .sixel, followsScrolls: sixelScrolls)
            pictures = inline
        case .iterm2: pictures = InlinePictureLayer(format: .iterm2)
        case .cells: pictures = nil
        }
        // Scrolling the terminal would move pictures in pixels out from under the cells curses believes
        // they are in (kitty scrolls its placements, xterm its Sixel pixels): with pictures, curses rewrites
        // what changed instead; the pictures themselves are only placed again. Placeholders are text, and
        // move with it.
        idlok(window, pictures.map { $0.movesWithText || $0.followsScrolls } ?? true)
        // Inserting and deleting characters shifts the cells of a row, which some terminals (foot) do not do
        // to the pixels drawn there: with pictures drawn into cells, curses writes the cells instead.
        idcok(window, !(pictures.map { !$0.movesWithText } ?? false))
        // GNU screen holds a lone Esc while the window reports the mouse (until another key comes): there, no mouse,
        // so Esc goes back at once.
        if !TerminalProbe.isGNUScreen(environment) {
            mousemask(Self.button1Pressed | Self.button4Pressed | Self.button5Pressed, nil)
            mouseinterval(0)
            mouseReported = true
        }

        var mode = ColorMode.none
        if has_colors(), (environment["NO_COLOR"] ?? "").isEmpty {
            start_color()
            use_default_colors()
            mode = Self.colorMode(colors: Int(imagefeed_colors()), rgb: tigetflag("RGB") > 0)
        }
        colorMode = colors.map { Self.capped(mode, at: $0) } ?? mode
        self.hyperlinks = hyperlinks ? HyperlinkLayer(colorMode: colorMode) : nil
        inline?.cellsBlitter = HalfBlockBlitter(mode: colorMode, unicode: unicode)
        if let layer = pictures as? InlinePictureLayer {
            layer.encodesInBackground = true
            let descriptor = wakePipe[1]
            layer.wake = {
                var byte: UInt8 = 1
                _ = write(descriptor, &byte, 1)
            }
        }
        // The screen is cleared on the way out: where the alternate screen is missing (no smcup; GNU screen without
        // `altscreen on`; mosh) the last frame would stay on the user's terminal, and where it is there, clearing it
        // before leaving it changes nothing the user sees.
        clearsOnExit = true
        // The SGR mouse encoding where the terminal has it (positions past column 223, and no raw bytes);
        // InputDecoder reads both encodings.
        queueText("\u{1B}[?1006h")
        pump()
    }

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
        if lastFrame.map({ $0.cells != frame.cells || $0.placements.map(\.picture.id) != frame.placements.map(\.picture.id) }) ?? true {
            lastChange = Self.clock()
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
        let drawn = pictures?.followsScrolls == true && [.palette256, .truecolor].contains(colorMode) ? Self.tagged(buffer) : buffer
        var moves = RowMoves(height: buffer.height)
        // Most of the screen moved up or down (the next card). curses scrolls the terminal when rows moved,
        // but leaves out a block moved further than it is tall, and a next-card step moves the rows that stay
        // by about a card: the move is shown in steps curses takes (the rows moved in are blank until the
        // frame itself fills them), so only the new rows are sent.
        let rowHashes = scrolls ? Self.rowHashes(drawn) : []
        var scrolled = false
        if scrolls, var shown = previous,
           let move = Self.scrollMove(before: previousRowHashes ?? Self.rowHashes(shown), after: rowHashes, blankRow: Self.blankRowHash(drawn.width)) {
            let step = Self.scrollStep(move)
            scrolled = true
            var moved = 0
            while abs(move.shift) - moved > step {
                shown.shiftRows(top: move.top, bottom: move.bottom, by: move.shift > 0 ? step : -step)
                moves.read(present(shown))
                moved += step
            }
        }
        staged = false
        if !scrolled, let rate = meter.rate, let shown = previous, let part = Self.stage(drawn, over: shown,
                                                                                         budget: Int(rate * Self.stageSeconds),
                                                                                         bytesPerCell: bytesPerCell) {
            // A slow link and a frame that takes long to cross it (a photo in characters): its rows go in parts,
            // top first, each once the last has crossed; a key meanwhile is answered by the next part's frame.
            moves.read(present(part))
            if let pictures, pictures.followsScrolls, !moves.isIdentity { pictures.moved(moves) }
            previousRowHashes = nil
            staged = true
            queueHyperlinks(part, before: before, moved: true)
            askBehindPictures()
            pump()
            return
        }
        moves.read(present(drawn))
        let hashesBefore = previousRowHashes
        previousRowHashes = scrolls ? rowHashes : nil
        if let pictures {
            if pictures.followsScrolls, !moves.isIdentity { pictures.moved(moves) }
            pictures.plan(buffer, repainted: picturesRepainted, link: link)
            picturesRepainted = false
        }
        queueHyperlinks(buffer, before: before, moved: scrolled, hashesBefore: hashesBefore, rowHashes: rowHashes, scrolls: scrolls)
        askBehindPictures()
        pump()
    }

    /// The hyperlinks over the frame just drawn.
    private func queueHyperlinks(_ buffer: CellBuffer, before: CellBuffer?, moved scrolled: Bool, hashesBefore: [Int]? = nil,
                                 rowHashes: [Int] = [], scrolls: Bool = false) {
        if hyperlinks != nil {
            // curses may scroll rows of its own accord (idlok) when several changed: their links may have moved.
            // The rows' hashes, which the scroll check made anyway, say which changed.
            var rowsChanged = false
            if scrolls, let before, before.width == buffer.width, before.height == buffer.height {
                let old = hashesBefore ?? Self.rowHashes(before)
                rowsChanged = zip(old, rowHashes).lazy.filter { $0 != $1 }.prefix(2).count >= 2
            }
            let bytes = hyperlinks!.frame(buffer, before: before, moved: scrolled || rowsChanged)
            if !bytes.isEmpty { queueText(bytes) }
        }
    }

    /// The seconds of the link one part of a staged frame may take.
    static let stageSeconds = 0.25
    /// The last frame went out in part: the rest follows once the terminal has taken it.
    private var staged = false

    /// About what a changed cell costs in curses' output, by the colours drawn with.
    private var bytesPerCell: Int {
        switch colorMode {
        case .truecolor: 32
        case .palette256: 16
        default: 8
        }
    }

    /// The first part of `frame` over `shown`: its rows from the top while their changed cells fit `budget`
    /// bytes, the rest as shown. Nil when the whole frame fits, or pictures in pixels are in it (they are
    /// placed by the frame as a whole).
    static func stage(_ frame: CellBuffer, over shown: CellBuffer, budget: Int, bytesPerCell: Int) -> CellBuffer? {
        guard frame.width == shown.width, frame.height == shown.height, frame.placements.isEmpty || !frame.cells.contains(.picture) else {
            return nil
        }
        var changed: [Int] = []
        var total = 0
        for y in 0..<frame.height {
            var count = 0
            for x in 0..<frame.width where frame.cells[y * frame.width + x] != shown.cells[y * frame.width + x] { count += 1 }
            changed.append(count)
            total += count
        }
        guard total * bytesPerCell > budget * 2 else { return nil }
        var part = shown
        var spent = 0
        for y in 0..<frame.height where changed[y] > 0 {
            if spent > 0, spent + changed[y] * bytesPerCell > budget { break }
            spent += changed[y] * bytesPerCell
            for x in 0..<frame.width { part[x, y] = frame[x, y] }
        }
        return part
    }

    /// `buffer` with each picture cell marked by its picture and row (a foreground colour, which a blank does
    /// not show): rows of different pictures, or of one picture's different rows, differ for curses.
    static func tagged(_ buffer: CellBuffer) -> CellBuffer {
        var tagged = buffer
        for placement in buffer.placements {
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                let row = y - placement.y
                let tag = UInt8(16 + Int((UInt64(placement.picture.id) &* 131 &+ UInt64(max(0, row))) % 216))
                let cell = Cell(Cell.picture.text, style: CellStyle(foreground: .indexed(tag)))
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    tagged[x, y] = cell
                }
            }
        }
        return tagged
    }

    /// The largest move curses takes for the rows of `move` in one frame (it judges each block of moved rows
    /// alone, and skips one moved further than it is tall).
    static func scrollStep(_ move: ScrollMove) -> Int {
        max(1, (move.bottom - move.top + 1) / 4)
    }

    /// Copies the cells that changed since the last frame into curses, which sends the terminal what differs.
    /// Returns what curses wrote.
    @discardableResult
    private func present(_ buffer: CellBuffer) -> [UInt8] {
        // Changed cells go to curses in runs (one call per run, not per cell); wide characters alone.
        var run: [cchar_t] = []
        run.reserveCapacity(buffer.width)
        var runStart = 0
        var style = CellStyle.plain
        var styleBits: (attributes: attr_t, pair: Int32) = (0, 0)
        func flush(_ y: Int) {
            guard !run.isEmpty else { return }
            _ = run.withUnsafeBufferPointer { mvwadd_wchnstr(window, Int32(y), Int32(runStart), $0.baseAddress, Int32($0.count)) }
            run.removeAll(keepingCapacity: true)
        }
        for y in 0..<buffer.height {
            // A row with wide characters (猫, 🐱), now or in the frame before, is written whole on a cleared
            // row: writing only the changed cells over curses' old wide characters left stale halves that
            // blanked the new ones. doupdate still sends the terminal only what differs.
            let wideRow = Self.hasWideCharacter(buffer, row: y) || previous.map { Self.hasWideCharacter($0, row: y) } == true
            if wideRow, previous != nil {
                wmove(window, Int32(y), 0)
                wclrtoeol(window)
            }
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if !wideRow, let previous, previous[x, y] == cell {
                    flush(y)
                    continue
                }
                if cell.text.isEmpty { // the right half of a wide character: curses fills it in
                    flush(y)
                    continue
                }
                if cell.text == Cell.picture.text {
                    // A cell a picture shows in: a blank that curses tells from an ordinary blank, so that
                    // when the picture goes, curses rewrites the cell (and a Sixel's pixels there go with it).
                    flush(y)
                    var blank = cchar_t()
                    blank.attr = Self.invisible
                    if cell.style != .plain {
                        let pair = pairNumber(cell.style)
                        blank.attr |= attr_t(min(pair, 255)) << 8
                        blank.ext_color = pair
                    }
                    withUnsafeMutableBytes(of: &blank.chars) { raw in raw.bindMemory(to: wchar_t.self)[0] = 32 }
                    mvwadd_wch(window, Int32(y), Int32(x), &blank)
                    continue
                }
                if cell.style != style {
                    style = cell.style
                    styleBits = (attributes(style), pairNumber(style))
                }
                var character = cchar_t()
                // As setcchar stores a pair: the number, and its low byte in the attribute's colour bits.
                character.attr = styleBits.attributes | (attr_t(min(styleBits.pair, 255)) << 8)
                character.ext_color = styleBits.pair
                let scalars = unicode || cell.text.utf8.allSatisfy({ $0 < 0x80 }) ? cell.text.unicodeScalars : "?".unicodeScalars
                var count = 0
                withUnsafeMutableBytes(of: &character.chars) { raw in
                    let chars = raw.bindMemory(to: wchar_t.self)
                    for scalar in scalars where count < chars.count - 1 {
                        chars[count] = wchar_t(bitPattern: scalar.value)
                        count += 1
                    }
                }
                let first = scalars.first.map { $0.value } ?? 32
                // (Past U+F0000 only private use: narrow, and every Kitty placeholder cell is one.)
                if first >= 0x1100, first < 0xF0000, !DisplayWidth.isBoxOrBlock(first), DisplayWidth.of(cell.text) > 1 {
                    flush(y)
                    var single = character
                    mvwadd_wch(window, Int32(y), Int32(x), &single)
                    continue
                }
                if run.isEmpty { runStart = x }
                run.append(character)
            }
            flush(y)
        }
        previous = buffer
        wnoutrefresh(window)
        return captured { doupdate() }
    }

    /// A move of rows `top…bottom` by `shift` (positive: up) that makes the rows of `old` match most of `new`.
    struct ScrollMove: Equatable {
        var top: Int
        var bottom: Int
        var shift: Int
    }

    /// The scroll that turns most changed rows of `old` into those of `new`, if it saves enough to be worth
    /// it: at least 3 rows with text that land where `new` has them, and a quarter of the changed rows.
    static func scrollMove(from old: CellBuffer, to new: CellBuffer) -> ScrollMove? {
        guard old.width == new.width else { return nil }
        return scrollMove(before: rowHashes(old), after: rowHashes(new), blankRow: blankRowHash(new.width))
    }

    /// The same, from each frame's row hashes (`rowHashes`); `blankRow` is the hash of an empty row.
    static func scrollMove(before: [Int], after: [Int], blankRow: Int) -> ScrollMove? {
        guard before.count == after.count, after.count > 3,
              let top = after.indices.first(where: { before[$0] != after[$0] }),
              let bottom = after.indices.last(where: { before[$0] != after[$0] }), bottom - top >= 3 else { return nil }
        var best = (shift: 0, matches: 0)
        for shift in (-(bottom - top))...(bottom - top) where shift != 0 {
            var matches = 0
            for y in top...bottom {
                let from = y + shift
                guard from >= top, from <= bottom else { continue }
                if after[y] == before[from], after[y] != blankRow, after[y] != before[y] { matches += 1 }
            }
            if matches > best.matches { best = (shift, matches) }
        }
        guard best.matches >= 3, best.matches * 4 >= bottom - top + 1 else { return nil }
        return ScrollMove(top: top, bottom: bottom, shift: best.shift)
    }

    /// A hash of each row's cells.
    static func rowHashes(_ buffer: CellBuffer) -> [Int] {
        (0..<buffer.height).map { y in
            var hasher = Hasher()
            for x in 0..<buffer.width { hasher.combine(buffer.cells[y * buffer.width + x]) }
            return hasher.finalize()
        }
    }

    static func blankRowHash(_ width: Int) -> Int {
        var hasher = Hasher()
        for _ in 0..<width { hasher.combine(Cell.blank) }
        return hasher.finalize()
    }

    /// The entry a TERM this machine's terminfo lacks is driven as (xterm-ghostty, wezterm, foot: common over
    /// SSH from those terminals), rather than refused: they all understand it.
    static let fallbackEntry = "xterm-256color"

    static func fallbackMessage(_ term: String) -> String {
        "TERM=\(term) is not known here: drawing as xterm-256color (install its terminfo to change that)."
    }

    /// The terminfo entries a session on `term` tries, in order; the first this machine knows is used.
    /// 24-bit colour where the terminal says it has it (COLORTERM, as most desktop terminals set) or the user
    /// asks for it, though TERM's own entry lists 256 colours: curses can only send direct colours through a
    /// terminfo entry with RGB, so the session uses the `-direct` sibling of TERM from ncurses-term.
    static func terminfoEntries(term: String, environment: [String: String], abilities: TerminalAbilities?,
                                colors: ColorMode?, graphics: GraphicsMode) -> [String] {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        // The terminal's own word counts as much as COLORTERM: XTGETTCAP RGB, or the Kitty graphics protocol
        // (every terminal that has it draws 24-bit colour).
        // GNU screen (4.x) has no 24-bit colour: a COLORTERM inherited from the terminal outside it, or that
        // terminal's answers passed through, say nothing of what screen draws. Only the `colors` setting forces it.
        let saysTrueColor = !TerminalProbe.isGNUScreen(environment)
            && (["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased())
                || abilities?.trueColor == true || abilities?.kittyGraphics == true
                || drawsDirectColour(term: term, version: abilities?.version))
        var entries: [String] = []
        // Kitty's placeholders name their picture by a colour of the 256-colour palette, which a direct-colour
        // entry cannot send: that session keeps TERM's own entry (its pictures are pixels anyway).
        if !noColor, graphics != .kittyPlaceholders, colors == .truecolor || (colors == nil && saysTrueColor) {
            // mosh passes 24-bit colour only in its semicolon form (38;2;R;G;B) and drops xterm-direct's colons
            // (38:2::R:G:B): alacritty-direct is xterm-256color with the semicolon form.
            entries += abilities?.mosh != nil ? ["alacritty-direct"] : directSiblings(of: term, forced: colors == .truecolor)
        }
        // GNU screen names itself "screen" (8 colours in terminfo) unless its configuration says otherwise, and so
        // does tmux before 3.4, yet both draw 256 colours in any terminal that has them and bring them down to what one
        // without them has.
        let insideMultiplexer = TerminalProbe.isGNUScreen(environment) || !(environment["TMUX"] ?? "").isEmpty
        if !noColor, insideMultiplexer, term == "screen" { entries.append("screen-256color") }
        return entries + [term, fallbackEntry]
    }

    /// Terminals that draw 24-bit colour without saying so where it can be heard (no COLORTERM over SSH, no answer
    /// to XTGETTCAP RGB): xterm by its XTVERSION answer, st and mlterm by their TERM (which SSH carries), each drawn
    /// through its `-direct` terminfo entry.
    static func drawsDirectColour(term: String, version: String?) -> Bool {
        if version?.hasPrefix("XTerm(") == true { return true }
        return term == "st" || term.hasPrefix("st-") || term == "mlterm" || term.hasPrefix("mlterm-")
    }

    /// The colours a terminfo entry offers: `colors` and the `RGB` flag.
    static func colorMode(colors: Int, rgb: Bool) -> ColorMode {
        if rgb, colors >= 0x1000000 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .palette16 }
        // colors#8 (TERM=xterm, TERM=linux): colours 8–15 do not exist there.
        if colors >= 8 { return .palette8 }
        return .none
    }

    /// What a session would draw with, worked out without starting curses (for `image-feed doctor`): the
    /// terminfo entry it would use, whether TERM's own entry is known, the colours, and the message the
    /// session would show when it falls back to xterm-256color.
    public struct Plan: Equatable, Sendable {
        public var entry: String?
        public var termKnown: Bool
        public var colorMode: ColorMode
        public var fallback: String?
    }

    /// What this machine's terminfo says of the entry `name`: its colours and RGB flag; nil when it lacks it.
    static func terminfo(_ name: String) -> (colors: Int, rgb: Bool)? {
        var count: Int32 = 0
        var rgb: Int32 = 0
        return imagefeed_terminfo(name, &count, &rgb) == 1 ? (Int(count), rgb != 0) : nil
    }

    /// Whether this machine's terminfo has the entry `name`.
    public static func knowsEntry(_ name: String) -> Bool {
        terminfo(name) != nil
    }

    public static func plan(environment: [String: String], abilities: TerminalAbilities?, colors: ColorMode?,
                            graphics: GraphicsMode) -> Plan {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return Plan(entry: nil, termKnown: false, colorMode: .none, fallback: nil) }
        let termKnown = knowsEntry(term)
        for entry in terminfoEntries(term: term, environment: environment, abilities: abilities, colors: colors, graphics: graphics) {
            guard let found = terminfo(entry) else { continue }
            var mode = (environment["NO_COLOR"] ?? "").isEmpty ? colorMode(colors: found.colors, rgb: found.rgb) : .none
            if let colors { mode = capped(mode, at: colors) }
            return Plan(entry: entry, termKnown: termKnown, colorMode: mode,
                        fallback: entry == fallbackEntry && term != fallbackEntry ? fallbackMessage(term) : nil)
        }
        return Plan(entry: nil, termKnown: false, colorMode: .none, fallback: nil)
    }

    /// The terminfo entries with direct colour that stand for `term` (xterm-256color → xterm-direct,
    /// xterm-kitty → kitty-direct, tmux-256color → tmux-direct), most fitting first; `forced` adds
    /// xterm-direct, which every xterm-like terminal understands.
    static func directSiblings(of term: String, forced: Bool) -> [String] {
        guard !term.hasSuffix("-direct") else { return [] }
        var base = term
        for suffix in ["-256color", "-88color", "-16color", "-color"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
        }
        var names: [String] = []
        switch base {
        case "xterm-kitty": names.append("kitty-direct")
        case "screen": names.append("tmux-direct")
        default: names.append(base + "-direct")
        }
        if forced, !names.contains("xterm-direct") { names.append("xterm-direct") }
        return names
    }

    /// At most the colours asked for: a terminal with 24-bit colour can be drawn in 256, 16, 8 or none.
    static func capped(_ detected: ColorMode, at wanted: ColorMode) -> ColorMode {
        let order: [ColorMode] = [.none, .palette8, .palette16, .palette256, .truecolor]
        let detectedRank = order.firstIndex(of: detected) ?? 0
        let wantedRank = order.firstIndex(of: wanted) ?? 0
        return order[min(detectedRank, wantedRank)]
    }

    /// Whether a row holds a wide character (its right half is a cell without text).
    private static func hasWideCharacter(_ buffer: CellBuffer, row y: Int) -> Bool {
        for x in 1..<max(1, buffer.width) where buffer[x, y].text.isEmpty { return true }
        return false
    }

    private func attributes(_ style: CellStyle) -> attr_t {
        var bits: attr_t = 0
        if style.bold { bits |= Self.bold }
        if style.dim { bits |= Self.dim }
        if style.reverse { bits |= Self.reverse }
        if style.underline { bits |= Self.underline }
        return bits
    }

    private func colorNumber(_ color: TerminalColor) -> Int32 {
        switch (color, colorMode) {
        case (_, .none), (.standard, _):
            return -1
        case let (.indexed(index), _):
            return Int32(index)
        case let (.rgb(rgb), .truecolor):
            // Direct colours below 8 would be read as palette indexes.
            return Int32(max(8, rgb.packed))
        case let (.rgb(rgb), .palette256):
            return Int32(Palette.nearest256(rgb))
        case let (.rgb(rgb), .palette16):
            return Int32(Palette.nearest16(rgb))
        case let (.rgb(rgb), .palette8):
            return Int32(Palette.nearest8(rgb))
        }
    }

    private func pairNumber(_ style: CellStyle) -> Int32 {
        let key = PairKey(foreground: colorNumber(style.foreground), background: colorNumber(style.background))
        if key.foreground == -1, key.background == -1 { return 0 }
        let packed = UInt64(UInt32(bitPattern: key.foreground)) << 32 | UInt64(UInt32(bitPattern: key.background))
        let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 52)
        if pairCacheKeys[slot] == packed { return pairCacheValues[slot] }
        defer {
            if let pair = pairs[key] {
                pairCacheKeys[slot] = packed
                pairCacheValues[slot] = pair
            }
        }
        if let known = pairs[key] { return known }
        var pair = alloc_pair(key.foreground, key.background)
        if pair < 0 {
            // Out of pairs: start afresh (nothing on screen keeps its old pair once everything is redrawn).
            reset_color_pairs()
            pairs.removeAll()
            pairCacheKeys = [UInt64](repeating: .max, count: pairCacheKeys.count)
            previous = nil
            pair = alloc_pair(key.foreground, key.background)
        }
        pairs[key] = max(0, pair)
        return max(0, pair)
    }

    /// Copies text to the clipboard of the terminal the user sits at, with OSC 52 (works over SSH; tmux
    /// passes it on with `set-clipboard`). Written after the frame, outside curses' picture of the screen.
    public func copyToClipboard(_ text: String) {
        let encoded = Data(text.utf8).base64EncodedString()
        queueText("\u{1B}]52;c;\(encoded)\u{07}")
        pump()
    }

    // MARK: Input

    public func readInput(timeout: Int) -> InputEvent? {
        if SignalTrap.suspendRequested != 0 {
            SignalTrap.suspendRequested = 0
            return .key(.suspend)
        }
        if let event = nextEvent() { return event }
        pump()
        if staged, readyForFrame, let frame = lastFrame, !restored {
            draw(frame)
        } else if let pictures, let frame = lastFrame, !restored, pictures.wantsFrame(link: linkState(frame)) {
            // The link has had room: what was sent small (or in characters) goes again in full.
            draw(frame)
        }
        var wait = timeout
        // While pictures may still go in full once the link is idle, look again a little later.
        if pictures != nil, meter.rate != nil { wait = wait < 0 ? 250 : min(wait, 250) }
        let waitingOutput = hasPendingOutput
        var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0),
                           pollfd(fd: writeDescriptor, events: Int16(POLLOUT), revents: 0)]
        _ = poll(&descriptors, waitingOutput ? 3 : 2, Int32(wait))
        if descriptors[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakePipe[0], &drain, drain.count) > 0 {}
        }
        if waitingOutput, descriptors[2].revents != 0 { pump() }
        if let event = nextEvent() { return event }
        // The terminal is gone (its window closed, the SSH connection dropped) and no SIGHUP came: poll would
        // answer at once for ever. Quitting is all that is left (as Ctrl-C does: the state is saved as usual).
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 || terminalGone {
            inputGone = true
            return .key(.interrupt)
        }
        return nil
    }

    public func invalidate() {
        guard !restored else { return }
        previous = nil
        clearok(window, true)
    }

    /// One byte into the wake-up pipe's write end (async-signal-safe, so the signal trap writes there too).
    public var waker: Waker {
        let descriptor = wakePipe[1]
        return Waker {
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    public func trapSignals() {
        SignalTrap.install(wakeDescriptor: wakePipe[1])
    }

    public func releaseSignals() {
        SignalTrap.uninstall()
        // The terminal hung up: a SIGHUP still on its way must not end the program while it saves and leaves.
        if terminalGone || inputGone || SignalTrap.received == SIGHUP { signal(SIGHUP, SIG_IGN) }
    }

    /// Gives the terminal back as the shell had it (as `restore` does, but curses stays), stops, and on `fg` takes
    /// it again: the next frame paints every cell, and the pictures, which the terminal was told to drop, go again.
    @discardableResult
    public func suspend() -> Bool {
        guard !restored else { return true }
        SignalTrap.suspendRequested = 0
        takePicturesAway()
        queueText("\u{1B}[?1006l\u{1B}[0m\u{1B}[H\u{1B}[2J")
        flushAll(within: 2)
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags) }
        mousemask(0, nil)
        curs_set(1)
        endwin()
        let stopped = SignalTrap.stopUntilContinued()
        // Continued: the terminal is the program's again, in the modes curses keeps for it.
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags | O_NONBLOCK) }
        doupdate()
        raw()
        noecho()
        nonl()
        curs_set(0)
        if mouseReported { mousemask(Self.button1Pressed | Self.button4Pressed | Self.button5Pressed, nil) }
        queueText("\u{1B}[?1006h")
        pump()
        // The window may have changed size while stopped.
        Self.resizeSignalled = 1
        invalidate()
        return stopped
    }

    public var quitSignal: Int32? {
        SignalTrap.received != 0 ? SignalTrap.received : nil
    }

    /// The next decoded event: characters come from curses one at a time (it decodes UTF-8 and reports
    /// resizes), and InputDecoder puts escape sequences together.
    private func nextEvent() -> InputEvent? {
        if Self.resizeSignalled != 0 {
            Self.resizeSignalled = 0
            var rows: Int32 = 0
            var columns: Int32 = 0
            // resizeterm hands curses a KEY_RESIZE, which is read below as the resize.
            if imagefeed_window_size(terminalCopy, &rows, &columns) == 1 { resizeterm(rows, columns) }
        }
        while true {
            if !decoded.isEmpty { return decoded.removeFirst() }
            var value: wint_t = 0
            let status = wget_wch(window, &value)
            if status == ERR {
                guard decoder.isPending else { return nil }
                // The rest of a sequence may still be on its way (a slow link): wait a little, then a lone
                // Esc is the key.
                // Inside a control string (a terminal's reply) the rest is waited for longer than after a lone Esc: a
                // reply's bytes can be held up on a busy machine or link, and letters that come after the pause would be
                // read as keys.
                if waitForInput(milliseconds: decoder.openString != nil ? stringWait : escapeWait) { continue }
                decoded += decoder.flush()
                if decoded.isEmpty { return nil }
                continue
            }
            if status == KEY_CODE_YES {
                if Int32(value) == KEY_RESIZE {
                    decoded += decoder.flush()
                    decoded.append(.resize)
                }
                continue
            }
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            decoded += decoder.feed(scalar)
            if decoder.deviceAttributesAnswers != answersSeen { noteAnswers() }
        }
    }

    private func waitForInput(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    // MARK: The output queue

    /// Set by the SIGWINCH handler; the run loop reads the new size.
    nonisolated(unsafe) private static var resizeSignalled: Int32 = 0
    nonisolated(unsafe) private static var resizeWakeDescriptor: Int32 = -1

    private static func installResizeTrap(wakeDescriptor: Int32) {
        resizeWakeDescriptor = wakeDescriptor
        signal(SIGWINCH) { _ in
            NcursesBackend.resizeSignalled = 1
            var byte: UInt8 = 1
            _ = write(NcursesBackend.resizeWakeDescriptor, &byte, 1)
        }
    }

    /// What the link is, for the pictures' plans.
    private func linkState(_ buffer: CellBuffer) -> LinkState {
        let now = Self.clock()
        let idle = idleSince.map { min(now - $0, now - lastChange) } ?? 0
        return LinkState(rate: meter.rate, idle: idle, screenCells: buffer.width * buffer.height)
    }

    /// What the terminal has been found to take, for the help overlay (and the log).
    public var linkSummary: String? { pictures == nil ? nil : meter.summary }

    /// Whether bytes wait for the terminal.
    private var hasPendingOutput: Bool {
        !terminalGone && (textWritten < text.count || chunk != nil || pictures?.hasWork == true)
    }

    static func clock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` (curses drawing) with curses' descriptor pointing at the frame's file, then queues what it wrote.
    @discardableResult
    private func captured(_ body: () -> Void) -> [UInt8] {
        guard captureDescriptor >= 0, terminalCopy >= 0 else {
            body()
            return []
        }
        fflush(outputFile)
        dup2(captureDescriptor, outputDescriptor)
        body()
        fflush(outputFile)
        dup2(terminalCopy, outputDescriptor)
        let size = Int(lseek(captureDescriptor, 0, SEEK_CUR))
        var bytes = [UInt8](repeating: 0, count: max(0, size))
        if size > 0 {
            let read = bytes.withUnsafeMutableBufferPointer { pread(captureDescriptor, $0.baseAddress!, size, 0) }
            if read < size { bytes.removeSubrange(max(0, read)...) }
            queueText(bytes)
        }
        _ = ftruncate(captureDescriptor, 0)
        _ = lseek(captureDescriptor, 0, SEEK_SET)
        return bytes
    }

    /// Bytes for the terminal outside curses' picture of the screen (modes curses does not set), after what
    /// curses wrote before them.
    private func queueText(_ string: String) {
        queueText(Array(string.utf8))
    }

    private func queueText(_ bytes: [UInt8]) {
        if textWritten > 0, textWritten == text.count {
            text.removeAll(keepingCapacity: true)
            textWritten = 0
        }
        text += bytes
    }

    /// The bytes that may be on their way, unconfirmed: a quarter of a second of the link as its answers showed
    /// it, at least 32 KB; 64 KB until they have.
    private var pictureWindow: Int {
        confirmedRate.map { max(32_000, Int($0 * 0.25)) } ?? 64_000
    }

    /// Bytes written or queued that the terminal has not confirmed yet.
    private var unconfirmed: Int { totalWritten + (text.count - textWritten) - acknowledged }

    /// Whether another picture chunk may go: the terminal has confirmed enough of what was written (where it
    /// answers; elsewhere the link's back-pressure paces the pictures).
    private var pictureWindowOpen: Bool {
        guard asksTerminal, !probes.isEmpty else { return true }
        if Self.clock() - probes[0].sentAt > 5 {
            // No answer in five seconds: the terminal stopped answering (or the link all but stopped).
            probes.removeAll()
            acknowledged = totalWritten
            if lastAcknowledgement.time == 0 { asksTerminal = false }
            return true
        }
        let open = unconfirmed < pictureWindow
        if !open { heldBack = true }
        return open
    }

    /// After a frame or a picture chunk: DA1, whose answer says when the bytes before it have crossed.
    private func askBehindPictures() {
        guard asksTerminal else { return }
        let queued = totalWritten + (text.count - textWritten)
        // Once every half window: a question per frame would cost the terminal an answer per spinner's turn.
        if queued - (probes.last?.bytesBefore ?? lastAcknowledgement.bytes) < pictureWindow / 2 { return }
        probes.append((Self.clock(), queued))
        queueText("\u{1B}[c")
    }

    /// The terminal answered DA1: what was written before the question has crossed.
    private func noteAnswers() {
        let now = Self.clock()
        while answersSeen < decoder.deviceAttributesAnswers {
            answersSeen += 1
            guard !probes.isEmpty else { continue }
            let probe = probes.removeFirst()
            acknowledged = max(acknowledged, probe.bytesBefore)
            if terminalIsFar, now - probe.sentAt < TerminalAbilities.farRoundTrip {
                // No far link answers this soon: the start-up round trip was slowed by this machine (a busy one),
                // not by a link. From now on the terminal is near.
                terminalIsFar = false
                meter.near = true
            }
            if heldBack, lastAcknowledgement.time > 0, now - lastAcknowledgement.time >= 0.05 {
                let sample = Double(probe.bytesBefore - lastAcknowledgement.bytes) / (now - lastAcknowledgement.time)
                confirmedRate = confirmedRate.map { $0 * 0.5 + sample * 0.5 } ?? sample
                if terminalIsFar { meter.confirmed(probe.bytesBefore - lastAcknowledgement.bytes, over: now - lastAcknowledgement.time) }
            }
            heldBack = false
            lastAcknowledgement = (now, probe.bytesBefore)
        }
    }

    /// Writes what waits, as much as the terminal takes now: a picture chunk under way first, then curses'
    /// frames and other text, then the pictures' next chunks.
    private func pump() {
        while !terminalGone {
            if chunk == nil, textWritten >= text.count {
                text.removeAll(keepingCapacity: true)
                textWritten = 0
                guard pictureWindowOpen, let next = pictures?.nextChunk() else { break }
                chunk = next
                chunkWritten = 0
            }
            let blocked: Bool
            if var current = chunk {
                let (count, stopped) = writeSome(&current, from: chunkWritten)
                chunkWritten += count
                blocked = stopped
                if chunkWritten >= current.count {
                    chunk = nil
                    pictures?.chunkSent()
                    askBehindPictures()
                }
            } else {
                let (count, stopped) = writeSome(&text, from: textWritten)
                textWritten += count
                blocked = stopped
            }
            if terminalGone {
                // Nothing more can be written: what waits is dropped (after the write above has let go of it).
                text.removeAll()
                textWritten = 0
                chunk = nil
                return
            }
            if blocked {
                idleSince = nil
                return
            }
        }
        if idleSince == nil {
            idleSince = Self.clock()
            meter.idle()
        }
    }

    /// One non-blocking write of `bytes` from `offset`; returns what went and whether the terminal pushed back.
    private func writeSome(_ bytes: inout [UInt8], from offset: Int) -> (Int, Bool) {
        guard offset < bytes.count else { return (0, false) }
        let written = bytes.withUnsafeBufferPointer { write(writeDescriptor, $0.baseAddress! + offset, $0.count - offset) }
        let now = Self.clock()
        if written > 0 {
            totalWritten += written
            let pushedBack = written < bytes.count - offset
            if flowStart == 0 || pushedBack { flowStart = now; flowBytes = 0 } else { flowBytes += written }
            meter.wrote(written, at: now, blocked: pushedBack)
            if !pushedBack, now - flowStart >= 0.5 { meter.flowed(flowBytes, over: now - flowStart) }
            return (written, pushedBack)
        }
        if written < 0, errno == EINTR { return (0, false) }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            flowStart = now
            flowBytes = 0
            meter.wrote(0, at: now, blocked: true)
            return (0, true)
        }
        // The terminal is gone (its window closed, the connection dropped): the caller drops what waits. The bytes
        // being written are the caller's, lent for this call: they are not touched here.
        terminalGone = true
        return (0, true)
    }

    /// The mouse is reported (everywhere but GNU screen): taken up again after a suspend.
    private var mouseReported = false

    /// A write failed for good (EIO, EPIPE): the terminal is not there any more.
    private(set) var terminalGone = false
    /// The terminal's input hung up: nothing more will be read.
    private var inputGone = false

    /// The last frame went out, and (where the terminal answers) not more than a window of bytes is still
    /// crossing the link: over SSH, frames drawn faster than the link takes them would wait in sshd's buffer.
    public var readyForFrame: Bool {
        guard textWritten >= text.count else { return false }
        guard asksTerminal, !probes.isEmpty else { return true }
        if unconfirmed < pictureWindow { return true }
        heldBack = true
        // Unanswered for five seconds: the window opens (`pictureWindowOpen` gives up on the answers).
        return pictureWindowOpen
    }

    public func flushOutput() {
        flushAll(within: 30, preparing: true)
    }

    public func flushText() {
        let deadline = Self.clock() + 30
        while textWritten < text.count, Self.clock() < deadline {
            pump()
            guard textWritten < text.count else { break }
            var descriptor = pollfd(fd: writeDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
    }

    /// Writes everything that waits, waiting for the terminal at most `seconds` in all (on the way out);
    /// `preparing`: pictures still being made ready are waited for, and sent.
    private func flushAll(within seconds: Double, preparing: Bool = false) {
        let deadline = Self.clock() + seconds
        while hasPendingOutput || (preparing && pictures?.isPreparing == true), Self.clock() < deadline {
            if preparing, let pictures, let frame = lastFrame, !restored, pictures.wantsFrame(link: linkState(frame)) {
                draw(frame)
            }
            pump()
            guard hasPendingOutput || (preparing && pictures?.isPreparing == true) else { break }
            var descriptor = pollfd(fd: writeDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, hasPendingOutput ? 1 : 0, hasPendingOutput ? 100 : 2)
        }
    }

    // MARK: Restoring

    /// What is under way ends cleanly (the chunk being written goes out whole); pictures still waiting are dropped,
    /// and the terminal is told to take away those it shows.
    private func takePicturesAway() {
        guard let pictures else { return }
        if var current = chunk {
            current.removeFirst(chunkWritten)
            chunk = nil
            text.insert(contentsOf: current, at: textWritten)
            pictures.chunkSent()
        }
        queueText(pictures.finish())
    }

    public func restore() {
        guard !restored else { return }
        takePicturesAway()
        queueText("\u{1B}[?1006l")
        if clearsOnExit {
            // Sent through the queue like every frame (curses' own output goes to a memory file while it draws):
            // the default colours, then the screen erased, before curses leaves the alternate screen if there is one.
            queueText("\u{1B}[0m\u{1B}[H\u{1B}[2J")
        }
        restored = true
        flushAll(within: 5)
        // Answers to questions still on their way would reach the shell as text: they are read here.
        let deadline = Self.clock() + 1
        while asksTerminal, !terminalGone, !inputGone, !probes.isEmpty, Self.clock() < deadline {
            var value: wint_t = 0
            let status = wget_wch(window, &value)
            if status == ERR {
                _ = waitForInput(milliseconds: 50)
                continue
            }
            guard status != KEY_CODE_YES, let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            _ = decoder.feed(scalar)
            if decoder.deviceAttributesAnswers != answersSeen { noteAnswers() }
        }
        signal(SIGWINCH, SIG_DFL)
        if let flags = sharedFlags { _ = fcntl(writeDescriptor, F_SETFL, flags) }
        mousemask(0, nil)
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(outputFile)
        fclose(inputFile)
    }
}
