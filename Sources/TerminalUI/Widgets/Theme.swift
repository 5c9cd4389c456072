import ImageFeedCore
import Foundation
import TerminalImage

/// The looks to choose from (`theme` in the settings): for dark terminal backgrounds, light ones, or the most
/// contrast there is.
public enum ThemeName: String, CaseIterable, Sendable {
    case dark
    case light
    case highContrast = "high-contrast"
}

/// The parts of the interface whose colour the settings may change (`[colors]` in config.toml).
public enum ThemeRole: String, CaseIterable, Sendable {
    /// The tab bar's and the status line's background.
    case tabBar = "tab_bar"
    /// The selection bar, the active tab, the focused button, accents.
    case selection
    /// A liked photo's heart.
    case heart
    /// A dialog's background.
    case dialog
    /// The keys and words on the tab bar and the status line.
    case hints
    /// Errors.
    case error
    /// Secondary text (dates, counts, a heart not liked).
    case muted
}

/// A colour the settings give: "#RRGGBB", or a palette number 0–255.
public enum ThemeColor: Hashable, Sendable {
    case rgb(RGB)
    case index(UInt8)

    /// "#1e90ff" or "33"; nil for anything else.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#"), trimmed.count == 7, let value = UInt32(trimmed.dropFirst(), radix: 16) {
            self = .rgb(RGB(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)))
        } else if let number = UInt8(trimmed) {
            self = .index(number)
        } else {
            return nil
        }
    }
}

/// Whether the frame just drawn showed a spinner: a spinner asks for its own next frame (as Bubble Tea's
/// `Tick`), so the run loop animates exactly while one is on screen.
public final class AnimationRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var asked = false

    public init() {}

    /// Before a frame is drawn.
    public func reset() { lock.withLock { asked = false } }
    func ask() { lock.withLock { asked = true } }
    /// After: a spinner was drawn.
    public var wasAsked: Bool { lock.withLock { asked } }
}

/// The characters and colours of the interface, for what the terminal can show.
public struct Theme: Sendable {
    public let colorMode: ColorMode
    public let unicode: Bool
    public let name: ThemeName
    /// Colours the settings put in place of the theme's own.
    public let overrides: [ThemeRole: ThemeColor]
    /// Asked by every spinner drawn with this theme (copies share it).
    public let animation = AnimationRequest()
    /// The keys in force: text that names a key ("Press r to retry") names the user's.
    public var keys = KeyMap.standard
    /// A cell's height over its width on this terminal (2 where not known): pictures are laid out in cells of this
    /// shape, so a photo keeps its own on screen (a 9x19 cell is 5% taller than 1:2, alacritty's 16%).
    public var cellAspect = 2.0

    public init(colorMode: ColorMode, unicode: Bool, name: ThemeName = .dark, overrides: [ThemeRole: ThemeColor] = [:]) {
        self.colorMode = colorMode
        self.unicode = unicode
        self.name = name
        self.overrides = overrides
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
        animation.ask()
        let frames = spinnerFrames
        return frames[((tick % frames.count) + frames.count) % frames.count]
    }

    // MARK: Colours

    /// A colour of the theme: its RGB, the ANSI colour that stands for it with 16 colours, and with 8 (0–7
    /// only; bright colours do not exist there).
    struct Swatch {
        var rgb: RGB
        var fallback16: UInt8
        var fallback8: UInt8

        init(_ rgb: RGB, _ fallback16: UInt8, _ fallback8: UInt8? = nil) {
            self.rgb = rgb
            self.fallback16 = fallback16
            self.fallback8 = fallback8 ?? fallback16 & 7
        }
    }

    /// Each theme's colours, by what they are for.
    struct Swatches {
        var heart, unliked, muted, accent, error, barBackground, barText, onAccent, dialogBackground, dialogText,
            placeholderBackground, placeholderText: Swatch
        /// Secondary text is drawn dim where colours are few.
        var dimsMuted: Bool
        var boldBars: Bool
    }

    var swatches: Swatches {
        switch name {
        case .dark: Self.dark
        case .light: Self.light
        case .highContrast: Self.highContrast
        }
    }

    // Blue is hard to read on black with eight colours: cyan there; a black bar would not show on black: blue there.
    static let dark = Swatches(
        heart: Swatch(RGB(230, 60, 70), 9), unliked: Swatch(RGB(150, 150, 150), 8, 7), muted: Swatch(RGB(140, 140, 140), 8, 7),
        accent: Swatch(RGB(120, 170, 255), 12, 6), error: Swatch(RGB(255, 110, 100), 9),
        barBackground: Swatch(RGB(48, 48, 52), 0, 4), barText: Swatch(RGB(220, 220, 220), 7),
        onAccent: Swatch(RGB(20, 20, 20), 0), dialogBackground: Swatch(RGB(40, 40, 60), 4),
        dialogText: Swatch(RGB(235, 235, 235), 15), placeholderBackground: Swatch(RGB(60, 60, 64), 8, 7),
        placeholderText: Swatch(RGB(170, 170, 170), 7, 0), dimsMuted: true, boldBars: false)

