import Foundation
import ImageFeedApp
import TerminalImage
import TerminalUI
import TestSupport
import XCTest

/// `render --animate` paced on a clock of its own: which frames a duration lets through does not depend on how busy
/// the machine is (the command-line test runs the real program on the real clock, and checks what does not).
final class AnimationPacingTests: XCTestCase {
    /// Sixel cut short by `--duration 0.5`: the rocket's 80 ms frames, each drawn when due, none once the half second
    /// is over.
    func test_sixel_aDurationOfHalfASecond_drawsTheFramesDueInIt() throws {
        let gif = try Data(contentsOf: EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif"))
        var clock = 0.0
        var written: [UInt8] = []
        // A clock that moves a microsecond at each reading, as a real one does (a frame due at a time the sum of the
        // delays rounds differently would otherwise never come), and a sleep as long as asked.
        let output = AnimationCommand.Output(write: { written += $0 }, now: { clock += 0.000_001; return clock },
                                             sleep: { clock += $0 })
        let drawn = try AnimationCommand.play(gif, columns: 40, rows: 10, graphics: .sixel, cellWidth: 9, cellHeight: 18,
                                              mode: .palette256, unicode: true, plan: AnimationCommand.Plan(duration: 0.5),
                                              output: output)
        let sixels = String(decoding: written, as: UTF8.self).components(separatedBy: "\u{1B}Pq").count - 1
        XCTAssertEqual(sixels, drawn)
        XCTAssertGreaterThanOrEqual(sixels, 3)
        XCTAssertLessThanOrEqual(sixels, 8, "80 ms frames for half a second")
        XCTAssertEqual(sixels, 7, "frames due at 0, 80, ..., 480 ms")
        XCTAssertLessThanOrEqual(clock, 0.51, "no wait past the duration")
    }
}

extension AnimationPacingTests {
    /// Kitty graphics in a terminal that plays no frames (Ghostty, Konsole, VS Code, Zellij): paced here as Sixel is,
    /// each frame due going up at the cursor under one of two ids, the one before taken off; no animation commands,
    /// and what the terminal holds at the end is the last frame and one pixel.
    func test_kitty_thatPlaysNoFrames_isPacedHere_underTwoIds() throws {
        let gif = try Data(contentsOf: EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif"))
        var clock = 0.0
        var written: [UInt8] = []
        let output = AnimationCommand.Output(write: { written += $0 }, now: { clock += 0.000_001; return clock }, sleep: { clock += $0 })
        let drawn = try AnimationCommand.play(gif, columns: 40, rows: 10, graphics: .kitty, cellWidth: 9, cellHeight: 18,
                                              mode: .truecolor, unicode: true, kittyPlays: false,
                                              plan: AnimationCommand.Plan(duration: 2.5), output: output)
        let commands = KittyGraphics.commands(in: written)
        let shown = commands.filter { $0["a"] == "T" }
        XCTAssertEqual(shown.count, drawn)
        XCTAssertGreaterThan(drawn, 20, "the rocket's 20 frames and into the next loop, each when due")
        XCTAssertLessThanOrEqual(drawn, 32, "80 ms frames for 2.5 seconds")
        XCTAssertFalse(commands.contains { $0["a"] == "f" || $0["a"] == "a" }, "no animation commands")
        XCTAssertEqual(Set(shown.compactMap { $0["i"] }).count, 2, "two ids, alternating")
        let deletes = commands.filter { $0["a"] == "d" }
        XCTAssertGreaterThanOrEqual(deletes.count, drawn - 1, "each frame takes the one before off")
        XCTAssertTrue(deletes.allSatisfy { $0["d"] == "i" }, "placements only: nothing freed that another picture needs")
        XCTAssertEqual(commands.last?["a"], "t", "the frame before the last retired to one pixel at the end")
        XCTAssertEqual(commands.last?["s"], "1")
        XCTAssertTrue(String(decoding: written, as: UTF8.self).hasSuffix("\u{1B}[?25h"), "the cursor shown again")
    }

    /// `render --animate safe` (or IMAGE_FEED_ANIMATIONS=safe): an animation that flashes more than three times a second
    /// is drawn as its first frame, and why is said; one that does not plays, by the same clock.
    func test_safe_drawsTheFirstFrameOfOneThatFlashes_andPlaysTheRest() throws {
        var flashing = GIFWriter(width: 80, height: 40, colors: [(0, 0, 0), (255, 255, 255)])
        for index in 0..<10 {
            flashing.frame(left: 0, top: 0, width: 80, height: 40, pixels: [UInt8](repeating: UInt8(index % 2), count: 80 * 40), delay: 10)
        }
        var said: [String] = []
        var written: [UInt8] = []
        var clock = 0.0
        let output = AnimationCommand.Output(write: { written += $0 }, now: { clock += 0.000_001; return clock }, sleep: { clock += $0 },
                                             say: { said.append($0) })
        let drawn = try AnimationCommand.play(flashing.data, columns: 40, rows: 10, graphics: .sixel, cellWidth: 9, cellHeight: 18,
                                              mode: .palette256, unicode: true, plan: AnimationCommand.Plan(safe: true), output: output)
        XCTAssertEqual(drawn, 1, "its first frame, as a still")
        XCTAssertEqual(said, ["the animation flashes 5 times a second: its first frame is drawn (--animate on plays it)"])
        XCTAssertEqual(String(decoding: written, as: UTF8.self).components(separatedBy: "\u{1B}Pq").count - 1, 1)

        let rocket = try Data(contentsOf: EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif"))
        said = []
        let played = try AnimationCommand.play(rocket, columns: 40, rows: 10, graphics: .sixel, cellWidth: 9, cellHeight: 18,
                                               mode: .palette256, unicode: true, plan: AnimationCommand.Plan(duration: 0.5, safe: true),
                                               output: output)
        XCTAssertTrue(said.isEmpty)
        XCTAssertEqual(played, 7, "frames due at 0, 80, ..., 480 ms, as without safe")
        XCTAssertEqual(RenderArguments.animate(environment: ["IMAGE_FEED_ANIMATIONS": "safe"]), "safe")
        XCTAssertEqual(RenderArguments.animate(environment: ["IMAGE_FEED_ANIMATIONS": "OFF"]), "off")
        XCTAssertNil(RenderArguments.animate(environment: ["IMAGE_FEED_ANIMATIONS": "hover"]))
        XCTAssertEqual(RenderArguments(source: "a.gif", animate: "sometimes").problem, "--animate is on, off or safe.")
    }

    /// What `render` decides to do with an animation in Kitty graphics: kitty plays it; Ghostty, VS Code and Zellij are
    /// paced (render cannot ask: its output is often not the terminal's input).
    func test_render_pacesKittyAnimations_whereTheTerminalPlaysNone() {
        let arguments = RenderArguments(source: "a.gif", graphics: "kitty")
        XCTAssertEqual(arguments.decide(environment: ["TERM": "xterm-kitty"]).playback, .terminalFrames)
        XCTAssertEqual(arguments.decide(environment: ["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"]).playback, .framesInPlace)
        XCTAssertEqual(arguments.decide(environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"]).playback, .framesInPlace)
        XCTAssertEqual(arguments.decide(environment: ["TERM": "xterm-256color", "ZELLIJ": "0"]).playback, .framesInPlace)
        XCTAssertEqual(RenderArguments(source: "a.gif").decide(environment: ["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"]).graphics, .kitty)
    }
}

extension AnimationPacingTests {
    /// The first loop plays while the frames are read: the first frame is written once the second is read (one frame
    /// would be a still), long before the ten full 2000x2000 frames behind them are. Measured against the same
    /// file's whole read, in this process, so that a busy machine slows both alike.
    func test_theFirstFrame_isDrawnWhileTheRestAreRead() throws {
        let data = GIFWriter.alternating(side: 2000, count: 12).data
        let fitting = (40 * 4, 10 * 8)
        let readStart = Date()
        XCTAssertEqual(try ImageCodec.decodeAnimation(data, fitting: fitting).frames.count, 12)
        let wholeRead = Date().timeIntervalSince(readStart)
        var clock = 0.0
        var firstWrite: Double?
        let start = Date()
        let output = AnimationCommand.Output(write: { _ in if firstWrite == nil { firstWrite = Date().timeIntervalSince(start) } },
                                             now: { clock += 0.000_001; return clock }, sleep: { clock += $0 })
        let drawn = try AnimationCommand.play(data, columns: 40, rows: 10, graphics: .cells, cellWidth: 0, cellHeight: 0,
                                              mode: .palette256, unicode: true, plan: AnimationCommand.Plan(loops: 1), output: output)
        XCTAssertEqual(drawn, 12)
        XCTAssertLessThan(try XCTUnwrap(firstWrite), wholeRead / 3, "the first frame waited for the whole read (\(wholeRead) s)")
    }
}
