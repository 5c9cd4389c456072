import Foundation
import TerminalImage

/// Every rule that names a terminal or a multiplexer, in one place: a table with one row a terminal (what tells it
/// apart, and what it draws), then what stands between the program and the terminal (tmux, GNU screen, Zellij, mosh).
/// The decisions (`TerminalProfile`) read them and name nothing themselves: a new terminal is a row here and its test.
///
/// Each row is from the terminal's documented behaviour, and where this machine has the terminal, from photographing
/// it (docs/pictures.md says which is which).
public enum Terminals {
    /// What a terminal is known by: its XTVERSION answer, its environment (TERM, TERM_PROGRAM, LC_TERMINAL and its own
    /// variables) and, inside tmux, what tmux says of the terminal its client sits in.
    public struct Seen: Sendable {
        /// XTVERSION, lowercased ("kitty(0.35.2)", "xterm(379)", "wezterm 20240203-…", "ghostty 1.1.3").
        public var version: String
        public var term: String
        public var program: String
        public var environment: [String: String]
        /// Inside tmux: the client terminal's XTVERSION (lowercased) and TERM.
        public var clientType: String
        public var clientName: String

        public init(environment: [String: String], abilities: TerminalAbilities?, tmux: TmuxClient?) {
            version = (abilities?.version ?? "").lowercased()
            term = environment["TERM"] ?? ""
            program = environment["TERM_PROGRAM"] ?? ""
            self.environment = environment
            clientType = (tmux?.terminalType ?? "").lowercased()
            clientName = tmux?.terminalName ?? ""
        }

        func has(_ variable: String) -> Bool { !(environment[variable] ?? "").isEmpty }
        /// The terminal's own answer, or (inside tmux) its client's, starts with one of `names`.
        func answers(_ names: String...) -> Bool {
            names.contains { version.hasPrefix($0) || clientType.hasPrefix($0) }
        }
    }

    /// How a terminal's answer to the Kitty graphics query is taken.
    public enum KittyAnswer: Sendable {
        /// Its answer says it all.
        case trusted
        /// It answers OK, but draws Kitty graphics badly: another protocol is used.
        case ignored
    }

    /// One terminal and what it draws.
    public struct Row: Sendable {
        public var name: String
        /// Whether the terminal is this one.
        public var recognises: @Sendable (Seen) -> Bool
        /// It draws Unicode 13's sextants itself (not from the font, which often lacks them).
        public var sextants = false
        /// It makes OSC 8 hyperlinks clickable.
        public var hyperlinks = false
        public var kittyAnswer = KittyAnswer.trusted
        /// Its environment alone says it has Kitty graphics (for when it does not answer in time).
        public var kittyByEnvironment = false
        /// Its Kitty graphics keeps pictures but plays no animation frames (for when it cannot be asked: `render`, inside
        /// tmux): the program paces the frames.
        public var kittyFramesStand = false
        /// It draws Kitty's Unicode placeholders (`drawsPlaceholders` may ask its version).
        public var placeholders: @Sendable (Seen) -> Bool = { _ in false }
        /// Its DA1 may list Sixel (4) without drawing it: the answer is not read as Sixel.
        public var sixelUntrusted = false
        /// iTerm2's inline images, before Sixel: always, or only where DA1 lists Sixel (the terminal's images are on).
        public var inlineImages = InlineImages.no
        /// It moves Sixel pixels with the rows it scrolls and clips them at the scrolling region.
        public var sixelFollowsScrolls = false
        /// It draws 24-bit colour without saying so where it can be heard (no COLORTERM over SSH, no XTGETTCAP).
        public var directColour = false
        /// The cell its Sixel pictures are drawn for, whatever the font (where it does not say its cell size).
        public var sixelCell: (width: Int, height: Int)?
        /// It shows an APC string (the Kitty query) as text.
        public var printsAPC = false
        /// Its font has no Block Elements' quadrants and eighths (the consoles).
        public var noBlockElements = false
    }

