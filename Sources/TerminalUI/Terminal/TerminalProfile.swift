import Foundation
import TerminalImage

/// What the terminal is, and what the program will do with it, each with its reason: decided once (`decide`), from
/// the terminal's answers, the environment, tmux and the settings. The session opens the screen from it and doctor
/// prints it, so the two cannot disagree.
public struct TerminalProfile: Sendable {
    /// The settings that bear on the terminal (nil: decided from the terminal).
    public struct Settings: Sendable {
        public var colors: ColorMode?
        public var graphics: GraphicsMode?
        /// The characters photos are drawn with, and where that was set ("the config file"); nil: not set.
        public var blitter: (kind: BlitterKind, origin: String)?
        public var link: LinkSetting

        public init(colors: ColorMode? = nil, graphics: GraphicsMode? = nil, blitter: (kind: BlitterKind, origin: String)? = nil,
                    link: LinkSetting = .auto) {
            self.colors = colors
            self.graphics = graphics
            self.blitter = blitter
            self.link = link
        }
    }

    /// A decision and why.
    public struct Decision<Value: Sendable>: Sendable {
        public var value: Value
        public var reason: String
    }

    public var environment: [String: String]
    public var abilities: TerminalAbilities?
    public var tmux: TmuxClient?
    /// The terminal the table knows it as ("kitty", "WezTerm"; inside tmux, its client's), if any.
    public var terminal: String?
    /// tmux, GNU screen or Zellij; and mosh, when the program runs under it (its version; empty when unread).
    public var between: Terminals.Between
    public var mosh: String?
    /// The terminfo entry and the colours drawn with.
    public var terminfo: Terminfo.Plan
    public var colors: Decision<ColorMode>
    /// The terminal has 24-bit colour the plan does not draw, and nothing set that: the setting that would.
    public var colorsAdvice: String?
    public var graphics: GraphicsChoice
    /// The characters photos are drawn with when they are not pixels.
    public var blitter: Decision<BlitterKind>
    /// OSC 8 links are sent.
    public var hyperlinks: Decision<Bool>
    /// curses may scroll the terminal while Sixel pictures show (the terminal moves their pixels with the rows).
    public var sixelScrolls: Bool
    /// The mouse is reported (not through GNU screen, which then holds a lone Esc until the next key).
    public var mouse: Decision<Bool>
    /// The terminal said its background is light (the light theme, unless one is set).
    public var lightBackground: Bool
    /// Each frame and the pictures with it are written as one synchronized update (DEC mode 2026), which the terminal
    /// shows whole: where it said it has the mode, and (inside tmux) tmux passes it to the client's terminal.
    public var synchronizedFrames: Decision<Bool>
    /// The terminal reports changes of its colour scheme (mode 2031): a theme not set follows them.
    public var themeChanges: Decision<Bool>
    public var link: LinkSetting
    /// The locale is UTF-8.
    public var unicode: Bool

