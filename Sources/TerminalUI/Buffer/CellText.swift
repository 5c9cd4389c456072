import Foundation

/// A cell's text (one grapheme, " " when empty, "" for the right half of a wide character) held in the cell itself:
/// up to 15 bytes of UTF-8 in two words, so that a cell holds no reference, an array of cells copies as one block of
/// memory, and two cells compare and hash as four words. A longer grapheme (an emoji sequence, a letter under many
/// marks) is kept once in a shared table and the words hold its number there.
public struct CellText: Hashable, Sendable {
    /// Bytes 0–7 of the text (little-endian), or a long text's number in the table.
    var low: UInt64
    /// Bytes 8–14, and in the top byte the count of bytes (0–15) or `Self.long`.
    var high: UInt64

    /// The top byte of `high` that marks a text kept in the table.
    static let long: UInt64 = 0xFF

    public init(_ string: String) {
        var string = string
        self = string.withUTF8 { Self(bytes: UnsafeRawBufferPointer($0)) }
    }

    public init(_ character: Character) {
        self.init(String(character))
    }

    /// One code point's text, its UTF-8 written straight into the words (a picture's cells are drawn through this).
    public init(_ scalar: Unicode.Scalar) {
        var word: UInt64 = 0
        var count: UInt64 = 0
        for byte in scalar.utf8 {
            word |= UInt64(byte) << (8 * count)
            count += 1
        }
        self.init(low: word, high: count << 56)
    }

    init(bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= 15 else {
            self = LongTexts.shared.text(for: bytes)
            return
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            if bytes.count > 0 { raw.copyMemory(from: bytes) }
        }
        low = UInt64(littleEndian: words.0)
        high = UInt64(littleEndian: words.1) | UInt64(bytes.count) << 56
    }

    init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The number of UTF-8 bytes.
    public var utf8Count: Int {
        let count = Int(high >> 56)
        return count == Int(Self.long) ? LongTexts.shared.count(of: low) : count
    }

    public var isEmpty: Bool { high >> 56 == 0 }

    /// Whether every byte is ASCII.
    public var isASCII: Bool {
        withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    /// Calls `body` with the text's UTF-8 bytes.
    public func withUTF8<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let count = Int(high >> 56)
        if count == Int(Self.long) {
            var text = LongTexts.shared.string(low)
            return try text.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
        var words = (low.littleEndian, (high & 0x00FF_FFFF_FFFF_FFFF).littleEndian)
        return try withUnsafeBytes(of: &words) { raw in try body(UnsafeRawBufferPointer(rebasing: raw[0..<count])) }
    }

    /// The text as a String.
    public var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// The text's words, for a quick mix of a row's cells: two cells with the same text have the same words.
    var words: (UInt64, UInt64) { (low, high) }
}

/// The texts longer than a cell holds, each kept once for the program's life, numbered in the order first seen
/// (so two cells with the same long text hold the same number). At most `limit` of them
/// (a hostile description could hold any number of distinct long graphemes): past it, a long text is cut to the
/// longest run of whole scalars that fits in a cell.
final class LongTexts: @unchecked Sendable {
    static let shared = LongTexts(limit: 4096)

    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    private let lock = NSLock()
    private var strings: [String] = []
    private var counts: [Int] = []
    private var numbers: [String: Int] = [:]

    func text(for bytes: UnsafeRawBufferPointer) -> CellText {
        let string = String(decoding: bytes, as: UTF8.self)
        let number: Int? = lock.withLock {
            if let number = numbers[string] { return number }
            guard strings.count < limit else { return nil }
            strings.append(string)
            counts.append(bytes.count)
            numbers[string] = strings.count - 1
            return strings.count - 1
        }
        if let number { return CellText(low: UInt64(number), high: CellText.long << 56) }
        var cut = 15
        while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 } // not inside a scalar
        return CellText(bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<cut]))
    }

    func count(of number: UInt64) -> Int {
        lock.withLock { counts[Int(number)] }
    }

    func string(_ number: UInt64) -> String {
        lock.withLock { strings[Int(number)] }
    }
}
