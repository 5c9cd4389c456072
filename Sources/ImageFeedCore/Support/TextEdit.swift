/// An edit of a one-line text field, as the keys of readline and most terminal programs make it:
/// the arrows, Home/End (Ctrl-A/Ctrl-E), Backspace/Delete, Ctrl-U (to the start) and Ctrl-W (a word back).
public enum TextEdit: Equatable, Sendable {
    case insert(String)
    case deleteBackward
    case deleteForward
    case left
    case right
    case home
    case end
    /// Ctrl-U: everything before the cursor.
    case deleteToStart
    /// Ctrl-W: the word before the cursor (and the spaces after it).
    case deleteWordBackward

    /// Applies the edit to `text` with the cursor `cursor` characters in. `selected`: the whole text is
    /// selected (an offered value), so typing replaces it and Backspace clears it; a move keeps it.
    /// Control characters are not typed; the text stays within `maximumLength` scalars.
    public func apply(to text: inout String, cursor: inout Int, selected: inout Bool, maximumLength: Int) {
        cursor = max(0, min(cursor, text.count))
        if selected {
            selected = false
            switch self {
            case .insert, .deleteBackward, .deleteForward, .deleteToStart, .deleteWordBackward:
                text = ""
                cursor = 0
                if case .insert = self { break }
                return
            case .left, .right, .home, .end:
                break
            }
        }
        var characters = Array(text)
        switch self {
        case let .insert(typed):
            var room = maximumLength - text.unicodeScalars.count
            var inserted: [Character] = []
            for character in typed where room > 0 {
                let scalars = character.unicodeScalars
                guard scalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }),
                      !character.isNewline else { continue }
                room -= scalars.count
                guard room >= 0 else { break }
                inserted.append(character)
            }
            characters.insert(contentsOf: inserted, at: cursor)
            cursor += inserted.count
        case .deleteBackward:
            guard cursor > 0 else { return }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .deleteForward:
            guard cursor < characters.count else { return }
            characters.remove(at: cursor)
        case .left:
            cursor = max(0, cursor - 1)
        case .right:
            cursor = min(characters.count, cursor + 1)
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteWordBackward:
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        }
        text = String(characters)
    }
}
