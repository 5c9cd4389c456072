import ImageFeedCore

/// Drawing pieces shared by the screens.
public enum Widgets {
    /// The key hints that fit in `room` columns, most important first, each whole or not at all (one that does
    /// not fit gives way to shorter ones after it), two spaces after each.
    static func hintLine(_ hints: [String], room: Int) -> String {
        var line = ""
        for hint in hints where DisplayWidth.of(line) + DisplayWidth.of(hint) + 2 <= room {
            line += hint + "  "
        }
        return line
    }

    /// A framed box with an optional title, its inside cleared in `style`.
    public static func box(_ rect: Rect, title: String?, style: CellStyle, theme: Theme, into buffer: inout CellBuffer) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let glyphs = theme.box
        buffer.fill(rect, with: Cell(" ", style: style))
        for x in (rect.x + 1)..<(rect.maxX - 1) {
            buffer[x, rect.y] = Cell(glyphs.horizontal, style: style)
            buffer[x, rect.maxY - 1] = Cell(glyphs.horizontal, style: style)
        }
        for y in (rect.y + 1)..<(rect.maxY - 1) {
            buffer[rect.x, y] = Cell(glyphs.vertical, style: style)
            buffer[rect.maxX - 1, y] = Cell(glyphs.vertical, style: style)
        }
        buffer[rect.x, rect.y] = Cell(glyphs.topLeft, style: style)
        buffer[rect.maxX - 1, rect.y] = Cell(glyphs.topRight, style: style)
        buffer[rect.x, rect.maxY - 1] = Cell(glyphs.bottomLeft, style: style)
        buffer[rect.maxX - 1, rect.maxY - 1] = Cell(glyphs.bottomRight, style: style)
        if let title, !title.isEmpty {
            var titleStyle = style
            titleStyle.bold = true
            buffer.write(" \(title) ", x: rect.x + 2, y: rect.y, style: titleStyle, maxWidth: rect.width - 4, ellipsis: theme.ellipsis)
        }
    }

    /// Splits text into lines of at most `width` cells, at spaces where it can.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if DisplayWidth.of(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            var rest = word
            while DisplayWidth.of(rest) > width {
                var head = ""
                for character in rest {
                    if DisplayWidth.of(head + String(character)) > width { break }
                    head.append(character)
                }
                if head.isEmpty { break }
                // A path or a link breaks after a slash (or a hyphen) where one is near the end, not mid-name.
                if let cut = head.lastIndex(where: { $0 == "/" || $0 == "-" }), head.distance(from: head.startIndex, to: cut) >= width / 2 {
                    head = String(head[...cut])
                }
                lines.append(head)
                rest = String(rest.dropFirst(head.count))
            }
            current = rest
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `text` cut into rows of at most `width` columns, by character (a link has no spaces to wrap at).
    static func chunks(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var rows: [String] = []
        var row = ""
        for character in text {
            if DisplayWidth.of(row + String(character)) > width {
                rows.append(row)
                row = ""
            }
            row.append(character)
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// Which button of a two-button dialog a key chose: arrows, Tab, h and l move the focus, Enter or
    /// Space press the focused one, Esc and q press the second ("Cancel").
    public enum ModalChoice: Equatable {
        case first
        case second
    }

    /// A dialog's keys for the status line while it has the keyboard (the keys of the screen under it do nothing
    /// then): Enter presses the focused button, Esc the last; `letters`: y and n answer a Yes/No question.
    public static func dialogHints(_ buttons: [String], focused: Int, letters: Bool = false) -> [String] {
        guard let last = buttons.last else { return [] }
        if buttons.count == 1 { return ["Enter/Esc \(last.lowercased())"] }
        var hints: [String] = []
        for (index, label) in buttons.enumerated() {
            var keys: [String] = []
            if letters, let letter = label.lowercased().first { keys.append(String(letter)) }
            if index == focused { keys.append("Enter") }
            if index == buttons.count - 1 { keys.append("Esc") }
            if !keys.isEmpty { hints.append("\(keys.joined(separator: "/")) \(label.lowercased())") }
        }
        return hints + ["\u{2190}\u{2192} choose"]
    }

    public static func modalChoice(_ input: InputEvent, focus: inout Int) -> ModalChoice? {
        guard case let .key(key) = input else { return nil }
        switch key {
        case .left, .right, .tab, .backTab, .character("h"), .character("l"):
            focus = focus == 0 ? 1 : 0
            return nil
        case .enter, .character(" "):
            defer { focus = 0 }
            return focus == 0 ? .first : .second
        case .escape, .character("q"):
            focus = 0
            return .second
        default:
            return nil
        }
    }

    /// A dialog centred in `area`: a title, a wrapped message, and buttons; `focused` is highlighted.
    /// Returns the rectangles of the buttons, for mouse clicks.
    @discardableResult
    /// A line break in `message` starts a paragraph; `wide`: as wide as the area allows (a link shown whole to be
    /// selected, on as few lines as it takes).
    /// `verbatim`: text to be selected with the mouse (a link), after the message on rows of its own that run from
    /// the area's left edge to its right with no border: a drag or a triple-click takes nothing but it, and where it
    /// is wider than the area it is cut only at the area's edge.
    public static func modal(title: String, message: String, buttons: [String], focused: Int, in area: Rect,
                             theme: Theme, wide: Bool = false, verbatim: String? = nil, into buffer: inout CellBuffer) -> [Rect] {
        let paragraphs = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let longest = paragraphs.map { DisplayWidth.of($0) }.max() ?? 0
        let width = min(area.width - 2, max(34, min(wide ? area.width : 64, longest + 6)))
        guard width >= 12 else { return [] }
        let lines = paragraphs.flatMap { $0.isEmpty ? [""] : wrap($0, width: width - 4) }
        let verbatimRows = verbatim.map { chunks($0, width: area.width) } ?? []
        let extra = verbatimRows.isEmpty ? 0 : verbatimRows.count + 1 // and a blank row before it
        let height = min(area.height, lines.count + extra + 5)
        let rect = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
        box(rect, title: title, style: theme.modal, theme: theme, into: &buffer)
        let messageRows = max(0, min(lines.count, height - 5 - extra))
        for (index, line) in lines.prefix(messageRows).enumerated() {
            buffer.write(line, x: rect.x + 2, y: rect.y + 2 + index, style: theme.modal, maxWidth: width - 4)
        }
        for (index, row) in verbatimRows.enumerated() {
            let y = rect.y + 2 + messageRows + 1 + index
            guard y < rect.maxY - 3 else { break }
            buffer.fill(Rect(x: area.x, y: y, width: area.width, height: 1), with: Cell(" ", style: theme.modal))
            // Centred where it fits in the box; else from the area's edge.
            let x = DisplayWidth.of(row) <= width - 4 ? rect.x + 2 : area.x
            buffer.write(row, x: x, y: y, style: theme.modal.merging(theme.button), maxWidth: area.maxX - x)
        }
        var rects: [Rect] = []
        let labels = buttons.map { "[ \($0) ]" }
        let total = labels.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * (labels.count - 1)
        var x = rect.x + max(2, (width - total) / 2)
        let y = rect.maxY - 2
        for (index, label) in labels.enumerated() {
            let written = buffer.write(label, x: x, y: y, style: index == focused ? theme.focusedButton : theme.modal.merging(theme.button))
            rects.append(Rect(x: x, y: y, width: written, height: 1))
            x += written + 2
        }
        return rects
    }
}

extension CellStyle {
    /// This style with the other's text attributes added (colours stay).
    func merging(_ other: CellStyle) -> CellStyle {
        var merged = self
        merged.bold = bold || other.bold
        merged.dim = dim || other.dim
        merged.reverse = reverse || other.reverse
        merged.underline = underline || other.underline
        return merged
    }
}
