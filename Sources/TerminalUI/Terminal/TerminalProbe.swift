import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// What the terminal in front of the user said about itself when asked, before curses started.
public struct TerminalAbilities: Equatable, Sendable {
    /// It answered the Kitty graphics query (`a=q`) with OK.
    public var kittyGraphics = false
    /// What it answered when an animation frame was added to a picture (asked with the Kitty query): nil when it was
    /// not asked (or DA1 did not come back behind it).
    public var kittyFrames: KittyFrames?
    /// Its primary device attributes (DA1) list 4: Sixel graphics.
    public var sixel = false
    /// Its name and version, from XTVERSION ("kitty(0.26.5)", "XTerm(379)", "WezTerm 20240203", "foot(1.16.2)").
    public var version: String?
    /// The size of one cell in pixels (`CSI 16 t`, else the window's pixels over its cells).
    public var cellWidth: Int?
    public var cellHeight: Int?
    /// XTGETTCAP said the terminal has the `RGB` capability (24-bit colour).
    public var trueColor = false
    /// The program runs under mosh (a `mosh-server` among its ancestors, before any tmux, screen or sshd), in this
    /// version ("1.4.0"; empty when it could not be read).
    public var mosh: String?
    /// The DA1 answer came: the terminal answered everything it was going to.
    public var answered = false
    /// The answers ended inside a control string (its introducer: P, ], _, ^ or X) that had not ended when the
    /// questions were done with: the rest of it is a reply still on its way, not keys (the key decoder starts
    /// inside it).
    public var unfinishedString: UInt8?
    /// Seconds from the questions to the DA1 answer: the link's round trip (a terminal on this machine answers
    /// in a few milliseconds; over SSH it is the network's).
    public var roundTrip: Double?

    /// The background colour (OSC 11), 0...255 a channel, where the terminal said.
    public var background: Colour?
    /// What the terminal answered DECRQM for synchronized output (DEC mode 2026: 1 set, 2 reset, both meaning it has
    /// the mode; 0 it does not know it; 3, 4 fixed); nil where it did not answer.
    public var synchronizedOutput: Int?
    /// Its DECRQM answer for colour-scheme reports (mode 2031: it says when its light or dark scheme changes), as above.
    public var themeReports: Int?

    /// The terminal said it has synchronized output (DECRQM 2026 answered 1 or 2).
    public var hasSynchronizedOutput: Bool { Self.hasMode(synchronizedOutput) }
    /// The terminal said it reports changes of its colour scheme (DECRQM 2031 answered 1 or 2).
    public var reportsThemeChanges: Bool { Self.hasMode(themeReports) }
    /// A DECRQM answer that says the terminal has the mode and it can be set and reset (1 set, 2 reset).
    static func hasMode(_ answer: Int?) -> Bool { [1, 2].contains(answer ?? 0) }

    /// A terminal's answer to an animation frame: it plays frames (kitty), refused them with an error (Zellij's
    /// `ENOTSUPPORTED`, xterm.js's `EINVAL`), or said nothing (Ghostty, Konsole).
    public enum KittyFrames: Equatable, Sendable {
        case played
        case refused(String)
        case unanswered

        /// Whether the terminal plays an animation's frames itself.
        public var plays: Bool { self == .played }
    }

    public struct Colour: Equatable, Sendable {
        public var red: Int, green: Int, blue: Int
    }

    /// Whether the background is light (its luminance over one half), where the terminal said.
    public var hasLightBackground: Bool? {
        background.map { (0.2126 * Double($0.red) + 0.7152 * Double($0.green) + 0.0722 * Double($0.blue)) / 255 > 0.5 }
    }

    /// The terminal is far away (its answers took 20 ms or more): pictures are sized to the link its answers
    /// show. Nearer, a terminal slow to take pictures is slow at drawing, not a slow link, and gets them whole.
    public var isFar: Bool { (roundTrip ?? 0) >= Self.farRoundTrip }
    /// From this round trip on (20 ms) the terminal is taken to be at the far end of a link.
    public static let farRoundTrip = 0.02

    public init() {}
}

