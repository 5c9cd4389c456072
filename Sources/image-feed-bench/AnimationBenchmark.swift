import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
#if canImport(Glibc)
import Glibc
#endif

/// An animation playing in the viewer (the demo's `coffee.webp`: 20 frames of 480x270, 100 ms each) at 120x40, in
/// each picture mode, against the same viewer showing a still: the CPU the whole process spends while it plays, the
/// bytes a second it sends the terminal, and key → frame while it plays (zoom in and out); and what it still costs while
/// the terminal says its window is hidden (mode 2033).
struct AnimationBenchmark {
    let width = 120
    let height = 40
    let seconds: Double
    let keys: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The animation and a still of its first frame, from the assets (no network: the pictures are what is measured).
    final class AssetFiles: ImageSource, @unchecked Sendable {
        let animation: Data
        let still: Data

        init() throws {
            let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Assets/animations")
            animation = try Data(contentsOf: assets.appendingPathComponent("coffee.webp"))
            still = try ImageCodec.encodeJPEG(ImageCodec.decodeAnimation(animation, limits: AnimationLimits(frames: 1)).frames[0].image)
        }

        func imageData(at url: URL) async throws(ServiceError) -> Data {
            url.lastPathComponent == "coffee.webp" ? animation : still
        }
    }

    /// The viewer performs no effect here.
    struct NoEffects: EffectPerformer {
        func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event] { [] }
    }

    func run(into report: inout Report) throws {
        let files = try AssetFiles()
        let modes: [(name: String, term: String, graphics: GraphicsMode)] = [
            ("characters 256", "xterm-256color", .cells), ("characters 24-bit", "xterm-direct", .cells),
            ("kitty", "xterm-256color", .kitty), ("sixel", "xterm-256color", .sixel),
        ]
        for mode in modes {
            let still = try measure(files, animated: false, term: mode.term, graphics: mode.graphics)
            let playing = try measure(files, animated: true, term: mode.term, graphics: mode.graphics)
            let label = "animation \(width)x\(height) \(mode.name)"
            let goal = mode.graphics == .kitty ? "< 2% of a core" : "< 15% of a core"
            report.add("\(label): CPU while playing (a still: \(String(format: "%.1f%%", still.cpu)))",
                       String(format: "%.1f%%", playing.cpu), target: goal)
            report.add("\(label): bytes a second while playing (a still: \(Int(still.bytesPerSecond)))", "\(Int(playing.bytesPerSecond))",
                       target: mode.graphics == .kitty ? "0" : "")
            report.add("\(label): key -> frame p99 while playing (a still: \(milliseconds(still.p99)))", milliseconds(playing.p99),
                       target: "within 5 ms of the still's")
            report.add("\(label): hidden (mode 2033 reported): CPU, bytes a second",
                       String(format: "%.1f%%, %d", playing.hiddenCPU, Int(playing.hiddenBytesPerSecond)), target: "< 0.5%, 0")
        }
    }

    struct Figures {
        var cpu: Double
        var bytesPerSecond: Double
        var p99: Double
        /// While the terminal says its window is hidden.
        var hiddenCPU: Double
        var hiddenBytesPerSecond: Double
    }

    func measure(_ files: AssetFiles, animated: Bool, term: String, graphics: GraphicsMode) throws -> Figures {
        let terminal = try PseudoTerminal(width: width, height: height)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": term], graphics: graphics,
                                         link: .fast, sixelScrolls: true)
        defer { backend.restore() }
        var photo = Photo(id: animated ? "moving" : "still", width: 480, height: 270,
                          urls: PhotoURLs(regular: URL(string: "http://127.0.0.1/still.jpg")!),
                          links: PhotoLinks(download: URL(string: "http://127.0.0.1/coffee.webp")!))
        if animated { photo.isAnimated = true }
        var state = AppState(session: .loggedIn)
        var viewer = ViewerState(photo: photo)
        viewer.isFromAlbum = true
        state.viewer = viewer
        let app = TerminalApp(backend: backend, theme: Theme(colorMode: backend.colorMode, unicode: backend.unicode), imageSource: files,
                              performer: NoEffects(), state: state,
                              graphics: GraphicsChoice(mode: graphics, reason: "the benchmark", cellWidth: 9, cellHeight: 18))
        // Loaded, drawn, and (Kitty) every frame uploaded, before anything is counted.
        let deadline = now() + 30
        var settled = now()
        while now() - settled < 1.5 {
            app.step(timeout: 20)
            app.flushOutput()
            _ = terminal.endFrame(timeout: 2)
            if app.isBusy { settled = now() }
            guard now() < deadline else { throw Failure(description: "the viewer did not settle in 30 s") }
        }
        // Playing: the loop as it runs, the terminal read as fast as it takes.
        var bytes = 0
        let cpuBefore = Self.cpuSeconds()
        let start = now()
        while now() - start < seconds {
            app.step(timeout: 50)
            bytes += terminal.endFrame(timeout: 2)
        }
        let wall = now() - start
        let cpu = (Self.cpuSeconds() - cpuBefore) / wall * 100
        // The window hidden, as kitty and Ghostty report it (mode 2033): after a moment to stop, what is still spent.
        terminal.type(Array("\u{1B}[?999;2n".utf8))
        let hiding = now()
        while now() - hiding < 0.3 {
            app.step(timeout: 50)
            _ = terminal.endFrame(timeout: 2)
        }
        var hiddenBytes = 0
        let hiddenCPUBefore = Self.cpuSeconds()
        let hiddenStart = now()
        while now() - hiddenStart < seconds / 2 {
            app.step(timeout: 50)
            hiddenBytes += terminal.endFrame(timeout: 2)
        }
        let hiddenWall = now() - hiddenStart
        let hiddenCPU = (Self.cpuSeconds() - hiddenCPUBefore) / hiddenWall * 100
        terminal.type(Array("\u{1B}[?999;1n".utf8))
        app.step(timeout: 50)
        app.flushOutput()
        _ = terminal.endFrame(timeout: 2)
        // Keys while it plays: zoom in and out, each frame timed until it reached the terminal.
        var times = Samples()
        for index in 0..<keys {
            let started = now()
            terminal.type(Array((index % 2 == 0 ? "+" : "-").utf8))
            app.step(timeout: 200)
            app.drawFrame()
            app.flushText()
            _ = terminal.endFrame()
            times.add(now() - started)
            app.flushOutput()
            _ = terminal.endFrame(timeout: 2)
        }
        return Figures(cpu: cpu, bytesPerSecond: Double(bytes) / wall, p99: times.p99, hiddenCPU: hiddenCPU,
                       hiddenBytesPerSecond: Double(hiddenBytes) / hiddenWall)
    }

    /// User and system time the process has spent, every thread (Sixel is encoded off the loop).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
