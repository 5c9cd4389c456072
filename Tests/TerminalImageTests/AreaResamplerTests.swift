import TerminalImage
import XCTest

final class AreaResamplerTests: XCTestCase {
    func test_halving_averagesEachTwoByTwoBlock() {
        // Left column white, right column black, 4x2 → 2x1: (white+white)/2... each target pixel covers 2x2.
        var pixels: [UInt8] = []
        for _ in 0..<2 {
            pixels += [255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255]
        }
        let image = RGBImage(width: 4, height: 2, pixels: pixels)
        let half = AreaResampler.resize(image, width: 2, height: 1)
        XCTAssertTrue(half.pixel(x: 0, y: 0) == (128, 128, 128))
        XCTAssertTrue(half.pixel(x: 1, y: 0) == (255, 255, 255))
    }

    func test_nonIntegerShrink_weighsPartialPixelsByArea() {
        // 3 pixels (0, 90, 180) into 2: the middle pixel is split between them.
        let image = RGBImage(width: 3, height: 1, pixels: [0, 0, 0, 90, 90, 90, 180, 180, 180])
        let shrunk = AreaResampler.resize(image, width: 2, height: 1)
        XCTAssertEqual(shrunk.pixel(x: 0, y: 0).red, 30) // (0 * 1 + 90 * 0.5) / 1.5
        XCTAssertEqual(shrunk.pixel(x: 1, y: 0).red, 150) // (90 * 0.5 + 180 * 1) / 1.5
    }

    func test_uniformImage_staysUniformAtAnySize() {
        let image = RGBImage(width: 37, height: 23, red: 12, green: 200, blue: 99)
        for (width, height) in [(1, 1), (5, 3), (36, 22), (80, 50)] {
            let resized = AreaResampler.resize(image, width: width, height: height)
            XCTAssertEqual(resized.width, width)
            XCTAssertEqual(resized.height, height)
            XCTAssertTrue(resized.pixel(x: width - 1, y: height - 1) == (12, 200, 99))
        }
    }

    func test_fill_cropsTheCentreToTheTargetShape() {
        // 4x2: black, red, red, black columns; a 1x1 fill keeps the centre square (the red half).
        var pixels: [UInt8] = []
        for _ in 0..<2 { pixels += [0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 0, 0] }
        let square = AreaResampler.fill(RGBImage(width: 4, height: 2, pixels: pixels), width: 1, height: 1)
        XCTAssertTrue(square.pixel(x: 0, y: 0) == (255, 0, 0))
    }

    func test_zeroSize_givesAnEmptyImage() {
        let resized = AreaResampler.resize(RGBImage(width: 2, height: 2, red: 1, green: 1, blue: 1), width: 0, height: 5)
        XCTAssertEqual(resized.width, 0)
        XCTAssertTrue(resized.pixels.isEmpty)
    }
}