/// The one burst of questions asked before curses starts: Kitty `a=q`, XTGETTCAP RGB, XTVERSION, the cell's
/// and the window's size in pixels, and DA1 last, which every terminal answers, so its answer ends the wait.
/// A terminal that answers nothing costs the deadline and no more; answers that come later are escape
/// sequences the input decoder drops whole.
public enum TerminalProbe {
    /// The first questions, in the order the answers are expected (DA1 last, which every terminal answers). The
    /// cursor is saved before them and put back after them with the rest of the screen below it erased: a question
    /// a terminal did not understand and printed is gone before anyone sees it.
    public static func queries(environment: [String: String]) -> String {
        "\u{1B}7" + otherQueries + "\u{1B}8\u{1B}[J"
    }

    /// The Kitty graphics query, asked second (with DA1 again behind it), once the first answers said who is in
    /// front: an APC string is a window title to tmux and GNU screen, which a program reached over SSH from inside a
    /// local tmux cannot tell from its environment (TERM may say xterm-256color) but can from tmux's XTVERSION answer.
    /// Behind it, whether the terminal plays animation frames (`KittyGraphics.animationQuery`): in the same round trip.
    public static let kittyQueries = "\u{1B}7" + KittyGraphics.query + KittyGraphics.animationQuery + "\u{1B}[c" + "\u{1B}8\u{1B}[J"

    static let otherQueries = ""
        + "\u{1B}P+q524742\u{1B}\\" // XTGETTCAP "RGB" (hex)
        + "\u{1B}[>0q" // XTVERSION
        + "\u{1B}[16t" // the cell's size in pixels
        + "\u{1B}[14t" // the text area's size in pixels
        + "\u{1B}]11;?\u{1B}\\" // OSC 11: the background colour (light or dark)
        + "\u{1B}[?2026$p" // DECRQM: synchronized output
        + "\u{1B}[?2031$p" // DECRQM: colour-scheme change reports
        + "\u{1B}[c" // DA1: the sentinel

