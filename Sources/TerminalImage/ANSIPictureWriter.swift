/// Writes a cell picture as text with ANSI colour escapes: the whole picture for printing outside a full-screen
/// interface (`text`), or a row's cells for a full-screen program (`appendRow`). Both are one loop (`appendCells`).
public enum ANSIPictureWriter {
    public static func text(_ picture: CellPicture) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(picture.columns * picture.rows * 20)
        for row in 0..<picture.rows {
            // Each row starts and ends in the terminal's own colours; the picture's colours are written as they are.
            let last = appendCells(picture, row: row, columns: 0..<picture.columns, mode: .truecolor,
                                   from: (.standard, .standard), to: &output)
            if last.foreground != .standard || last.background != .standard { append(reset, to: &output) }
            output.append(UInt8(ascii: "\n"))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The SGR parameters for a colour (no `ESC [` and no `m`).
    public static func sgr(_ color: TerminalColor, background: Bool) -> String {
        var output: [UInt8] = []
        appendParameters(color, background: background, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Cells `columns` of the picture's row `row` as bytes for a terminal in `mode`: an SGR wherever a colour changes
    /// (a colour the mode lacks as its nearest there), the glyphs, and SGR 0 at the end. The first cell sets both
    /// colours whatever the terminal had; a full-screen program writes the row where the cursor has been put.
    public static func appendRow(_ picture: CellPicture, row: Int, columns: Range<Int>, mode: ColorMode, to output: inout [UInt8]) {
        guard row >= 0, row < picture.rows else { return }
        appendCells(picture, row: row, columns: columns.clamped(to: 0..<picture.columns), mode: mode, from: (nil, nil), to: &output)
        append(reset, to: &output)
    }

    /// The cells, with one SGR for both colours wherever either changes from what the terminal has (`from`: nil when
    /// that is not known); a space's foreground is not set. Returns the colours the terminal has at the end.
    @discardableResult
    static func appendCells(_ picture: CellPicture, row: Int, columns: Range<Int>, mode: ColorMode,
                            from colours: (foreground: TerminalColor?, background: TerminalColor?),
                            to output: inout [UInt8]) -> (foreground: TerminalColor?, background: TerminalColor?) {
        var (foreground, background) = colours
        for column in columns {
            let cell = picture[column, row]
            let cellForeground = cell.foreground.nearest(in: mode), cellBackground = cell.background.nearest(in: mode)
            let newForeground = cellForeground != foreground && cell.scalar != " "
            let newBackground = cellBackground != background
            if newForeground || newBackground {
                output.append(0x1B)
                output.append(UInt8(ascii: "["))
                if newForeground {
                    appendParameters(cellForeground, background: false, to: &output)
                    foreground = cellForeground
                }
                if newBackground {
                    if newForeground { output.append(UInt8(ascii: ";")) }
                    appendParameters(cellBackground, background: true, to: &output)
                    background = cellBackground
                }
                output.append(UInt8(ascii: "m"))
            }
            output.append(contentsOf: cell.scalar.utf8)
        }
        return (foreground, background)
    }

    static let reset: StaticString = "\u{1B}[0m"

    @inline(__always)
    static func append(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// The SGR parameters for a colour, appended as bytes (numbers as digits made here: `String(_:)` of an integer
    /// goes through `String(describing:)`, whose first dynamic casts search every protocol conformance in the
    /// program, a cost a previewer's run would pay).
    static func appendParameters(_ color: TerminalColor, background: Bool, to output: inout [UInt8]) {
        switch color {
        case .standard:
            appendNumber(background ? 49 : 39, to: &output)
        case let .indexed(index) where index < 8:
            appendNumber((background ? 40 : 30) + Int(index), to: &output)
        case let .indexed(index) where index < 16:
            appendNumber((background ? 100 : 90) + Int(index) - 8, to: &output)
        case let .indexed(index):
            output.append(contentsOf: background ? [0x34, 0x38, 0x3B, 0x35, 0x3B] : [0x33, 0x38, 0x3B, 0x35, 0x3B]) // 48;5; 38;5;
            appendNumber(Int(index), to: &output)
        case let .rgb(rgb):
            output.append(contentsOf: background ? [0x34, 0x38, 0x3B, 0x32, 0x3B] : [0x33, 0x38, 0x3B, 0x32, 0x3B]) // 48;2; 38;2;
            appendNumber(Int(rgb.red), to: &output)
            output.append(UInt8(ascii: ";"))
            appendNumber(Int(rgb.green), to: &output)
            output.append(UInt8(ascii: ";"))
            appendNumber(Int(rgb.blue), to: &output)
        }
    }

    /// A number from 0 to 999 in decimal digits.
    @inline(__always)
    static func appendNumber(_ value: Int, to output: inout [UInt8]) {
        if value >= 100 { output.append(UInt8(48 + value / 100)) }
        if value >= 10 { output.append(UInt8(48 + value / 10 % 10)) }
        output.append(UInt8(48 + value % 10))
    }
}
