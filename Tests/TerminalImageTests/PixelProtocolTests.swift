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

    func test_sixel_aPictureOfFewColours_takesItsOwnColours_asExactlyAsSixelWritesThem() throws {
        // 200 colours, each in a column: a drawing, a logo.
        var pixels = [UInt8](repeating: 0, count: 200 * 12 * 3)
        for y in 0..<12 {
            for x in 0..<200 {
                let index = (y * 200 + x) * 3
                (pixels[index], pixels[index + 1], pixels[index + 2]) = (UInt8(x), UInt8(255 - x), UInt8(x % 7 * 30))
            }
        }
        let drawing = RGBImage(width: 200, height: 12, pixels: pixels)
        XCTAssertEqual(try XCTUnwrap(SixelEncoder.fewColours(drawing, limit: 256)).palette.count / 3, 200)
        let decoded = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(SixelEncoder.encode(drawing))))
        for index in 0..<(200 * 12 * 3) {
            XCTAssertLessThanOrEqual(abs(Int(decoded.pixels[index]) - Int(pixels[index])), 2,
                                     "Sixel's hundredths are 2.55 apart: each colour as near as Sixel can write it")
        }
        // One colour: a palette of one.
        let plain = RGBImage(width: 30, height: 12, pixels: (0..<(30 * 12 * 3)).map { $0 % 3 == 0 ? 200 : 10 })
        let drawnPlain = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(SixelEncoder.encode(plain))))
        XCTAssertEqual(drawnPlain.width, 30)
        XCTAssertEqual(drawnPlain.height, 12)
        XCTAssertGreaterThan(drawnPlain.psnr(plain), 45)
        // A colour picture past 256 colours takes libsixel's palette.
        XCTAssertNil(SixelEncoder.fewColours(Self.sample(width: 120, height: 90), limit: 256))
        XCTAssertNil(SixelEncoder.fewColours(drawing, limit: 100))
    }

    func test_sixel_aPictureInBlackAndWhite_takesTheGreysThatKeepItClosest_withoutDithering() throws {
        // Every grey from black to white, most pixels dark (as a night photo): the levels go where the pixels are.
        let width = 256, height = 12
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let grey = UInt8(y < 9 ? x / 4 : x) // three quarters of the picture in the darkest quarter of greys
                for channel in 0..<3 { pixels[(y * width + x) * 3 + channel] = grey }
            }
        }
        let photo = RGBImage(width: width, height: height, pixels: pixels)
        let exact = try XCTUnwrap(SixelEncoder.fewColours(photo, limit: 256))
        XCTAssertEqual(exact.palette.count / 3, SixelEncoder.greyLevels)
        let levels = stride(from: 0, to: exact.palette.count, by: 3).map { Int(exact.palette[$0]) }
        XCTAssertGreaterThan(levels.filter { $0 < 64 }.count, SixelEncoder.greyLevels / 4 + 1,
                             "the darkest quarter of greys, with most of the pixels, gets more than a quarter of the levels")
        let decoded = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(SixelEncoder.encode(photo))))
        for y in 1..<9 {
            for x in 0..<width {
                XCTAssertEqual(decoded.pixels[(y * width + x) * 3], decoded.pixels[x * 3], "no dithering: one grey a column")
                XCTAssertEqual(decoded.pixels[(y * width + x) * 3], decoded.pixels[(y * width + x) * 3 + 2])
            }
        }
        let uniform = RGBImage(width: width, height: height, pixels: pixels.map { UInt8(min(255, Int($0) / 11 * 11 + 5)) })
        XCTAssertGreaterThan(decoded.psnr(photo), uniform.psnr(photo), "closer than 24 evenly spaced greys")
    }

    func test_sixel_nearestColour_isTheNearestOfThePalette() {
        var generator = SystemRandomNumberGenerator()
        for size in [1, 2, 7, 64, 256] {
            let palette = (0..<(size * 3)).map { _ in Int.random(in: 0...255, using: &generator) }
            let search = SixelEncoder.NearestColour(palette: palette)
            for _ in 0..<2_000 {
                let (red, green, blue) = (Int.random(in: 0...255, using: &generator), Int.random(in: 0...255, using: &generator),
                                          Int.random(in: 0...255, using: &generator))
                func distance(_ index: Int) -> Int {
                    let dr = palette[index * 3] - red, dg = palette[index * 3 + 1] - green, db = palette[index * 3 + 2] - blue
                    return dr * dr + dg * dg + db * db
                }
                let best = (0..<size).map(distance).min()!
                XCTAssertEqual(distance(search.nearest(red: red, green: green, blue: blue)), best, "\(size) colours")
            }
        }
    }

    /// A colour photo at a card's size: libsixel's palette from every pixel, each pixel's nearest colour with
    /// three quarters of the error passed on. With libsixel's own mapping (its quicker palette, all the error passed
    /// on) this photo was 33.8 dB and 312 KB.
    func test_sixel_aColourPhoto_isCloseToThePhoto_inFewerBytes() throws {
        let whole = try ImageCodec.decode(Data(contentsOf: ImageCodecTests.assets.appendingPathComponent("photos/coffee.jpg"))).image
        let photo = AreaResampler.resize(whole, width: 540, height: 360)
        let bytes = try XCTUnwrap(SixelEncoder.encode(photo))
        let decoded = try XCTUnwrap(SixelEncoder.decode(bytes))
        XCTAssertGreaterThan(decoded.psnr(photo), 36)
        XCTAssertLessThan(bytes.count, 300_000)
    }
}
