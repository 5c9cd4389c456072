/// How many colours the terminal can show, and so how pictures are coloured.
public enum ColorMode: String, Sendable, CaseIterable {
    /// 24-bit colour.
    case truecolor
    /// The xterm 256-colour palette (pictures use its 6x6x6 cube and gray ramp).
    case palette256 = "256"
    /// The 16 ANSI colours.
    case palette16 = "16"
    /// The 8 ANSI colours (`TERM=xterm`, `TERM=linux`): pictures are dithered.
    case palette8 = "8"
    /// No colour: pictures become shades of ASCII characters.
    case none
}

/// The xterm palettes, and the nearest palette colour to any colour, judged in OKLab (a perceptual space).
public enum Palette {
    /// The 256-colour palette's RGB values (xterm's defaults; 0–15 vary by terminal theme).
    public static let xterm256: [RGB] = {
        var colors = ansi16
        let levels = cubeLevels
        for red in levels { for green in levels { for blue in levels { colors.append(RGB(red, green, blue)) } } }
        for step in 0..<24 {
            let gray = UInt8(8 + step * 10)
            colors.append(RGB(gray, gray, gray))
        }
        return colors
    }()

    /// The 16 ANSI colours as xterm shows them by default.
    public static let ansi16: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
        RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0),
        RGB(255, 255, 0), RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    /// The palette index (16...255) nearest to a colour. Indexes 0–15 are left out: themes redefine them.
    public static func nearest256(_ color: RGB) -> UInt8 {
        exact256(color) ?? lookup256[lookupIndex(color)]
    }

    /// A colour that is in the palette maps to itself, whatever the table's rounding says: a colour of the cube (all
    /// three channels on its levels), else of the gray ramp (the two share no colour). Computed, not a dictionary: a
    /// previewer would pay for the dictionary's first use more than for the picture's colours.
    static func exact256(_ color: RGB) -> UInt8? {
        let red = cubeStep[Int(color.red)], green = cubeStep[Int(color.green)], blue = cubeStep[Int(color.blue)]
        if red >= 0, green >= 0, blue >= 0 { return UInt8(16 + 36 * Int(red) + 6 * Int(green) + Int(blue)) }
        guard color.red == color.green, color.green == color.blue, color.red >= 8, color.red <= 238, (color.red - 8) % 10 == 0 else { return nil }
        return UInt8(232 + (Int(color.red) - 8) / 10)
    }

    /// The 6x6x6 cube's levels on each channel.
    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// For each channel value, its step on the cube's levels, or -1.
    private static let cubeStep: [Int8] = {
        var steps = [Int8](repeating: -1, count: 256)
        for (step, level) in cubeLevels.enumerated() { steps[Int(level)] = Int8(step) }
        return steps
    }()

    /// The ANSI colour index (0...15) nearest to a colour.
    public static func nearest16(_ color: RGB) -> UInt8 {
        lookup16[lookupIndex(color)]
    }

    /// The ANSI colour index (0...7) nearest to a colour.
    public static func nearest8(_ color: RGB) -> UInt8 {
        lookup8[lookupIndex(color)]
    }

    /// Colours are looked up at 5 bits a channel: finer than the palette's steps (40 and more), and a
    /// 32 KiB table built once, on first use.
    private static func lookupIndex(_ color: RGB) -> Int {
        Int(color.red >> 3) << 10 | Int(color.green >> 3) << 5 | Int(color.blue >> 3)
    }

    private static let lookup256: [UInt8] = precomputed256
    private static let lookup16: [UInt8] = buildLookup(candidates: Array(0..<16))
    private static let lookup8: [UInt8] = buildLookup(candidates: Array(0..<8))

    /// For each entry, the candidate nearest in OKLab (ties: the lowest index). Candidates are searched
    /// outwards from the entry's lightness and the search stops where lightness alone is further than the
    /// best found: the same answers as trying them all, in a fraction of the time (a previewer builds the
    /// table at start-up).
    static func buildLookup(candidates: [Int]) -> [UInt8] {
        let palette = candidates.map { (index: UInt8($0), lab: OKLab(xterm256[$0])) }
            .sorted { $0.lab.lightness < $1.lab.lightness || ($0.lab.lightness == $1.lab.lightness && $0.index < $1.index) }
        let lightness = palette.map(\.lab.lightness)
        return OKLab.bucketTable { lab -> UInt8 in
            // The first candidate at least as light.
            var low = 0
            var high = palette.count
            while low < high {
                let middle = (low + high) / 2
                if lightness[middle] < lab.lightness { low = middle + 1 } else { high = middle }
            }
            var best = palette[min(low, palette.count - 1)].index
            var bestDistance = Float.greatestFiniteMagnitude
            func consider(_ position: Int) -> Bool {
                let candidate = palette[position]
                let step = candidate.lab.lightness - lab.lightness
                guard step * step <= bestDistance else { return false }
                let distance = lab.distanceSquared(to: candidate.lab)
                if distance < bestDistance || (distance == bestDistance && candidate.index < best) {
                    bestDistance = distance
                    best = candidate.index
                }
                return true
            }
            var up = low
            var down = low - 1
            while up < palette.count || down >= 0 {
                if up < palette.count, !consider(up) { up = palette.count } else { up += 1 }
                if down >= 0, !consider(down) { down = -1 } else { down -= 1 }
            }
            return best
        }
    }
}

