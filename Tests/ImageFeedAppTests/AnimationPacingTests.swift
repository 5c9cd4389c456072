import Foundation
import ImageFeedApp
import TerminalImage
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
