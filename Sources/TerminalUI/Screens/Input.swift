/// A key the user pressed, as the screens understand it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace
    /// Ctrl-C.
    case interrupt
    /// Ctrl-E and Ctrl-Y: move the list by one line, as in vi and less.
    case lineDown, lineUp
    /// Ctrl-L: paint the whole screen again.
    case redraw
    /// Ctrl-Z: give the terminal back to the shell and stop, until `fg`.
    case suspend
    case insert, delete
    /// F1 … F20.
    case function(Int)
    /// Ctrl and a letter the app gives a meaning to in text fields (Ctrl-A, Ctrl-U, Ctrl-W).
    case control(Character)
}

public struct MouseEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case press
        case wheelUp
        case wheelDown
    }

    public var x: Int
    public var y: Int
    public var kind: Kind

    public init(x: Int, y: Int, kind: Kind) {
        self.x = x
        self.y = y
        self.kind = kind
    }
}

/// Everything the terminal tells the app.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize
}
