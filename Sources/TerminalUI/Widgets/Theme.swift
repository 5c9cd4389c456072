import TerminalImage

/// The characters and colours of the interface, for what the terminal can show.
public struct Theme: Sendable {
    public let colorMode: ColorMode
    public let unicode: Bool

    public init(colorMode: ColorMode, unicode: Bool) {
        self.colorMode = colorMode
        self.unicode = unicode
    }

    // MARK: Glyphs

    public var heartFull: String { unicode ? "♥" : "<3" }
    public var heartEmpty: String { unicode ? "♡" : "<3" }
    public var ellipsis: String { unicode ? "…" : "~" }
    /// Trails "Loading…": the ellipsis character, or three dots.
    public var dots: String { unicode ? "…" : "..." }
    public var selectionBar: String { unicode ? "▌" : ">" }
    public var bullet: String { unicode ? "·" : "-" }
    public var spinnerFrames: [String] { unicode ? ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"] : ["|", "/", "-", "\\"] }
    public var box: (topLeft: String, topRight: String, bottomLeft: String, bottomRight: String, horizontal: String, vertical: String) {
        unicode ? ("╭", "╮", "╰", "╯", "─", "│") : ("+", "+", "+", "+", "-", "|")
    }

    /// Text in quotation marks: one style everywhere, curly where the terminal has Unicode.
    public func quoted(_ text: String) -> String {
        unicode ? "“\(text)”" : "\"\(text)\""
    }

    public func spinner(_ tick: Int) -> String {
        let frames = spinnerFrames
        return frames[((tick % frames.count) + frames.count) % frames.count]
    }

    // MARK: Colours

    /// `fallback8` for terminals with eight colours (0–7 only; bright colours do not exist there): by
    /// default the bright colour's plain sibling.
    private func color(_ rgb: RGB, fallback16: UInt8, fallback8: UInt8? = nil) -> TerminalColor {
        switch colorMode {
        case .truecolor: .rgb(rgb)
        case .palette256: .indexed(Palette.nearest256(rgb))
        case .palette16: .indexed(fallback16)
        case .palette8: .indexed(fallback8 ?? fallback16 & 7)
        case .none: .standard
        }
    }

    public var hasColor: Bool { colorMode != .none }

    /// A liked heart: red.
    public var likedHeart: CellStyle { CellStyle(foreground: color(RGB(230, 60, 70), fallback16: 9), bold: true) }
    /// A heart not liked: gray.
    public var unlikedHeart: CellStyle {
        CellStyle(foreground: color(RGB(150, 150, 150), fallback16: 8, fallback8: 7), dim: !hasColor || colorMode == .palette8)
    }
    /// Blue is hard to read on black with eight colours: cyan there.
    public var accent: CellStyle { CellStyle(foreground: color(RGB(120, 170, 255), fallback16: 12, fallback8: 6), bold: true) }
    public var muted: CellStyle {
        CellStyle(foreground: color(RGB(140, 140, 140), fallback16: 8, fallback8: 7), dim: !hasColor || colorMode == .palette8)
    }
    public var error: CellStyle { CellStyle(foreground: color(RGB(255, 110, 100), fallback16: 9), bold: true) }
    public var title: CellStyle { CellStyle(bold: true) }
    public var activeTab: CellStyle {
        // Bold black is drawn dark gray by eight-colour terminals: plain black on cyan reads better there.
        hasColor ? CellStyle(foreground: color(RGB(20, 20, 20), fallback16: 0), background: color(RGB(120, 170, 255), fallback16: 12, fallback8: 6),
                             bold: colorMode != .palette8)
            : CellStyle(bold: true, reverse: true)
    }
    /// The tab and status bars: white on blue with eight colours (a black bar would not show on black).
    public var bar: CellStyle {
        hasColor ? CellStyle(foreground: color(RGB(220, 220, 220), fallback16: 7), background: color(RGB(48, 48, 52), fallback16: 0, fallback8: 4))
            : CellStyle(reverse: true)
    }
    public var modal: CellStyle {
        hasColor ? CellStyle(foreground: color(RGB(235, 235, 235), fallback16: 15), background: color(RGB(40, 40, 60), fallback16: 4))
            : CellStyle()
    }
    public var button: CellStyle { CellStyle(bold: true) }
    public var focusedButton: CellStyle {
        hasColor ? CellStyle(foreground: color(RGB(20, 20, 20), fallback16: 0), background: color(RGB(120, 170, 255), fallback16: 12, fallback8: 6),
                             bold: colorMode != .palette8)
            : CellStyle(bold: true, reverse: true)
    }

    /// The placeholder of a photo that could not be loaded.
    public var placeholder: CellStyle {
        hasColor ? CellStyle(foreground: color(RGB(170, 170, 170), fallback16: 7, fallback8: 0), background: color(RGB(60, 60, 64), fallback16: 8, fallback8: 7))
            : CellStyle(dim: true)
    }

    /// A flat colour for a photo's dominant colour, while nothing better is known.
    public func fill(_ rgb: RGB) -> TerminalColor {
        color(rgb, fallback16: Palette.nearest16(rgb), fallback8: Palette.nearest8(rgb))
    }
}
