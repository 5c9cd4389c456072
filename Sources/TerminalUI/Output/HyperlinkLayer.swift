import Foundation
import TerminalImage

/// OSC 8 hyperlinks over curses' frame: curses knows nothing of them, so after it has drawn, each link's cells
/// are written again, the same characters in the same colours, between `ESC ] 8 ; ; URL ESC \` and
/// `ESC ] 8 ; ; ESC \`; the screen stays what curses believes it is. A link is written when it is new, when
/// curses may have rewritten its cells (they changed, the screen scrolled or was repainted), and not otherwise.
struct HyperlinkLayer {
    let colorMode: ColorMode
    /// What the terminal shows as links now.
    private var shown: [Hyperlink] = []

    init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    /// The bytes that make `buffer`'s links links. `before`: the frame curses showed before this one (nil: none,
    /// or the screen was cleared); `moved`: the terminal scrolled rows on the way (cells then move under curses).
    mutating func frame(_ buffer: CellBuffer, before: CellBuffer?, moved: Bool) -> [UInt8] {
        var output = ""
        for link in buffer.links {
            let runs = Self.runs(link, in: buffer)
            guard !runs.isEmpty else { continue }
            let untouched = !moved && shown.contains(link) && before.map { before in
                before.width == buffer.width && before.height == buffer.height
                    && runs.allSatisfy { run in run.range.allSatisfy { before[$0, link.y] == buffer[$0, link.y] } }
            } == true
            if untouched { continue }
            for run in runs { output += sequence(link.url, x: run.range.lowerBound, y: link.y, cells: run.cells) }
        }
        shown = buffer.links
        guard !output.isEmpty else { return [] }
        // The cursor and its colours as curses left them.
        return Array(("\u{1B}7" + output + "\u{1B}8").utf8)
    }

    /// The stretches of a link whose cells the buffer still holds as they were written.
    static func runs(_ link: Hyperlink, in buffer: CellBuffer) -> [(range: Range<Int>, cells: [Cell])] {
        var runs: [(range: Range<Int>, cells: [Cell])] = []
        var start: Int?
        for offset in 0...link.cells.count {
            let x = link.x + offset
            let holds = offset < link.cells.count && x < buffer.width && buffer[x, link.y] == link.cells[offset]
                && buffer[x, link.y] != .picture
            if holds, start == nil { start = x }
            if !holds, let first = start {
                runs.append((first..<x, Array(link.cells[(first - link.x)..<offset])))
                start = nil
            }
        }
        return runs
    }

    /// One run: the cursor to its first cell, then its characters in their styles, inside the link.
    private func sequence(_ url: String, x: Int, y: Int, cells: [Cell]) -> String {
        // Only printable ASCII goes into the OSC (an address from an answer is percent-encoded already).
        let address = String(url.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.map(Character.init))
        var text = "\u{1B}[\(y + 1);\(x + 1)H\u{1B}]8;;\(address)\u{1B}\\"
        var style: CellStyle?
        for cell in cells where !cell.text.isEmpty {
            if cell.style != style {
                style = cell.style
                text += sgr(cell.style)
            }
            text += cell.text
        }
        return text + "\u{1B}]8;;\u{1B}\\\u{1B}[0m"
    }

    /// The SGR that draws `style` as curses drew it in this colour mode.
    func sgr(_ style: CellStyle) -> String {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if colorMode != .none {
            if let color = mapped(style.foreground) { codes.append(ANSIPictureWriter.sgr(color, background: false)) }
            if let color = mapped(style.background) { codes.append(ANSIPictureWriter.sgr(color, background: true)) }
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private func mapped(_ color: TerminalColor) -> TerminalColor? {
        switch (color, colorMode) {
        case (.standard, _), (_, .none): return nil
        case (.indexed, _), (.rgb, .truecolor): return color
        case let (.rgb(rgb), .palette256): return .indexed(UInt8(Palette.nearest256(rgb)))
        case let (.rgb(rgb), .palette16): return .indexed(UInt8(Palette.nearest16(rgb)))
        case let (.rgb(rgb), .palette8): return .indexed(UInt8(Palette.nearest8(rgb)))
        }
    }
}
