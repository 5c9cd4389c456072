/// Pictures in the 8 ANSI colours, where a half block alone (two of eight flat colours a cell) turns a photo
/// into patches: a cell is either a half block (two colours, for edges) or a shade `░ ▒ ▓` of one colour over
/// another, which the eye mixes at a quarter, a half or three quarters. Eight colours then give some ninety
/// mixtures; each cell takes whichever of the two reads closer to its two pixels, judged in OKLab.
enum EightColorShading {
    struct Mixture {
        var foreground: UInt8
        var background: UInt8
        var glyph: Character
        var lab: OKLab
    }

    /// Every solid colour, and each pair mixed at ¼, ½ and ¾ (averaged in linear light, as the eye does).
    static let mixtures: [Mixture] = {
        var mixtures: [Mixture] = []
        for index in 0..<8 {
            mixtures.append(Mixture(foreground: UInt8(index), background: UInt8(index), glyph: " ", lab: OKLab(Palette.ansi16[index])))
        }
        for foreground in 0..<8 {
            for background in 0..<8 where background != foreground {
                for (glyph, fraction) in [("░", Float(0.25)), ("▒", 0.5), ("▓", 0.75)] {
                    // ▒ of a on b is ▒ of b on a: each half-mixture once.
                    if glyph == "▒", background < foreground { continue }
                    let mixed = mix(Palette.ansi16[foreground], Palette.ansi16[background], fraction)
                    mixtures.append(Mixture(foreground: UInt8(foreground), background: UInt8(background),
                                            glyph: Character(glyph), lab: OKLab(mixed)))
                }
            }
        }
        return mixtures
    }()

    static func mix(_ foreground: RGB, _ background: RGB, _ fraction: Float) -> RGB {
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            SRGB.fromLinear(SRGB.toLinear[Int(a)] * fraction + SRGB.toLinear[Int(b)] * (1 - fraction))
        }
        return RGB(channel(foreground.red, background.red), channel(foreground.green, background.green),
                   channel(foreground.blue, background.blue))
    }

    /// The mixture nearest to each colour, at 5 bits a channel (built once, on first use).
    private static let lookup: [UInt16] = OKLab.bucketTable { lab in
        var best = 0
        var bestDistance = Float.greatestFiniteMagnitude
        for (index, mixture) in mixtures.enumerated() {
            let distance = lab.distanceSquared(to: mixture.lab)
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
        }
        return UInt16(best)
    }

    static func nearestMixture(_ color: RGB) -> Mixture {
        mixtures[Int(lookup[Int(color.red >> 3) << 10 | Int(color.green >> 3) << 5 | Int(color.blue >> 3)])]
    }

    /// The cell for two pixels, one above the other.
    static func cell(upper: RGB, lower: RGB) -> CellPicture.Cell {
        let upperLab = OKLab(upper)
        let lowerLab = OKLab(lower)
        // Two flat colours, one a half.
        let top = Palette.nearest8(upper)
        let bottom = Palette.nearest8(lower)
        let halvesError = upperLab.distanceSquared(to: OKLab(Palette.ansi16[Int(top)]))
            + lowerLab.distanceSquared(to: OKLab(Palette.ansi16[Int(bottom)]))
        // One mixture for the whole cell.
        let mean = mix(upper, lower, 0.5)
        let mixture = nearestMixture(mean)
        let mixtureError = upperLab.distanceSquared(to: mixture.lab) + lowerLab.distanceSquared(to: mixture.lab)
        if top != bottom, halvesError < mixtureError {
            return upper.luma >= lower.luma
                ? .init(glyph: "▀", foreground: .indexed(top), background: .indexed(bottom))
                : .init(glyph: "▄", foreground: .indexed(bottom), background: .indexed(top))
        }
        return .init(glyph: mixture.glyph, foreground: .indexed(mixture.foreground), background: .indexed(mixture.background))
    }
}
