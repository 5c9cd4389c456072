/// Writes a cell picture as text with ANSI colour escapes, for printing outside a full-screen interface.
public enum ANSIPictureWriter {
    public static func text(_ picture: CellPicture) -> String {
        var output = ""
        output.reserveCapacity(picture.columns * picture.rows * 20)
        for row in 0..<picture.rows {
            // Each row starts and ends in the terminal's own colours.
            var foreground = TerminalColor.standard
            var background = TerminalColor.standard
            for column in 0..<picture.columns {
                let cell = picture[column, row]
                // One SGR for both colours, its parameters appended as they come (`joined` on an array of strings
                // costs a previewer's run a search of every protocol conformance at its first use).
                let newForeground = cell.foreground != foreground && cell.glyph != " "
                let newBackground = cell.background != background
                if newForeground || newBackground {
                    output += "\u{1B}["
                    if newForeground {
                        output += sgr(cell.foreground, background: false)
                        foreground = cell.foreground
                    }
                    if newBackground {
                        if newForeground { output += ";" }
                        output += sgr(cell.background, background: true)
                        background = cell.background
                    }
                    output += "m"
                }
                output.append(cell.glyph)
            }
            output += foreground == .standard && background == .standard ? "\n" : "\u{1B}[0m\n"
        }
        return output
    }

    /// The SGR parameters for a colour (no `ESC [` and no `m`).
    /// (Numbers are written with `String(_:radix:)`: `String(_:)` of an integer goes through `String(describing:)`,
    /// whose first dynamic casts search every protocol conformance in the program, a cost a previewer's run pays.)
    public static func sgr(_ color: TerminalColor, background: Bool) -> String {
        switch color {
        case .standard:
            return background ? "49" : "39"
        case let .indexed(index) where index < 8:
            return String((background ? 40 : 30) + Int(index), radix: 10)
        case let .indexed(index) where index < 16:
            return String((background ? 100 : 90) + Int(index) - 8, radix: 10)
        case let .indexed(index):
            return (background ? "48;5;" : "38;5;") + String(Int(index), radix: 10)
        case let .rgb(rgb):
            return (background ? "48;2;" : "38;2;") + String(Int(rgb.red), radix: 10) + ";" + String(Int(rgb.green), radix: 10)
                + ";" + String(Int(rgb.blue), radix: 10)
        }
    }
}

extension ANSIPictureWriter {
    /// Cells `columns` of the picture's row `row` as bytes for a terminal in `mode`: an SGR wherever a colour changes
    /// (a colour the mode lacks as its nearest there), the glyphs, and SGR 0 at the end. The first cell sets both
    /// colours whatever the terminal had; a full-screen program writes the row where the cursor has been put.
    public static func appendRow(_ picture: CellPicture, row: Int, columns: Range<Int>, mode: ColorMode, to output: inout [UInt8]) {
        guard row >= 0, row < picture.rows else { return }
        let columns = columns.clamped(to: 0..<picture.columns)
        var foreground: TerminalColor?
        var background: TerminalColor?
        for column in columns {
            let cell = picture[column, row]
            let cellForeground = named(cell.foreground, in: mode), cellBackground = named(cell.background, in: mode)
            let newForeground = cellForeground != foreground && cell.glyph != " "
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
            output.append(contentsOf: cell.glyph.utf8)
        }
        output.append(contentsOf: [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")])
    }

    /// The colour as a terminal in `mode` is told it: 24-bit colours as the nearest palette colour where there is no
    /// 24-bit colour.
    static func named(_ color: TerminalColor, in mode: ColorMode) -> TerminalColor {
        guard case let .rgb(rgb) = color else { return color }
        switch mode {
        case .truecolor: return color
        case .palette256: return .indexed(Palette.nearest256(rgb))
        case .palette16: return .indexed(Palette.nearest16(rgb))
        case .palette8: return .indexed(Palette.nearest8(rgb))
        case .none: return .standard
        }
    }

    /// `sgr`'s parameters, appended as bytes.
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