    // Dark inks on light grays: what reads on a white terminal.
    static let light = Swatches(
        heart: Swatch(RGB(200, 30, 50), 1), unliked: Swatch(RGB(100, 100, 100), 8, 0), muted: Swatch(RGB(100, 100, 100), 8, 0),
        accent: Swatch(RGB(0, 90, 200), 4), error: Swatch(RGB(185, 25, 25), 1),
        barBackground: Swatch(RGB(222, 222, 228), 7), barText: Swatch(RGB(25, 25, 25), 0),
        onAccent: Swatch(RGB(255, 255, 255), 15, 7), dialogBackground: Swatch(RGB(238, 238, 246), 7),
        dialogText: Swatch(RGB(20, 20, 20), 0), placeholderBackground: Swatch(RGB(205, 205, 210), 7),
        placeholderText: Swatch(RGB(70, 70, 70), 8, 0), dimsMuted: false, boldBars: false)

    // Black and white, yellow for what is selected, nothing dim.
    static let highContrast = Swatches(
        heart: Swatch(RGB(255, 50, 50), 9), unliked: Swatch(RGB(215, 215, 215), 7), muted: Swatch(RGB(215, 215, 215), 7),
        accent: Swatch(RGB(255, 220, 0), 11, 3), error: Swatch(RGB(255, 70, 70), 9),
        barBackground: Swatch(RGB(0, 0, 0), 0), barText: Swatch(RGB(255, 255, 255), 15, 7),
        onAccent: Swatch(RGB(0, 0, 0), 0), dialogBackground: Swatch(RGB(0, 0, 0), 0),
        dialogText: Swatch(RGB(255, 255, 255), 15, 7), placeholderBackground: Swatch(RGB(90, 90, 90), 8, 7),
        placeholderText: Swatch(RGB(255, 255, 255), 15, 0), dimsMuted: false, boldBars: true)

    private func color(_ swatch: Swatch, _ role: ThemeRole? = nil) -> TerminalColor {
        if let role, let override = overrides[role] {
            switch (override, colorMode) {
            case (_, .none): return .standard
            case let (.rgb(rgb), _): return fill(rgb)
            case let (.index(index), .palette256), let (.index(index), .truecolor): return .indexed(index)
            case let (.index(index), .palette16): return .indexed(index < 16 ? index : Palette.nearest16(Palette.xterm256[Int(index)]))
            case let (.index(index), .palette8): return .indexed(index < 8 ? index : Palette.nearest8(Palette.xterm256[Int(index)]))
            }
        }
        switch colorMode {
        case .truecolor: return .rgb(swatch.rgb)
        case .palette256: return .indexed(Palette.nearest256(swatch.rgb))
        case .palette16: return .indexed(swatch.fallback16)
        case .palette8: return .indexed(swatch.fallback8)
        case .none: return .standard
        }
    }

    public var hasColor: Bool { colorMode != .none }

    private var dimsMuted: Bool { !hasColor || (colorMode == .palette8 && swatches.dimsMuted) }

    /// A liked heart: red.
    public var likedHeart: CellStyle { CellStyle(foreground: color(swatches.heart, .heart), bold: true) }
    /// A heart not liked: gray.
    public var unlikedHeart: CellStyle { CellStyle(foreground: color(swatches.unliked, .muted), dim: dimsMuted) }
    public var accent: CellStyle { CellStyle(foreground: color(swatches.accent, .selection), bold: true) }
    public var muted: CellStyle { CellStyle(foreground: color(swatches.muted, .muted), dim: dimsMuted) }
    public var error: CellStyle { CellStyle(foreground: color(swatches.error, .error), bold: true) }
    public var title: CellStyle { CellStyle(bold: true) }
    public var activeTab: CellStyle {
        // Bold black is drawn dark gray by eight-colour terminals: plain black on the accent reads better there.
        hasColor ? CellStyle(foreground: color(swatches.onAccent), background: color(swatches.accent, .selection),
                             bold: colorMode != .palette8)
            : CellStyle(bold: true, reverse: true)
    }
    /// The tab and status bars.
    public var bar: CellStyle {
        hasColor ? CellStyle(foreground: color(swatches.barText, .hints), background: color(swatches.barBackground, .tabBar),
                             bold: swatches.boldBars)
            : CellStyle(reverse: true)
    }
    public var modal: CellStyle {
        hasColor ? CellStyle(foreground: color(swatches.dialogText), background: color(swatches.dialogBackground, .dialog))
            : CellStyle()
    }
    public var button: CellStyle { CellStyle(bold: true) }
    public var focusedButton: CellStyle { activeTab }

    /// The placeholder of a photo that could not be loaded.
    public var placeholder: CellStyle {
        hasColor ? CellStyle(foreground: color(swatches.placeholderText), background: color(swatches.placeholderBackground))
            : CellStyle(dim: true)
    }

    /// A flat colour for a photo's dominant colour, while nothing better is known.
    public func fill(_ rgb: RGB) -> TerminalColor {
        color(Swatch(rgb, Palette.nearest16(rgb), Palette.nearest8(rgb)))
    }
}

extension Theme {
    /// The first key of an intent, as text names it ("r"), in whichever screen has the intent.
    public func key(_ intent: Intent) -> String { keys.anyKey(intent) }

    /// `text` with each `{intent}` in it (`{reload}`) replaced by that intent's key in force.
    public func spell(_ text: String) -> String {
        var spelled = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            spelled += rest[..<open]
            spelled += Intent(rawValue: name).map(key) ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return spelled + rest
    }

    /// How to try again ("Press r to try again.", or when the quota refills), with the key in force; nil when
    /// trying again cannot help.
    public func retryAdvice(_ error: ServiceError) -> String? {
        error.retryAdvice.map(spell)
    }
}
