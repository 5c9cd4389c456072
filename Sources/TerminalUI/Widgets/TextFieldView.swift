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
