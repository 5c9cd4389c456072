import Foundation
import TestSupport

/// Reads a QR code drawn with half blocks on a captured screen, with zbar (`zbarimg`, Debian's
/// zbar-tools): the blocks become a grey-level image, which zbar decodes.
enum QRReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let blocks: Set<Character> = ["█", "▀", "▄"]

    static func read(screen: String, folder: URL) throws -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        // The code's extent: every line with a block in it, from the leftmost block to the rightmost.
        let rows = lines.indices.filter { lines[$0].contains { blocks.contains($0) } }
        guard let first = rows.first, let last = rows.last else { throw Failure(description: "no QR code on screen") }
        let left = rows.compactMap { lines[$0].firstIndex { blocks.contains($0) } }.min()!
        let right = rows.compactMap { lines[$0].lastIndex { blocks.contains($0) } }.max()!
        let width = right - left + 1
        let height = (last - first + 1) * 2
        let scale = 4
        let quiet = 8
        let imageWidth = (width + 2 * quiet) * scale
        let imageHeight = (height + 2 * quiet) * scale
        var pixels = [UInt8](repeating: 255, count: imageWidth * imageHeight)
        for row in first...last {
            for column in left...right {
                let character = column < lines[row].count ? lines[row][column] : " "
                let top = character == "█" || character == "▀"
                let bottom = character == "█" || character == "▄"
                for (dark, half) in [(top, 0), (bottom, 1)] where dark {
                    let moduleX = column - left + quiet
                    let moduleY = (row - first) * 2 + half + quiet
                    for y in 0..<scale {
                        for x in 0..<scale {
                            pixels[(moduleY * scale + y) * imageWidth + moduleX * scale + x] = 0
                        }
                    }
                }
            }
        }
        let file = folder.appendingPathComponent("qr.pgm")
        var data = Data("P5\n\(imageWidth) \(imageHeight)\n255\n".utf8)
        data.append(contentsOf: pixels)
        try data.write(to: file)

        // QR codes only: with every symbology on, zbar now and then also finds a one-dimensional barcode in the
        // QR code's own modules, and prints its text on a second line ("…&state=…\nD42B").
        let (status, text) = try Tool.outcome(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", file.path])
        guard status == 0 else { throw Failure(description: "zbarimg could not read the code (status \(status))") }
        return text.trimmingCharacters(in: .newlines)
    }
}
