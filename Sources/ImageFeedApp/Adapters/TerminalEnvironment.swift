import Foundation
import TerminalImage
import TerminalUI

/// What the environment says about the terminal, for output written without curses.
public enum TerminalEnvironment {
    /// Whether the locale is UTF-8 (`LC_ALL`, then `LC_CTYPE`, then `LANG`, as setlocale reads them).
    public static func isUTF8(_ environment: [String: String]) -> Bool {
        let locale = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// A cell's size in pixels, from the terminal on standard output (when it says: kitty, xterm, foot do).
    public static func cellSize() -> (Int, Int)? {
        TerminalProbe.cellSize(of: STDOUT_FILENO).map { ($0.width, $0.height) }
    }

    /// The size of the terminal on standard output, if it is one.
    public static func size() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
