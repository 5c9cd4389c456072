import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TerminalImage
import TestSupport
import XCTest

/// What the real-terminal classes share (`RealTerminalTests`, `RealTerminalPathTests`): an X server of the test's own
/// (Xvfb, its screen drawn into a file that photographs read), terminals opened in it and ended with the test, keys
/// sent as a person types them, photographs of a window, and the measures a photograph is judged by.
class RealTerminalTestCase: XCTestCase {
    enum Terminal: String {
        case kitty, xterm, urxvt, mlterm
        /// mlterm in white on black.
        case mltermDark
        case alacritty
    }

    static let tools = ["Xvfb", "xdotool", "xwininfo", "kitty", "xterm", "img2sixel", "urxvt", "mlterm", "alacritty", "chafa"]

    var folder: TemporaryFolder!
    var xvfb: Process?
    var display = ""
    /// The folder the X server draws its screen into (`-fbdir`): photographs are read from it.
    var screenFolder: TemporaryFolder?
    var terminals: [Process] = []
    /// Each window opened, by the class it was opened with: a terminal that makes its window anew is found again by it
    /// (`live`).
    var windowClasses: [String: String] = [:]

    override func setUpWithError() throws {
        let missing = Self.tools.filter { !Tool.isInstalled($0) }
        try XCTSkipUnless(missing.isEmpty, "not installed: \(missing.joined(separator: ", ")) (make test installs them)")
        TestWatchdog.install(current: self)
        folder = try TemporaryFolder()
        try startX()
    }

    /// An X server of its own, ready when a client has been answered (its socket appears before it has a keyboard,
    /// and a server whose keymap cannot be made ends then). What it says goes to `Xvfb.log` in the test's folder.
    func startX() throws {
        for attempt in 0..<20 {
            let number = 300 + Int.random(in: 0..<600) + attempt
            guard !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"),
                  !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") else { continue }
            let server = Process()
            server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // -noreset: without it the server starts over whenever its last client goes (an `xdotool search` that
            // ends before the terminal has connected), and a client connecting meanwhile is turned away.
            // -fbdir: the screen in a file, read for photographs without a request to the server (XvfbScreen).
            let screen = try TemporaryFolder()
            server.arguments = ["Xvfb", ":\(number)", "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-noreset",
                                "-fbdir", screen.url.path]
            FileManager.default.createFile(atPath: xLog.path, contents: nil)
            let log = try FileHandle(forWritingTo: xLog)
            log.seekToEndOfFile()
            server.standardOutput = log
            server.standardError = log
            try server.run()
            display = ":\(number)"
            let deadline = Date().addingTimeInterval(15)
            while server.isRunning, Date() < deadline {
                if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"), xAnswers() {
                    xvfb = server
                    screenFolder = screen
                    return
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Self.end(server)
        }
        display = ""
        throw XCTSkip("Xvfb did not start: \(xSaid)")
    }

    var xLog: URL { folder.url.appendingPathComponent("Xvfb.log") }
    var xSaid: String { String(((try? String(contentsOf: xLog, encoding: .utf8)) ?? "").suffix(800)) }

    /// Whether the X server takes a client and answers it.
    func xAnswers() -> Bool {
        (try? runToEnd(["xdotool", "getdisplaygeometry"], timeout: 5))?.status == 0
    }

    override func tearDown() {
        for terminal in terminals { Self.end(terminal) }
        terminals = []
        if let xvfb { Self.end(xvfb) }
        xvfb = nil
        screenFolder = nil
        folder = nil
    }

    /// Asks a process to end (SIGTERM), and kills it if it has not within five seconds: a terminal drawing in
    /// software on a busy machine, or one whose X server went away, is not waited for without end.
    static func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in folder.environment { environment[key] = value }
        environment["DISPLAY"] = display
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        environment["LANG"] = "C.UTF-8"
        // These tests judge what the terminal draws, not the link: a terminal drawing in software under Xvfb, on a
        // machine busy photographing it, answers the start-up probe slowly enough (90 ms seen) to pass for a far
        // link, and then gets its pictures small first (the slow-link tests cover that path).
        environment["IMAGE_FEED_LINK"] = "fast"
        for key in ["TMUX", "COLORTERM", "TERM_PROGRAM", "NO_COLOR", "IMAGE_FEED_GRAPHICS", "IMAGE_FEED_COLORS"] {
            environment[key] = nil
        }
        return environment
    }