    /// The one place the terminal's facts and the settings become decisions. `isTerminal`: standard input and output
    /// are a terminal that could be asked (doctor also runs under a pipe).
    public static func decide(environment: [String: String], abilities: TerminalAbilities?, tmux: TmuxClient?,
                              settings: Settings, unicode: Bool, isTerminal: Bool = true) -> TerminalProfile {
        let seen = Terminals.Seen(environment: environment, abilities: abilities, tmux: tmux)
        let between = Terminals.between(environment)
        var graphics = GraphicsChoice.choose(setting: settings.graphics, environment: environment, abilities: abilities, tmux: tmux)
            .allowing(colors: settings.colors, environment: environment)
        if !isTerminal, settings.graphics == nil {
            graphics = GraphicsChoice(mode: .cells, reason: "the terminal could not be asked")
        }
        let plan = Terminfo.plan(environment: environment, abilities: abilities, colors: settings.colors, graphics: graphics.mode)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let colorReason: String
        if noColor {
            colorReason = "NO_COLOR is set"
        } else if let origin = settings.colors.map({ "colors = \($0.rawValue) in the settings" }) {
            colorReason = "\(origin), through terminfo entry \(plan.entry ?? "none")"
        } else if between == .gnuScreen {
            colorReason = "inside GNU screen, which draws 256 colours unless it is screen 5 with truecolor on, and cannot be asked which "
                + "(terminfo entry \(plan.entry ?? "none"))"
        } else {
            colorReason = "terminfo entry \(plan.entry ?? "none")"
        }
        // 24-bit colour the terminal has and the plan leaves out: by the same words the plan listens to (so not through
        // GNU screen, whose inherited COLORTERM says nothing of screen).
        var advice: String?
        let term = environment["TERM"] ?? ""
        if between == .gnuScreen, plan.entry != nil, settings.colors == nil, !noColor,
           Terminals.heardTrueColor(term: term, environment: environment, abilities: abilities) {
            // The terminal outside has 24-bit colour; screen passes it on only as screen 5 with truecolor on.
            advice = Terminals.gnuScreenTrueColorAdvice
        } else if plan.entry != nil, plan.colorMode != .truecolor, settings.colors == nil, graphics.mode != .kittyPlaceholders, !noColor,
           Terminals.saysTrueColor(term: term, environment: environment, abilities: abilities) {
            advice = !plan.termKnown ? "install TERM's terminfo entry, as above"
                : Terminfo.knowsEntry("xterm-direct")
                ? "colors = \"truecolor\" in the config file (or IMAGE_FEED_COLORS=truecolor) draws it through xterm-direct"
                : "apt install ncurses-term (it has the -direct entries 24-bit colour is drawn through)"
        }
        let blitter: Decision<BlitterKind>
        if let set = settings.blitter {
            blitter = Decision(value: set.kind, reason: "set by \(set.origin)")
        } else if unicode, Terminals.drawsSextants(environment: environment, abilities: abilities, tmux: tmux) {
            blitter = Decision(value: .sextant, reason: "the terminal draws sextants itself; blitter = \"half\" in the config file changes it")
        } else if unicode, Terminals.drawsBlockElements(environment: environment) {
            blitter = Decision(value: .blocks,
                               reason: "quadrants and eighths, which every terminal font has; blitter = \"half\" in the config file changes it")
        } else {
            blitter = Decision(value: .half, reason: unicode ? "the terminal's font may lack Block Elements" : "the locale is not UTF-8")
        }
        let links = Terminals.drawsHyperlinks(environment: environment, abilities: abilities)
        let linksReason = links && [.zellij, .herdr].contains(between)
            ? "\(between.rawValue) passes them to the terminal outside, which makes them clickable"
            : links ? "the terminal makes them clickable"
            : between != .nothing ? "\(between.rawValue) keeps them from the terminal" : "the terminal is not known to make them clickable"
        let mouse = between != .gnuScreen
        let synchronized: Decision<Bool>
        if between == .gnuScreen {
            synchronized = Decision(value: false, reason: "GNU screen has no synchronized output")
        } else if abilities?.answered != true {
            synchronized = Decision(value: false, reason: "the terminal could not be asked")
        } else if abilities?.hasSynchronizedOutput != true {
            synchronized = Decision(value: false, reason: "the terminal did not say it has synchronized output (DECRQM 2026)")
        } else if between == .tmux, tmux?.synchronizes != true {
            synchronized = Decision(value: false, reason: "tmux answered for synchronized output, but does not pass it to its client's "
                                    + "terminal (no sync among the client's features)")
        } else {
            synchronized = Decision(value: true, reason: between == .tmux ? "tmux and its client's terminal have synchronized output"
                                    : "the terminal answered DECRQM 2026: each frame is shown whole")
        }
        let themeChanges: Decision<Bool>
        if between == .gnuScreen {
            themeChanges = Decision(value: false, reason: "GNU screen reports no colour-scheme changes")
        } else if abilities?.reportsThemeChanges == true {
            themeChanges = Decision(value: true, reason: "the terminal reports changes of its colour scheme (mode 2031)")
        } else {
            themeChanges = Decision(value: false, reason: "the terminal did not say it reports changes of its colour scheme (DECRQM 2031)")
        }
        return TerminalProfile(
            environment: environment, abilities: abilities, tmux: tmux,
            terminal: Terminals.row(seen)?.name, between: between, mosh: abilities?.mosh,
            terminfo: plan, colors: Decision(value: plan.colorMode, reason: colorReason), colorsAdvice: advice,
            graphics: graphics, blitter: blitter, hyperlinks: Decision(value: links, reason: linksReason),
            sixelScrolls: Terminals.sixelFollowsScrolls(environment: environment, abilities: abilities),
            mouse: Decision(value: mouse, reason: mouse ? "reported" : "off inside GNU screen (it holds a lone Esc while the mouse is reported)"),
            lightBackground: abilities?.hasLightBackground == true, synchronizedFrames: synchronized, themeChanges: themeChanges,
            link: settings.link, unicode: unicode)
    }

    /// The lines that say what was decided (the session's log, doctor's report).
    public var summary: [String] {
        var lines = ["pictures: \(graphics.mode.rawValue) (\(graphics.reason)), cell \(graphics.cellWidth)x\(graphics.cellHeight)",
                     "animations: \(graphics.playbackReason)",
                     "colours: \(colors.value.rawValue) (\(colors.reason))",
                     "photos as characters: \(blitter.value.rawValue) (\(blitter.reason))",
                     "OSC 8 links: \(hyperlinks.value ? "on" : "off") (\(hyperlinks.reason))",
                     "mouse: \(mouse.reason)",
                     "synchronized frames: \(synchronizedFrames.value ? "on" : "off") (\(synchronizedFrames.reason))",
                     "theme changes: \(themeChanges.value ? "reported" : "not reported") (\(themeChanges.reason))"]
        if let terminal { lines.insert("terminal: \(terminal)", at: 0) }
        if between != .nothing { lines.append("between: \(between.rawValue)") }
        if let mosh { lines.append("through mosh \(mosh)") }
        return lines
    }
}
