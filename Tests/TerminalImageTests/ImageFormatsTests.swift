import Foundation
import TerminalImage
import XCTest

/// GIF, WebP, BMP and TIFF, as a file manager hands them to `image-feed render`: each kind ImageMagick writes,
/// decoded as ImageMagick decodes it (the `ref-*.png` beside each, made with `convert FILE[0] -alpha off`), and what
/// an attacker would send refused before it costs memory.
final class ImageFormatsTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Formats")

    func file(_ name: String) throws -> Data {
        try Data(contentsOf: Self.folder.appendingPathComponent(name))
    }

    /// The file decoded, against ImageMagick's decoding of it.
    func psnr(_ name: String) throws -> Double {
        let decoded = try ImageCodec.decode(try file(name))
        let base = (name as NSString).deletingPathExtension
        let reference = try ImageCodec.decode(try file("ref-\(base)-\((name as NSString).pathExtension).png")).image
        XCTAssertEqual(decoded.image.width, 48, name)
        XCTAssertEqual(decoded.image.height, 36, name)
        XCTAssertFalse(decoded.isDamaged, name)
        return decoded.image.psnr(reference)
    }

    func test_everyKind_decodesAsImageMagickDoes() throws {
        let exact = ["rgb24.bmp", "pal8.bmp", "pal4.bmp", "mono1.bmp", "topdown.bmp", "argb32.bmp", "still.gif", "plain.gif",
                     "anim.gif", "still.webp", "anim.webp", "lzw.tif", "zip.tif", "gray.tif"]
        for name in exact {
            XCTAssertEqual(try psnr(name), .infinity, "\(name) differs from ImageMagick's decoding")
        }
        // 5 bits a channel and 16 bits a channel are scaled to 8 bits with another rounding.
        for name in ["rgb565.bmp", "d16.tif"] {
            XCTAssertGreaterThan(try psnr(name), 45, name)
        }
    }

    func test_formats_areRecognisedByTheirBytes_notTheirNames() throws {
        XCTAssertEqual(ImageFormat(sniffing: try file("still.gif")), .gif)
        XCTAssertEqual(ImageFormat(sniffing: try file("still.webp")), .webp)
        XCTAssertEqual(ImageFormat(sniffing: try file("rgb24.bmp")), .bmp)
        XCTAssertEqual(ImageFormat(sniffing: try file("lzw.tif")), .tiff)
        XCTAssertNil(ImageFormat(sniffing: Data("hello".utf8)))
        XCTAssertNil(ImageFormat(sniffing: Data("RIFF\0\0\0\0WAVE".utf8)), "a RIFF file that is not WebP")
        XCTAssertEqual(ImageDecodingError.unknownFormat.description,
                       "The image is not one of the formats read (JPEG, PNG, GIF, WebP, BMP, TIFF or MP4).")
    }

    func test_animations_showTheirFirstFrame() throws {
        let still = try ImageCodec.decode(try file("src.png")).image
        for name in ["anim.gif", "anim.webp"] {
            let first = try ImageCodec.decode(try file(name)).image
            XCTAssertGreaterThan(first.psnr(still), 30, "\(name): the first frame, not the negative second")
        }
    }

    /// A header claiming more pixels than the budget is refused before the pixels are read.
    func test_aHeaderClaimingAHugePicture_isRefused() throws {
        var gif = try file("plain.gif")
        gif.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF]) // 65535 x 65535 logical screen
        var bmp = try file("rgb24.bmp")
        bmp.replaceSubrange(18..<26, with: [0x60, 0xEA, 0, 0, 0x60, 0xEA, 0, 0]) // 60000 x 60000
        for (name, data) in [("gif", gif), ("bmp", bmp)] {
            XCTAssertThrowsError(try ImageCodec.decode(data, maximumPixels: 4_000_000), name) { error in
                XCTAssertTrue("\(error)".contains("more than the limit"), "\(name): \(error)")
            }
        }
        var webp = try file("still.webp")
        // A VP8L header's 14-bit width and height, all ones: 16384 x 16384.
        if let at = webp.firstRange(of: Data("VP8L".utf8))?.upperBound {
            let header = at + 5
            webp.replaceSubrange(header..<(header + 4), with: [0xFF, 0xFF, 0xFF, 0x0F])
            XCTAssertThrowsError(try ImageCodec.decode(webp, maximumPixels: 4_000_000))
        }
        var tiff = try file("lzw.tif")
        // Every width and length entry of the first directory, made 60000.
        let bytes = [UInt8](tiff)
        let directory = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let entries = Int(bytes[directory]) | Int(bytes[directory + 1]) << 8
        for index in 0..<entries {
            let entry = directory + 2 + index * 12
            let tag = Int(bytes[entry]) | Int(bytes[entry + 1]) << 8
            guard tag == 256 || tag == 257 else { continue }
            tiff.replaceSubrange((entry + 2)..<(entry + 12), with: [4, 0, 1, 0, 0, 0, 0x60, 0xEA, 0, 0]) // LONG 60000
        }
        XCTAssertThrowsError(try ImageCodec.decode(tiff, maximumPixels: 4_000_000))
    }

    /// Cut anywhere, every file either decodes (damaged, partly) or is refused with a message: never a crash.
    func test_truncatedFiles_neverCrash() throws {
        for name in ["plain.gif", "still.gif", "anim.gif", "still.webp", "anim.webp", "rgb24.bmp", "pal4.bmp", "lzw.tif", "zip.tif"] {
            let data = try file(name)
            for length in stride(from: 0, to: data.count, by: max(1, data.count / 40)) {
                let cut = data.prefix(length)
                if let decoded = try? ImageCodec.decode(cut) {
                    XCTAssertLessThanOrEqual(decoded.image.width * decoded.image.height, 48 * 36, "\(name) cut at \(length)")
                }
            }
        }
    }

    /// A still GIF or WebP is refused in its own format's words, however short: a GIF of a few bytes said "not an
    /// animation" once the still was read by the animation reader.
    func test_aShortStill_isRefusedAsItsFormat() throws {
        let file = try file("still.gif")
        for length in 6..<12 {
            XCTAssertThrowsError(try ImageCodec.decode(file.prefix(length))) { error in
                XCTAssertTrue("\(error)".contains("GIF"), "\(length) bytes: \(error)")
                XCTAssertFalse("\(error)".contains("animation"), "\(length) bytes: \(error)")
            }
        }
    }
}