    /// Asks the terminal on `input`/`output` and reads its answers until DA1's arrives or `deadline` seconds
    /// pass. The terminal's modes are as they were afterwards. nil when it is not a terminal.
    /// Each exchange has the whole deadline from when it is written: a terminal that answered the first questions
    /// slowly (a huge window drawn in software, a far link) has shown it answers, and the Kitty query behind them is
    /// not cut short by the first's wait (its answer would then come as keys, and pictures in pixels go unused).
    public static func run(input: Int32, output: Int32, environment: [String: String], deadline: Double = 1.5) -> TerminalAbilities? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        // A terminal that says it takes no escape sequences (TERM dumb, or none) is asked nothing: the questions
        // would be printed as they are.
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(input, TCSANOW, &saved) }
        // Every answer, through the key decoder's own idea of a control string: where the answers leave off inside
        // one, the keys that follow start there too.
        var decoder = InputDecoder()
        /// Writes `questions` and reads until DA1's answer arrives (or the deadline passes).
        func exchange(_ questions: String) -> [UInt8]? {
            let bytes = Array(questions.utf8)
            guard bytes.withUnsafeBufferPointer({ write(output, $0.baseAddress, $0.count) }) == bytes.count else { return nil }
            let start = ProcessInfo.processInfo.systemUptime
            var answer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let left = deadline - (ProcessInfo.processInfo.systemUptime - start)
                guard left > 0 else { break }
                var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, Int32((left * 1000).rounded(.up))) > 0 else { break }
                let count = read(input, &chunk, chunk.count)
                guard count > 0 else { break }
                answer += chunk[0..<count]
                if parse(answer).answered { break }
            }
            for scalar in String(decoding: answer, as: UTF8.self).unicodeScalars { _ = decoder.feed(scalar) }
            return answer
        }
        let start = ProcessInfo.processInfo.systemUptime
        guard let answer = exchange(queries(environment: environment)) else { return nil }
        var abilities = parse(answer)
        if abilities.answered { abilities.roundTrip = ProcessInfo.processInfo.systemUptime - start }
        // Then, where it is safe, the Kitty graphics query (one more round trip).
        if Terminals.sendsKittyQuery(environment, after: abilities), let second = exchange(kittyQueries) {
            let answers = parse(second)
            abilities.kittyGraphics = answers.kittyGraphics
            // Asked only where Kitty graphics answered; DA1 behind it means every answer came.
            if answers.kittyGraphics, answers.answered { abilities.kittyFrames = answers.kittyFrames ?? .unanswered }
        }
        if abilities.cellWidth == nil, let cell = cellSize(of: output) ?? cellSize(of: output, textArea: textArea(answer)) {
            abilities.cellWidth = cell.width
            abilities.cellHeight = cell.height
        }
        abilities.unfinishedString = decoder.openString
        return abilities
    }

    /// The terminal asked (`run`), and the tmux the program runs in (`TmuxClient.ask`), as the session and doctor
    /// both need them: tmux draws 24-bit colour in its client's terminal when it knows that terminal has it (over
    /// SSH, then tmux, no COLORTERM reaches the pane), which counts as the terminal's own `RGB`.
    /// mosh 1.4 and later draw 24-bit colour in the terminal the client runs in, though mosh-server sets TERM to
    /// xterm-256color and nothing says so (mosh answers DA1 itself, and no COLORTERM crosses).
    public static func ask(input: Int32, output: Int32, environment: [String: String]) -> (abilities: TerminalAbilities?, tmux: TmuxClient?) {
        var abilities = run(input: input, output: output, environment: environment)
        let tmux = Terminals.isMultiplexed(environment) ? TmuxClient.ask(environment: environment) : nil
        if tmux?.hasRGB == true { abilities?.trueColor = true }
        if !Terminals.isMultiplexed(environment), let server = moshServer(among: ancestors()) {
            let version = moshVersion(of: server)
            abilities?.mosh = version ?? ""
            if let version, Terminals.moshDrawsDirectColour(version) { abilities?.trueColor = true }
        }
        return (abilities, tmux)
    }

    /// The program's ancestors, nearest first: each process's id and name (`/proc/PID/comm`), at most `limit`.
    public static func ancestors(limit: Int = 16) -> [(pid: Int32, name: String)] {
        var chain: [(pid: Int32, name: String)] = []
        var pid = getppid()
        while pid > 1, chain.count < limit {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { break }
            chain.append((pid, String(stat[stat.index(after: open)..<close])))
            // After the name: the state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { break }
            pid = parent
        }
        return chain
    }

    /// The mosh-server the program runs under: the first ancestor named so, unless tmux, GNU screen or sshd come
    /// first (they stand between the program and mosh, and answer for themselves).
    public static func moshServer(among ancestors: [(pid: Int32, name: String)]) -> Int32? {
        for ancestor in ancestors {
            let name = ancestor.name.lowercased()
            if name == "mosh-server" { return ancestor.pid }
            if name.hasPrefix("tmux") || name == "screen" || name.hasPrefix("sshd") { return nil }
        }
        return nil
    }

    /// The version of the mosh-server with id `pid` ("1.4.0"), from its `--version` (at most a second); nil when
    /// it cannot be read.
    static func moshVersion(of pid: Int32) -> String? {
        guard let run = quietly(URL(fileURLWithPath: "/proc/\(pid)/exe"), ["--version"], deadline: 1) else { return nil }
        return parseMoshVersion(String(decoding: run.output.prefix(4096), as: UTF8.self))
    }

    /// Runs a tool with nothing on its standard input and its errors dropped, for at most `deadline` seconds: its exit
    /// status and standard output, or nil when it could not start or did not finish in time (it is then stopped).
    static func quietly(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                        deadline: Double) -> (status: Int32, output: Data)? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        if finished.wait(timeout: .now() + deadline) == .timedOut {
            process.terminate()
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return (process.terminationStatus, data)
    }

    /// "mosh-server (mosh 1.4.0) [build mosh 1.4.0]" → "1.4.0".
    public static func parseMoshVersion(_ text: String) -> String? {
        guard let range = text.range(of: "(mosh ") else { return nil }
        let version = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return version.isEmpty ? nil : String(version)
    }

    /// A cell's size in pixels: the terminal's text area in pixels (`textArea`, from `CSI 14 t`; nil: the
    /// window's pixels as `TIOCGWINSZ` gives them) over its cells. nil when that is not known.
    public static func cellSize(of descriptor: Int32, textArea: (width: Int, height: Int)? = nil) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        let area = textArea ?? (Int(size.ws_xpixel), Int(size.ws_ypixel))
        guard area.width > 0, area.height > 0 else { return nil }
        return (area.width / Int(size.ws_col), area.height / Int(size.ws_row))
    }

    /// What the answers in `bytes` say (any order, any other bytes between them).
    public static func parse(_ bytes: [UInt8]) -> TerminalAbilities {
        var abilities = TerminalAbilities()
        for sequence in sequences(in: bytes) {
            switch sequence {
            case let .apc(body):
                // ESC _ G i=31;OK ESC \
                if KittyGraphics.answer(body, about: 31) == "OK" { abilities.kittyGraphics = true }
                if let answer = KittyGraphics.answer(body, about: KittyGraphics.animationQueryID) {
                    abilities.kittyFrames = answer == "OK" ? .played : .refused(String(answer.prefix(60)))
                }
            case let .dcs(body):
                if body.hasPrefix(">|") {
                    let name = String(body.dropFirst(2)).filter { !$0.isASCII || !$0.isWhitespace || $0 == " " }
                    if !name.isEmpty { abilities.version = String(name.prefix(60)) }
                } else if body.hasPrefix("1+r") {
                    // 1+r 524742=… : the terminal has RGB.
                    if body.dropFirst(3).uppercased().hasPrefix("524742") { abilities.trueColor = true }
                }
            case let .osc(body):
                // 11;rgb:RRRR/GGGG/BBBB (1 to 4 hex digits a channel)
                if body.hasPrefix("11;rgb:") {
                    let channels = body.dropFirst(7).split(separator: "/").map { part -> Int? in
                        guard (1...4).contains(part.count), let value = Int(part, radix: 16) else { return nil }
                        let top = (1 << (4 * part.count)) - 1
                        return (value * 255 + top / 2) / top
                    }
                    if channels.count == 3, let red = channels[0], let green = channels[1], let blue = channels[2] {
                        abilities.background = TerminalAbilities.Colour(red: red, green: green, blue: blue)
                    }
                }
            case let .csi(parameters, final):
                if final == "c", parameters.hasPrefix("?") {
                    abilities.answered = true
                    let values = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
                    if values.dropFirst().contains(4) { abilities.sixel = true }
                } else if final == "y", parameters.hasPrefix("?"), parameters.hasSuffix("$") {
                    // DECRPM: ? mode ; value $ y
                    let values = parameters.dropFirst().dropLast().split(separator: ";").compactMap { Int($0) }
                    if values.count == 2 {
                        if values[0] == 2026 { abilities.synchronizedOutput = values[1] }
                        if values[0] == 2031 { abilities.themeReports = values[1] }
                    }
                } else if final == "t" {
                    let values = parameters.split(separator: ";").compactMap { Int($0) }
                    if values.count == 3, values[0] == 6, values[1] > 0, values[2] > 0 {
                        abilities.cellHeight = values[1]
                        abilities.cellWidth = values[2]
                    }
                }
            }
        }
        return abilities
    }

    /// The text area's size in pixels, from the answer to `CSI 14 t`.
    static func textArea(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        for case let .csi(parameters, "t") in sequences(in: bytes) {
            let values = parameters.split(separator: ";").compactMap { Int($0) }
            if values.count == 3, values[0] == 4, values[1] > 0, values[2] > 0 { return (values[2], values[1]) }
        }
        return nil
    }

    enum Sequence: Equatable {
        case apc(String)
        case dcs(String)
        /// An OSC answer, ended by ST or BEL.
        case osc(String)
        case csi(String, Character)
    }

    /// The APC, DCS and CSI sequences in `bytes`; everything else is skipped.
    static func sequences(in bytes: [UInt8]) -> [Sequence] {
        var found: [Sequence] = []
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == 0x1B else {
                index += 1
                continue
            }
            let kind = bytes[index + 1]
            if kind == 0x5F || kind == 0x50 { // APC, DCS: up to ST
                // Any other Esc ends it too, as in terminals' own parsers: a reply that never ends cannot hide
                // the answers after it.
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x1B { end += 1 }
                guard end + 1 < bytes.count else { break }
                guard bytes[end + 1] == 0x5C else {
                    index = end // unterminated: dropped, and the Esc starts the next sequence
                    continue
                }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                found.append(kind == 0x5F ? .apc(body) : .dcs(body))
                index = end + 2
            } else if kind == 0x5D { // OSC: up to BEL or ST
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x1B, bytes[end] != 0x07 { end += 1 }
                guard end < bytes.count else { break }
                let body = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                if bytes[end] == 0x07 {
                    found.append(.osc(body))
                    index = end + 1
                } else if end + 1 < bytes.count, bytes[end + 1] == 0x5C {
                    found.append(.osc(body))
                    index = end + 2
                } else {
                    if end + 1 >= bytes.count { break }
                    index = end // unterminated: dropped, and the Esc starts the next sequence
                }
            } else if kind == 0x5B { // CSI: parameters, then a final byte 0x40–0x7E
                var end = index + 2
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { break }
                found.append(.csi(String(decoding: bytes[(index + 2)..<end], as: UTF8.self), Character(Unicode.Scalar(bytes[end]))))
                index = end + 1
            } else {
                index += 2
            }
        }
        return found
    }
}

