/// Draws a picture with the half blocks ▀ and ▄: each cell shows two pixels, one above the other,
/// as its foreground and background colours.
///
/// The glyph is chosen by the picture, not fixed: ▀ when the upper pixel is the brighter, ▄ otherwise.
/// Rows of a photo then differ in their characters, not only their colours, which lets curses recognise a
/// scrolled line by its characters and scroll the terminal instead of repainting it.
public struct HalfBlockBlitter: Sendable {
    public var mode: ColorMode
    /// false: no Unicode; colour pictures use spaces on a background, monochrome ones ASCII shades.
    public var unicode: Bool

    public init(mode: ColorMode, unicode: Bool = true) {
        self.mode = mode
        self.unicode = unicode
    }

    /// Resizes `image` to exactly `columns` x `rows` cells (2 x rows pixels high) and draws it.
    public func render(_ image: RGBImage, columns: Int, rows: Int) -> CellPicture {
        guard columns > 0, rows > 0 else { return CellPicture(columns: 0, rows: 0, cells: []) }
        let scaled = AreaResampler.resize(image, width: columns, height: rows * 2)
        return draw(scaled)
    }

    /// Draws an image that already has 2 pixels a cell vertically (its height is even).
    public func draw(_ scaled: RGBImage) -> CellPicture {
        let columns = scaled.width
        let rows = scaled.height / 2
        var cells: [CellPicture.Cell] = []
        cells.reserveCapacity(columns * rows)
        scaled.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<rows {
                let upperRow = row * 2 * columns * 3
                let lowerRow = upperRow + columns * 3
                for column in 0..<columns {
                    let u = upperRow + column * 3
                    let l = lowerRow + column * 3
                    let upper = RGB(pixels[u], pixels[u + 1], pixels[u + 2])
                    let lower = RGB(pixels[l], pixels[l + 1], pixels[l + 2])
                    cells.append(cell(upper: upper, lower: lower))
                }
            }
        }
        return CellPicture(columns: columns, rows: rows, cells: cells)
    }

    private static let shades: [Character] = Array(" .:-=+*#%@")

    func cell(upper: RGB, lower: RGB) -> CellPicture.Cell {
        switch mode {
        case .none:
            let luma = (upper.luma + lower.luma) / 2
            let glyph = Self.shades[min(Self.shades.count - 1, luma * Self.shades.count / 256)]
            return .init(glyph: glyph, foreground: .standard, background: .standard)
        case .palette8 where unicode:
            return EightColorShading.cell(upper: upper, lower: lower)
        case .truecolor, .palette256, .palette16, .palette8:
            let top = color(upper)
            let bottom = color(lower)
            if !unicode || top == bottom {
                let mean = RGB(UInt8((Int(upper.red) + Int(lower.red)) / 2), UInt8((Int(upper.green) + Int(lower.green)) / 2),
                               UInt8((Int(upper.blue) + Int(lower.blue)) / 2))
                let background = top == bottom ? top : color(mean)
                return .init(glyph: " ", foreground: background, background: background)
            }
            if upper.luma >= lower.luma {
                return .init(glyph: "▀", foreground: top, background: bottom)
            }
            return .init(glyph: "▄", foreground: bottom, background: top)
        }
    }

    func color(_ rgb: RGB) -> TerminalColor {
        switch mode {
        case .truecolor: .rgb(rgb)
        case .palette256: .indexed(Palette.nearest256(rgb))
        case .palette16: .indexed(Palette.nearest16(rgb))
        case .palette8: .indexed(Palette.nearest8(rgb))
        case .none: .standard
        }
    }
}
