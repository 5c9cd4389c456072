import Foundation
@testable import TerminalImage
import XCTest

/// The Kitty and Sixel data the app sends, decoded back to pixels.
final class PixelProtocolTests: XCTestCase {
    /// A photo-like test picture: smooth gradients with a sharp edge.
    static func sample(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                pixels[index] = UInt8(x * 255 / max(1, width - 1))
                pixels[index + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[index + 2] = x < width / 2 ? 40 : 200
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func test_kitty_transmission_decodesToTheSamePixels_inChunksOfAtMost4096() {
        let image = Self.sample(width: 300, height: 200)
        let bytes = KittyGraphics.transmit(image, id: 7)
        let commands = KittyGraphics.commands(in: bytes)
        XCTAssertEqual(commands.count, 1)
        XCTAssertEqual(commands[0]["a"], "t")
        XCTAssertEqual(commands[0]["i"], "7")
        XCTAssertEqual(commands[0]["o"], "z")
        XCTAssertEqual(commands[0]["q"], "2")
        XCTAssertEqual(commands[0].payload, image.pixels, "pixel-exact after base64 and zlib")
        // Every escape sequence's payload is at most 4096 characters, and each repeats q=2 (kitty answers a
        // chunk that lacks it).
        let text = String(decoding: bytes, as: UTF8.self)
        let chunks = text.components(separatedBy: "\u{1B}_G").dropFirst()
        XCTAssertGreaterThan(chunks.count, 1)
        for chunk in chunks {
            let parts = chunk.split(separator: ";", maxSplits: 1)
            XCTAssertTrue(parts[0].contains("q=2"))
            XCTAssertLessThanOrEqual(parts.count > 1 ? parts[1].count - 2 : 0, 4096)
        }
    }

    func test_kitty_placement_namesThePixelsAndTheCells_andDoesNotMoveTheCursor() {
        let command = KittyGraphics.commands(in: Array(KittyGraphics.place(id: 3, placement: 9, x: 10, y: 20, width: 30,
                                                                           height: 40, columns: 5, rows: 6).utf8))
        XCTAssertEqual(command.first?.keys, ["a": "p", "i": "3", "p": "9", "x": "10", "y": "20", "w": "30", "h": "40",
                                             "c": "5", "r": "6", "C": "1", "q": "2"])
    }

    func test_sixel_decodesCloseToTheSource() throws {
        let image = Self.sample(width: 120, height: 90)
        let bytes = try XCTUnwrap(SixelEncoder.encode(image))
        XCTAssertEqual(Array(bytes.prefix(2)), [0x1B, 0x50], "a DCS sequence")
        XCTAssertEqual(Array(bytes.suffix(2)), [0x1B, 0x5C])
        let decoded = try XCTUnwrap(SixelEncoder.decode(bytes))
        XCTAssertEqual(decoded.width, 120)
        XCTAssertEqual(decoded.height, 90)
        XCTAssertGreaterThan(decoded.psnr(image), 30, "256 colours of libsixel's palette")
    }

    func test_pixelPicture_ids_areUnique_andItsCellsMapToPixels() {
        let picture = PixelPicture(image: Self.sample(width: 100, height: 60), columns: 10, rows: 3)
        let other = PixelPicture(image: Self.sample(width: 10, height: 10), columns: 1, rows: 1)
        XCTAssertNotEqual(picture.id, other.id)
        XCTAssertNotEqual(picture.id, 0)
        let rect = picture.pixelRect(column: 2, row: 1, columns: 3, rows: 2)
        XCTAssertEqual(rect.x, 20)
        XCTAssertEqual(rect.y, 20)
        XCTAssertEqual(rect.width, 30)
        XCTAssertEqual(rect.height, 40)
        let crop = picture.crop(x: 20, y: 20, width: 30, height: 40)
        XCTAssertEqual(crop.pixel(x: 0, y: 0).red, picture.image.pixel(x: 20, y: 20).red)
    }
}
