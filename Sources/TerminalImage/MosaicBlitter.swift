/// Which characters draw a picture: how many pixels a cell shows.
public enum BlitterKind: String, Sendable, CaseIterable {
    /// ▀ ▄: 1x2 pixels a cell (every font has them).
    case half
    /// ▘ ▝ ▖ ▗ ▚ ▞ …: 2x2 (Unicode 1.1 block elements; every font with ▀ has them).
    case quadrant
    /// 🬀 … 🬻: 2x3 (Unicode 13 "Symbols for Legacy Computing"; Cascadia, Iosevka, recent DejaVu, and
    /// terminals that draw block characters themselves: kitty, WezTerm, foot, Ghostty).
    case sextant
    /// Quadrants and the eighths of Block Elements (▁ ▂ … ▇, ▏ ▎ … ▉, ▔ ▕): the cell seen as 8x8 pixels, each cell
    /// the glyph whose ink splits them best (as chafa's default symbols do); every font with quadrants has them.
    case blocks

    /// The next one, for the viewer's key that cycles them.
    public var next: BlitterKind {
        let all = BlitterKind.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Pixels across and down one cell.
    public var cellPixels: (width: Int, height: Int) {
        switch self {
        case .half: (1, 2)
        case .quadrant: (2, 2)
        case .sextant: (2, 3)
        case .blocks: (8, 8)
        }
    }
}

/// Draws a picture with cells of 2x2 (quadrants) or 2x3 (sextants) pixels: for each cell, the split of its
/// pixels into two groups, and the two colours (each group's mean), that reproduce them with the least error
/// in OKLab; the glyph shows the first group in the foreground colour.
public struct MosaicBlitter: Sendable {
    public let kind: BlitterKind
    public let mode: ColorMode
    public let unicode: Bool

    public init(kind: BlitterKind, mode: ColorMode, unicode: Bool = true) {
        self.kind = kind
        self.mode = mode
        self.unicode = unicode
    }

    private var halves: HalfBlockBlitter { HalfBlockBlitter(mode: mode, unicode: unicode) }

    /// `image` in exactly `columns` x `rows` cells.
    public func render(_ image: RGBImage, columns: Int, rows: Int) -> CellPicture {
        // Half blocks, and the cases where the mosaic characters cannot be used or coloured.
        guard kind != .half, unicode, mode != .none, mode != .palette8 else { return halves.render(image, columns: columns, rows: rows) }
        guard columns > 0, rows > 0 else { return CellPicture(columns: 0, rows: 0, cells: []) }
        let cell = kind.cellPixels
        let scaled = AreaResampler.resize(image, width: columns * cell.width, height: rows * cell.height)
        return draw(scaled, columns: columns, rows: rows)
    }

    /// Draws an image of exactly `columns * 2` x `rows * (2 or 3)` pixels (8 x 8 a cell for blocks).
    func draw(_ scaled: RGBImage, columns: Int, rows: Int) -> CellPicture {
        if kind == .blocks { return drawBlocks(scaled, columns: columns, rows: rows) }
        let cell = kind.cellPixels
        let count = cell.width * cell.height
        let width = scaled.width
        // Every pixel in OKLab once (the error is measured there; the colours shown are RGB means).
        var lab = [Float](repeating: 0, count: scaled.width * scaled.height * 3)
        scaled.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<(scaled.width * scaled.height) {
                let colour = OKLab(RGB(pixels[index * 3], pixels[index * 3 + 1], pixels[index * 3 + 2]))
                lab[index * 3] = colour.lightness
                lab[index * 3 + 1] = colour.a
                lab[index * 3 + 2] = colour.b
            }
        }
        var cells: [CellPicture.Cell] = []
        cells.reserveCapacity(columns * rows)
        var pixelLab = [Float](repeating: 0, count: count * 3)
        var pixelRGB = [Int](repeating: 0, count: count * 3)
        for row in 0..<rows {
            for column in 0..<columns {
                // The cell's pixels, row by row: bit i of a pattern is pixel i.
                for i in 0..<count {
                    let x = column * cell.width + i % cell.width
                    let y = row * cell.height + i / cell.width
                    let source = (y * width + x) * 3
                    for channel in 0..<3 {
                        pixelLab[i * 3 + channel] = lab[source + channel]
                        pixelRGB[i * 3 + channel] = Int(scaled.pixels[source + channel])
                    }
                }
                let pattern = bestPattern(pixelLab, count: count)
                cells.append(makeCell(pattern: pattern, rgb: pixelRGB, count: count))
            }
        }
        return CellPicture(columns: columns, rows: rows, cells: cells)
    }

