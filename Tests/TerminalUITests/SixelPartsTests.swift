import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

final class SixelPartsTests: XCTestCase {
    /// Parts of a picture drawn at different times are the very pixels of the whole (one palette, one dither).
    func test_aPartOfAQuantizedPicture_isThatPartOfTheWhole() throws {
        var pixels = [UInt8](repeating: 0, count: 60 * 48 * 3)
        for index in pixels.indices { pixels[index] = UInt8((index * 7 + index / 180 * 13) % 256) }
        let picture = try XCTUnwrap(SixelEncoder.Quantized(RGBImage(width: 60, height: 48, pixels: pixels)))
        let whole = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(picture.encode(x: 0, y: 0, width: 60, height: 48))))
        let part = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(picture.encode(x: 10, y: 12, width: 30, height: 24))))
        XCTAssertEqual(part.width, 30)
        XCTAssertEqual(part.height, 24)
        let cut = PixelPicture(image: whole, columns: 6, rows: 4).crop(x: 10, y: 12, width: 30, height: 24)
        XCTAssertEqual(part.pixels, cut.pixels)
        XCTAssertNil(picture.encode(x: 50, y: 0, width: 20, height: 8), "outside the picture")
    }
}
