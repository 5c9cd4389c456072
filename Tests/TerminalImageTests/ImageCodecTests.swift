import CNcursesw
import Foundation
import TerminalImage
import XCTest

final class ImageCodecTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets")

    func photo(_ name: String) throws -> Data {
        try Data(contentsOf: Self.assets.appendingPathComponent("photos").appendingPathComponent(name))
    }

    func test_jpeg_decodesAtFullSize() throws {
        let decoded = try ImageCodec.decode(try photo("coffee.jpg"))
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.image.width, 600)
        XCTAssertEqual(decoded.image.height, 400)
        XCTAssertFalse(decoded.isDamaged)
    }

    func test_jpeg_usesDCTScalingToDecodeNoLargerThanNeeded() throws {
        let data = try photo("retina.jpg") // 1080 x 1080
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 100, minimumHeight: 100).image.width, 135) // 1/8
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 200).image.width, 270) // 1/4
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 500).image.width, 540) // 1/2
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 900).image.width, 1080) // 1/1
    }

    func test_jpeg_forCells_keepsEightTimesThePixelsNeeded() throws {
        let data = try photo("retina.jpg")
        let cells = ImageCodec.cellsOversampling
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 16, minimumHeight: 16, oversampling: cells).image.width, 135)
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 30, oversampling: cells).image.width, 270)
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 60, oversampling: cells).image.width, 540)
        XCTAssertEqual(try ImageCodec.decode(data, minimumWidth: 100, oversampling: cells).image.width, 1080)
    }

    /// Decoded just as large as the cells need, a 4:2:0 JPEG's colour comes from 16x16 blocks: half blocks
    /// drawn from it were several dB off the photo where chafa's were not.
    func test_halfBlocksFromAScaledDecode_matchTheWholePhoto() throws {
        for name in ["astronaut.jpg", "chelsea.jpg", "rocket.jpg"] {
            let data = try photo(name)
            let whole = try ImageCodec.decode(data).image
            let reference = AreaResampler.resize(whole, width: 40, height: 40)
            let hinted = try ImageCodec.decode(data, minimumWidth: 40, minimumHeight: 40, oversampling: ImageCodec.cellsOversampling).image
            let drawn = AreaResampler.resize(hinted, width: 40, height: 40)
            XCTAssertGreaterThan(drawn.psnr(reference), 45, name)
        }
    }

    func test_grayscaleJPEG_decodesToRGB() throws {
        let decoded = try ImageCodec.decode(try photo("coins.jpg"))
        let pixel = decoded.image.pixel(x: 100, y: 100)
        XCTAssertEqual(pixel.red, pixel.green)
        XCTAssertEqual(pixel.green, pixel.blue)
    }

    func test_jpegSize_readsTheHeaderOnly() throws {
        let size = try ImageCodec.jpegSize(try photo("rocket.jpg"))
        XCTAssertEqual(size.width, 640)
        XCTAssertEqual(size.height, 427)
    }

    func test_truncatedJPEG_isDamagedOrRefused_neverACrash() throws {
        let data = try photo("astronaut.jpg")
        for length in [3, 50, 200, 1_000, data.count / 2, data.count - 10] {
            do {
                let decoded = try ImageCodec.decode(data.prefix(length))
                XCTAssertTrue(decoded.isDamaged, "length \(length)")
            } catch {
                XCTAssertTrue(error is ImageDecodingError, "length \(length): \(error)")
            }
        }
    }

    func test_garbageAfterAJPEGHeader_isRefused() {
        let garbage = Data([0xFF, 0xD8, 0xFF] + (0..<500).map { UInt8($0 % 251) })
        XCTAssertThrowsError(try ImageCodec.decode(garbage)) { XCTAssertTrue($0 is ImageDecodingError) }
    }

    func test_unknownFormat_isRefused() {
        XCTAssertThrowsError(try ImageCodec.decode(Data("<html>not an image</html>".utf8))) {
            XCTAssertEqual($0 as? ImageDecodingError, .unknownFormat)
        }
        XCTAssertThrowsError(try ImageCodec.decode(Data())) {
            XCTAssertEqual($0 as? ImageDecodingError, .unknownFormat)
        }
    }

    func test_png_withAlpha_isComposedOverBlack() throws {
        let decoded = try ImageCodec.decode(Fixtures.rgbaPNG)
        XCTAssertEqual(decoded.format, .png)
        XCTAssertEqual(decoded.image.width, 4)
        XCTAssertEqual(decoded.image.height, 2)
        XCTAssertEqual(decoded.image.pixel(x: 0, y: 0).red, 255)
        XCTAssertEqual(decoded.image.pixel(x: 1, y: 0).green, 128, "half-transparent green over black")
        XCTAssertEqual(decoded.image.pixel(x: 2, y: 1).blue, 0, "fully transparent is black")
    }

    func test_palettePNG_decodes() throws {
        let decoded = try ImageCodec.decode(Fixtures.palettePNG)
        XCTAssertEqual(decoded.image.width, 3)
        XCTAssertTrue(decoded.image.pixel(x: 0, y: 0) == (10, 20, 30))
        XCTAssertTrue(decoded.image.pixel(x: 1, y: 1) == (200, 100, 50))
    }

    func test_truncatedPNG_isRefused() {
        XCTAssertThrowsError(try ImageCodec.decode(Fixtures.rgbaPNG.prefix(40))) { XCTAssertTrue($0 is ImageDecodingError) }
    }

    func test_encodeJPEG_roundTrips() throws {
        let image = RGBImage(width: 32, height: 16, red: 200, green: 40, blue: 90)
        let decoded = try ImageCodec.decode(try ImageCodec.encodeJPEG(image, quality: 95)).image
        XCTAssertEqual(decoded.width, 32)
        XCTAssertEqual(decoded.height, 16)
        let pixel = decoded.pixel(x: 10, y: 8)
        XCTAssertEqual(Int(pixel.red), 200, accuracy: 4)
        XCTAssertEqual(Int(pixel.green), 40, accuracy: 4)
        XCTAssertEqual(Int(pixel.blue), 90, accuracy: 4)
    }

    func test_averageColor_isHex() {
        XCTAssertEqual(RGBImage(width: 2, height: 2, red: 0x60, green: 0x54, blue: 0x4D).averageColorHex, "#60544D")
    }

    func test_ncurseswShim_linksTheWideLibrary() {
        let version = String(cString: curses_version())
        XCTAssertTrue(version.hasPrefix("ncurses"), version)
    }
}

