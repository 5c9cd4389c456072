import CQRencode

/// A QR code, made by libqrencode: a square of dark and light modules.
public struct QRCode: Equatable, Sendable {
    /// Modules per side.
    public let size: Int
    /// Row by row, `true` for dark.
    public let modules: [Bool]

    public enum Failure: Error, Equatable {
        case tooLong
    }

    /// Encodes `text` as bytes with error correction level L (the most data for a given size; a screen
    /// is a clean medium). Throws when the text is too long for any QR code.
    public init(_ text: String) throws(Failure) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L) else { throw .tooLong }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        modules = data.map { $0 & 1 == 1 }
    }

    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Cells with half blocks, two modules per cell vertically, inside a light quiet zone of `margin`
    /// modules. The glyph (█ ▀ ▄ or space) draws the dark modules; in colour they are black on white,
    /// whatever the terminal's theme (readers need dark on light); without colour the terminal's own
    /// colours are used (many readers also read light on dark).
    public func picture(margin: Int = 2, colored: Bool = true) -> CellPicture {
        let side = size + 2 * margin
        let rows = (side + 1) / 2
        let black = TerminalColor.rgb(RGB(0, 0, 0))
        let white = TerminalColor.rgb(RGB(255, 255, 255))
        var cells: [CellPicture.Cell] = []
        cells.reserveCapacity(side * rows)
        for row in 0..<rows {
            for column in 0..<side {
                let top = isDark(x: column - margin, y: row * 2 - margin)
                let bottom = row * 2 + 1 < side && isDark(x: column - margin, y: row * 2 + 1 - margin)
                let glyph: Character = top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
                cells.append(CellPicture.Cell(glyph: glyph, foreground: colored ? black : .standard,
                                              background: colored ? white : .standard))
            }
        }
        return CellPicture(columns: side, rows: rows, cells: cells)
    }
}
