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