    public enum InlineImages: Sendable {
        case no, always, whenSixelReported
    }

    // MARK: - The terminals

    public static let rows: [Row] = [
        // herdr (a multiplexer of 2026): its panes inherit the environment of the terminal it runs in (Ghostty's, say),
        // TERM xterm-256color and COLORTERM truecolor of its own, and HERDR_ENV=1; its terminal layer (libghostty's)
        // answers the questions as Ghostty would, but it draws its panes into the real terminal as text, and its Kitty
        // graphics are experimental and off by default. Known by HERDR_ENV before any row its environment would match.
        Row(name: "herdr", recognises: { $0.environment["HERDR_ENV"] == "1" }),
        // kitty: Kitty graphics (it answers the query), placeholders from 0.28, sextants and links of its own.
        Row(name: "kitty", recognises: { $0.answers("kitty") || $0.term == "xterm-kitty" || $0.has("KITTY_WINDOW_ID") },
            sextants: true, hyperlinks: true, kittyByEnvironment: true, placeholders: { kittyDrawsPlaceholders($0) }),
        // Ghostty: Kitty graphics and placeholders, no animation frames (up to 1.3 it ignores them); its DA1 is not read
        // as Sixel.
        Row(name: "Ghostty", recognises: { $0.answers("ghostty") || $0.term == "xterm-ghostty" || $0.clientName == "xterm-ghostty"
                || $0.program == "ghostty" },
            sextants: true, hyperlinks: true, kittyByEnvironment: true, kittyFramesStand: true, placeholders: { _ in true },
            sixelUntrusted: true),
        // WezTerm: Sixel and iTerm2's images; it answers the Kitty query, but its Kitty graphics misplace pictures.
        Row(name: "WezTerm", recognises: { $0.answers("wezterm") || $0.term == "wezterm" || $0.program == "WezTerm" },
            sextants: true, hyperlinks: true, kittyAnswer: .ignored, inlineImages: .always),
        // Konsole: answers the Kitty query and draws direct placements, but ignores placeholders and animation frames.
        Row(name: "Konsole", recognises: { $0.answers("konsole") || $0.has("KONSOLE_VERSION") }, hyperlinks: true, kittyFramesStand: true),
        // Rio: Kitty graphics with placeholders, Sixel and iTerm2's images.
        Row(name: "Rio", recognises: { $0.answers("rio") || $0.term == "rio" || $0.program == "rio" || $0.clientName == "rio" },
            hyperlinks: true, placeholders: { _ in true }),
        // iTerm2: its own inline images draw better than its Sixel. LC_TERMINAL crosses SSH with the other LC_ variables.
        // From 3.5.5 it answers the Kitty graphics query too, but its Kitty graphics lack what pictures here rely on (a
        // placement's deletion, placeholders broken in 3.7): its answer is not taken.
        Row(name: "iTerm2", recognises: { $0.answers("iterm2") || $0.environment["LC_TERMINAL"] == "iTerm2" || $0.program == "iTerm.app" },
            hyperlinks: true, kittyAnswer: .ignored, inlineImages: .always),
        // VS Code's terminal and every other xterm.js host (over plain SSH no TERM_PROGRAM crosses; its XTVERSION
        // answer, "xterm.js(6.0.0)", names it): Sixel and iTerm2's images where its image support is on (then DA1 lists
        // Sixel). xterm.js 6 answers the Kitty query too, but keeps one placement an image and frees the image when a
        // placement is deleted (the way pictures here are taken away): its answer is not taken. Animation frames refused
        // (EINVAL).
        Row(name: "VS Code", recognises: { $0.program == "vscode" || $0.answers("xterm.js") }, hyperlinks: true,
            kittyAnswer: .ignored, kittyFramesStand: true, inlineImages: .whenSixelReported),
        // Windows Terminal (1.22 and later: Sixel): its Sixel cell is 10x20 pixels whatever the font, and over SSH the
        // kernel has no pixel size to give.
        Row(name: "Windows Terminal", recognises: { $0.has("WT_SESSION") }, hyperlinks: true, sixelCell: (10, 20)),
        // foot: Sixel (it moves the pixels past the scrolling region's margins: not followed), sextants, links.
        Row(name: "foot", recognises: { $0.answers("foot") || ["foot", "foot-extra"].contains($0.term) }, sextants: true, hyperlinks: true),
        // xterm: Sixel that scrolls with its rows, 24-bit colour it never announces.
        Row(name: "xterm", recognises: { $0.version.hasPrefix("xterm(") }, sixelFollowsScrolls: true, directColour: true),
        // mlterm: as xterm, by TERM (it answers no XTVERSION).
        Row(name: "mlterm", recognises: { $0.term.hasPrefix("mlterm") }, sixelFollowsScrolls: true, directColour: true),
        // st: 24-bit colour, by TERM.
        Row(name: "st", recognises: { $0.term == "st" || $0.term.hasPrefix("st-") }, directColour: true),
        // VTE terminals (GNOME Terminal, xfce4-terminal, Tilix): links from 0.50, their own sextants from 0.70.
        Row(name: "VTE", recognises: { $0.vte != nil }),
        Row(name: "alacritty", recognises: { $0.term == "alacritty" }, hyperlinks: true),
        Row(name: "contour", recognises: { $0.answers("contour") }, hyperlinks: true),
        Row(name: "mintty", recognises: { $0.answers("mintty") }, hyperlinks: true),
        // rxvt-unicode prints APC strings as text.
        Row(name: "rxvt-unicode", recognises: { $0.term.hasPrefix("rxvt") }, printsAPC: true),
        // The consoles (linux, vt100 …, cons25, con80x25 …; not contour): APC printed, no Block Elements in their fonts.
        Row(name: "console", recognises: { isConsole($0.term) }, printsAPC: true, noBlockElements: true),
    ]

