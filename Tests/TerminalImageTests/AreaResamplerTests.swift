import Foundation
@testable import TerminalImage
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

    func test_enlarging_interpolatesBetweenPixels_withoutBlocks() {
        // A ramp of 4 pixels (0, 85, 170, 255) made 12 wide: it rises at every step, where the nearest pixel made
        // three flat steps of 3.
        let ramp = RGBImage(width: 4, height: 1, pixels: [0, 85, 170, 255].flatMap { [UInt8($0), UInt8($0), UInt8($0)] })
        let enlarged = AreaResampler.resize(ramp, width: 12, height: 1)
        let reds = (0..<12).map { Int(enlarged.pixel(x: $0, y: 0).red) }
        for index in 2..<10 { XCTAssertGreaterThan(reds[index], reds[index - 1], "\(reds)") }
        XCTAssertEqual(reds.first, 0)
        XCTAssertEqual(reds.last, 255)
    }

    func test_sameSizeOnOneAxis_keepsThatAxisExactly() {
        var generator = SeededGenerator(seed: 7)
        let image = RGBImage(width: 9, height: 5, pixels: (0..<(9 * 5 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let wider = AreaResampler.resize(image, width: 9, height: 11)
        XCTAssertEqual(AreaResampler.resize(wider, width: 9, height: 11), wider)
        for (width, height) in [(9, 3), (9, 11)] {
            let resized = AreaResampler.resize(image, width: width, height: height)
            let column = AreaResampler.resize(RGBImage(width: 1, height: 5, pixels: (0..<5).flatMap { y in Array(image.pixels[(y * 9 * 3)..<(y * 9 * 3 + 3)]) }),
                                              width: 1, height: height)
            for y in 0..<height { XCTAssertTrue(resized.pixel(x: 0, y: y) == column.pixel(x: 0, y: y)) }
        }
    }

    /// A photo made small and enlarged again is closer to the photo at that size than the nearest pixel made it.
    func test_enlargedPhoto_isCloserToTheWholePhotoThanNearestPixels() throws {
        let whole = try ImageCodec.decode(Data(contentsOf: ImageCodecTests.assets.appendingPathComponent("photos/retina.jpg"))).image
        let truth = AreaResampler.resize(whole, width: 720, height: 720)
        let small = AreaResampler.resize(whole, width: 480, height: 480)
        let enlarged = AreaResampler.resize(small, width: 720, height: 720)
        var nearest = [UInt8](repeating: 0, count: 720 * 720 * 3)
        for y in 0..<720 {
            for x in 0..<720 {
                let from = ((y * 480 / 720) * 480 + x * 480 / 720) * 3
                nearest.replaceSubrange((y * 720 + x) * 3..<((y * 720 + x) * 3 + 3), with: small.pixels[from..<(from + 3)])
            }
        }
        let blocky = RGBImage(width: 720, height: 720, pixels: nearest)
        XCTAssertGreaterThan(enlarged.psnr(truth), blocky.psnr(truth) + 3)
    }

    /// A tall thin picture made one wide row (a hostile file's shape): each source row is resized across into a ring
    /// of four rows, not all 5,000 kept at the target's width.
    func test_aTallPicture_intoOneWideRow_isTheAverageOfItsRows() {
        var pixels = [UInt8](repeating: 0, count: 2 * 5_000 * 3)
        for y in 0..<5_000 where y % 2 == 1 { for x in 0..<6 { pixels[y * 6 + x] = 200 } }
        let wide = AreaResampler.resize(RGBImage(width: 2, height: 5_000, pixels: pixels), width: 500, height: 1)
        XCTAssertEqual(wide.width, 500)
        for x in [0, 250, 499] { XCTAssertTrue(wide.pixel(x: x, y: 0) == (100, 100, 100)) }
    }

    /// The row at a time resizer against the sum it stands for, every target pixel from its spans on both axes, on
    /// random pictures made smaller, larger, and one way on each axis.
    func test_resize_isTheWeightedSumOfItsSpans() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<40 {
            let width = Int.random(in: 1...23, using: &generator), height = Int.random(in: 1...60, using: &generator)
            let image = RGBImage(width: width, height: height,
                                 pixels: (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let targetWidth = Int.random(in: 1...40, using: &generator), targetHeight = Int.random(in: 1...40, using: &generator)
            let resized = AreaResampler.resize(image, width: targetWidth, height: targetHeight)
            let across = AreaResampler.spans(source: width, target: targetWidth)
            let down = AreaResampler.spans(source: height, target: targetHeight)
            for y in 0..<targetHeight {
                for x in 0..<targetWidth {
                    for channel in 0..<3 {
                        var sum = 0.0
                        for (sourceY, yShare) in down[y] {
                            for (sourceX, xShare) in across[x] {
                                sum += Double(image.pixels[(sourceY * width + sourceX) * 3 + channel]) * xShare * yShare
                            }
                        }
                        let expected = Int(max(0, min(255, sum.rounded())))
                        let got = Int(resized.pixels[(y * targetWidth + x) * 3 + channel])
                        XCTAssertLessThanOrEqual(abs(got - expected), 1, "\(width)x\(height) to \(targetWidth)x\(targetHeight) at \(x),\(y)")
                    }
                }
            }
        }
    }
}

/// Numbers the same on every run (a linear congruential generator).
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }
}
