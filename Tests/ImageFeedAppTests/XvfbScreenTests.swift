import Foundation
import TerminalImage
import TestSupport
import XCTest

/// The real-terminal tests' photographs are read from the file Xvfb draws its screen into (XWD): a file made here as
/// Xvfb makes it (little-endian 32-bit pixels, blue first) is read back rectangle for rectangle.
final class XvfbScreenTests: XCTestCase {
    /// An XWD file of `width` x `height` pixels whose pixel (x, y) is (x, y, x + y) in red, green and blue.
    static func screenFile(width: Int, height: Int, colours: Int = 256) -> Data {
        let name = Array("screen\0".utf8) + [0, 0]
        let headerSize = 100 + name.count
        var fields = [UInt32](repeating: 0, count: 25)
        fields[0] = UInt32(headerSize); fields[1] = 7; fields[2] = 2; fields[3] = 24
        fields[4] = UInt32(width); fields[5] = UInt32(height); fields[7] = 0 // LSBFirst
        fields[8] = 32; fields[10] = 32; fields[11] = 32; fields[12] = UInt32(width * 4); fields[13] = 4
        fields[14] = 0xFF0000; fields[15] = 0xFF00; fields[16] = 0xFF; fields[17] = 8
        fields[18] = UInt32(colours); fields[19] = UInt32(colours)
        var data = Data()
        for field in fields { data += [UInt8(field >> 24), UInt8(field >> 16 & 0xFF), UInt8(field >> 8 & 0xFF), UInt8(field & 0xFF)] }
        data += name
        data += Data(count: colours * 12)
        for y in 0..<height {
            for x in 0..<width { data += [UInt8((x + y) & 0xFF), UInt8(y & 0xFF), UInt8(x & 0xFF), 0] }
        }
        return data
    }

    func test_aRectangle_isReadAsTheServerDrewIt_andClippedToTheScreen() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("Xvfb_screen0")
        try Self.screenFile(width: 64, height: 40).write(to: file)
        let screen = XvfbScreen(file: file)
        let shot = try screen.photograph(x: 10, y: 5, width: 20, height: 8)
        XCTAssertEqual(shot.width, 20)
        XCTAssertEqual(shot.height, 8)
        for (x, y) in [(0, 0), (19, 7), (3, 4)] {
            let at = (y * shot.width + x) * 3
            XCTAssertEqual(Array(shot.pixels[at..<at + 3]), [UInt8(x + 10), UInt8(y + 5), UInt8(x + 10 + y + 5)], "pixel \(x),\(y)")
        }
        // Past the screen's edge: what is on the screen.
        let edge = try screen.photograph(x: 50, y: 30, width: 40, height: 40)
        XCTAssertEqual(edge.width, 14)
        XCTAssertEqual(edge.height, 10)
        XCTAssertThrowsError(try screen.photograph(x: 70, y: 0, width: 10, height: 10), "wholly off the screen")
    }

    func test_aFileThatIsNotAScreen_isSaidSo() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("Xvfb_screen0")
        try Data(repeating: 7, count: 300).write(to: file)
        XCTAssertThrowsError(try XvfbScreen(file: file).photograph(x: 0, y: 0, width: 4, height: 4)) { error in
            XCTAssertTrue("\(error)".contains("not a 24-bit XWD"), "\(error)")
        }
        var short = Self.screenFile(width: 64, height: 40)
        short.removeLast(64 * 4 * 30)
        try short.write(to: file)
        XCTAssertThrowsError(try XvfbScreen(file: file).photograph(x: 0, y: 0, width: 64, height: 40)) { error in
            XCTAssertTrue("\(error)".contains("ended early"), "\(error)")
        }
    }
}
