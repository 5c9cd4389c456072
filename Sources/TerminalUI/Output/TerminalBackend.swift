import ImageFeedCore
/// Where frames go and input comes from: the real terminal through ncurses, or a test double.
public protocol TerminalBackend: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Copies the buffer to the terminal (only what changed is sent).
    func draw(_ buffer: CellBuffer)
    /// The next input, waiting at most `timeout` milliseconds (-1: until there is some, or a wake-up).
    func readInput(timeout: Int) -> InputEvent?
    /// What makes a waiting `readInput` return at once; handed to other threads (picture workers, effects).
    var waker: Waker { get }
    /// Puts text on the clipboard of the terminal the user sits at (`ClipboardRoute`), between frames, and says how
    /// far it got.
    func copyToClipboard(_ text: String) -> CopyOutcome
    /// While the app runs: SIGTERM, SIGHUP and SIGINT become a quit the loop sees (`quitSignal`), and a crash
    /// gives the terminal back first. `releaseSignals` puts the defaults back.
    func trapSignals()
    func releaseSignals()
    /// The signal that asked to quit, if one did.
    var quitSignal: Int32? { get }
    /// Makes the next `draw` paint every cell, whatever the terminal is believed to show (Ctrl-L).
    func invalidate()
    /// Gives the terminal back as it was.
    func restore()
    /// Ctrl-Z (or a SIGTSTP from outside): gives the terminal back as the shell had it and stops the program; when
    /// it continues (`fg`), takes the terminal again and makes the next `draw` paint everything, pictures included.
    /// False when it could not stop (no shell with job control to bring it back): it went on at once.
    @discardableResult
    func suspend() -> Bool
    /// Whether the terminal has taken the last frame (a new frame drawn before would only queue behind it:
    /// the loop draws the latest state once it has).
    var readyForFrame: Bool { get }
    /// Writes everything waiting, waiting for the terminal (benchmarks and tests that read what a frame sent).
    func flushOutput()
    /// Writes what waits before pictures (curses' frames), waiting for the terminal.
    func flushText()
    /// What the link to the terminal was found to be, where pictures are sized to it.
    var linkSummary: String? { get }
    /// The bytes a second the link was found to carry, where it is slow enough to matter (nil: fast).
    var linkRate: Double? { get }
    /// Whether bytes (text or pictures) still wait to be written to the terminal.
    var outputWaiting: Bool { get }
    /// Every byte written to the terminal so far (an animation over a slow link is paced by what its frames cost).
    var bytesWritten: Int { get }
    /// Whether the terminal's window may be seen (false once it reported it hidden: mode 2033).
    var terminalVisible: Bool { get }
    /// The colour scheme the terminal last reported (mode 2031: true light, false dark); nil while it has said none.
    var reportedLightScheme: Bool? { get }
    /// Whether frames are to place pictures in characters rather than write their cells
    /// (`CellBuffer.placesCellPictures`): the backend sends their rows itself.
    var placesCellPictures: Bool { get }
}

/// Wakes a waiting `readInput` from any thread: the one piece of a backend other threads may hold.
public struct Waker: Sendable {
    private let action: @Sendable () -> Void

    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    public func wake() { action() }
}

extension TerminalBackend {
    public var terminalVisible: Bool { true }
    public var reportedLightScheme: Bool? { nil }
    /// A backend whose `readInput` never waits needs no waking.
    public var waker: Waker { Waker {} }
    public func copyToClipboard(_ text: String) -> CopyOutcome {
        CopyOutcome(said: "There is no terminal to copy to.", reached: false)
    }
    public func trapSignals() {}
    public func releaseSignals() {}
    public func suspend() -> Bool { true }
    public var quitSignal: Int32? { nil }
    public var readyForFrame: Bool { true }
    public func flushOutput() {}
    public func flushText() {}
    public var linkSummary: String? { nil }
    public var linkRate: Double? { nil }
    public var bytesWritten: Int { 0 }
    public var outputWaiting: Bool { false }
    public var placesCellPictures: Bool { false }
}