    /// The split with the least squared error: a pattern's pixels against their mean, the others against
    /// theirs. The last pixel is always in the second group (a split and its complement are the same split).
    func bestPattern(_ lab: [Float], count: Int) -> Int {
        var total: (Float, Float, Float) = (0, 0, 0)
        for i in 0..<count {
            total.0 += lab[i * 3]
            total.1 += lab[i * 3 + 1]
            total.2 += lab[i * 3 + 2]
        }
        var best = 0
        // Error of a split, up to a constant: -(|sum1|²/n1 + |sum0|²/n0); the smaller, the better.
        var bestScore = -(total.0 * total.0 + total.1 * total.1 + total.2 * total.2) / Float(count)
        for pattern in 1..<(1 << (count - 1)) {
            var inside: (Float, Float, Float) = (0, 0, 0)
            var members = 0
            var bits = pattern
            var i = 0
            while bits != 0 {
                if bits & 1 == 1 {
                    inside.0 += lab[i * 3]
                    inside.1 += lab[i * 3 + 1]
                    inside.2 += lab[i * 3 + 2]
                    members += 1
                }
                bits >>= 1
                i += 1
            }
            let outside = (total.0 - inside.0, total.1 - inside.1, total.2 - inside.2)
            let score = -(inside.0 * inside.0 + inside.1 * inside.1 + inside.2 * inside.2) / Float(members)
                - (outside.0 * outside.0 + outside.1 * outside.1 + outside.2 * outside.2) / Float(count - members)
            if score < bestScore - 1e-7 {
                bestScore = score
                best = pattern
            }
        }
        return best
    }

    private func makeCell(pattern: Int, rgb: [Int], count: Int) -> CellPicture.Cell {
        var sums = [0, 0, 0, 0, 0, 0]
        var members = 0
        for i in 0..<count {
            let group = (pattern >> i) & 1 == 1 ? 0 : 3
            if group == 0 { members += 1 }
            sums[group] += rgb[i * 3]
            sums[group + 1] += rgb[i * 3 + 1]
            sums[group + 2] += rgb[i * 3 + 2]
        }
        func mean(_ offset: Int, _ n: Int) -> RGB {
            RGB(UInt8(sums[offset] / max(1, n)), UInt8(sums[offset + 1] / max(1, n)), UInt8(sums[offset + 2] / max(1, n)))
        }
        let background = halves.color(mean(3, count - members))
        guard members > 0 else { return .init(glyph: " ", foreground: background, background: background) }
        let foreground = halves.color(mean(0, members))
        if foreground == background { return .init(glyph: " ", foreground: background, background: background) }
        return .init(glyph: Self.glyph(kind, pattern), foreground: foreground, background: background)
    }

    /// The glyphs of `blocks`, each with the part of the 8x8 cell its ink covers: a rectangle of whole rows or
    /// columns (the eighths, halves and ▔ ▕) or the quadrants' 4x4 squares.
    enum BlockShape {
        /// Rows `from..<to` of the eight.
        case rows(Int, Int)
        /// Columns `from..<to` of the eight.
        case columns(Int, Int)
        /// Quadrants, bits as `glyph(.quadrant, _)` reads them: top left, top right, bottom left, bottom right.
        case quadrants(Int)
    }

    static let blockGlyphs: [(glyph: Character, shape: BlockShape)] = {
        var glyphs: [(Character, BlockShape)] = []
        // ▁ … ▇: the lowest 1 to 7 rows (▄ is among the quadrants).
        for eighths in 1...7 where eighths != 4 {
            glyphs.append((Character(Unicode.Scalar(0x2580 + UInt32(eighths))!), .rows(8 - eighths, 8)))
        }
        // ▉ … ▏: the leftmost 7 to 1 columns (▌ is among the quadrants).
        for eighths in 1...7 where eighths != 4 {
            glyphs.append((Character(Unicode.Scalar(0x2590 - UInt32(eighths))!), .columns(0, eighths)))
        }
        glyphs.append(("▔", .rows(0, 1)))
        glyphs.append(("▕", .columns(7, 8)))
        for pattern in 1..<15 { glyphs.append((glyph(.quadrant, pattern), .quadrants(pattern))) }
        return glyphs
    }()