/// What tmux says of the pane the program runs in and of the terminal its client sits in: whether escape
/// sequences may pass through to that terminal, and which terminal it is (tmux asks it with XTVERSION).
public struct TmuxClient: Equatable, Sendable {
    /// The pane's `allow-passthrough` (on or all).
    public var passthrough: Bool
    /// The client's TERM ("xterm-kitty").
    public var terminalName: String
    /// The client terminal's own name and version ("kitty(0.35.2)", "ghostty 1.1.3"), when it answered tmux.
    public var terminalType: String
    /// The client terminal's cell in pixels, as its window size says (a pane's own size in pixels can be
    /// tmux's default instead).
    public var cellWidth: Int?
    public var cellHeight: Int?
    /// tmux draws 24-bit colour in the client's terminal (`RGB` among its `client_termfeatures`): a program in the
    /// pane may use it, though no COLORTERM reached the pane (over SSH, then tmux).
    public var hasRGB = false
    /// tmux was built with Sixel (`#{sixel_support}`, tmux 3.4 and later) and the client's terminal draws it (`sixel`
    /// among its features): a Sixel picture in the pane reaches the terminal, in the pane.
    public var drawsSixel = false
    /// tmux passes synchronized output on to the client's terminal (`sync` among its features, tmux 3.4 and later).
    public var synchronizes = false

