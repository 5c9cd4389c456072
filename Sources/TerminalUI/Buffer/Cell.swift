import TerminalImage

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

/// One character cell of the screen. It holds no reference (its text is inline, `CellText`), so a frame of cells
/// copies as one block of memory and two cells compare and hash as a few words.
public struct Cell: Hashable, Sendable {
    /// What the cell shows: one grapheme, " " when empty, "" for the right half of a wide character.
    public var glyph: CellText
    public var style: CellStyle

    public init(_ text: String = " ", style: CellStyle = .plain) {
        self.glyph = CellText(text)
        self.style = style
    }

    public init(_ glyph: CellText, style: CellStyle = .plain) {
        self.glyph = glyph
        self.style = style
    }

    /// A picture's cell in characters: its glyph in its two colours.
    public init(_ picture: CellPicture.Cell) {
        self.init(CellText(picture.scalar), style: CellStyle(foreground: picture.foreground, background: picture.background))
    }

    /// The cell's text as a String, made from `glyph` (which the frame's hot paths read instead).
    public var text: String {
        get { glyph.string }
        set { glyph = CellText(newValue) }
    }

    /// Whether this is the cell a picture in pixels shows in.
    @inline(__always)
    public var isPicture: Bool { glyph == Self.pictureGlyph }

    public static let blank = Cell()
    static let pictureGlyph = CellText("\u{10EEEE}")
    /// A cell a picture in pixels shows in (the terminal draws it; curses keeps it blank). U+10EEEE, a
    /// private-use character no text holds (Kitty's placeholder).
    public static let picture = Cell(pictureGlyph)
    /// The cell a wide character's right half takes.
    public static let continuation = Cell("")
}
