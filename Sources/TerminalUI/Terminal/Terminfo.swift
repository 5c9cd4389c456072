import CNcursesw
import TerminalImage

/// The terminfo entry a session draws through, and the colours it gives: worked out without starting curses, so
/// that the session (which opens curses on the first entry of `entries` this machine has) and doctor plan alike.
public enum Terminfo {
    /// The entry a TERM this machine's terminfo lacks is driven as (xterm-ghostty, wezterm, foot: common over
    /// SSH from those terminals), rather than refused: they all understand it.
    static let fallbackEntry = "xterm-256color"

    static func fallbackMessage(_ term: String) -> String {
        "TERM=\(term) is not known here: drawing as xterm-256color (install its terminfo to change that)."
    }

    /// The colours a terminfo entry offers: `colors` and the `RGB` flag.
    static func colorMode(colors: Int, rgb: Bool) -> ColorMode {
        if rgb, colors >= 0x1000000 { return .truecolor }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .palette16 }
        // colors#8 (TERM=xterm, TERM=linux): colours 8–15 do not exist there.
        if colors >= 8 { return .palette8 }
        return .none
    }

    /// What a session would draw with, worked out without starting curses (for `image-feed doctor`): the
    /// terminfo entry it would use, whether TERM's own entry is known, the colours, and the message the
    /// session would show when it falls back to xterm-256color.
    public struct Plan: Equatable, Sendable {
        /// The entries tried, in order (the session opens the first this machine has).
        public var entries: [String] = []
        public var entry: String?
        public var termKnown: Bool
        public var colorMode: ColorMode
        public var fallback: String?
    }

    /// What this machine's terminfo says of the entry `name`: its colours and RGB flag; nil when it lacks it.
    static func terminfo(_ name: String) -> (colors: Int, rgb: Bool)? {
        var count: Int32 = 0
        var rgb: Int32 = 0
        return imagefeed_terminfo(name, &count, &rgb) == 1 ? (Int(count), rgb != 0) : nil
    }

    /// Whether this machine's terminfo has the entry `name`.
    public static func knowsEntry(_ name: String) -> Bool {
        terminfo(name) != nil
    }

    /// The plan for `environment`'s TERM with the terminal's answers, the `colors` setting and the picture mode.
    public static func plan(environment: [String: String], abilities: TerminalAbilities?, colors: ColorMode?,
                            graphics: GraphicsMode) -> Plan {
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return Plan(entry: nil, termKnown: false, colorMode: .none, fallback: nil) }
        let termKnown = knowsEntry(term)
        let candidates = Terminals.terminfoEntries(term: term, environment: environment, abilities: abilities, colors: colors, graphics: graphics)
        for entry in candidates {
            guard let found = terminfo(entry) else { continue }
            var mode = (environment["NO_COLOR"] ?? "").isEmpty ? colorMode(colors: found.colors, rgb: found.rgb) : .none
            if let colors { mode = capped(mode, at: colors) }
            return Plan(entries: candidates, entry: entry, termKnown: termKnown, colorMode: mode,
                        fallback: entry == fallbackEntry && term != fallbackEntry ? fallbackMessage(term) : nil)
        }
        return Plan(entries: candidates, entry: nil, termKnown: false, colorMode: .none, fallback: nil)
    }

    /// At most the colours asked for: a terminal with 24-bit colour can be drawn in 256, 16, 8 or none.
    static func capped(_ detected: ColorMode, at wanted: ColorMode) -> ColorMode {
        let order: [ColorMode] = [.none, .palette8, .palette16, .palette256, .truecolor]
        let detectedRank = order.firstIndex(of: detected) ?? 0
        let wantedRank = order.firstIndex(of: wanted) ?? 0
        return order[min(detectedRank, wantedRank)]
    }

}
