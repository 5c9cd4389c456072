/// What became of a copy (`y`): where the text went, said as it is, and when it may not have reached the user's
/// clipboard, why and the one-line fix. The terminal half decides it (`ClipboardRoute`); the view models only say it.
public struct CopyOutcome: Equatable, Sendable {
    /// What was done, in a line: "Copied: tmux keeps it (prefix ]) and passes it to your terminal's clipboard".
    public var said: String
    /// Whether the text went as far as the terminal's clipboard could take it. False: it stopped short (tmux keeps
    /// it, or nothing answered), and the user is shown the whole text to select and the fix.
    public var reached: Bool
    /// The one line that lets copies through ("tmux set -s set-clipboard on"), when there is one.
    public var fix: String?

    public init(said: String, reached: Bool, fix: String? = nil) {
        self.said = said
        self.reached = reached
        self.fix = fix
    }
}