    /// The row of the terminal in front (inside tmux: of its client's terminal), if it is one the table knows.
    public static func row(_ seen: Seen) -> Row? {
        rows.first { $0.recognises(seen) }
    }

    static func isConsole(_ term: String) -> Bool {
        let term = term.lowercased()
        return term == "linux" || term.hasPrefix("vt") || term.hasPrefix("cons")
            || (term.hasPrefix("con") && term.dropFirst(3).first?.isNumber == true)
    }

    /// kitty draws placeholders from 0.28.
    static func kittyDrawsPlaceholders(_ seen: Seen) -> Bool {
        let type = seen.clientType.hasPrefix("kitty(") ? seen.clientType : seen.version
        return version(type, of: "kitty", atLeast: 28)
    }

    /// Whether an XTVERSION answer of the form "name(major.minor…)" (lowercased) names `name` at 0.`minor` or later.
    static func version(_ answer: String, of name: String, atLeast minor: Int) -> Bool {
        guard answer.hasPrefix(name + "(") else { return false }
        let numbers = answer.dropFirst(name.count + 1).prefix { $0 != ")" }.split(separator: ".").map { Int($0) ?? 0 }
        guard let major = numbers.first else { return false }
        return major > 0 || (numbers.dropFirst().first ?? 0) >= minor
    }

    // MARK: - What stands in between

    /// What stands between the program and the terminal.
    public enum Between: String, Sendable {
        case nothing
        /// tmux: it keeps pictures from the terminal except through its passthrough (placeholders), or as Sixel where
        /// it was built with Sixel; it answers XTVERSION itself; links it keeps (or, before 3.4, drops).
        case tmux
        /// GNU screen (4.x): no 24-bit colour whatever the terminal has, no pictures, and it holds a lone Esc while the
        /// mouse is reported.
        case gnuScreen = "GNU screen"
        /// Zellij: a terminal of its own that draws into the real one. From 0.45 it draws Kitty graphics itself (it
        /// answers the query; no placeholders, no animation); before, characters (older ones listed Sixel in DA1 even
        /// where the terminal had none).
        case zellij = "Zellij"
        /// herdr: a multiplexer that draws its panes into the terminal as text (its Kitty graphics are experimental,
        /// off by default), with OSC 8 links of its own to the terminal, and synchronized frames it writes itself.
        case herdr
    }