enum Fixtures {
    /// 4x2 RGBA: red, a half-transparent green at (1,0), a transparent blue at (2,1).
    static let rgbaPNG = hex("89504e470d0a1a0a0000000d49484452000000040000000208060000007fa87d630000001b49444154789c63f8cfc0f09fe13f43c37f0686ff50369401650300fa340e736e1203aa0000000049454e44ae426082")
    /// 3x3 palette image: colour 0 is (10,20,30), the centre is colour 1, (200,100,50).
    static let palettePNG = hex("89504e470d0a1a0a0000000d49484452000000030000000301030000006ce627fc00000006504c54450a141ec8643277a0b39c0000000e49444154789c636060706060000000c6004139310c4b0000000049454e44ae426082")

    static func hex(_ text: String) -> Data {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    /// An 8x8 CMYK JPEG with Adobe's marker (inverted values), of a brown picture averaging
    /// RGB (158, 86, 51).
    static let adobeCMYK = "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwAIBgYHBgUIBwcHCQkICgwUDQwLCwwZEhMPFB0aHx4dGhwcICQuJyAiLCMcHCg3KSwwMTQ0NB8nOT04MjwuMzQy/8AAFAgACAAIBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAABfQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5+v/aAA4EQwBNAFkASwAAPwDfstftdNvm8O29kYltflQ9Bkfw4x175z0rlbXX20u6fQRZ7TbXHBbjgZPAxnPTnPTtXmcWqyaazaUYMeRNkBgB0JORxnOOOvSvf6//2Q=="

    func test_cmykJPEG_isConvertedToRGB() throws {
        let data = try XCTUnwrap(Data(base64Encoded: Self.adobeCMYK))
        let decoded = try ImageCodec.decode(data)
        XCTAssertEqual(decoded.image.width, 8)
        XCTAssertEqual(decoded.image.height, 8)
        var sums = [0, 0, 0]
        for index in 0..<64 {
            for channel in 0..<3 { sums[channel] += Int(decoded.image.pixels[index * 3 + channel]) }
        }
        let mean = sums.map { $0 / 64 }
        XCTAssertEqual(Double(mean[0]), 158, accuracy: 6, "\(mean)")
        XCTAssertEqual(Double(mean[1]), 86, accuracy: 6, "\(mean)")
        XCTAssertEqual(Double(mean[2]), 51, accuracy: 6, "\(mean)")
    }
}

