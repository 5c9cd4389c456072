import ImageFeedCore
import TerminalImage

/// A one-line text field's text with its cursor (a bar before the character it stands at), scrolled so the
/// cursor stays in view; a selected text shows reversed, as text that typing replaces.
struct TextFieldView {
    let theme: Theme

    /// What a key does in a text field: typing, the cursor keys, and readline's Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-W.
    static func edit(for key: Key) -> TextEdit? {
        switch key {
        case let .character(character): .insert(String(character))
        case .backspace: .deleteBackward
        case .delete: .deleteForward
        case .left: .left
        case .right: .right
        case .home, .control("a"): .home
        case .end, .lineDown: .end // Ctrl-E
        case .control("u"): .deleteToStart
        case .control("w"): .deleteWordBackward
        default: nil
        }
    }

    /// A labelled field on one line at `x`: the label, the field's box (`fieldWidth` gets the column it starts
    /// at), and in it the text with its cursor while it has the keyboard, or, empty and idle, a dimmed hint.
    func drawLabelled(_ label: String, text: String, cursor: Int?, selected: Bool, hint: String, x: Int, y: Int,
                      fieldWidth: (Int) -> Int, into buffer: inout CellBuffer) {
        buffer.write(label, x: x, y: y, style: theme.title)
        let fieldX = x + DisplayWidth.of(label)
        let width = fieldWidth(fieldX)
        var fieldStyle = theme.modal
        fieldStyle.underline = !theme.hasColor
        buffer.fill(Rect(x: fieldX, y: y, width: width, height: 1), with: Cell(" ", style: fieldStyle))
        if text.isEmpty, cursor == nil {
            var dimmed = fieldStyle
            dimmed.dim = true
            buffer.write(hint, x: fieldX + 1, y: y, style: dimmed, maxWidth: width - 1)
        } else {
            draw(text, cursor: cursor, selected: selected, x: fieldX + 1, y: y, width: width - 1, style: fieldStyle, into: &buffer)
        }
    }

    func draw(_ text: String, cursor: Int?, selected: Bool, x: Int, y: Int, width: Int, style: CellStyle,
              into buffer: inout CellBuffer) {
        let characters = Array(UntrustedText.sanitize(text))
        guard width > 1 else { return }
        let caret = cursor.map { max(0, min($0, characters.count)) }
        // The part shown: everything up to the cursor that fits, then what follows.
        var start = 0
        if let caret {
            while start < caret, DisplayWidth.of(String(characters[start..<caret])) > width - 2 { start += 1 }
        }
        var textStyle = style
        if selected { textStyle.reverse = true }
        var column = x
        let limit = x + width
        for index in start...characters.count {
            if index == caret {
                // The cursor: a thin bar drawn in the cell before the character it stands at.
                if column >= limit { break }
                column += buffer.write(theme.unicode ? "▏" : "_", x: column, y: y, style: style)
            }
            guard index < characters.count else { break }
            let character = String(characters[index])
            let cellWidth = max(1, DisplayWidth.of(character))
            if column + cellWidth > limit { break }
            column += buffer.write(character, x: column, y: y, style: textStyle)
        }
    }
}
