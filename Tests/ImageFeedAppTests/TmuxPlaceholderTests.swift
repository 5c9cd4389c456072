import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TerminalImage
import TerminalUI
import TestSupport
import XCTest

/// Photos inside tmux, where the terminal around tmux draws Kitty's Unicode placeholders (kitty 0.28+,
/// Ghostty) and tmux lets the pictures through (`allow-passthrough on`).
///
/// No terminal on this machine draws placeholders (Debian's kitty is 0.26), so the terminal around tmux is
/// played here: a tmux client attached on a pseudo-terminal that calls itself `kitty(0.35.2)` when tmux asks
/// (XTVERSION) and records everything tmux sends it. The photo the terminal would show is then put together
/// as kitty does it: each placeholder cell in the pane (`capture-pane -e`) names a picture (its colour and
/// third diacritic), and a row and column of it (its diacritics); the picture is the one uploaded to the
/// terminal under that id. That photo is compared with its source.
final class TmuxPlaceholderTests: XCTestCase {
    var folder: TemporaryFolder!
    var tmux: Tmux!
    var terminal: RecordingTerminal?

    override func setUpWithError() throws {
        TestWatchdog.install(current: self)
        try XCTSkipUnless(Tmux.isAvailable, "tmux is not installed (make deps installs it)")
        folder = try TemporaryFolder()
        tmux = Tmux(folder: folder.url, environment: folder.environment)
        addTeardownBlock { [weak self] in
            self?.tmux?.stop()
            self?.terminal?.stop()
        }
    }

    override func tearDown() {
        tmux?.stop()
        terminal?.stop()
        tmux = nil
        terminal = nil
        folder = nil
    }

    /// One cell of the pane: its text and its foreground colour's palette index.
    struct PaneCell {
        var text: String
        var foreground: Int?
    }

