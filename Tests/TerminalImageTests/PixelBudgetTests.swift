import CNcursesw
import Foundation
import TerminalImage
import XCTest

/// Pictures whose headers claim more than anyone should decode: refused from the header, before any memory.
final class PixelBudgetTests: XCTestCase {
    func tinyJPEG(progressive: Bool = false) throws -> Data {
        try ImageCodec.encodeJPEG(RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 3)), progressive: progressive)
    }

    func test_aJPEGClaiming60000x60000_isRefusedFromItsHeader_baselineOrProgressive() throws {
        for progressive in [false, true] {
            let bomb = ImageCodec.claimingSize(try tinyJPEG(progressive: progressive), width: 60_000, height: 60_000)
            XCTAssertLessThan(bomb.count, 1_000)
            for hint in [nil, 40] as [Int?] {
                XCTAssertThrowsError(try ImageCodec.decode(bomb, minimumWidth: hint, minimumHeight: hint)) { error in
                    XCTAssertTrue("\(error)".contains("60000 x 60000 pixels, more than the limit of 50 megapixels"), "\(error)")
                }
            }
        }
    }

    func test_theBudgetIsTheCallersOrTheSettings() throws {
        let photo = ImageCodec.claimingSize(try tinyJPEG(), width: 16, height: 16)
        XCTAssertNoThrow(try ImageCodec.decode(photo, maximumPixels: 256))
        XCTAssertThrowsError(try ImageCodec.decode(photo, maximumPixels: 255))
        let previous = ImageCodec.pixelBudget
        defer { ImageCodec.pixelBudget = previous }
        ImageCodec.pixelBudget = 100
        XCTAssertThrowsError(try ImageCodec.decode(photo))
        ImageCodec.pixelBudget = 0 // kept at least 1, at most the decoders' ceiling
        XCTAssertEqual(ImageCodec.pixelBudget, 1)
    }

    func test_aPNGClaimingMoreThanTheBudget_isRefusedBeforeItsPixels() throws {
        // A valid PNG header (IHDR) claiming 65535 x 65535, and no image data.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = Array("IHDR".utf8) + [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 8, 2, 0, 0, 0]
        png += [0, 0, 0, 13] + ihdr + crc32(ihdr)
        let idat: [UInt8] = Array("IDAT".utf8) + [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        png += [0, 0, 0, 8] + idat + crc32(idat)
        let iend: [UInt8] = Array("IEND".utf8)
        png += [0, 0, 0, 0] + iend + crc32(iend)
        XCTAssertThrowsError(try ImageCodec.decode(Data(png))) { error in
            XCTAssertTrue("\(error)".contains("65535 x 65535 pixels"), "\(error)")
        }
    }

    func test_aClaimOfNoPixels_isRefused() throws {
        let empty = ImageCodec.claimingSize(try tinyJPEG(), width: 0, height: 16)
        XCTAssertThrowsError(try ImageCodec.decode(empty))
    }

    private func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
