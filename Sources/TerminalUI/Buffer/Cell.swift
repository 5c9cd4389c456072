import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// How a cell's text looks.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: TerminalColor = .standard, background: TerminalColor = .standard, bold: Bool = false,
                dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

/// One character cell of the screen.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: one grapheme, " " when empty, "" for the right half of a wide character.
    public var text: String
    public var style: CellStyle

    public init(_ text: String = " ", style: CellStyle = .plain) {
        self.text = text
        self.style = style
    }

    /// Cells are the same when their bytes are: a frame compares and hashes every cell, and String's own
    /// comparison and hash go through Unicode normalization for anything past ASCII (every half block, every
    /// Kitty placeholder with its diacritics), which cost several milliseconds a frame.
    public static func == (lhs: Cell, rhs: Cell) -> Bool {
        lhs.style == rhs.style && sameBytes(lhs.text, rhs.text)
    }

    /// Whether two texts are the same bytes: their lengths first (a cell's text is short, stored in the String itself),
    /// then the bytes at once rather than one by one through an iterator.
    @inline(__always)
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        let count = lhs.utf8.count
        guard count == rhs.utf8.count else { return false }
        let compared: Bool?? = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                count == 0 || memcmp(left.baseAddress!, right.baseAddress!, count) == 0
            }
        }
        if let compared, let compared { return compared }
        return lhs.utf8.elementsEqual(rhs.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(style)
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
        hasher.combine(0xFF as UInt8) // the end of the text (no UTF-8 byte is 0xFF)
    }

    /// Whether this is the cell a picture in pixels shows in, by its bytes (String's `==` would normalise every
    /// half block it is asked about first).
    @inline(__always)
    public var isPicture: Bool {
        text.utf8.count == 4 && Self.sameBytes(text, Self.picture.text)
    }

    public static let blank = Cell()
    /// A cell a picture in pixels shows in (the terminal draws it; curses keeps it blank). U+10EEEE, a
    /// private-use character no text holds (Kitty's placeholder).
    public static let picture = Cell("\u{10EEEE}")
    /// The cell a wide character's right half takes.
    public static let continuation = Cell("")
}