    /// tmux, GNU screen or Zellij, by the environment (TERM alone says screen or tmux where the variables were lost).
    public static func between(_ environment: [String: String]) -> Between {
        let term = environment["TERM"] ?? ""
        if !(environment["STY"] ?? "").isEmpty { return .gnuScreen }
        if !(environment["TMUX"] ?? "").isEmpty || term.hasPrefix("tmux") { return .tmux }
        if environment["HERDR_ENV"] == "1" { return .herdr }
        if !(environment["ZELLIJ"] ?? "").isEmpty || !(environment["ZELLIJ_SESSION_NAME"] ?? "").isEmpty { return .zellij }
        if term.hasPrefix("screen") { return .tmux }
        return .nothing
    }

    /// Whether the program runs inside tmux (`TMUX` names its server).
    public static func insideTmux(_ environment: [String: String]) -> Bool {
        !(environment["TMUX"] ?? "").isEmpty
    }

    /// Whether GNU screen stands between the program and the terminal (`STY` is set), inside tmux or around it.
    public static func isGNUScreen(_ environment: [String: String]) -> Bool {
        !(environment["STY"] ?? "").isEmpty
    }

    /// Whether tmux or GNU screen stand between the program and the terminal (Zellij draws pictures itself: it is
    /// asked as a terminal).
    public static func isMultiplexed(_ environment: [String: String]) -> Bool {
        [.tmux, .gnuScreen].contains(between(environment))
    }

    /// mosh draws 24-bit colour from 1.4.
    public static func moshDrawsDirectColour(_ version: String) -> Bool {
        let numbers = version.split(separator: ".").map { Int($0) ?? 0 }
        guard let major = numbers.first else { return false }
        return major > 1 || (major == 1 && (numbers.dropFirst().first ?? 0) >= 4)
    }

    // MARK: - Terminfo entries and colour

    /// The terminfo entries a session on `term` tries, in order; the first this machine knows is used.
    /// 24-bit colour where the terminal says it has it (COLORTERM, as most desktop terminals set) or the user
    /// asks for it, though TERM's own entry lists 256 colours: curses can only send direct colours through a
    /// terminfo entry with RGB, so the session uses the `-direct` sibling of TERM from ncurses-term.
    static func terminfoEntries(term: String, environment: [String: String], abilities: TerminalAbilities?,
                                colors: ColorMode?, graphics: GraphicsMode) -> [String] {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        // The terminal's own word counts as much as COLORTERM: XTGETTCAP RGB, or the Kitty graphics protocol
        // (every terminal that has it draws 24-bit colour).
        // GNU screen (4.x) has no 24-bit colour: a COLORTERM inherited from the terminal outside it, or that
        // terminal's answers passed through, say nothing of what screen draws. Only the `colors` setting forces it.
        let direct = saysTrueColor(term: term, environment: environment, abilities: abilities)
        var entries: [String] = []
        // Kitty's placeholders name their picture by a colour of the 256-colour palette, which a direct-colour
        // entry cannot send: that session keeps TERM's own entry (its pictures are pixels anyway).
        if !noColor, graphics != .kittyPlaceholders, colors == .truecolor || (colors == nil && direct) {
            // mosh passes 24-bit colour only in its semicolon form (38;2;R;G;B) and drops xterm-direct's colons
            // (38:2::R:G:B): alacritty-direct is xterm-256color with the semicolon form.
            // GNU screen 5 (with `truecolor on`) reads the semicolon form too: the same entry.
            entries += abilities?.mosh != nil || isGNUScreen(environment) ? ["alacritty-direct"]
                : directSiblings(of: term, forced: colors == .truecolor)
        }
        // GNU screen names itself "screen" (8 colours in terminfo) unless its configuration says otherwise, and so
        // does tmux before 3.4, yet both draw 256 colours in any terminal that has them and bring them down to what one
        // without them has.
        let insideMultiplexer = isGNUScreen(environment) || insideTmux(environment)
        if !noColor, insideMultiplexer, term == "screen" { entries.append("screen-256color") }
        return entries + [term, Terminfo.fallbackEntry]
    }