/// A colour in OKLab (Björn Ottosson's perceptual space): distances there track how different colours look.
public struct OKLab: Sendable {
    public var lightness: Float
    public var a: Float
    public var b: Float

    /// A lookup table at 5 bits a channel (`red << 10 | green << 5 | blue`): each entry is `entry` of the centre
    /// of the 8x8x8 block of colours it stands for.
    static func bucketTable<Entry>(_ entry: (OKLab) -> Entry) -> [Entry] {
        var table: [Entry] = []
        table.reserveCapacity(32 * 32 * 32)
        for red in 0..<32 {
            for green in 0..<32 {
                for blue in 0..<32 {
                    table.append(entry(OKLab(RGB(UInt8(red << 3 | 4), UInt8(green << 3 | 4), UInt8(blue << 3 | 4)))))
                }
            }
        }
        return table
    }

    public init(_ color: RGB) {
        let red = SRGB.toLinear[Int(color.red)]
        let green = SRGB.toLinear[Int(color.green)]
        let blue = SRGB.toLinear[Int(color.blue)]
        let l = cbrtf(0.412_221_470_8 * red + 0.536_332_536_3 * green + 0.051_445_992_9 * blue)
        let m = cbrtf(0.211_903_498_2 * red + 0.680_699_545_1 * green + 0.107_396_956_6 * blue)
        let s = cbrtf(0.088_302_461_9 * red + 0.281_718_837_6 * green + 0.629_978_700_5 * blue)
        lightness = 0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s
        a = 1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s
        b = 0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s
    }

    public func distanceSquared(to other: OKLab) -> Float {
        let dl = lightness - other.lightness
        let da = a - other.a
        let db = b - other.b
        return dl * dl + da * da + db * db
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How pictures reach the screen.
public enum GraphicsMode: String, Sendable, CaseIterable {
    /// The Kitty graphics protocol: pixels uploaded once, placed by cells.
    case kitty
    /// The Kitty graphics protocol's Unicode placeholders: pixels uploaded once, shown by text cells that
    /// name them (kitty 0.28+, Ghostty), so tmux can keep owning the screen.
    case kittyPlaceholders = "kitty-placeholders"
    /// Sixel: pixels drawn into the cells they cover.
    case sixel
    /// iTerm2's inline images (OSC 1337).
    case iterm2
    /// Coloured characters (half blocks).
    case cells
}

extension GraphicsMode {
    /// What the help calls it.
    public var title: String {
        switch self {
        case .kitty: "Kitty graphics"
        case .kittyPlaceholders: "Kitty graphics in Unicode placeholders"
        case .sixel: "Sixel"
        case .iterm2: "iTerm2 inline images"
        case .cells: "coloured characters"
        }
    }

    /// Whether its pictures are drawn for the cell's size in pixels (iTerm2 stretches a picture over its cells).
    public var drawsForCellSize: Bool { ![.iterm2, .cells].contains(self) }

    /// What `render` draws: every mode but Kitty's placeholders (they need a screen of text kept around them, which a
    /// previewer's output is not).
    public static var renderModes: [GraphicsMode] { allCases.filter { $0 != .kittyPlaceholders } }

    /// Whether `render` sends its pictures in pixels (characters otherwise).
    public var rendersPixels: Bool { Self.renderModes.contains(self) && self != .cells }

    /// The names a choice takes, "auto" first: "auto, kitty, sixel, iterm2 or cells" (`last` before the final one).
    public static func spoken(_ modes: [GraphicsMode] = allCases, last: String = " or ") -> String {
        let names = ["auto"] + modes.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + last + (names.last ?? "")
    }

    /// The cell sizes in pixels taken as real; a terminal that says otherwise is mistaken.
    public static let cellWidths = 2...200
    public static let cellHeights = 4...400
}
