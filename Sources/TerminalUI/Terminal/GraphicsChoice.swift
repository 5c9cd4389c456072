import Foundation
import TerminalImage

/// What the session draws pictures with, and why: the help overlay tells the user.
public struct GraphicsChoice: Equatable, Sendable {
    public var mode: GraphicsMode
    public var reason: String
    /// One cell in pixels (what the pictures are drawn for).
    public var cellWidth: Int
    public var cellHeight: Int
    /// How an animation plays in this mode (the terminal plays it, or the program paces its frames), and why.
    public var playback: PictureDrawer.AnimationPlayback
    public var playbackReason: String

    public init(mode: GraphicsMode, reason: String, cellWidth: Int = 10, cellHeight: Int = 20,
                playback: (PictureDrawer.AnimationPlayback, String)? = nil) {
        self.mode = mode
        self.reason = reason
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        (self.playback, playbackReason) = playback ?? Self.playback(of: mode)
    }

    /// How `mode` plays an animation where nothing more is known of the terminal.
    static func playback(of mode: GraphicsMode) -> (PictureDrawer.AnimationPlayback, String) {
        switch mode.playsAnimations {
        case .terminalFrames: (.terminalFrames, "the terminal plays the frames it is given")
        case .terminalGIF: (.terminalGIF, "the terminal plays a GIF; other animations are paced by the program")
        case .paced, .framesInPlace: (.paced, "the program draws each frame when it is due")
        }
    }

    public static let cells = GraphicsChoice(mode: .cells, reason: "coloured characters")

    /// This choice as the colours allow it: pictures in pixels need colour (NO_COLOR and colors = "none" keep
    /// photos as characters too), and placeholders name their picture by a colour of the 256-colour palette.
    public func allowing(colors: ColorMode?, environment: [String: String]) -> GraphicsChoice {
        if mode != .cells, !(environment["NO_COLOR"] ?? "").isEmpty || colors == ColorMode.none {
            return GraphicsChoice(mode: .cells, reason: "colour is off (NO_COLOR or colors = none)")
        }
        if mode == .kittyPlaceholders, let colors, [.palette16, .palette8].contains(colors) {
            return GraphicsChoice(mode: .cells, reason: "colors = \(colors) leaves too few colours to name pictures in placeholders")
        }
        return self
    }

    /// Decides from the setting (nil: auto), the environment and the terminal's answers, by the terminal's row in
    /// `Terminals`. `tmux`: what tmux said of the pane and the terminal it is attached to (nil outside tmux, or when it
    /// could not be asked). What stands between (GNU screen, a tmux with nothing to ask) and a terminal that could not
    /// be asked are decided here; then each protocol's own rule (`PictureProtocol.chosen`) is asked in the table's
    /// order, and the first that takes the terminal draws its pictures (the first refusal says why none did).
    public static func choose(setting: GraphicsMode?, environment: [String: String], abilities: TerminalAbilities?,
                              tmux: TmuxClient? = nil) -> GraphicsChoice {
        var context = GraphicsContext(environment: environment, abilities: abilities, tmux: tmux)
        var choice = chooseMode(setting: setting, &context)
        if let animation = PictureProtocols.of(choice.mode).animation(in: context) {
            (choice.playback, choice.playbackReason) = animation
        }
        return choice
    }

