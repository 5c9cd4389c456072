import Foundation
import ImageFeedApp
import ImageFeedCore
import TerminalImage
import TerminalUI

/// The real app (run loop, screens, image pipeline, ncurses) on a pseudo-terminal, against the demo
/// sandbox over loopback HTTP, as `image-feed --demo` runs.
struct FeedBenchmark {
    let width: Int
    let height: Int
    let term: String
    let keys: Int
    /// How the photos are drawn: characters, or pixels (Kitty graphics, Sixel) for cells of 9x18 pixels.
    var graphics: GraphicsMode = .cells

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run(into report: inout Report) async throws {
        let label = "feed \(width)x\(height) \(term)" + (graphics == .cells ? "" : " \(graphics.rawValue)")

        // Launch: the sandbox starts in this process and the demo logs in through OAuth, then the app
        // starts, asks for the first page and draws; then every photo in view is decoded and drawn.
        let launched = now()
        let configuration = try Settings.load(environment: Self.privateEnvironment())
        let context = try await CompositionRoot.make(configuration: configuration, demo: true)
        try await context.logInToDemo()
        let loggedIn = now()

        let terminal = try PseudoTerminal(width: width, height: height)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave,
                                         environment: ["TERM": term], graphics: graphics, sixelScrolls: true)
        defer { backend.restore() }
        guard backend.width == width, backend.height == height else {
            throw Failure(description: "the pseudo-terminal is \(backend.width)x\(backend.height), not \(width)x\(height)")
        }
        let theme = Theme(colorMode: backend.colorMode, unicode: backend.unicode)
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-downloads")
        let performer = LiveEffectPerformer(client: context.client,
                                           downloader: PhotoDownloader(folder: downloads, client: context.client),
                                           opener: DesktopURLOpener(environment: [:]))
        // Logged in already (the demo login above): the app starts on the feed, as after the splash.
        let app = TerminalApp(backend: backend, theme: theme, imageSource: HTTPImageSource(http: context.http),
                              performer: performer, state: AppState(session: .loggedIn),
                              graphics: GraphicsChoice(mode: graphics, reason: "the benchmark", cellWidth: 9, cellHeight: 18))
        let appStarted = now()
        app.dispatch(.start)
        let deadline = appStarted + 30
        while app.state.feed.phase != .content {
            app.step(timeout: 5)
            guard now() < deadline else { throw Failure(description: "\(label): the feed did not load in 30 s") }
        }
        app.drawFrame()
        app.flushOutput()
        _ = terminal.endFrame()
        let feedPainted = now()
        settle(app, terminal)
        let photosPainted = now()

        report.add("\(label): colour mode", backend.colorMode.name)
        report.add("\(label): sandbox start + OAuth login", milliseconds(loggedIn - launched))
        report.add("\(label): app start -> feed painted", milliseconds(feedPainted - appStarted))
        report.add("\(label): app start -> photos in view painted", milliseconds(photosPainted - appStarted))
        report.add("\(label): launch -> photos in view painted", milliseconds(photosPainted - launched))

        // Warm up: walk down the first page and back, so every picture is drawn and cached once.
        for _ in 0..<30 { press(Self.keyDown, app, terminal); settle(app, terminal) }
        press(Self.keyHome, app, terminal)
        settle(app, terminal)

        // Key to frame: the time from the key's bytes entering the terminal to the last byte of the frame
        // that answers it leaving for the screen.
        var cards = Samples()
        var lines = Samples()
        var lineBytes = Samples()
        var cardBytes = Samples()
        let pattern: [([UInt8], Bool)] = Array(repeating: (Self.keyDown, false), count: 8)
            + Array(repeating: (Self.keyUp, false), count: 8)
            + Array(repeating: (Self.lineDown, true), count: 6)
            + Array(repeating: (Self.lineUp, true), count: 6)
        for index in 0..<keys {
            let (key, isLine) = pattern[index % pattern.count]
            settle(app, terminal)
            let (seconds, bytes) = press(key, app, terminal)
            if isLine {
                lines.add(seconds)
                lineBytes.add(Double(bytes))
            } else {
                cards.add(seconds)
                cardBytes.add(Double(bytes))
            }
        }
        var all = Samples()
        for value in cards.values + lines.values { all.add(value) }

        // A full repaint (Ctrl-L), for comparison.
        var repaintBytes = Samples()
        var repaintTimes = Samples()
        for _ in 0..<10 {
            settle(app, terminal)
            let (seconds, bytes) = press(Self.redraw, app, terminal)
            repaintBytes.add(Double(bytes))
            repaintTimes.add(seconds)
        }

        report.add("\(label): key -> frame, median", milliseconds(all.median))
        report.add("\(label): key -> frame, p99", milliseconds(all.p99), target: keyTarget)
        report.add("\(label): key -> frame, next/previous card, p99", milliseconds(cards.p99))
        report.add("\(label): key -> frame, one-line scroll, p99", milliseconds(lines.p99))
        report.add("\(label): bytes, one-line scroll (median)", "\(Int(lineBytes.median))")
        report.add("\(label): bytes, next/previous card (median)", "\(Int(cardBytes.median))")
        report.add("\(label): bytes, full repaint (median)", "\(Int(repaintBytes.median))")
        report.add("\(label): one-line scroll / full repaint",
                   String(format: "%.1f%%", 100 * lineBytes.median / max(1, repaintBytes.median)), target: "< 10%")
        report.add("\(label): full repaint, median", milliseconds(repaintTimes.median))
        report.add("\(label): next/previous card / full repaint",
                   String(format: "%.1f%%", 100 * cardBytes.median / max(1, repaintBytes.median)), target: "<= 50%")

