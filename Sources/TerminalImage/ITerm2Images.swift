import Foundation

/// iTerm2's inline images (iTerm2; WezTerm and others understand them too): `ESC ] 1337 ; File=… : base64 BEL`,
/// a picture file drawn from the cursor over the cells the sequence names. The file is a JPEG.
public enum ITerm2Images {
    /// The picture as one sequence, stretched by the terminal over `columns` x `rows` cells.
    public static func inline(_ image: RGBImage, columns: Int, rows: Int, quality: Int = 92) -> [UInt8]? {
        guard image.width > 0, image.height > 0, columns > 0, rows > 0,
              let jpeg = try? ImageCodec.encodeJPEG(image, quality: quality) else { return nil }
        let header = "\u{1B}]1337;File=inline=1;size=\(jpeg.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
        return Array(header.utf8) + Array(jpeg.base64EncodedString().utf8) + [0x07]
    }

    /// A picture file as it is (a GIF, which the terminal plays), stretched over `columns` x `rows` cells.
    public static func inline(file: Data, columns: Int, rows: Int) -> [UInt8] {
        let header = "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
        return Array(header.utf8) + Array(file.base64EncodedString().utf8) + [0x07]
    }

    /// The files of every inline image in `bytes`, with their arguments (the tests' reading of what was sent).
    public static func files(in bytes: [UInt8]) -> [(arguments: [String: String], file: Data)] {
        var found: [(arguments: [String: String], file: Data)] = []
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = text[...]
        while let start = rest.range(of: "\u{1B}]1337;File=") {
            rest = rest[start.upperBound...]
            guard let colon = rest.firstIndex(of: ":"), let end = rest.firstIndex(of: "\u{07}") else { break }
            var arguments: [String: String] = [:]
            for pair in rest[..<colon].split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { arguments[String(parts[0])] = String(parts[1]) }
            }
            found.append((arguments, Data(base64Encoded: String(rest[rest.index(after: colon)..<end])) ?? Data()))
            rest = rest[rest.index(after: end)...]
        }
        return found
    }
}