    private static func chooseMode(setting: GraphicsMode?, _ context: inout GraphicsContext) -> GraphicsChoice {
        if let setting {
            if setting == .cells { return context.choice(.cells, "graphics = cells in the settings") }
            return PictureProtocols.of(setting).chosen(bySetting: context)
                ?? context.choice(setting, "graphics = \(setting.rawValue) in the settings" + context.unsizedNote)
        }
        switch context.between {
        case .gnuScreen:
            return context.choice(.cells, "inside GNU screen, which keeps pictures from the terminal")
        case .tmux:
            guard context.tmux != nil else { return context.choice(.cells, "inside tmux or screen, which keep pictures from the terminal") }
            guard !context.tmuxTerminal.isEmpty else { return context.choice(.cells, "inside tmux, with no terminal attached to ask") }
        case .herdr:
            return context.choice(.cells, "inside herdr, which draws its panes into the terminal as text (its Kitty graphics are "
                                  + "experimental and off by default)")
        case .zellij:
            break
        case .nothing:
            // No answer in time (a loaded machine, a slow link): what the environment says of the terminal.
            if context.abilities?.answered != true, let mode = Terminals.graphicsByEnvironment(context.environment) {
                return context.choice(mode, "the terminal did not answer in time; its environment says it is \(context.row?.name ?? "one") ("
                                      + (mode == .kitty ? "Kitty graphics" : "iTerm2's images") + ")")
            }
            guard context.abilities != nil else { return context.choice(.cells, "the terminal could not be asked") }
        }
        var refusal: String?
        for picture in PictureProtocols.table {
            switch picture.chosen(&context) {
            case let .chosen(reason)?: return context.choice(picture.mode, reason)
            case let .refused(reason)?: refusal = refusal ?? reason
            case nil: continue
            }
        }
        if let refusal { return context.choice(.cells, refusal) }
        if context.abilities?.answered != true { return context.choice(.cells, "the terminal did not answer") }
        return context.choice(.cells, "the terminal\(context.name) shows no pictures itself")
    }
}

/// What a picture protocol's rule sees of the terminal when the session decides what draws its pictures: the
/// environment, the answers, tmux's word, the terminal's row, what stands between, and the cell's size (which a
/// rule may supply: the Sixel cell of a terminal that does not say its own).
struct GraphicsContext {
    let environment: [String: String]
    let abilities: TerminalAbilities?
    let tmux: TmuxClient?
    let row: Terminals.Row?
    let between: Terminals.Between
    var cellWidth: Int?
    var cellHeight: Int?

    init(environment: [String: String], abilities: TerminalAbilities?, tmux: TmuxClient?) {
        self.environment = environment
        self.abilities = abilities
        self.tmux = tmux
        row = Terminals.row(Terminals.Seen(environment: environment, abilities: abilities, tmux: tmux))
        between = Terminals.between(environment)
        // Inside tmux, its client's cell (the pane's pixels may be tmux's default of 16x32).
        cellWidth = tmux?.cellWidth ?? abilities?.cellWidth.flatMap { GraphicsMode.cellWidths.contains($0) ? $0 : nil }
        cellHeight = tmux?.cellHeight ?? abilities?.cellHeight.flatMap { GraphicsMode.cellHeights.contains($0) ? $0 : nil }
    }

    /// The cell's size is known (said by the terminal or tmux, or supplied by a rule from the terminal's row).
    var sized: Bool { cellWidth != nil && cellHeight != nil }
    var unsizedNote: String { sized ? "" : " (cell size unknown: 10x20 pixels assumed)" }
    /// Inside tmux or GNU screen, which keep pictures from the terminal but through the passthrough.
    var multiplexed: Bool { between == .tmux || between == .gnuScreen }
    /// The terminal's name and version as it answered, " (kitty(0.35.2))", or nothing.
    var name: String { abilities?.version.map { " (\($0))" } ?? "" }
    /// Inside tmux: the terminal its client sits in, by its answer or else its TERM.
    var tmuxTerminal: String { tmux.map { $0.terminalType.isEmpty ? $0.terminalName : $0.terminalType } ?? "" }

    func choice(_ mode: GraphicsMode, _ reason: String) -> GraphicsChoice {
        GraphicsChoice(mode: mode, reason: reason, cellWidth: cellWidth ?? 10, cellHeight: cellHeight ?? 20)
    }
}

/// A picture protocol's word on the terminal: it draws it (why), or it would but cannot (why: the reason characters
/// are used, unless a later protocol draws it).
enum GraphicsVerdict {
    case chosen(String)
    case refused(String)
}
