import TerminalImage
import TerminalUI

/// What `image-feed render` was asked for, as plain values.
///
/// A file manager runs `render` once per file as the user moves (lf, ranger, yazi, fzf), so the whole process is what
/// it waits for. The command-line library reads a command's options by reflection, which costs a previewer more than
/// the picture does; `quick(_:)` reads the common, well-formed case directly and declines everything else (help, a
/// mistake, a form it does not know), which then goes through the library as every other command does: so usage, help
/// and every error message have one source.
public struct RenderArguments: Equatable, Sendable {
    public var source: String
    public var cols: Int?
    public var rows: Int?
    public var colors: String?
    public var graphics: String?
    public var cellSize: String?
    public var blitter: String?
    public var animate: String?
    public var loops: Int?
    public var duration: Double?

    public init(source: String, cols: Int? = nil, rows: Int? = nil, colors: String? = nil, graphics: String? = nil,
                cellSize: String? = nil, blitter: String? = nil, animate: String? = nil, loops: Int? = nil, duration: Double? = nil) {
        self.source = source
        self.cols = cols
        self.rows = rows
        self.colors = colors
        self.graphics = graphics
        self.cellSize = cellSize
        self.blitter = blitter
        self.animate = animate
        self.loops = loops
        self.duration = duration
    }

    /// The long names of `render`'s options, each taking one value.
    public static let optionNames = ["cols", "rows", "colors", "graphics", "cell-size", "blitter", "animate", "loops", "duration"]

    /// The arguments after `render`, when they are one source and known options each given once with a valid value
    /// (`--cols 40` or `--cols=40`); nil for anything else, which the command-line library then reads and reports.
    public static func quick(_ arguments: [String]) -> RenderArguments? {
        var source: String?
        // By the option's place in `optionNames` (an array: a dictionary's first use costs a previewer a lookup of
        // String's conformances by reflection, a third of a millisecond).
        var values = [String?](repeating: nil, count: optionNames.count)
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            guard word.hasPrefix("-") else {
                guard source == nil, !word.isEmpty else { return nil }
                source = word
                continue
            }
            guard word.hasPrefix("--") else { return nil }
            var name = String(word.dropFirst(2))
            let given: String
            if let equals = name.firstIndex(of: "=") {
                given = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                guard index < arguments.count else { return nil }
                given = arguments[index]
                index += 1
                // A value that looks like an option is the library's to judge.
                guard !given.hasPrefix("-") else { return nil }
            }
            guard let slot = optionNames.firstIndex(of: name), values[slot] == nil, !given.isEmpty else { return nil }
            values[slot] = given
        }
        guard let source else { return nil }
        func value(_ name: String) -> String? { optionNames.firstIndex(of: name).flatMap { values[$0] } }
        var parsed = RenderArguments(source: source, colors: value("colors"), graphics: value("graphics"),
                                     cellSize: value("cell-size"), blitter: value("blitter"), animate: value("animate"))
        // A number the library would not read is its to report.
        func number(_ name: String) -> Int?? {
            guard let text = value(name) else { return .some(nil) }
            return Int(text).map { .some($0) }
        }
        guard let cols = number("cols"), let rows = number("rows"), let loops = number("loops") else { return nil }
        (parsed.cols, parsed.rows, parsed.loops) = (cols, rows, loops)
        if let text = value("duration") {
            guard let seconds = Double(text) else { return nil }
            parsed.duration = seconds
        }
        guard parsed.problem == nil else { return nil }
        return parsed
    }

    /// What is wrong with the values, in the words the command prints; nil when nothing is.
    public var problem: String? {
        if let animate, !["on", "off", "safe"].contains(animate.lowercased()) { return "--animate is on, off or safe." }
        if let loops, !(0...1_000_000).contains(loops) { return "--loops must be 0 to 1000000." }
        if let duration, !(duration > 0 && duration <= 86_400) { return "--duration must be more than 0 and at most 86400 seconds." }
        if let graphics, graphics.lowercased() != "auto",
           !GraphicsMode.renderModes.contains(where: { $0.rawValue == graphics.lowercased() }) {
            return "--graphics is \(GraphicsMode.spoken(GraphicsMode.renderModes))."
        }
        if let blitter, BlitterKind(rawValue: blitter.lowercased()) == nil { return "--blitter is half, quadrant, sextant or blocks." }
        if let cellSize, Self.cellSize(cellSize) == nil { return "--cell-size is WxH in pixels, for example 9x18." }
        if let cols, !(1...2_000).contains(cols) { return "--cols must be 1 to 2000." }
        if let rows, !(1...2_000).contains(rows) { return "--rows must be 1 to 2000." }
        if let colors, ColorMode(rawValue: colors) == nil { return "--colors is truecolor, 256, 16, 8 or none." }
        return nil
    }

    /// What `IMAGE_FEED_ANIMATIONS` asks of `render` where `--animate` is not given: "off" (the first frame), "safe" (not
    /// an animation that flashes too often), or nil (plays where a person watches: `on` and `hover` alike).
    public static func animate(environment: [String: String]) -> String? {
        switch environment["IMAGE_FEED_ANIMATIONS"].flatMap({ AnimationSetting(rawValue: $0.lowercased()) }) {
        case .off?: "off"
        case .safe?: "safe"
        default: nil
        }
    }

    /// A cell's size in pixels from `WxH`, within the sizes a terminal's cell can have.
    public static func cellSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, GraphicsMode.cellWidths.contains(parts[0]), GraphicsMode.cellHeights.contains(parts[1]) else { return nil }
        return (parts[0], parts[1])
    }

    /// How the picture is drawn: the protocol and colours asked for (`--graphics`, `--colors`), else as the session
    /// and doctor decide (`TerminalProfile.decide`, with no answers: a previewer's output is often not the terminal's
    /// input). The pictures are what the environment names (Kitty graphics in kitty and Ghostty, iTerm2's images in
    /// iTerm2 and WezTerm; characters elsewhere, and inside tmux or GNU screen); the colours are the session's (256
    /// inside GNU screen, whatever an inherited COLORTERM says).
    /// An animation in Kitty graphics is played by the terminal, or paced here where the terminal is one that plays no
    /// frames (`playback`, as the session decides it when it cannot ask).
    public func decide(environment: [String: String]) -> (graphics: GraphicsMode, colors: ColorMode, playback: PictureDrawer.AnimationPlayback) {
        let graphics = self.graphics.map { $0.lowercased() }.flatMap(GraphicsMode.init(rawValue:))
            ?? Terminals.graphicsByEnvironment(environment) ?? .cells
        let asked = colors.flatMap(ColorMode.init(rawValue:))
        let profile = TerminalProfile.decide(environment: environment, abilities: nil, tmux: nil,
                                             settings: TerminalProfile.Settings(colors: asked, graphics: graphics),
                                             unicode: TerminalEnvironment.isUTF8(environment))
        return (graphics, asked ?? profile.colors.value, profile.graphics.playback)
    }
}