    /// Whether the terminal says it draws 24-bit colour, where it can be heard: COLORTERM (as most desktop terminals
    /// set it), XTGETTCAP RGB, the Kitty graphics protocol (every terminal with it draws 24-bit colour), or its row in
    /// `Terminals` (xterm, st, mlterm never say it). Not through GNU screen (4.x), which has no 24-bit colour: a
    /// COLORTERM inherited from the terminal outside it, or that terminal's answers passed through, say nothing of
    /// what screen draws. Only the `colors` setting forces it there.
    public static func saysTrueColor(term: String, environment: [String: String], abilities: TerminalAbilities?) -> Bool {
        !isGNUScreen(environment) && heardTrueColor(term: term, environment: environment, abilities: abilities)
    }

    /// The words `saysTrueColor` listens to, wherever they come from: inside GNU screen they speak of the terminal
    /// outside it (which screen 5 can pass 24-bit colour to, with `truecolor on`).
    public static func heardTrueColor(term: String, environment: [String: String], abilities: TerminalAbilities?) -> Bool {
        ["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased())
            || abilities?.trueColor == true || abilities?.kittyGraphics == true
            || Terminals.drawsDirectColour(term: term, version: abilities?.version)
    }

    /// What turns 24-bit colour on inside GNU screen, where the terminal outside has it: screen 5 draws it with
    /// `truecolor on` (screen 4 has none, and neither can be asked which it is).
    public static let gnuScreenTrueColorAdvice = "GNU screen 5 draws 24-bit colour with truecolor on (in ~/.screenrc); "
        + "with that, colors = \"truecolor\" in the config file (or IMAGE_FEED_COLORS=truecolor) draws it"

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

    // MARK: - The rules, read from the table

    /// Whether the Kitty graphics query may be sent, after the first answers: not through tmux or screen (an APC
    /// string is a window title to them: by the environment, or by XTVERSION, "tmux 3.3a"), nor to a terminal that
    /// shows APC strings as text, nor to one that did not answer at all.
    public static func sendsKittyQuery(_ environment: [String: String], after abilities: TerminalAbilities? = nil) -> Bool {
        guard !isMultiplexed(environment), between(environment) != .herdr else { return false }
        if row(Seen(environment: environment, abilities: nil, tmux: nil))?.printsAPC == true { return false }
        guard let abilities else { return true }
        let version = (abilities.version ?? "").lowercased()
        return abilities.answered && !version.hasPrefix("tmux") && !version.hasPrefix("screen")
    }

    /// Whether the terminal draws sextants itself (by XTVERSION or, inside tmux, tmux's client; VTE from 0.70 outside
    /// a multiplexer). Not through GNU screen or Zellij, which draw them from the font of the terminal outside.
    public static func drawsSextants(environment: [String: String], abilities: TerminalAbilities?, tmux: TmuxClient?) -> Bool {
        switch between(environment) {
        case .gnuScreen, .zellij, .herdr: return false
        case .tmux:
            return row(Seen(environment: [:], abilities: abilities, tmux: tmux))?.sextants == true
        case .nothing:
            // VTE by its version; the others by XTVERSION alone (their TERM also reaches terminals that draw from the font).
            let seen = Seen(environment: environment, abilities: abilities, tmux: nil)
            if seen.vte.map({ $0 >= 7000 }) == true { return true }
            return rows.contains { $0.sextants && $0.recognises(Seen(version: seen.version)) }
        }
    }

    /// Whether the terminal's font draws Block Elements' quadrants and eighths: all but the consoles'.
    public static func drawsBlockElements(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        return !(term.isEmpty || term == "dumb" || row(Seen(environment: ["TERM": term], abilities: nil, tmux: nil))?.noBlockElements == true)
    }

    /// Whether the terminal makes OSC 8 links clickable: known by its answers or environment; never through tmux or
    /// screen, which keep them from the terminal (or drop them). Zellij and herdr pass them on to the terminal they run
    /// in (Zellij by default), whose answers they keep to themselves: that terminal is known by the environment it
    /// left them (its row, or VTE's version), TERM aside where herdr set its own.
    public static func drawsHyperlinks(environment: [String: String], abilities: TerminalAbilities?) -> Bool {
        let between = between(environment)
        let seen: Seen
        switch between {
        case .tmux, .gnuScreen:
            return false
        case .zellij, .herdr:
            var outside = environment
            outside["HERDR_ENV"] = nil
            if between == .herdr { outside["TERM"] = nil }
            seen = Seen(environment: outside, abilities: nil, tmux: nil)
        case .nothing:
            if abilities?.kittyGraphics == true { return true } // kitty, Ghostty, WezTerm, Konsole
            seen = Seen(environment: environment, abilities: abilities, tmux: nil)
        }
        if let vte = seen.vte, vte >= 5000 { return true }
        return rows.contains { $0.hyperlinks && $0.recognises(seen) }
    }

    /// Zellij from 0.45 passes Sixel through to a terminal that draws it, and only then lists Sixel in its DA1 (older
    /// ones listed it whatever the terminal had): by its XTVERSION answer, "Zellij(0.45.0)".
    public static func zellijPassesSixel(_ abilities: TerminalAbilities?) -> Bool {
        guard let abilities, abilities.sixel else { return false }
        return version((abilities.version ?? "").lowercased(), of: "zellij", atLeast: 45)
    }

    /// Whether the terminal moves Sixel pixels with the rows it scrolls (xterm by XTVERSION, mlterm outside tmux and
    /// screen).
    public static func sixelFollowsScrolls(environment: [String: String], abilities: TerminalAbilities?) -> Bool {
        let seen = Seen(environment: isMultiplexed(environment) ? [:] : environment, abilities: abilities, tmux: nil)
        return row(seen)?.sixelFollowsScrolls == true
    }

    /// Terminals that draw 24-bit colour without saying so (xterm by XTVERSION, st and mlterm by TERM).
    public static func drawsDirectColour(term: String, version: String?) -> Bool {
        var seen = Seen(version: version ?? "")
        seen.term = term
        return row(seen)?.directColour == true
    }

    /// Whether the environment names a terminal with Kitty graphics (kitty, Ghostty), for when it cannot be asked or
    /// did not answer in time (`render` in a previewer).
    public static func kittyByEnvironment(_ environment: [String: String]) -> Bool {
        graphicsByEnvironment(environment) == .kitty
    }

    /// The picture protocol the environment alone names (a previewer's `render`, which asks nothing): Kitty graphics
    /// for kitty and Ghostty, iTerm2's images for iTerm2 and WezTerm; nil elsewhere.
    public static func graphicsByEnvironment(_ environment: [String: String]) -> GraphicsMode? {
        guard between(environment) == .nothing, let row = row(Seen(environment: environment, abilities: nil, tmux: nil)) else { return nil }
        if row.kittyByEnvironment { return .kitty }
        if row.inlineImages == .always { return .iterm2 }
        return nil
    }
}

extension Terminals.Seen {
    /// `VTE_VERSION` (7006 for 0.70.6), outside tmux (inside, it is the environment tmux started in).
    var vte: Int? {
        guard (environment["TMUX"] ?? "").isEmpty else { return nil }
        return environment["VTE_VERSION"].flatMap { Int($0) }
    }

    /// A terminal known only by an XTVERSION answer.
    init(version: String) {
        var abilities = TerminalAbilities()
        abilities.version = version
        self.init(environment: [:], abilities: abilities, tmux: nil)
    }
}