        // Opening the viewer on the selected photo: every byte until its picture is drawn, then back.
        settle(app, terminal)
        var viewerBytes = press([13], app, terminal).1
        let viewerDeadline = now() + 20
        while app.state.viewer != nil, app.isBusy || viewerBytes < 1, now() < viewerDeadline {
            app.step(timeout: 5)
            app.drawFrame()
            app.flushOutput()
            viewerBytes += terminal.endFrame()
        }
        app.drawFrame()
        app.flushOutput()
        viewerBytes += terminal.endFrame()
        report.add("\(label): bytes, opening the viewer", "\(viewerBytes)")
        press(Array("q".utf8), app, terminal)
        settle(app, terminal)

        // The search pane's two-column grid, with the same keys.
        try measureGrid(app, terminal, into: &report)
        await context.stop()
    }

    func measureGrid(_ app: TerminalApp, _ terminal: PseudoTerminal, into report: inout Report) throws {
        let label = "search grid \(width)x\(height) \(term)" + (graphics == .cells ? "" : " \(graphics.rawValue)")
        press(Array("/".utf8), app, terminal)
        press(Array("a".utf8), app, terminal)
        press([13], app, terminal)
        let deadline = now() + 30
        while app.state.search.results.phase != .content {
            app.step(timeout: 5)
            guard now() < deadline else { throw Failure(description: "\(label): the search did not answer in 30 s") }
        }
        settle(app, terminal)
        guard app.state.search.layout == .grid, app.state.search.results.photos.count >= 20 else {
            throw Failure(description: "\(label): expected a grid of results")
        }
        for _ in 0..<15 { press(Self.keyDown, app, terminal); settle(app, terminal) }
        press(Self.keyHome, app, terminal)
        settle(app, terminal)
        var all = Samples()
        var rows = Samples()
        var lines = Samples()
        let pattern: [([UInt8], Bool)] = Array(repeating: (Self.keyDown, false), count: 6)
            + Array(repeating: (Self.keyUp, false), count: 6)
            + Array(repeating: (Self.lineDown, true), count: 6)
            + Array(repeating: (Self.lineUp, true), count: 6)
        for index in 0..<keys {
            let (key, isLine) = pattern[index % pattern.count]
            settle(app, terminal)
            let (seconds, _) = press(key, app, terminal)
            all.add(seconds)
            if isLine { lines.add(seconds) } else { rows.add(seconds) }
        }
        report.add("\(label): key -> frame, median", milliseconds(all.median))
        report.add("\(label): key -> frame, p99", milliseconds(all.p99), target: keyTarget)
        report.add("\(label): key -> frame, next/previous row, p99", milliseconds(rows.p99))
        report.add("\(label): key -> frame, one-line scroll, p99", milliseconds(lines.p99))
    }

    /// Within half a 60 Hz frame at 80x24; within a frame's budget of 8 ms where the screen is bigger.
    var keyTarget: String { width * height > 80 * 24 ? "<= 8 ms" : "< 4 ms" }

    static let keyDown: [UInt8] = Array("j".utf8)
    static let keyUp: [UInt8] = Array("k".utf8)
    static let keyHome: [UInt8] = Array("g".utf8)
    static let lineDown: [UInt8] = [5] // Ctrl-E
    static let lineUp: [UInt8] = [25] // Ctrl-Y
    static let redraw: [UInt8] = [12] // Ctrl-L

    /// Presses a key and draws the frame that answers it; returns the time until that frame reached the terminal,
    /// and the bytes it cost with the pictures that follow it (Sixel pieces are encoded off the run loop and
    /// sent after the frame).
    @discardableResult
    func press(_ key: [UInt8], _ app: TerminalApp, _ terminal: PseudoTerminal) -> (Double, Int) {
        let start = now()
        terminal.type(key)
        app.step(timeout: 200)
        app.drawFrame()
        app.flushText()
        var bytes = terminal.endFrame()
        let seconds = now() - start
        app.flushOutput()
        bytes += terminal.endFrame()
        return (seconds, bytes)
    }

    /// Lets every picture and page on its way arrive and be drawn, then forgets the bytes that took.
    func settle(_ app: TerminalApp, _ terminal: PseudoTerminal) {
        let deadline = now() + 10
        while app.isBusy, now() < deadline {
            app.step(timeout: 2)
        }
        app.drawFrame()
        app.flushOutput()
        _ = terminal.endFrame()
    }

    /// A home of its own, so the benchmark never reads or writes the user's configuration or token.
    static func privateEnvironment(tag: String = "home") -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-\(tag)").path
        return ["HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state",
                "XDG_CACHE_HOME": home + "/cache"]
    }
}