    /// The pane's cells from `capture-pane -e`: SGR colours followed, each grapheme one cell (these screens
    /// hold no wide characters where pictures are).
    static func cells(_ capture: String) -> [[PaneCell]] {
        capture.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var row: [PaneCell] = []
            var foreground: Int?
            var characters = Array(line)
            var index = 0
            while index < characters.count {
                if characters[index] == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "[" {
                    var end = index + 2
                    while end < characters.count, !characters[end].isLetter { end += 1 }
                    let parameters = String(characters[(index + 2)..<min(end, characters.count)]).split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                    if end < characters.count, characters[end] == "m" {
                        var position = 0
                        while position < parameters.count {
                            let value = parameters[position]
                            switch value {
                            case 0, 39: foreground = nil
                            case 30...37: foreground = value - 30
                            case 90...97: foreground = value - 90 + 8
                            case 38 where position + 2 < parameters.count && parameters[position + 1] == 5:
                                foreground = parameters[position + 2]
                                position += 2
                            case 38 where position + 4 < parameters.count && parameters[position + 1] == 2:
                                foreground = nil
                                position += 4
                            default: break
                            }
                            position += 1
                        }
                    }
                    index = end + 1
                    continue
                }
                row.append(PaneCell(text: String(characters[index]), foreground: foreground))
                index += 1
            }
            characters.removeAll()
            return row
        }
    }

    /// Where the placeholders of each picture are: id → [(x, y, row, column)].
    static func placeholders(_ cells: [[PaneCell]]) -> [UInt32: [(x: Int, y: Int, row: Int, column: Int)]] {
        var found: [UInt32: [(x: Int, y: Int, row: Int, column: Int)]] = [:]
        for (y, line) in cells.enumerated() {
            for (x, cell) in line.enumerated() {
                guard let named = KittyPlaceholders.decode(cell.text), let low = cell.foreground, (0...255).contains(low) else { continue }
                found[KittyPlaceholders.imageID(low: UInt8(low), high: named.high), default: []].append((x, y, named.row, named.column))
            }
        }
        return found
    }

    /// The picture a terminal shows for `cells` of picture `upload` (its virtual placement's columns and rows),
    /// from the top-left cell on screen: each cell's part of the picture, at its place on screen.
    static func shown(_ cells: [(x: Int, y: Int, row: Int, column: Int)], of upload: KittyGraphics.Command) throws -> RGBImage {
        let width = try XCTUnwrap(upload.int("s")), height = try XCTUnwrap(upload.int("v"))
        let columns = try XCTUnwrap(upload.int("c")), rows = try XCTUnwrap(upload.int("r"))
        let picture = PixelPicture(image: RGBImage(width: width, height: height, pixels: upload.payload), columns: columns, rows: rows)
        let left = cells.map(\.x).min() ?? 0, top = cells.map(\.y).min() ?? 0
        let cellWidth = width / columns, cellHeight = height / rows
        let across = (cells.map(\.x).max() ?? 0) - left + 1, down = (cells.map(\.y).max() ?? 0) - top + 1
        var pixels = [UInt8](repeating: 0, count: across * cellWidth * down * cellHeight * 3)
        for cell in cells {
            let part = picture.pixelRect(column: cell.column, row: cell.row, columns: 1, rows: 1)
            for line in 0..<min(part.height, cellHeight) {
                for pixel in 0..<min(part.width, cellWidth) {
                    let from = ((part.y + line) * width + part.x + pixel) * 3
                    let to = (((cell.y - top) * cellHeight + line) * across * cellWidth + (cell.x - left) * cellWidth + pixel) * 3
                    pixels[to..<(to + 3)] = upload.payload[from..<(from + 3)]
                }
            }
        }
        return RGBImage(width: across * cellWidth, height: down * cellHeight, pixels: pixels)
    }

    func test_insideTmux_withPassthrough_theFeedsPhotoIsPlaceholdersTheTerminalDraws_andTmuxKeepsTheScreen() throws {
        try tmux.start("exec sleep 600", width: 100, height: 32)
        try tmux.tmux(["set-option", "-g", "allow-passthrough", "on"])
        try tmux.tmux(["set-option", "-g", "default-terminal", "tmux-256color"])
        let terminal = try RecordingTerminal(socket: tmux.socket, session: "e2e", width: 100, height: 32,
                                             cellWidth: 10, cellHeight: 20, name: "kitty(0.35.2)", environment: tmux.environment)
        self.terminal = terminal
        try tmux.waitFor("the client to attach as kitty") { _ in (try? self.tmux.format("#{client_termtype}")) == "kitty(0.35.2)" }
        let settings = folder.environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)' " }.joined()
        try tmux.respawn("\(settings)'\(CommandLineTests.executable.path)' --demo; echo \"exit status $?\"; exec sh",
                         directory: EndToEndTestCase.repositoryRoot)
        try tmux.waitFor(text: "Unsplash photos, in your terminal")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Log in to Unsplash")
        try tmux.send("a")
        // The first card's photo, on the line under the tab bar (on a busy machine the second card's, a smaller file,
        // can come first), then every picture in view.
        try tmux.waitForSteady("the first card's photo", timeout: 30) { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count > 1 && lines[1].unicodeScalars.contains("\u{10EEEE}") && screen.contains("quota")
        }
        try tmux.waitForQuiet("the pictures in view")
        try tmux.send("?")
        let help = try tmux.waitFor(text: "Pictures")
        XCTAssertTrue(help.contains("Kitty graphics in Unicode"), help)
        try tmux.send("Escape")
        let screen = try tmux.waitForSteady("the help gone", timeout: 10) { !$0.contains("Keys: the feed") }

        // The photo the terminal shows: the first card's, whole, against its source.
        let found = Self.placeholders(Self.cells(try tmux.capture(escapes: true)))
        let first = try XCTUnwrap(found.min { ($0.value.map(\.y).min() ?? 0, $0.value.map(\.x).min() ?? 0) < ($1.value.map(\.y).min() ?? 0, $1.value.map(\.x).min() ?? 0) },
                                  "no placeholders in the pane:\n\(screen)")
        // The placeholders are text, drawn at once; the picture follows them (on a busy machine, a while later: a debug
        // build decoding and encoding it on two cores that also run two busy loops, the release build and the real
        // terminals' group). The wait is for that outcome, for up to a minute, looking twice a second.
        var uploads = KittyGraphics.commands(in: terminal.received).filter { $0["a"] == "T" }
        let waitingSince = Date()
        while !uploads.contains(where: { UInt32($0["i"] ?? "") == first.key }), Date().timeIntervalSince(waitingSince) < 60 {
            Thread.sleep(forTimeInterval: 0.4)
            uploads = KittyGraphics.commands(in: terminal.received).filter { $0["a"] == "T" }
        }
        XCTAssertFalse(uploads.isEmpty, "nothing reached the terminal through tmux")
        XCTAssertTrue(uploads.allSatisfy { $0["U"] == "1" && $0["q"] == "2" }, "virtual placements, quietly")
        let upload = try XCTUnwrap(uploads.last { UInt32($0["i"] ?? "") == first.key }, "picture \(first.key) was never uploaded")
        let columns = try XCTUnwrap(upload.int("c")), rows = try XCTUnwrap(upload.int("r"))
        XCTAssertEqual(first.value.count, columns * rows, "the whole card is on screen")
        XCTAssertEqual(upload.int("s"), columns * 10, "drawn for the terminal's 10x20-pixel cells")
        XCTAssertEqual(upload.int("v"), rows * 20)
        let left = first.value.map(\.x).min() ?? 0, top = first.value.map(\.y).min() ?? 0
        for cell in first.value {
            XCTAssertEqual(cell.column, cell.x - left)
            XCTAssertEqual(cell.row, cell.y - top)
        }
        let shown = try Self.shown(first.value, of: upload)
        let source = try ImageCodec.decode(Data(contentsOf: RealTerminalTestCase.astronaut)).image
        let score = shown.psnr(AreaResampler.fill(source, width: shown.width, height: shown.height))
        print("tmux placeholders: first card \(columns)x\(rows) cells, \(shown.width)x\(shown.height) px, PSNR \(String(format: "%.1f", score)) dB")
        XCTAssertGreaterThanOrEqual(score, 30, "the card the terminal would draw, against its source")

        // The next card and back: rows of text moved; no picture is sent twice.
        try tmux.send("j")
        try tmux.waitForSteady("the next card", timeout: 10) { $0 != screen }
        try tmux.send("k")
        try tmux.waitForSteady("the first card again", timeout: 10) { $0 == screen }
        let again = KittyGraphics.commands(in: terminal.received).filter { $0["a"] == "T" }
        XCTAssertEqual(again.filter { UInt32($0["i"] ?? "") == first.key }.count, 1, "the first card's photo was uploaded again")
        XCTAssertEqual(Self.placeholders(Self.cells(try tmux.capture(escapes: true)))[first.key]?.count, columns * rows)

        // On the way out every picture is forgotten (virtual placements go only by id).
        try tmux.send("q")
        try tmux.waitFor(text: "exit status 0")
        var deletes = KittyGraphics.commands(in: terminal.received).filter { $0["a"] == "d" && $0["d"] == "I" }
        let quitAt = Date()
        while !deletes.contains(where: { UInt32($0["i"] ?? "") == first.key }), Date().timeIntervalSince(quitAt) < 10 {
            deletes = KittyGraphics.commands(in: terminal.received).filter { $0["a"] == "d" && $0["d"] == "I" }
        }
        XCTAssertTrue(deletes.contains { UInt32($0["i"] ?? "") == first.key }, "the first card's photo was not deleted")
        XCTAssertEqual(try tmux.format("#{alternate_on}"), "0")
    }
}

