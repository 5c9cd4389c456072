import Foundation
import TerminalImage

/// The screen of an Xvfb started with `-fbdir`: the server draws into a memory-mapped file in XWD format
/// (`Xvfb_screen0`), and reading it photographs the screen without asking the server anything. A photograph that
/// asks (`import`, XGetImage) waits on a server busy with a terminal drawing in software, and under load has been
/// seen to wait past any timeout; the file is there to read whatever the server is doing.
struct XvfbScreen {
    /// The file the server draws screen 0 into.
    let file: URL

    /// The layout of the file, read from its header (XWD version 7: 25 big-endian 32-bit fields, then the window's
    /// name, then `ncolors` colour entries of 12 bytes, then the pixels).
    struct Layout {
        var width: Int
        var height: Int
        var bytesPerLine: Int
        var bitsPerPixel: Int
        var littleEndian: Bool
        var masks: (red: UInt32, green: UInt32, blue: UInt32)
        var pixelsAt: Int
    }

    struct Unreadable: Error, CustomStringConvertible { var description: String }

    static func layout(of header: Data) throws -> Layout {
        guard header.count >= 100 else { throw Unreadable(description: "the screen's file has no header yet") }
        func field(_ index: Int) -> UInt32 {
            let start = header.startIndex + index * 4
            return header[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        let headerSize = Int(field(0)), version = field(1), format = field(2)
        let width = Int(field(4)), height = Int(field(5)), byteOrder = field(7)
        let bitsPerPixel = Int(field(11)), bytesPerLine = Int(field(12)), colours = Int(field(19))
        // ZPixmap (2) of 24 or 32 bits a pixel, as Xvfb makes for a screen of depth 24.
        guard version == 7, format == 2, [24, 32].contains(bitsPerPixel), width > 0, height > 0,
              bytesPerLine >= width * bitsPerPixel / 8, headerSize >= 100, colours >= 0, colours <= 65536 else {
            throw Unreadable(description: "the screen's file is not a 24-bit XWD (version \(version), format \(format), \(bitsPerPixel) bits)")
        }
        return Layout(width: width, height: height, bytesPerLine: bytesPerLine, bitsPerPixel: bitsPerPixel,
                      littleEndian: byteOrder == 0, masks: (field(14), field(15), field(16)),
                      pixelsAt: headerSize + colours * 12)
    }

    /// The rectangle of the screen at (`x`, `y`), `width` by `height` pixels (clipped to the screen).
    func photograph(x: Int, y: Int, width: Int, height: Int) throws -> RGBImage {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let layout = try Self.layout(of: handle.readData(ofLength: 100))
        let left = max(0, x), top = max(0, y)
        let right = min(layout.width, x + width), bottom = min(layout.height, y + height)
        guard right > left, bottom > top else {
            throw Unreadable(description: "the window (\(width)x\(height) at \(x),\(y)) is off the \(layout.width)x\(layout.height) screen")
        }
        let bytesPerPixel = layout.bitsPerPixel / 8
        try handle.seek(toOffset: UInt64(layout.pixelsAt + top * layout.bytesPerLine))
        let rows = try handle.read(upToCount: (bottom - top) * layout.bytesPerLine) ?? Data()
        guard rows.count == (bottom - top) * layout.bytesPerLine else {
            throw Unreadable(description: "the screen's file ended early (\(rows.count) bytes of rows)")
        }
        func shift(_ mask: UInt32) -> UInt32 { mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount) }
        let (red, green, blue) = layout.masks
        let shifts = (shift(red), shift(green), shift(blue))
        let outWidth = right - left, outHeight = bottom - top
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        rows.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            var out = 0
            for row in 0..<outHeight {
                var at = row * layout.bytesPerLine + left * bytesPerPixel
                for _ in 0..<outWidth {
                    var value: UInt32 = 0
                    if layout.littleEndian {
                        for byte in (0..<bytesPerPixel).reversed() { value = value << 8 | UInt32(source[at + byte]) }
                    } else {
                        for byte in 0..<bytesPerPixel { value = value << 8 | UInt32(source[at + byte]) }
                    }
                    pixels[out] = UInt8(truncatingIfNeeded: (value & red) >> shifts.0)
                    pixels[out + 1] = UInt8(truncatingIfNeeded: (value & green) >> shifts.1)
                    pixels[out + 2] = UInt8(truncatingIfNeeded: (value & blue) >> shifts.2)
                    out += 3
                    at += bytesPerPixel
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }
}