    /// `blocks`: each cell's 8x8 pixels summed by row, by column and by quadrant, from which every glyph's two
    /// groups are summed at once; the glyph whose groups' means leave the least squared error, in RGB here (64 pixels a
    /// cell: OKLab's cube roots for each would cost more than all the rest).
    func drawBlocks(_ scaled: RGBImage, columns: Int, rows: Int) -> CellPicture {
        let width = scaled.width
        var cells: [CellPicture.Cell] = []
        cells.reserveCapacity(columns * rows)
        // Sums of the 3 channels by row (0..<8), by column (8..<16), by quadrant (16..<20), and the whole cell (20).
        var sums = [Int](repeating: 0, count: 21 * 3)
        let glyphs = Self.blockGlyphs
        scaled.pixels.withUnsafeBufferPointer { pixels in
            sums.withUnsafeMutableBufferPointer { sums in
                for row in 0..<rows {
                    for column in 0..<columns {
                        for index in 0..<sums.count { sums[index] = 0 }
                        for y in 0..<8 {
                            var source = ((row * 8 + y) * width + column * 8) * 3
                            for x in 0..<8 {
                                let red = Int(pixels[source]), green = Int(pixels[source + 1]), blue = Int(pixels[source + 2])
                                source += 3
                                sums[y * 3] += red
                                sums[y * 3 + 1] += green
                                sums[y * 3 + 2] += blue
                                let across = (8 + x) * 3
                                sums[across] += red
                                sums[across + 1] += green
                                sums[across + 2] += blue
                                let quadrant = (16 + (y / 4) * 2 + x / 4) * 3
                                sums[quadrant] += red
                                sums[quadrant + 1] += green
                                sums[quadrant + 2] += blue
                            }
                        }
                        for y in 0..<8 {
                            sums[60] += sums[y * 3]
                            sums[61] += sums[y * 3 + 1]
                            sums[62] += sums[y * 3 + 2]
                        }
                        let total = (Double(sums[60]), Double(sums[61]), Double(sums[62]))
                        // Error of a split, up to a constant: -(|inside|²/n + |outside|²/(64-n)); the whole cell in one
                        // colour is the score to beat.
                        var bestScore = -(total.0 * total.0 + total.1 * total.1 + total.2 * total.2) / 64
                        var best = -1
                        var bestInside = (0, 0, 0)
                        var bestMembers = 0
                        for (number, entry) in glyphs.enumerated() {
                            var inside = (0, 0, 0)
                            var members = 0
                            func add(_ part: Int, _ pixels: Int) {
                                inside.0 += sums[part * 3]
                                inside.1 += sums[part * 3 + 1]
                                inside.2 += sums[part * 3 + 2]
                                members += pixels
                            }
                            switch entry.shape {
                            case let .rows(from, to): for y in from..<to { add(y, 8) }
                            case let .columns(from, to): for x in from..<to { add(8 + x, 8) }
                            case let .quadrants(pattern): for quadrant in 0..<4 where (pattern >> quadrant) & 1 == 1 { add(16 + quadrant, 16) }
                            }
                            let ins = (Double(inside.0), Double(inside.1), Double(inside.2))
                            let outside = (total.0 - ins.0, total.1 - ins.1, total.2 - ins.2)
                            let score = -(ins.0 * ins.0 + ins.1 * ins.1 + ins.2 * ins.2) / Double(members)
                                - (outside.0 * outside.0 + outside.1 * outside.1 + outside.2 * outside.2) / Double(64 - members)
                            if score < bestScore - 1e-6 {
                                bestScore = score
                                best = number
                                bestInside = inside
                                bestMembers = members
                            }
                        }
                        func mean(_ red: Int, _ green: Int, _ blue: Int, _ count: Int) -> RGB {
                            let n = max(1, count)
                            return RGB(UInt8(min(255, (red + n / 2) / n)), UInt8(min(255, (green + n / 2) / n)), UInt8(min(255, (blue + n / 2) / n)))
                        }
                        let background = halves.color(mean(sums[60] - bestInside.0, sums[61] - bestInside.1, sums[62] - bestInside.2,
                                                           64 - bestMembers))
                        guard best >= 0 else {
                            cells.append(.init(glyph: " ", foreground: background, background: background))
                            continue
                        }
                        let foreground = halves.color(mean(bestInside.0, bestInside.1, bestInside.2, bestMembers))
                        cells.append(foreground == background ? .init(glyph: " ", foreground: background, background: background)
                                     : .init(glyph: glyphs[best].glyph, foreground: foreground, background: background))
                    }
                }
            }
        }
        return CellPicture(columns: columns, rows: rows, cells: cells)
    }

    /// The character whose ink covers the pixels of `pattern` (bit 0: top left, then along each row).
    static func glyph(_ kind: BlitterKind, _ pattern: Int) -> Character {
        switch kind {
        case .half:
            return pattern == 1 ? "▀" : pattern == 2 ? "▄" : pattern == 0 ? " " : "█"
        case .quadrant:
            // Bits: top left, top right, bottom left, bottom right.
            let glyphs: [Character] = [" ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█"]
            return glyphs[pattern & 15]
        case .blocks:
            return glyph(.quadrant, pattern)
        case .sextant:
            // U+1FB00 … U+1FB3B count the 2x3 patterns in binary, leaving out those drawn elsewhere: none,
            // the left column (▌, 21), the right column (▐, 42) and all (█, 63).
            switch pattern {
            case 0: return " "
            case 21: return "▌"
            case 42: return "▐"
            case 63: return "█"
            default:
                let offset = pattern - 1 - (pattern > 21 ? 1 : 0) - (pattern > 42 ? 1 : 0)
                return Character(Unicode.Scalar(0x1FB00 + UInt32(offset))!)
            }
        }
    }
}