    public init(passthrough: Bool, terminalName: String, terminalType: String, cellWidth: Int? = nil, cellHeight: Int? = nil) {
        self.passthrough = passthrough
        self.terminalName = terminalName
        self.terminalType = terminalType
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    /// The question put to tmux: `tmux display-message -p` with this format.
    public static let format = "#{allow-passthrough}|#{client_termname}|#{client_termtype}|#{client_cell_width}|#{client_cell_height}"
        + "|#{client_termfeatures}|#{sixel_support}"

    /// tmux's answer to `format` (nil when it is not one).
    public static func parse(_ answer: String) -> TmuxClient? {
        let fields = answer.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|", omittingEmptySubsequences: false)
        guard [3, 5, 6, 7].contains(fields.count) else { return nil }
        let passthrough = ["1", "on", "all"].contains(fields[0].lowercased())
        var client = TmuxClient(passthrough: passthrough, terminalName: String(fields[1].prefix(60)), terminalType: String(fields[2].prefix(60)))
        if fields.count >= 6 {
            let features = fields[5].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            client.hasRGB = features.contains("RGB")
            client.synchronizes = features.contains("sync")
            client.drawsSixel = fields.count == 7 && fields[6] == "1" && features.contains("sixel")
        }
        if fields.count >= 5, let width = Int(fields[3]), let height = Int(fields[4]),
           GraphicsMode.cellWidths.contains(width), GraphicsMode.cellHeights.contains(height) {
            client.cellWidth = width
            client.cellHeight = height
        }
        return client
    }

    /// Whether the terminal draws Kitty's Unicode placeholders (its row in `Terminals`: kitty from 0.28, Ghostty, Rio).
    public var drawsPlaceholders: Bool {
        let seen = Terminals.Seen(environment: [:], abilities: nil, tmux: self)
        return Terminals.row(seen)?.placeholders(seen) == true
    }

    /// Asks the tmux the program runs in (`TMUX` names it) about this pane; nil outside tmux, or when tmux
    /// does not answer within `deadline` seconds.
    public static func ask(environment: [String: String], deadline: Double = 1) -> TmuxClient? {
        guard Terminals.insideTmux(environment) else { return nil }
        return run(display(format, environment: environment), environment: environment, deadline: deadline).flatMap(parse)
    }

    /// `display-message -p` of `format` for this pane (`TMUX_PANE` names it).
    static func display(_ format: String, environment: [String: String]) -> [String] {
        var arguments = ["display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        return arguments + [format]
    }

    /// Runs tmux (the server `TMUX` names) with `arguments`: its output, or nil if it failed or took over `deadline`.
    public static func run(_ arguments: [String], environment: [String: String], deadline: Double = 1) -> String? {
        guard let run = TerminalProbe.quietly(URL(fileURLWithPath: "/usr/bin/env"), ["tmux"] + arguments, environment: environment,
                                              deadline: deadline), run.status == 0 else { return nil }
        return String(decoding: run.output, as: UTF8.self)
    }
}
