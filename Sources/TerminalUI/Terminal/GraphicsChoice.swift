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

    /// For Kitty graphics, whether the terminal plays an animation's frames: what it answered when asked (kitty: OK;
    /// Zellij: ENOTSUPPORTED; xterm.js: EINVAL; Ghostty, Konsole: nothing), else what its row says; where they stand,
    /// the program paces them.
    static func kittyPlayback(abilities: TerminalAbilities?, row: Terminals.Row?,
                              between: Terminals.Between) -> (PictureDrawer.AnimationPlayback, String) {
        let paced = PictureDrawer.AnimationPlayback.framesInPlace
        switch abilities?.kittyFrames {
        case .played?: return (.terminalFrames, "the terminal played a test frame: it plays the frames it is given")
        case let .refused(error)?: return (paced, "the terminal refused a test frame (\(error)): the program paces the frames")
        case .unanswered?: return (paced, "the terminal did not answer a test frame: the program paces the frames")
        case nil: break
        }
        if between == .zellij { return (paced, "Zellij refuses animation frames: the program paces them") }
        if row?.kittyFramesStand == true { return (paced, "\(row!.name) plays no animation frames: the program paces them") }
        return (.terminalFrames, "the terminal plays the frames it is given (\(row.map { "\($0.name)" } ?? "not asked"))")
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
    /// could not be asked).
    public static func choose(setting: GraphicsMode?, environment: [String: String], abilities: TerminalAbilities?,
                              tmux: TmuxClient? = nil) -> GraphicsChoice {
        var choice = chooseMode(setting: setting, environment: environment, abilities: abilities, tmux: tmux)
        if [.kitty, .kittyPlaceholders].contains(choice.mode) {
            let row = Terminals.row(Terminals.Seen(environment: environment, abilities: abilities, tmux: tmux))
            (choice.playback, choice.playbackReason) = kittyPlayback(abilities: abilities, row: row, between: Terminals.between(environment))
        }
        return choice
    }

    private static func chooseMode(setting: GraphicsMode?, environment: [String: String], abilities: TerminalAbilities?,
                                   tmux: TmuxClient?) -> GraphicsChoice {
        let seen = Terminals.Seen(environment: environment, abilities: abilities, tmux: tmux)
        let row = Terminals.row(seen)
        // Inside tmux, its client's cell (the pane's pixels may be tmux's default of 16x32).
        var width = tmux?.cellWidth ?? abilities?.cellWidth.flatMap { GraphicsMode.cellWidths.contains($0) ? $0 : nil }
        var height = tmux?.cellHeight ?? abilities?.cellHeight.flatMap { GraphicsMode.cellHeights.contains($0) ? $0 : nil }
        var sized = width != nil && height != nil
        func choice(_ mode: GraphicsMode, _ reason: String) -> GraphicsChoice {
            GraphicsChoice(mode: mode, reason: reason, cellWidth: width ?? 10, cellHeight: height ?? 20)
        }
        let unsized = " (cell size unknown: 10x20 pixels assumed)"
        let between = Terminals.between(environment)
        let multiplexed = between == .tmux || between == .gnuScreen
        if let setting {
            switch setting {
            case .cells: return choice(.cells, "graphics = cells in the settings")
            case .kitty where multiplexed, .kittyPlaceholders where multiplexed:
                // Inside tmux only placeholders can work (direct placements would land wherever the terminal's
                // cursor is, over other panes); they need the passthrough.
                if let tmux, !tmux.passthrough {
                    return choice(.cells, "graphics = \(setting.rawValue) in the settings, but tmux's allow-passthrough is off")
                }
                return choice(.kittyPlaceholders, "graphics = \(setting.rawValue) in the settings, inside tmux: Unicode placeholders"
                              + (sized ? "" : unsized))
            default:
                return choice(setting, "graphics = \(setting.rawValue) in the settings" + (sized ? "" : unsized))
            }
        }
        switch between {
        case .gnuScreen:
            return choice(.cells, "inside GNU screen, which keeps pictures from the terminal")
        case .tmux:
            guard let tmux else { return choice(.cells, "inside tmux or screen, which keep pictures from the terminal") }
            let name = tmux.terminalType.isEmpty ? tmux.terminalName : tmux.terminalType
            guard !name.isEmpty else {
                return choice(.cells, "inside tmux, with no terminal attached to ask")
            }
            if !tmux.drawsPlaceholders, tmux.drawsSixel, sized {
                return choice(.sixel, "inside tmux built with Sixel, attached to a terminal (\(name)) that draws it")
            }
            guard tmux.drawsPlaceholders else {
                return choice(.cells, "inside tmux, attached to a terminal (\(name)) that does not draw Kitty's Unicode placeholders")
            }
            guard tmux.passthrough else {
                return choice(.cells, "inside tmux, whose allow-passthrough is off: `set -g allow-passthrough on` in tmux.conf lets \(name) draw the photos")
            }
            let term = environment["TERM"] ?? ""
            guard term.contains("256color") || term.hasSuffix("-direct") else {
                return choice(.cells, "inside tmux with TERM=\(term), which has too few colours to name pictures (set tmux's default-terminal to tmux-256color)")
            }
            return choice(.kittyPlaceholders, "inside tmux with allow-passthrough on, the terminal (\(name)) draws Kitty's Unicode placeholders"
                          + (sized ? "" : unsized))
        case .zellij:
            // Zellij is the terminal the program draws in: from 0.45 it answers the Kitty query and draws the
            // pictures into the real terminal itself; its DA1 is never read as Sixel.
            if abilities?.kittyGraphics == true {
                return choice(.kitty, "inside Zellij, which answered the Kitty graphics query (it draws them itself from 0.45)")
            }
            return choice(.cells, "inside Zellij, which draws no Kitty graphics before 0.45 (and its Sixel answer is not trusted)")
        case .nothing:
            break
        }
        // No answer in time (a loaded machine, a slow link): what the environment says of the terminal.
        if abilities?.answered != true, let mode = Terminals.graphicsByEnvironment(environment) {
            return choice(mode, "the terminal did not answer in time; its environment says it is \(row?.name ?? "one") ("
                          + (mode == .kitty ? "Kitty graphics" : "iTerm2's images") + ")")
        }
        guard let abilities else { return choice(.cells, "the terminal could not be asked") }
        let name = abilities.version.map { " (\($0))" } ?? ""
        if abilities.kittyGraphics, row?.kittyAnswer != .ignored {
            return choice(.kitty, "the terminal\(name) answered the Kitty graphics query")
        }
        switch row?.inlineImages ?? .no {
        case .always:
            return choice(.iterm2, "the terminal is \(row!.name): its own inline images" + (sized ? "" : unsized))
        case .whenSixelReported where abilities.sixel:
            return choice(.iterm2, "the terminal is \(row!.name), with its images on: iTerm2's inline images" + (sized ? "" : unsized))
        default:
            break
        }
        if abilities.sixel, row?.sixelUntrusted != true {
            if !sized, let cell = row?.sixelCell {
                (width, height, sized) = (cell.width, cell.height, true)
                return choice(.sixel, "the terminal (\(row!.name)) reports Sixel, drawn for its \(cell.width)x\(cell.height) Sixel cell")
            }
            guard sized else { return choice(.cells, "the terminal\(name) has Sixel but did not say its cell size") }
            return choice(.sixel, "the terminal\(name) reports Sixel")
        }
        if !abilities.answered { return choice(.cells, "the terminal did not answer") }
        return choice(.cells, "the terminal\(name) shows no pictures itself")
    }
}
