import Foundation
import ImageFeedApp
import TerminalImage
import TestSupport
import XCTest

/// `image-feed render` stopped as a previewer and a person stop it: a signal while the frames are still being read
/// (a small file of huge frames), an output that went away, Ctrl-Z and `fg` while frames play; and Kitty's frames
/// sent one at a time at the size they were read.
final class RenderStopTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        TestWatchdog.install(current: self)
        folder = try TemporaryFolder()
    }

    /// A GIF of `count` full frames of `side` pixels, alternately black and white (a few KB a frame).
    func heavyGIF(side: Int, count: Int) throws -> URL {
        let file = folder.url.appendingPathComponent("heavy.gif")
        try GIFWriter.alternating(side: side, count: count).data.write(to: file)
        return file
    }

    /// The program, its output and errors read as they come.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var ended = false

        init(_ arguments: [String], output: Pipe? = Pipe()) throws {
            process.executableURL = CommandLineTests.executable
            process.arguments = arguments
            if let output {
                process.standardOutput = output
                process.standardError = output
            }
            try process.run()
            guard let output else { return }
            // Read on a thread of its own, each read blocking until bytes or the end come: Foundation's
            // readabilityHandler on Linux now and then misses the end of a pipe (its empty read never comes).
            let reading = output.fileHandleForReading
            let reader = Thread { [self] in
                while true {
                    let data = reading.availableData
                    lock.lock()
                    // Nothing read: the end of the output (every writer has closed it).
                    if data.isEmpty { ended = true } else { bytes += data }
                    lock.unlock()
                    if data.isEmpty { return }
                }
            }
            reader.start()
        }

        /// Whether all the process wrote has been read: its exit comes before the last bytes are (on a busy machine,
        /// a while before).
        var outputEnded: Bool {
            lock.lock()
            defer { lock.unlock() }
            return ended
        }

        var output: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Waits (up to `seconds`) until `condition` holds; whether it did.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return condition()
        }

        /// Whether the process has its handler for `signal` in place (/proc's SigCgt).
        func catches(_ signal: Int32) -> Bool {
            guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                  let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & (1 << UInt64(signal - 1)) != 0
        }

        /// Seconds until the process ends (nil past `seconds`).
        func secondsToEnd(within seconds: Double) -> Double? {
            let start = Date()
            return wait(seconds: seconds) { !process.isRunning } ? Date().timeIntervalSince(start) : nil
        }
    }

    /// Ctrl-C, SIGTERM or SIGHUP while the frames are read (forty 3000x3000 frames: seconds of work) ends
    /// `render` at once, with the status a shell expects of the signal; the reading had no stop before.
    func test_aSignalWhileFramesAreRead_endsRenderAtOnce() throws {
        let file = try heavyGIF(side: 3000, count: 40)
        for (signal, status) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
            let render = try Running(["render", file.path, "--animate", "on", "--cols", "80", "--rows", "24"])
            // Its handlers are in place just before it reads the frames.
            XCTAssertTrue(render.wait(seconds: 60) { render.catches(SIGTERM) }, "render set no handler")
            Thread.sleep(forTimeInterval: 0.2)
            kill(render.process.processIdentifier, signal)
            let took = render.secondsToEnd(within: 30)
            if took == nil { render.process.terminate() }
            render.process.waitUntilExit()
            // Well under a frame's work; the bound is for a busy machine.
            XCTAssertLessThan(try XCTUnwrap(took, "still reading 30 s after signal \(signal)"), 5)
            XCTAssertEqual(render.process.terminationReason, .exit)
            XCTAssertEqual(render.process.terminationStatus, Int32(status), render.output)
        }
    }

    /// Standard output and standard error both gone (a closed terminal, a reader that quit): `render` ends with status
    /// 1, never a crash (the message about the failed write failed too, and `FileHandle.write` trapped on it).
    func test_aClosedOutput_andErrors_endRenderWithStatus1_notACrash() throws {
        let gif = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif").path
        for animate in ["on", "off"] {
            let gone = Pipe()
            try gone.fileHandleForReading.close()
            let render = Process()
            render.executableURL = CommandLineTests.executable
            render.arguments = ["render", gif, "--animate", animate, "--cols", "40", "--rows", "10", "--loops", "1"]
            render.standardOutput = gone
            render.standardError = gone
            try render.run()
            render.waitUntilExit()
            XCTAssertEqual(render.terminationReason, .exit, "--animate \(animate)")
            XCTAssertEqual(render.terminationStatus, 1, "--animate \(animate)")
        }
    }

    /// No command crashes on an output that is gone: each ends with a status (the login's prompt and every message to
    /// standard error were writes that trapped on a failure).
    func test_everyCommand_withItsOutputGone_endsWithAStatus_notACrash() throws {
        let gif = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif").path
        for arguments in [["render", gif, "--animate", "off"], ["render", "/nonexistent.gif"], ["doctor", "--offline"], ["--help"],
                          ["cache", "info"], ["login"], ["feed", "--json"], ["nonsense"]] {
            let gone = Pipe()
            try gone.fileHandleForReading.close()
            let command = Process()
            command.executableURL = CommandLineTests.executable
            command.arguments = arguments
            command.environment = folder.environment.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { a, _ in a }
            command.standardInput = FileHandle.nullDevice
            command.standardOutput = gone
            command.standardError = gone
            try command.run()
            command.waitUntilExit()
            XCTAssertEqual(command.terminationReason, .exit, "\(arguments) crashed (signal \(command.terminationStatus))")
        }
    }

    /// Ctrl-Z while frames play gives the shell its cursor back; `fg` hides it again and the frames go on; Ctrl-C then
    /// ends it with the cursor shown.
    func test_ctrlZ_showsTheCursor_andFgHidesItAgain() throws {
        let gif = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif").path
        let render = try Running(["render", gif, "--animate", "on", "--cols", "40", "--rows", "10", "--loops", "0"])
        let hide = "\u{1B}[?25l", show = "\u{1B}[?25h"
        XCTAssertTrue(render.wait(seconds: 60) { render.output.contains("\u{1B}[10A") }, "frames play")
        kill(render.process.processIdentifier, SIGTSTP)
        XCTAssertTrue(render.wait(seconds: 10) { render.output.hasSuffix(show) || render.output.contains(show) }, "the cursor is shown")
        let stopped = render.output.count
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(render.output.count, stopped, "stopped: nothing more is drawn")
        kill(render.process.processIdentifier, SIGCONT)
        XCTAssertTrue(render.wait(seconds: 10) { render.output.dropFirst(stopped).contains(hide) }, "fg hides it again")
        XCTAssertTrue(render.wait(seconds: 10) { render.output.dropFirst(stopped).contains("\u{1B}[10A") }, "and the frames go on")
        kill(render.process.processIdentifier, SIGINT)
        XCTAssertNotNil(render.secondsToEnd(within: 10))
        XCTAssertEqual(render.process.terminationStatus, 130)
        XCTAssertTrue(render.wait(seconds: 10) { render.outputEnded }, "all it wrote is read")
        XCTAssertTrue(render.output.hasSuffix(show), "the cursor is back at the end")
    }

    /// Kitty graphics: one 400x300 frame and 149 tiny ones at 200x60 cells. Each frame is made at the cells' pixels
    /// as it is sent, one write a frame, and let go; they were all enlarged to the cells' 1600x1200 pixels first and
    /// put in one write (gigabytes for a thousand frames).
    /// An animation of at most half the cells' pixels goes at its own size, the terminal scaling it to its placement:
    /// an 8-frame 240x160 GIF at 80x24 cells of 10x20 pixels sent 4.25 MB, each frame enlarged to 720x480; a larger one
    /// is brought down to the cells' pixels, and one near their size made at them.
    func test_kitty_aSmallAnimation_goesAtItsOwnSize_aLargeOneAtTheCells() throws {
        /// `count` frames of noise (which compresses to nothing), or of stripes when not `noisy`.
        func gif(width: Int, height: Int, count: Int = 8, noisy: Bool = true) -> Data {
            var gif = GIFWriter(width: width, height: height, colors: (0..<256).map { (UInt8($0), UInt8(255 - $0), UInt8($0 / 2)) })
            var generator = SeededGenerator(seed: 61)
            for frame in 0..<count {
                gif.frame(left: 0, top: 0, width: width, height: height,
                          pixels: (0..<width * height).map { noisy ? UInt8.random(in: 0...255, using: &generator) : UInt8(($0 / 16 + frame) % 256) },
                          delay: 10)
            }
            return gif.data
        }
        func sent(_ data: Data, frames: Int = 8) throws -> (bytes: Int, commands: [KittyGraphics.Command]) {
            var bytes: [UInt8] = []
            let drawn = try AnimationCommand.play(data, columns: 80, rows: 24, graphics: .kitty, cellWidth: 10, cellHeight: 20,
                                                  mode: .truecolor, unicode: true, output: AnimationCommand.Output(write: { bytes += $0 }))
            XCTAssertEqual(drawn, frames)
            return (bytes.count, KittyGraphics.commands(in: bytes).filter { $0["a"] == "T" || $0["a"] == "f" })
        }
        let small = try sent(gif(width: 240, height: 160))
        XCTAssertEqual(small.commands.count, 8)
        XCTAssertEqual(Set(small.commands.compactMap { $0.int("s") }), [240])
        XCTAssertEqual(Set(small.commands.compactMap { $0.int("v") }), [160])
        XCTAssertEqual(small.commands.first?["c"], "72", "placed over the cells its shape takes")
        XCTAssertEqual(small.commands.first?["r"], "24")
        XCTAssertLessThanOrEqual(small.bytes, 1_300_000)
        print("render --graphics kitty, an 8-frame 240x160 GIF at 80x24: \(small.bytes) bytes")
        // Wider than the cells' shape allows at this height: brought down to the cells' pixels (720x480 for 72x24).
        let large = try sent(gif(width: 960, height: 640, count: 2, noisy: false), frames: 2)
        XCTAssertEqual(Set(large.commands.compactMap { $0.int("s") }), [720])
        XCTAssertEqual(Set(large.commands.compactMap { $0.int("v") }), [480])
        // Two thirds of the cells' pixels: made at them (720x480), as sharp as the still.
        let near = try sent(gif(width: 600, height: 400, count: 2, noisy: false), frames: 2)
        XCTAssertEqual(Set(near.commands.compactMap { $0.int("s") }), [720])
    }

    func test_kitty_sendsEachFrameAsItIsMade_oneWriteAFrame() throws {
        var gif = GIFWriter(width: 400, height: 300, colors: [(0, 0, 0), (255, 255, 255)])
        gif.frame(left: 0, top: 0, width: 400, height: 300, pixels: [UInt8](repeating: 1, count: 400 * 300), delay: 10)
        for index in 0..<149 {
            gif.frame(left: index, top: index % 300, width: 1, height: 1, pixels: [0], delay: 10)
        }
        var writes: [[UInt8]] = []
        let drawn = try AnimationCommand.play(gif.data, columns: 200, rows: 60, graphics: .kitty, cellWidth: 10, cellHeight: 20,
                                              mode: .truecolor, unicode: true, output: AnimationCommand.Output(write: { writes.append($0) }))
        XCTAssertEqual(drawn, 150)
        let commands = KittyGraphics.commands(in: writes.flatMap { $0 })
        let sent = commands.filter { $0["a"] == "T" || $0["a"] == "f" }
        XCTAssertEqual(sent.count, 150)
        XCTAssertEqual(Set(sent.compactMap { $0.int("s") }), [400], "at its own size, smaller than the cells' 1600x1200 pixels")
        XCTAssertEqual(Set(sent.compactMap { $0.int("v") }), [300])
        XCTAssertEqual(commands.first?["c"], "160", "shown over the cells its shape takes (the terminal scales it)")
        XCTAssertEqual(commands.first?["r"], "60")
        // A frame's bytes (a plain frame compresses to little): never all of them in one write.
        XCTAssertLessThan(writes.map(\.count).max() ?? 0, 400 * 300 * 3 / 10, "no write holds more than a frame")
        XCTAssertGreaterThanOrEqual(writes.count, 150)
    }
}
