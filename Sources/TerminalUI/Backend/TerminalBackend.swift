/// Where frames go and input comes from: the real terminal through ncurses, or a test double.
public protocol TerminalBackend: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// Copies the buffer to the terminal (only what changed is sent).
    func draw(_ buffer: CellBuffer)
    /// The next input, waiting at most `timeout` milliseconds (-1: until there is some, or a wake-up).
    func readInput(timeout: Int) -> InputEvent?
    /// Makes a waiting `readInput` return at once; safe to call from any thread.
    func wake()
    /// Makes the next `draw` paint every cell, whatever the terminal is believed to show (Ctrl-L).
    func invalidate()
    /// Gives the terminal back as it was.
    func restore()
}