    /// Starts `command` in a terminal window of `columns` x `rows` cells; returns the window's id.
    /// `listen`: kitty's remote control on this socket (`kitty @ get-text` reads the screen back, links and all).
    func open(_ terminal: Terminal, columns: Int = 100, rows: Int = 32, command: [String], listen: String? = nil) throws -> String {
        let windowClass = "imagefeedtest\(Int.random(in: 1000..<9999))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        switch terminal {
        case .kitty:
            process.arguments = ["kitty", "--class", windowClass, "--config", "NONE", "-o", "remember_window_size=no",
                                 "-o", "initial_window_width=\(columns)c", "-o", "initial_window_height=\(rows)c",
                                 "-o", "font_size=11", "-o", "window_padding_width=0"]
                + (listen.map { ["-o", "allow_remote_control=yes", "--listen-on", "unix:\($0)"] } ?? []) + command
        case .xterm:
            process.arguments = ["xterm", "-class", windowClass, "-ti", "vt340", "-tn", "xterm-256color", "-bg", "black",
                                 "-fg", "white", "-fa", "DejaVu Sans Mono", "-fs", "11", "-geometry", "\(columns)x\(rows)+0+0",
                                 "-xrm", "XTerm*numColorRegisters: 1024", "-e"] + command
        case .urxvt:
            process.arguments = ["urxvt", "-name", windowClass, "+sb", "-bg", "black", "-fg", "white", "-fn", "xft:DejaVu Sans Mono:size=11",
                                 "-geometry", "\(columns)x\(rows)+0+0", "-e"] + command
        case .mlterm:
            // mlterm's own defaults: black on white.
            process.arguments = ["mlterm", "--name", windowClass, "--geometry", "\(columns)x\(rows)+0+0", "-e"] + command
        case .alacritty:
            process.arguments = ["alacritty", "--class", windowClass, "-o", "window.dimensions.columns=\(columns)",
                                 "-o", "window.dimensions.lines=\(rows)", "-o", "window.padding.x=0", "-o", "window.padding.y=0",
                                 "-o", "colors.primary.background='#000000'", "-e"] + command
        case .mltermDark:
            process.arguments = ["mlterm", "--name", windowClass, "--geometry", "\(columns)x\(rows)+0+0", "--bg", "black", "--fg", "white", "--sb=false",
                                 "-e"] + command
        }
        process.environment = environment
        // What the terminal says goes to a file in the test's folder, named in the failure.
        let log = folder.url.appendingPathComponent("\(terminal.rawValue)-\(windowClass).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        terminals.append(process)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let ended = !process.isRunning
            // kitty and xterm take the class; urxvt and mlterm the instance's name.
            let found = (try run(["xdotool", "search", "--class", windowClass])
                + "\n" + run(["xdotool", "search", "--classname", windowClass])).split(separator: "\n")
            if let window = found.last {
                windowClasses[String(window)] = windowClass
                return String(window)
            }
            // A terminal that had ended before that look will not show a window: say so now, not at the deadline.
            if ended { break }
            Thread.sleep(forTimeInterval: 0.3)
        }
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let server = xvfb?.isRunning == true ? (xAnswers() ? "answering" : "running, not answering") : "gone"
        throw NoWindow(description: "the \(terminal.rawValue) window never appeared (running: \(process.isRunning)); it said: "
                       + "\(said.suffix(1500)); the X server \(display) is \(server)\(server == "answering" ? "" : ", and said: \(xSaid)")")
    }

    /// Runs a tool to its end, or stops it after `timeout` seconds (a client of an X server busy with a terminal
    /// drawing in software can wait long).
    @discardableResult
    func run(_ arguments: [String], timeout: Double = 20) throws -> String {
        String(decoding: try runToEnd(arguments, timeout: timeout).output, as: UTF8.self)
    }

    /// `run`'s work: the tool's exit status (-1 when it was stopped or killed) and its output (`Tool`: nothing of this
    /// process is passed on, so a tool that leaves a child behind cannot hold the wait open).
    func runToEnd(_ arguments: [String], timeout: Double) throws -> (status: Int32, output: Data) {
        let outcome = try Tool.execute(arguments, environment: environment, timeout: timeout)
        return (outcome.status, outcome.output)
    }

    /// The window its terminal has now under the class `window` was opened with (the same one, unless the terminal made
    /// its window anew: kitty was seen to under load); `window` itself where none is found.
    func live(_ window: String) throws -> String {
        guard let windowClass = windowClasses[window] else { return window }
        let found = try run(["xdotool", "search", "--class", windowClass]) + "\n" + run(["xdotool", "search", "--classname", windowClass])
        return found.split(separator: "\n").last.map(String.init) ?? window
    }

    /// Keys, as a person types them: xterm ignores keys sent to a window it does not have focus of.
    func press(_ window: String, _ keys: String...) throws {
        try run(["xdotool", "windowfocus", "--sync", live(window)])
        for key in keys {
            try run(["xdotool", "key", key])
            Thread.sleep(forTimeInterval: 0.4)
        }
    }

    /// The window as it looks now: its place from `xwininfo`, its pixels read from the file the X server draws the
    /// screen into (`XvfbScreen`), so a server busy with a terminal drawing in software is asked nothing but where
    /// the window is. Tried again if that answer does not come.
    func photograph(_ window: String) throws -> RGBImage {
        var failures: [String] = []
        for attempt in 0..<8 {
            do {
                guard let screenFolder else { throw XvfbScreen.Unreadable(description: "no X server") }
                let area = try geometry(of: window, orItsClassAgain: attempt > 0)
                return try XvfbScreen(file: screenFolder.url.appendingPathComponent("Xvfb_screen0"))
                    .photograph(x: area.x, y: area.y, width: area.width, height: area.height)
            } catch {
                failures.append("\(error)")
            }
            Thread.sleep(forTimeInterval: 0.5 * Double(attempt + 1))
        }
        // What was running, for the failure: a photograph that never comes is the X server's or the terminal's.
        let processes = (try? run(["ps", "-eo", "pid,stat,pcpu,etime,wchan:16,args"])) ?? ""
        let names = ["Xvfb", "image-feed", "xwininfo"] + [Terminal.kitty, .xterm, .urxvt, .mlterm, .alacritty].map(\.rawValue)
        let relevant = processes.split(separator: "\n").filter { line in names.contains { line.contains($0) } }
        let server = xvfb?.isRunning == true ? (xAnswers() ? "answering" : "running, not answering") : "gone"
        let logs = ((try? FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "log" && $0.lastPathComponent != xLog.lastPathComponent }
            .map { "\($0.lastPathComponent): \(((try? String(contentsOf: $0, encoding: .utf8)) ?? "").suffix(600))" }
        throw NoPhotograph(description: "no photograph of window \(window) in 8 tries (\(Set(failures).sorted().joined(separator: "; "))); running:\n" + relevant.joined(separator: "\n")
                           + "\nthe X server \(display) is \(server), and said: \(xSaid)\n" + logs.joined(separator: "\n"))
    }

    /// No photograph of a window could be taken; what was running then.
    struct NoPhotograph: Error, CustomStringConvertible { var description: String }

    /// A terminal's window never appeared; what it and the X server said.
    struct NoWindow: Error, CustomStringConvertible { var description: String }

    /// Where the window is on the screen, and its size, as `xwininfo` says. `orItsClassAgain`: where the window is
    /// gone, the window its terminal has now under the same class.
    func geometry(of window: String, orItsClassAgain: Bool = false) throws -> (x: Int, y: Int, width: Int, height: Int) {
        // Its errors with its output: a failure says what the server answered.
        func ask(_ id: String) throws -> String {
            try Tool.execute(["xwininfo", "-id", id], environment: environment, errorsWithOutput: true, timeout: 10).text
        }
        var info = try ask(window)
        if orItsClassAgain, !info.contains("Absolute upper-left X"), case let now = try live(window), now != window {
            info = try ask(now)
        }
        func value(_ label: String) -> Int? {
            info.split(separator: "\n").first { $0.contains(label) }?.split(separator: ":").last
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        /// What xwininfo said instead (its errors come with its output), for the failure.
        struct NoGeometry: Error, CustomStringConvertible {
            var said: String
            var description: String { "no geometry from xwininfo: \(said.isEmpty ? "nothing (stopped at its deadline)" : said)" }
        }
        guard let x = value("Absolute upper-left X"), let y = value("Absolute upper-left Y"), let width = value("Width"),
              let height = value("Height"), width > 0, height > 0 else {
            throw NoGeometry(said: String(info.trimmingCharacters(in: .whitespacesAndNewlines).prefix(200)))
        }
        return (x, y, width, height)
    }

    /// Photographs until `condition` holds (at most `seconds`); the last photograph.
    func photograph(_ window: String, until what: String, seconds: Double = 30, _ condition: (RGBImage) -> Bool) throws -> RGBImage {
        let deadline = Date().addingTimeInterval(seconds)
        var shot = try photograph(window)
        while !condition(shot) {
            guard Date() < deadline else {
                let keep = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("real-terminal-\(what.filter(\.isLetter)).jpg")
                if let jpeg = try? ImageCodec.encodeJPEG(shot, quality: 95) { try? jpeg.write(to: keep) }
                XCTFail("gave up waiting for \(what) (the last photograph: \(keep.path))")
                return shot
            }
            Thread.sleep(forTimeInterval: 0.5)
            shot = try photograph(window)
        }
        return shot
    }

    /// The window once it shows what was asked for and holds still: changed from `before` (nil: anything lit at all)
    /// and two photographs in a row alike. It waits on what the screen shows, never for a set time.
    @discardableResult
    func settled(_ window: String, after before: RGBImage? = nil, _ what: String, seconds: Double = 30) throws -> RGBImage {
        var previous: RGBImage?
        return try photograph(window, until: what, seconds: seconds) { shot in
            defer { previous = shot }
            guard Self.alike(previous, shot) else { return false }
            guard let before else { return Self.litRows(shot) > 0 }
            return !Self.alike(before, shot)
        }
    }

    /// The app of this test has asked the terminal its questions (its log says which theme it took, the last thing
    /// it decides before drawing), and its first screen that takes keys (the login's, after the splash) is drawn
    /// and holds still; that screen.
    @discardableResult
    func appStarted(_ window: String, seconds: Double = 30) throws -> RGBImage {
        let log = folder.url.appendingPathComponent("state/image-feed/image-feed.log")
        let deadline = Date().addingTimeInterval(seconds)
        while !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("theme: ") {
            guard Date() < deadline else {
                XCTFail("the app never started: its log says \(((try? String(contentsOf: log, encoding: .utf8)) ?? "nothing").suffix(800))")
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try settled(window, "the app's first screen", seconds: seconds)
    }

    /// From the first screen to the feed with the demo's own approval (`a` on the login screen): each key once the
    /// screen before it has been drawn.
    func logIntoTheDemo(_ window: String) throws {
        let first = try appStarted(window)
        try press(window, "Return")
        try settled(window, after: first, "the login screen")
        try press(window, "a")
    }

    // MARK: Finding the photo in a photograph

    static func isDark(_ image: RGBImage, _ x: Int, _ y: Int) -> Bool {
        let pixel = image.pixel(x: x, y: y)
        return Int(pixel.red) + Int(pixel.green) + Int(pixel.blue) < 40
    }

    /// The photo in a photograph of the viewer: the rows whose left margin is dark (the status line's is not)
    /// and whose middle is not; within them, the columns that are mostly not dark.
    static func photoRect(in shot: RGBImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        let margin = max(2, shot.width / 20)
        var rows: [Bool] = []
        for y in 0..<shot.height {
            let marginDark = (0..<margin).allSatisfy { isDark(shot, $0, y) }
            let middle = (shot.width / 3)..<(shot.width * 2 / 3)
            let lit = middle.filter { !isDark(shot, $0, y) }.count
            rows.append(marginDark && lit > middle.count / 3)
        }
        guard let rowsRun = longestRun(rows) else { return nil }
        var columns: [Bool] = []
        for x in 0..<shot.width {
            let lit = rowsRun.filter { !isDark(shot, x, $0) }.count
            columns.append(lit > rowsRun.count / 2)
        }
        guard let columnsRun = longestRun(columns) else { return nil }
        return (columnsRun.lowerBound, rowsRun.lowerBound, columnsRun.count, rowsRun.count)
    }

    static func longestRun(_ flags: [Bool]) -> Range<Int>? {
        var best: Range<Int>?
        var start: Int?
        for index in 0...flags.count {
            let on = index < flags.count && flags[index]
            if on, start == nil { start = index }
            if !on, let first = start {
                if (best?.count ?? 0) < index - first { best = first..<index }
                start = nil
            }
        }
        return best
    }

    static func crop(_ image: RGBImage, _ rect: (x: Int, y: Int, width: Int, height: Int)) -> RGBImage {
        PixelPicture(image: image, columns: 1, rows: 1).crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The photo found in `shot` against the source, resized to the size it was found at. The outermost
    /// pixel all round is left out (edges of a resized picture differ by half a pixel).
    static func score(_ shot: RGBImage, against source: RGBImage) -> (psnr: Double, rect: (x: Int, y: Int, width: Int, height: Int))? {
        guard let rect = photoRect(in: shot), rect.width > 40, rect.height > 40 else { return nil }
        let found = crop(shot, rect)
        let expected = AreaResampler.resize(source, width: rect.width, height: rect.height)
        let inner = (x: 1, y: 1, width: rect.width - 2, height: rect.height - 2)
        return (crop(found, inner).psnr(crop(expected, inner)), rect)
    }

    /// Two photographs of the same window that show the same (the window has settled).
    static func alike(_ earlier: RGBImage?, _ later: RGBImage) -> Bool {
        guard let earlier, earlier.width == later.width, earlier.height == later.height else { return false }
        return earlier.psnr(later) > 45
    }

    /// The CPU time (in clock ticks, user and system) of the `image-feed` processes of this test (the one whose home
    /// is the test's folder, whichever way it was started: directly, over ssh, inside tmux, screen or mosh): unchanged
    /// between two photographs, the app has nothing left to draw. Another copy on the machine (an earlier test's that
    /// still plays an animation, a person's) is not this test's, and its work never kept this one waiting.
    /// Nil while none runs (not started yet, or gone): then it is not idle, it is not there. A copy started by one of
    /// this test's terminals is its own too, whatever home the terminal gave it (alacritty gives its child the user's).
    func appCPUTicks() -> Int? {
        let program = CommandLineTests.executable.resolvingSymlinksInPath().path
        let home = Data("HOME=\(folder.url.path)".utf8)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let ours = Set(terminals.map(\.processIdentifier))
        var ticks: Int?
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == program,
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  environment.split(separator: 0).contains(where: { $0.elementsEqual(home) })
                    || Self.descends(Int32(pid) ?? 0, from: ours),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { continue }
            // After the name in parentheses: state is field 3, utime and stime fields 14 and 15.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            if fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) { ticks = (ticks ?? 0) + user + system }
        }
        return ticks
    }

    /// Whether `pid` is a child, grandchild… of one of `ancestors` (its parents read from /proc).
    static func descends(_ pid: Int32, from ancestors: Set<Int32>) -> Bool {
        var current = pid
        for _ in 0..<64 where current > 1 {
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return false }
            // After the name: state, then the parent's id.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { return false }
            if ancestors.contains(parent) { return true }
            current = parent
        }
        return false
    }

    /// The app of this test runs and used no CPU between two looks.
    static func idle(_ before: Int?, _ now: Int?) -> Bool {
        guard let before, let now else { return false }
        return now - before < 3
    }

    static var astronaut: URL {
        EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/photos/astronaut.jpg")
    }

    /// The app from the login screen to the viewer of the feed's first photo (the astronaut), photographed.
    /// `path`: what stands between the terminal and the app (ssh, tmux, GNU screen, mosh); nil: nothing.
    func viewerPhotograph(in terminal: Terminal, through path: TerminalPath? = nil) throws -> (window: String, shot: RGBImage, score: Double, rect: (x: Int, y: Int, width: Int, height: Int), feed: RGBImage) {
        let source = try ImageCodec.decode(Data(contentsOf: Self.astronaut)).image
        let window = try open(terminal, command: path.map { ["sh", "-c", $0.wrap(appCommand) + "; sleep 60"] }
                                ?? [CommandLineTests.executable.path, "--demo"])
        try logIntoTheDemo(window)
        // The feed's first card shows the astronaut, cropped to the card's shape; the viewer opens on it.
        // Photographed once it shows the photo as well as it will and has settled (two photographs alike): the
        // card may first show a smaller copy, a terminal drawing in software can be caught halfway through a
        // picture, and this photograph is what the later ones are compared with.
        var card: (psnr: Double, rect: (x: Int, y: Int, width: Int, height: Int))?
        var previous: RGBImage?
        // Pixels come close to the photo; characters (alacritty, urxvt) draw 2x2 or 2x3 pixels a cell, in two colours.
        let pixels = [.kitty, .xterm, .mlterm, .mltermDark].contains(terminal)
        let goal: Double = !pixels ? 16 : terminal == .kitty ? 30 : 28
        // The app idle too: on a loaded machine a later card's picture can still be on its way after two alike
        // photographs, and the feed photographed here is what the feed must look like after the viewer.
        var cpu = appCPUTicks()
        // What the last photograph lacked, for the failure's message.
        var lacking = "a photograph"
        // A debug build decoding the feed's pictures on two cores that also build the release program and run two
        // busy loops takes its time: the wait is for the outcome, as long as that takes within a minute.
        let feed = try photograph(window, until: "the feed's first photo", seconds: 60) { shot in
            defer { previous = shot }
            let busy = appCPUTicks()
            defer { cpu = busy }
            guard let rect = Self.photoRect(in: shot), rect.height > 100 else { lacking = "a photo on the card"; return false }
            card = Self.score(shot, against: AreaResampler.fill(source, width: rect.width, height: rect.height))
            let sharp = (card?.psnr ?? 0) >= goal, still = Self.alike(previous, shot), idle = Self.idle(cpu, busy)
            lacking = [sharp ? nil : "PSNR \(String(format: "%.1f", card?.psnr ?? 0)) dB under \(goal)", still ? nil : "two photographs alike",
                       idle ? nil : "the app idle (\(cpu.map(String.init) ?? "-") -> \(busy.map(String.init) ?? "-") ticks)"]
                .compactMap { $0 }.joined(separator: ", ")
            return sharp && still && idle
        }
        if card.map({ $0.psnr < goal }) ?? true || !lacking.isEmpty { print("\(terminal.rawValue): the feed's first photo lacked \(lacking)") }
        if let card {
            print("\(terminal.rawValue): feed card \(card.rect.width)x\(card.rect.height) px, PSNR \(String(format: "%.1f", card.psnr)) dB")
            XCTAssertGreaterThanOrEqual(card.psnr, goal, "the feed's first card against its source")
        }
        try press(window, "Return")
        var best: (psnr: Double, rect: (x: Int, y: Int, width: Int, height: Int))?
        let shot = try photograph(window, until: "the viewer's photo", seconds: 30) { shot in
            guard let score = Self.score(shot, against: source) else { return false }
            best = score
            return score.psnr > (pixels ? 25 : 17) && score.rect.height > shot.height / 2
        }
        let score = try XCTUnwrap(best, "no photo found in the photograph")
        return (window, shot, score.psnr, score.rect, feed)
    }

    /// Runs `body`, and once more from a new terminal if no photograph of the window could be taken (the server
    /// never said where the window is, eight times over). So too if a terminal's window never appeared (a new X server first if this one stopped answering). A second failure fails the test.
    /// The second try has a home of its own: the first may have logged in, and the keys that log in would then
    /// open the viewer on a feed that is already there (and the feed's photograph be the viewer's).
    func againIfNoPhotograph(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as NoPhotograph {
            print("no photograph (\(error.description.prefix(3000))); once more in a new terminal")
            folder = try TemporaryFolder()
            try afresh()
            try body()
        } catch let error as NoWindow {
            print("no window (\(error.description.prefix(300))); once more in a new terminal")
            folder = try TemporaryFolder()
            try afresh()
            try body()
        }
    }

    /// Ends the test's terminals, and starts a new X server if this one stopped answering.
    func afresh() throws {
        for terminal in terminals { Self.end(terminal) }
        terminals = []
        if xvfb?.isRunning != true || !xAnswers() {
            if let xvfb { Self.end(xvfb) }
            xvfb = nil
            screenFolder = nil
            try startX()
        }
    }

    /// The widest run of lit pixels on any row.
    static func widestLitRun(_ shot: RGBImage) -> Int {
        var widest = 0
        for y in 0..<shot.height {
            var first: Int?
            var last = 0
            for x in 0..<shot.width where !isDark(shot, x, y) {
                if first == nil { first = x }
                last = x
            }
            if let first { widest = max(widest, last - first + 1) }
        }
        return widest
    }

    static func litRows(_ shot: RGBImage) -> Int {
        (0..<shot.height).filter { y in (0..<shot.width).contains { !isDark(shot, $0, y) } }.count
    }

    /// The same photo at the same size through the tools of the field (img2sixel, chafa), each in a window of the
    /// same terminal: the viewer's photo is within 1 dB of the best of them.
    func assertAsGoodAsThePeers(_ viewer: (window: String, shot: RGBImage, score: Double, rect: (x: Int, y: Int, width: Int, height: Int), feed: RGBImage),
                                in terminal: Terminal, sixel: Bool, through path: TerminalPath? = nil) throws {
        let size = "\(viewer.rect.width)x\(viewer.rect.height)"
        var peers: [String: String] = [:]
        if sixel { peers["img2sixel"] = "img2sixel -w \(viewer.rect.width) -h \(viewer.rect.height) '\(Self.astronaut.path)'" }
        if Tool.isInstalled("chafa") {
            // chafa sizes in cells: the same cells as the viewer's photo (its own choice of symbols and colours where
            // there are no pixels).
            let cell = (width: viewer.shot.width / 100, height: viewer.shot.height / 32)
            let cells = "\(max(1, viewer.rect.width / max(1, cell.width)))x\(max(1, viewer.rect.height / max(1, cell.height)))"
            peers["chafa"] = "chafa \(sixel ? "-f sixels " : "")--size \(cells) '\(Self.astronaut.path)'"
        }
        let source = try ImageCodec.decode(Data(contentsOf: Self.astronaut)).image
        var best = (name: "", score: 0.0)
        for (name, command) in peers.sorted(by: { $0.key < $1.key }) {
            // The picture stays while the tool's path stays (mosh and GNU screen take their screen away when it ends).
            let window = try open(terminal, command: ["sh", "-c", (path?.wrap(command + "; sleep 60") ?? command) + "; sleep 60"])
            var score = 0.0
            var found = ""
            _ = try photograph(window, until: "\(name)'s picture") { shot in
                guard let rect = Self.litBox(in: shot), rect.width >= 100 else { return false }
                score = Self.crop(shot, rect).psnr(AreaResampler.resize(source, width: rect.width, height: rect.height))
                found = "\(rect.width)x\(rect.height) at \(rect.x),\(rect.y)"
                let keep = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("real-terminal-\(terminal.rawValue)-\(name).jpg")
                if let jpeg = try? ImageCodec.encodeJPEG(shot, quality: 95) { try? jpeg.write(to: keep) }
                return true
            }
            print("\(terminal.rawValue): \(name) \(found) px (the viewer's \(size)), PSNR \(String(format: "%.1f", score)) dB")
            if score > best.score { best = (name, score) }
        }
        print("\(terminal.rawValue)\(path.map { " through \($0.name)" } ?? ""): viewer photo \(size) px, PSNR \(String(format: "%.1f", viewer.score)) dB; best peer \(best.name) \(String(format: "%.1f", best.score)) dB")
        XCTAssertGreaterThanOrEqual(viewer.score, best.score - 1, "the photo in \(terminal.rawValue) against \(best.name) of the same photo")
    }

    func assertPlays(in terminal: Terminal, graphics: String) throws {
        let file = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/coffee.webp")
        let frames = try ImageCodec.decodeAnimation(Data(contentsOf: file)).frames.map(\.image)
        let render = "\(CommandLineTests.executable.path) render --graphics \(graphics) --cols 60 --rows 18 '\(file.path)'"
        /// The picture in a photograph, and the frame it is closest to.
        func closest(_ shot: RGBImage) -> (frame: Int, psnr: Double)? {
            guard let rect = Self.litBox(in: shot), rect.width >= 100, rect.height >= 60 else { return nil }
            let found = Self.crop(shot, rect)
            return frames.enumerated().map { ($0.offset, found.psnr(AreaResampler.resize($0.element, width: rect.width, height: rect.height))) }
                .max { $0.1 < $1.1 }.map { (frame: $0.0, psnr: $0.1) }
        }
        // The still: the first frame, as render draws a picture.
        let stillWindow = try open(terminal, command: ["sh", "-c", render + " --animate off; sleep 60"])
        var still: (frame: Int, psnr: Double)?
        var previous: RGBImage?
        _ = try photograph(stillWindow, until: "the still") { shot in
            defer { previous = shot }
            still = closest(shot)
            return still != nil && Self.alike(previous, shot)
        }
        let stillScore = try XCTUnwrap(still, "no still found").psnr
        XCTAssertEqual(still?.frame, 0, "the still is the first frame")
        // The animation, for ever, photographed until two different frames were seen.
        let window = try open(terminal, command: ["sh", "-c", render + " --animate on --loops 0; sleep 60"])
        var seen: [Int: Double] = [:]
        let deadline = Date().addingTimeInterval(40)
        while seen.count < 2, Date() < deadline {
            let shot = try photograph(window)
            // A photograph taken while a Sixel frame is half drawn matches no frame well: it is not counted.
            if let match = closest(shot), match.psnr >= stillScore - 1 { seen[match.frame] = max(seen[match.frame] ?? 0, match.psnr) }
            Thread.sleep(forTimeInterval: 0.15)
        }
        print("\(terminal.rawValue): still \(String(format: "%.1f", stillScore)) dB; frames seen while playing: "
              + seen.sorted { $0.key < $1.key }.map { "\($0.key + 1) \(String(format: "%.1f", $0.value)) dB" }.joined(separator: ", "))
        XCTAssertGreaterThanOrEqual(seen.count, 2, "two different frames photographed while it played, each within 1 dB of the still's \(stillScore) dB")
    }

    /// A tool's picture alone in a window: from the first to the last column lit in the longest run of lit rows (a
    /// photo with a dark side, the astronaut's backdrop, is still whole).
    static func litBox(in shot: RGBImage) -> (x: Int, y: Int, width: Int, height: Int)? {
        var rows: [Bool] = []
        for y in 0..<shot.height {
            rows.append((0..<shot.width).filter { !isDark(shot, $0, y) }.count > 100)
        }
        guard let rowsRun = longestRun(rows) else { return nil }
        let lit = (0..<shot.width).filter { x in rowsRun.filter { !isDark(shot, x, $0) }.count > rowsRun.count / 20 }
        guard let first = lit.first, let last = lit.last else { return nil }
        return (first, rowsRun.lowerBound, last - first + 1, rowsRun.count)
    }

    /// Zoomed in and out again, the viewer is as it was; back in the feed, the feed is as it was, after the
    /// next card and back, after Ctrl-L, and after the window was made smaller and then its size again:
    /// nothing of an earlier picture stays anywhere, and no picture goes missing.
    func assertMovesLeaveNothingBehind(_ window: String, viewer: RGBImage, feed: RGBImage, terminal: String) throws {
        func same(as reference: RGBImage, _ what: String, after keys: String...) throws {
            for key in keys { try press(window, key) }
            // A photograph of another size scores 0.
            let shot = try photograph(window, until: what) { $0.psnr(reference) > 40 }
            let score = shot.psnr(reference)
            if score <= 40 {
                let keep = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("real-terminal-\(what.filter(\.isLetter))-reference.jpg")
                if let jpeg = try? ImageCodec.encodeJPEG(reference, quality: 95) { try? jpeg.write(to: keep) }
            }
            print("\(terminal): \(what): PSNR \(String(format: "%.1f", score)) dB against before")
        }
        try same(as: viewer, "zoomed in and out", after: "plus", "plus", "minus", "minus")
        try same(as: feed, "the feed after the viewer", after: "Escape")
        try same(as: feed, "the next card and back", after: "j", "k")
        try same(as: feed, "the feed painted again (Ctrl-L)", after: "ctrl+l")
        let geometry = try run(["xdotool", "getwindowgeometry", live(window)])
        let size = geometry.split(separator: "\n").first { $0.contains("Geometry:") }?.split(separator: " ").last
            .map { $0.split(separator: "x").compactMap { Int($0) } } ?? []
        guard size.count == 2 else { return XCTFail("no window size in \(geometry)") }
        let before = try photograph(window)
        try run(["xdotool", "windowsize", "--sync", live(window), "\(size[0] * 3 / 4)", "\(size[1] * 3 / 4)"])
        try settled(window, after: before, "the app drawn again at three quarters of the size")
        // Too small for the interface (under 40x12 cells): its message, and no picture left over it.
        try run(["xdotool", "windowsize", "--sync", live(window), "\(size[0] / 3)", "\(size[1] / 4)"])
        let small = try photograph(window, until: "no picture on the too-small screen") { shot in
            (0..<shot.height).allSatisfy { y in (0..<shot.width).filter { !Self.isDark(shot, $0, y) }.count < shot.width / 2 }
        }
        print("\(terminal): too small: \(small.width)x\(small.height) px, no picture")
        try run(["xdotool", "windowsize", "--sync", live(window), "\(size[0])", "\(size[1])"])
        try same(as: feed, "the feed after a resize and back")
    }

    /// The help over the photo, then closed: the window is as it was (no piece of the box, no hole in the photo).
    func assertHelpLeavesNothingBehind(_ window: String, before: RGBImage, terminal: String) throws {
        try press(window, "question")
        let withHelp = try photograph(window, until: "the help over the photo") { $0.psnr(before) < 25 }
        XCTAssertLessThan(withHelp.psnr(before), 25, "the help shows")
        try press(window, "Escape")
        let after = try photograph(window, until: "the photo whole again") { $0.psnr(before) > 40 }
        let restored = after.psnr(before)
        print("\(terminal): after the help, the window against before it: PSNR \(String(format: "%.1f", restored)) dB")
        XCTAssertGreaterThan(restored, 40, "something of the help stayed on screen")
    }

    /// The app as it is started at the far end: its own home, a UTF-8 locale, pictures at full size (these tests
    /// judge what arrives, not the link).
    var appCommand: String {
        let settings = folder.environment.merging(["LANG": "C.UTF-8", "IMAGE_FEED_LINK": "fast"]) { $1 }
        return "env " + settings.sorted { $0.key < $1.key }.map { "\($0.key)=\(LoopbackSSH.quoted($0.value))" }.joined(separator: " ")
            + " " + LoopbackSSH.quoted(CommandLineTests.executable.path) + " --demo"
    }

    func loopbackSSH() throws -> LoopbackSSH {
        try Tool.require("ssh", "ssh-keygen")
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else { throw XCTSkip("sshd is not installed (make test installs it)") }
        let ssh = try LoopbackSSH(folder: folder.url)
        addTeardownBlock { ssh.stop() }
        return ssh
    }
}
