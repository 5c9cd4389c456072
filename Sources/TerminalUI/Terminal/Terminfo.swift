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

    /// The terminfo entries a session on `term` tries, in order; the first this machine knows is used.
    /// 24-bit colour where the terminal says it has it (COLORTERM, as most desktop terminals set) or the user
    /// asks for it, though TERM's own entry lists 256 colours: curses can only send direct colours through a
    /// terminfo entry with RGB, so the session uses the `-direct` sibling of TERM from ncurses-term.
    static func entries(term: String, environment: [String: String], abilities: TerminalAbilities?,
                                colors: ColorMode?, graphics: GraphicsMode) -> [String] {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        // The terminal's own word counts as much as COLORTERM: XTGETTCAP RGB, or the Kitty graphics protocol
        // (every terminal that has it draws 24-bit colour).
        // GNU screen (4.x) has no 24-bit colour: a COLORTERM inherited from the terminal outside it, or that
        // terminal's answers passed through, say nothing of what screen draws. Only the `colors` setting forces it.
        let saysTrueColor = saysTrueColor(term: term, environment: environment, abilities: abilities)
        var entries: [String] = []
        // Kitty's placeholders name their picture by a colour of the 256-colour palette, which a direct-colour
        // entry cannot send: that session keeps TERM's own entry (its pictures are pixels anyway).
        if !noColor, graphics != .kittyPlaceholders, colors == .truecolor || (colors == nil && saysTrueColor) {
            // mosh passes 24-bit colour only in its semicolon form (38;2;R;G;B) and drops xterm-direct's colons
            // (38:2::R:G:B): alacritty-direct is xterm-256color with the semicolon form.
            entries += abilities?.mosh != nil ? ["alacritty-direct"] : directSiblings(of: term, forced: colors == .truecolor)
        }
        // GNU screen names itself "screen" (8 colours in terminfo) unless its configuration says otherwise, and so
        // does tmux before 3.4, yet both draw 256 colours in any terminal that has them and bring them down to what one
        // without them has.
        let insideMultiplexer = Terminals.isGNUScreen(environment) || !(environment["TMUX"] ?? "").isEmpty
        if !noColor, insideMultiplexer, term == "screen" { entries.append("screen-256color") }
        return entries + [term, fallbackEntry]
    }

    /// Whether the terminal says it draws 24-bit colour, where it can be heard: COLORTERM (as most desktop terminals
    /// set it), XTGETTCAP RGB, the Kitty graphics protocol (every terminal with it draws 24-bit colour), or its row in
    /// `Terminals` (xterm, st, mlterm never say it). Not through GNU screen (4.x), which has no 24-bit colour: a
    /// COLORTERM inherited from the terminal outside it, or that terminal's answers passed through, say nothing of
    /// what screen draws. Only the `colors` setting forces it there.
    public static func saysTrueColor(term: String, environment: [String: String], abilities: TerminalAbilities?) -> Bool {
        !Terminals.isGNUScreen(environment)
            && (["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased())
                || abilities?.trueColor == true || abilities?.kittyGraphics == true
                || Terminals.drawsDirectColour(term: term, version: abilities?.version))
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
        let candidates = entries(term: term, environment: environment, abilities: abilities, colors: colors, graphics: graphics)
        for entry in candidates {
            guard let found = terminfo(entry) else { continue }
            var mode = (environment["NO_COLOR"] ?? "").isEmpty ? colorMode(colors: found.colors, rgb: found.rgb) : .none
            if let colors { mode = capped(mode, at: colors) }
            return Plan(entries: candidates, entry: entry, termKnown: termKnown, colorMode: mode,
                        fallback: entry == fallbackEntry && term != fallbackEntry ? fallbackMessage(term) : nil)
        }
        return Plan(entries: candidates, entry: nil, termKnown: false, colorMode: .none, fallback: nil)
    }

    /// The terminfo entries with direct colour that stand for `term` (xterm-256color → xterm-direct,
    /// xterm-kitty → kitty-direct, tmux-256color → tmux-direct), most fitting first; `forced` adds
    /// xterm-direct, which every xterm-like terminal understands.
    static func directSiblings(of term: String, forced: Bool) -> [String] {
        guard !term.hasSuffix("-direct") else { return [] }
        var base = term
        for suffix in ["-256color", "-88color", "-16color", "-color"] where base.hasSuffix(suffix) {
            base = String(base.dropLast(suffix.count))
        }
        var names: [String] = []
        switch base {
        case "xterm-kitty": names.append("kitty-direct")
        case "screen": names.append("tmux-direct")
        default: names.append(base + "-direct")
        }
        if forced, !names.contains("xterm-direct") { names.append("xterm-direct") }
        return names
    }

    /// At most the colours asked for: a terminal with 24-bit colour can be drawn in 256, 16, 8 or none.
    static func capped(_ detected: ColorMode, at wanted: ColorMode) -> ColorMode {
        let order: [ColorMode] = [.none, .palette8, .palette16, .palette256, .truecolor]
        let detectedRank = order.firstIndex(of: detected) ?? 0
        let wantedRank = order.firstIndex(of: wanted) ?? 0
        return order[min(detectedRank, wantedRank)]
    }

}
