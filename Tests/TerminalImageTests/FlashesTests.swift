import Foundation
@testable import TerminalImage
import XCTest

/// The general flash threshold (WCAG 2.3.1) measured from frames' luminance: more than three flashes in any second.
final class FlashesTests: XCTestCase {
    func frame(_ grey: UInt8, width: Int = 64, height: Int = 48) -> RGBImage {
        RGBImage(width: width, height: height, red: grey, green: grey, blue: grey)
    }

    func test_blackAndWhite_tenFramesASecond_flashesFiveTimes() {
        let frames = [frame(0), frame(255)]
        let rate = Flashes.perSecond(frames, delays: [0.1, 0.1])
        XCTAssertEqual(rate, 5, accuracy: 0.5)
        XCTAssertTrue(Flashes.tooMany(rate))
    }

    func test_twoFramesASecond_flashOnce_andAreAllowed() {
        let rate = Flashes.perSecond([frame(0), frame(255)], delays: [0.5, 0.5])
        XCTAssertLessThanOrEqual(rate, 1.5)
        XCTAssertFalse(Flashes.tooMany(rate))
    }

    func test_aSlowFade_andChangesBetweenBrightStates_areNoFlashes() {
        // Grey 0 to 255 and back over two seconds: two changes a second at most.
        let fade = (0..<20).map { frame(UInt8(min(255, abs(10 - $0) * 25))) }
        XCTAssertFalse(Flashes.tooMany(Flashes.perSecond(fade, delays: Array(repeating: 0.1, count: 20))))
        // Both states brighter than 0.80 (greys 235 and 255): WCAG counts no flash there, however fast.
        XCTAssertEqual(Flashes.perSecond([frame(235), frame(255)], delays: [0.05, 0.05]), 0)
        // Less than a tenth of the luminance apart: no flash either.
        XCTAssertEqual(Flashes.perSecond([frame(100), frame(110)], delays: [0.05, 0.05]), 0)
    }

    func test_aFlashOverAQuarterOfThePicture_counts() {
        var dark = frame(0)
        var lit = frame(0)
        // The top-left quarter flashes; the rest stays black (the whole changes by a quarter only).
        for y in 0..<24 {
            for x in 0..<32 {
                let at = (y * 64 + x) * 3
                lit.pixels[at] = 255
                lit.pixels[at + 1] = 255
                lit.pixels[at + 2] = 255
            }
        }
        dark.pixels[0] = 0
        XCTAssertTrue(Flashes.tooMany(Flashes.perSecond([dark, lit], delays: [0.08, 0.08])))
    }

    func test_aShortLoop_countsItsRepeats() {
        // One dark and one light frame of 120 ms: a loop of 240 ms repeats four times a second.
        XCTAssertTrue(Flashes.tooMany(Flashes.perSecond([frame(20), frame(230)], delays: [0.12, 0.12])))
        XCTAssertEqual(Flashes.perSecond([frame(20)], delays: [0.1]), 0, "one frame does not move")
    }
}
