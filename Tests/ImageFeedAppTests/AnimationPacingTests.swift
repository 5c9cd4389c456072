import Foundation
import ImageFeedApp
import TerminalImage
import XCTest

/// `render --animate` paced on a clock of its own: which frames a duration lets through does not depend on how busy
/// the machine is (the command-line test runs the real program on the real clock, and checks what does not).
final class AnimationPacingTests: XCTestCase {
    /// Sixel cut short by `--duration 0.5`: the rocket's 80 ms frames, each drawn when due, none once the half second
    /// is over.
    func test_sixel_aDurationOfHalfASecond_drawsTheFramesDueInIt() throws {
        let gif = try Data(contentsOf: EndToEndTests.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif"))
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
