/// A colour as a terminal cell takes it.
public enum TerminalColor: Hashable, Sendable {
    /// The terminal's own foreground or background.
    case standard
    /// One of the palette's 256 colours (0–15 are the ANSI colours).
    case indexed(UInt8)
    case rgb(RGB)

    /// The colour as a terminal in `mode` is told it: a 24-bit colour as the nearest palette colour where the mode has
    /// no 24-bit colour, and as the terminal's own where it has no colour at all; the others as they are.
    @inline(__always)
    public func nearest(in mode: ColorMode) -> TerminalColor {
        guard case let .rgb(rgb) = self else { return self }
        switch mode {
        case .truecolor: return self
        case .palette256: return .indexed(Palette.nearest256(rgb))
        case .palette16: return .indexed(Palette.nearest16(rgb))
        case .palette8: return .indexed(Palette.nearest8(rgb))
        case .none: return .standard
        }
    }
}

/// A picture turned into terminal cells: a glyph with a foreground and a background colour each.
public struct CellPicture: Sendable, Equatable {
    /// A cell's glyph and colours in 12 bytes: a picture's glyphs are single characters of one code point (blocks,
    /// sextants, shades, Braille), so the glyph is kept as that code point (4 bytes) rather than a `Character`
    /// (16). The pipeline keeps hundreds of drawn pictures for the cards around; this halves what they cost.
    public struct Cell: Hashable, Sendable {
        public var scalar: Unicode.Scalar
        public var foreground: TerminalColor
        public var background: TerminalColor

        /// `glyph` must be one code point (every glyph a picture is drawn with is); a longer one keeps its first.
        public init(glyph: Character, foreground: TerminalColor, background: TerminalColor) {
            assert(glyph.unicodeScalars.count == 1, "a picture's glyph is one code point")
            scalar = glyph.unicodeScalars.first ?? " "
            self.foreground = foreground
            self.background = background
        }

        public var glyph: Character {
            get { Character(scalar) }
            set { self = Cell(glyph: newValue, foreground: foreground, background: background) }
        }
    }

    public let columns: Int
    public let rows: Int
    public let cells: [Cell]
    /// Unique in this process, kept by every copy: a backend that sends a picture's rows itself keeps their bytes by it.
    /// (A picture in pixels has its pixels' id.)
    public let id: UInt32
    /// Set when the terminal shows the picture itself: its pixels; `cells` are then blank.
    public let pixels: PixelPicture?

    public init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "cell count must match size")
        self.columns = columns
        self.rows = rows
        self.cells = cells
        pixels = nil
        id = PixelPicture.makeID()
    }

    /// A picture the terminal draws in pixels.
    public init(pixels: PixelPicture) {
        columns = pixels.columns
        rows = pixels.rows
        cells = []
        self.pixels = pixels
        id = pixels.id
    }

    public static func == (lhs: CellPicture, rhs: CellPicture) -> Bool {
        lhs.columns == rhs.columns && lhs.rows == rhs.rows && lhs.pixels?.id == rhs.pixels?.id && lhs.cells == rhs.cells
    }

    public subscript(column: Int, row: Int) -> Cell {
        cells[row * columns + column]
    }

    /// The largest cell size with the picture's shape that fits in `columns` x `rows`, for cells
    /// `cellAspect` times as tall as wide (2 for half blocks: two square pixels a cell, one above the other).
    public static func fittedSize(pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int, cellAspect: Double = 2) -> (columns: Int, rows: Int) {
        guard pixelWidth > 0, pixelHeight > 0, columns > 0, rows > 0, cellAspect.isFinite, cellAspect > 0 else { return (0, 0) }
        let aspect = Double(pixelWidth) / Double(pixelHeight)
        var width = columns
        var height = Int(saturating: (Double(width) / aspect / cellAspect).rounded())
        if height > rows {
            height = rows
            width = Int(saturating: (Double(height) * cellAspect * aspect).rounded())
        }
        return (max(1, min(width, columns)), max(1, min(height, rows)))
    }
}

extension Int {
    /// The nearest Int to `value`, saturating instead of trapping: NaN is 0, and anything past ±2^52 (far more
    /// than any cell or pixel count) stops there. Layout arithmetic on sizes from outside converts this way.
    public init(saturating value: Double) {
        guard !value.isNaN else {
            self = 0
            return
        }
        let limit = Double(1 << 52)
        self = Int(Swift.min(Swift.max(value, -limit), limit))
    }
}
