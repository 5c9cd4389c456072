import TerminalImage
@testable import TerminalUI
import XCTest

/// An animation the program draws, over a slow link: frames sized to cross in a tenth of a second, paced to what they
/// cost, held where even the smallest would not cross in time.
final class LinkPacingTests: XCTestCase {
    func test_framesAreSizedToCrossInATenthOfASecond() throws {
        // 120x36 cells in 256 colours (about 52 KB a frame) at 2 Mbit/s: 20 KB a frame, 62% each way.
        let cells = LinkPacing.estimate(cells: 120 * 36, trueColor: false)
        let pacing = try XCTUnwrap(LinkPacing(rate: 250_000, wholeFrame: cells))
        XCTAssertEqual(pacing.scale, (250_000 * 0.08 / cells).squareRoot(), accuracy: 0.001)
        XCTAssertLessThanOrEqual(pacing.bytesPerFrame, 250_000 * LinkPacing.frameSeconds)
        XCTAssertLessThanOrEqual(pacing.interval, 0.2, "at least five frames a second")
        // A small picture over a link that carries it whole: its own size.
        XCTAssertEqual(LinkPacing(rate: 250_000, wholeFrame: 5_000)?.scale, 1)
        // Sixel at the view's pixels (1080x648) over 1 Mbit/s: a third each way would cost more than four times what
        // crosses in time: not tried.
        let sixel = LinkPacing.estimate(pixels: 1_080 * 648)
        XCTAssertNil(LinkPacing(rate: 125_000, wholeFrame: sixel))
        // Unless Space asked: a third each way.
        XCTAssertEqual(LinkPacing(rate: 125_000, wholeFrame: sixel, anyway: true)?.scale ?? 0, 1.0 / 3, accuracy: 0.0001)
        // Over 2 Mbit/s a third is thought to cost less than four times that: tried at a third, and measured.
        let tried = try XCTUnwrap(LinkPacing(rate: 250_000, wholeFrame: sixel))
        XCTAssertEqual(tried.scale, 1.0 / 3, accuracy: 0.0001)
        XCTAssertLessThanOrEqual(tried.bytesPerFrame, 25_000)
        XCTAssertNil(LinkPacing(rate: 0, wholeFrame: 1_000))
    }

    func test_theNextFrameWaitsForTheLinkToCarryTheLast_andDearFramesGetSmaller() throws {
        var pacing = try XCTUnwrap(LinkPacing(rate: 100_000, wholeFrame: 8_000))
        XCTAssertEqual(pacing.scale, 1)
        XCTAssertTrue(pacing.mayShow(at: 0))
        XCTAssertTrue(pacing.shown(at: 0, bytesWritten: 1_000))
        // 8 KB thought to cost, at 70% of 100 KB a second: 114 ms.
        XCTAssertFalse(pacing.mayShow(at: 0.1))
        XCTAssertTrue(pacing.mayShow(at: 0.115))
        // The first frames after a change of size redraw the whole picture: not measured, however dear.
        XCTAssertTrue(pacing.shown(at: 0.115, bytesWritten: 101_000))
        XCTAssertTrue(pacing.shown(at: 0.23, bytesWritten: 201_000))
        XCTAssertEqual(pacing.scale, 1)
        XCTAssertEqual(pacing.bytesPerFrame, 8_000)
        // Then one cost 4 KB: the next 57 ms after.
        XCTAssertTrue(pacing.shown(at: 0.345, bytesWritten: 205_000))
        XCTAssertEqual(pacing.readyAt ?? 0, 0.345 + 4_000 / 70_000, accuracy: 0.0001)
        XCTAssertEqual(pacing.scale, 1)
        // One cost 20 KB (200 ms of the link): with the 4 KB before, 12 KB a frame; smaller, to 8 KB.
        XCTAssertTrue(pacing.shown(at: 0.4, bytesWritten: 225_000))
        XCTAssertEqual(pacing.scale, (8_000.0 / 12_000).squareRoot(), accuracy: 0.001)
        XCTAssertEqual(pacing.bytesPerFrame, 8_000, accuracy: 1)
        // Nothing written since (the same bytes): nothing learnt. The two frames after the new size: not measured.
        XCTAssertTrue(pacing.shown(at: 0.5, bytesWritten: 225_000))
        XCTAssertTrue(pacing.shown(at: 0.6, bytesWritten: 300_000))
        XCTAssertTrue(pacing.shown(at: 0.7, bytesWritten: 375_000))
        XCTAssertEqual(pacing.bytesPerFrame, 8_000, accuracy: 1)
        // A frame of a second of the link: down to a third each way, then (two frames on) held.
        XCTAssertTrue(pacing.shown(at: 0.8, bytesWritten: 475_000))
        XCTAssertEqual(pacing.scale, LinkPacing.smallest, accuracy: 0.0001)
        XCTAssertTrue(pacing.shown(at: 1.8, bytesWritten: 575_000))
        XCTAssertTrue(pacing.shown(at: 2.8, bytesWritten: 675_000))
        XCTAssertFalse(pacing.shown(at: 3.8, bytesWritten: 775_000), "the link cannot carry even a third each way")
        // Asked for by Space, it goes on at a third.
        var asked = try XCTUnwrap(LinkPacing(rate: 100_000, wholeFrame: 8_000, anyway: true))
        XCTAssertTrue(asked.shown(at: 0, bytesWritten: 0))
        for second in 1...8 { XCTAssertTrue(asked.shown(at: Double(second), bytesWritten: second * 100_000)) }
        XCTAssertEqual(asked.scale, LinkPacing.smallest, accuracy: 0.0001)
    }

    /// What a frame costs is what changes from the frame before: a still background is not sent again.
    func test_theShareThatChanges_isMeasuredFromTheFrames() {
        let still = RGBImage(width: 64, height: 64, red: 10, green: 20, blue: 30)
        XCTAssertEqual(LinkPacing.changedShare([still, still, still]), 0.25, "nothing changes: at least a quarter")
        XCTAssertEqual(LinkPacing.changedShare([still, RGBImage(width: 64, height: 64, red: 200, green: 20, blue: 30)]), 1)
        // The top half changes.
        var half = still
        for index in 0..<(64 * 32 * 3) where index % 3 == 0 { half.pixels[index] = 250 }
        XCTAssertEqual(LinkPacing.changedShare([still, half]), 0.5)
        XCTAssertEqual(LinkPacing.changedShare([still]), 1, "one frame: nothing known")
    }

    /// Paused and played on: what was written meanwhile (the frame it stood at, the status line) is no frame's cost.
    func test_aPauseStartsTheMeasuringAgain() throws {
        var pacing = try XCTUnwrap(LinkPacing(rate: 100_000, wholeFrame: 8_000))
        for (index, bytes) in [0, 100, 200, 4_200].enumerated() { XCTAssertTrue(pacing.shown(at: Double(index), bytesWritten: bytes)) }
        XCTAssertEqual(pacing.bytesPerFrame, 4_000)
        pacing.restart()
        XCTAssertTrue(pacing.mayShow(at: 3.01), "nothing to wait for")
        // 60 KB written while it stood (pauses, the still drawn again): not measured, nor the next frame after it.
        XCTAssertTrue(pacing.shown(at: 10, bytesWritten: 64_200))
        XCTAssertTrue(pacing.shown(at: 10.1, bytesWritten: 68_200))
        XCTAssertTrue(pacing.shown(at: 10.2, bytesWritten: 72_200))
        XCTAssertEqual(pacing.scale, 1)
        XCTAssertEqual(pacing.bytesPerFrame, 4_000)
    }
}