/// A terminal emulator stand-in around a tmux client: a pseudo-terminal whose master side records what tmux
/// sends the terminal and answers tmux's XTVERSION question with `name`.
final class RecordingTerminal: @unchecked Sendable {
    private let pty: PseudoTerminal
    private var pid: pid_t = 0
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var running = true
    private var thread: Thread?

    init(socket: URL, session: String, width: Int, height: Int, cellWidth: Int, cellHeight: Int, name: String,
         environment: [String: String]) throws {
        pty = try PseudoTerminal(width: width, height: height, keepsOutput: true)
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: UInt16(width * cellWidth),
                           ws_ypixel: UInt16(height * cellHeight))
        _ = ioctl(pty.slave, UInt(TIOCSWINSZ), &size)
        var environment = environment
        environment["TERM"] = "xterm-kitty"
        let argv = ["tmux", "-f", "/dev/null", "-S", socket.path, "attach-session", "-t", session]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, pty.slave, descriptor) }
        let pointers = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            pointers.forEach { free($0) }
            variables.forEach { free($0) }
        }
        let status = posix_spawnp(&pid, "tmux", &actions, nil, pointers, variables)
        guard status == 0 else { throw Tmux.Failure(description: "cannot run the tmux client: \(String(cString: strerror(status)))") }
        let answer = Array("\u{1B}P>|\(name)\u{1B}\\".utf8)
        let thread = Thread { [self] in
            var answered = false
            while lock.withLock({ running }) {
                usleep(10_000)
                let new = pty.takeOutput()
                guard !new.isEmpty else { continue }
                let all = lock.withLock { () -> [UInt8] in
                    bytes += new
                    return answered ? [] : bytes
                }
                if !answered, String(decoding: all, as: UTF8.self).contains("\u{1B}[>q") {
                    answered = true
                    pty.type(answer)
                }
            }
        }
        thread.start()
        self.thread = thread
    }

    /// Everything tmux sent the terminal so far, once it has gone quiet (nothing more for 0.2 s, waited for at most
    /// 10 s): what was on its way has arrived.
    var received: [UInt8] {
        var seen = lock.withLock { bytes.count }
        var quietSince = Date()
        let deadline = Date().addingTimeInterval(10)
        while Date().timeIntervalSince(quietSince) < 0.2, Date() < deadline {
            usleep(20_000)
            let now = lock.withLock { bytes.count }
            if now != seen { seen = now; quietSince = Date() }
        }
        return lock.withLock { bytes }
    }

    func stop() {
        guard lock.withLock({ running }) else { return }
        lock.withLock { running = false }
        if pid > 0 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        pty.close()
    }
}
