import Foundation
import TerminalImage

/// A rectangle of cells.
public struct Rect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    public func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

/// The screen as a grid of cells. Screens render into it; the backend copies it to the terminal.
/// Everything drawn is clipped to the buffer.
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// What marks text cut short when a call gives no other: "…", or "~" on terminals without Unicode.
    public var ellipsis = "…"
    /// Pictures the terminal draws in pixels, in the order drawn; each shows in the cells of its clip that
    /// still hold `Cell.picture` (text drawn later, a dialog say, covers it there).
    public private(set) var placements: [PicturePlacement] = []
    /// Text that links somewhere (OSC 8 where the terminal has it), with the cells as they were written: a cell
    /// drawn over later (a dialog) is no longer part of the link.
    public private(set) var links: [Hyperlink] = []
    /// Pictures in characters are placed, as pictures in pixels are, instead of written into the cells: the backend
    /// sends their rows itself (`CellPictureLayer`), and their cells hold `Cell.picture`. Set by the app where the
    /// backend asks for it; off, a picture in characters is its cells, as are the frames of an animation (`playback`).
    public var placesCellPictures = false
    /// Pictures in characters placed (`placesCellPictures`), in the order drawn; each shows in the cells of its clip
    /// that still hold `Cell.picture`.
    public private(set) var cellPlacements: [CellPicturePlacement] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    public mutating func fill(_ rect: Rect, with cell: Cell = .blank) {
        // A rect partly or wholly outside the buffer fills what is inside (never a reversed range).
        let top = max(0, rect.y)
        let left = max(0, rect.x)
        for y in top..<max(top, min(height, rect.maxY)) {
            for x in left..<max(left, min(width, rect.maxX)) {
                cells[y * width + x] = cell
            }
        }
    }

    /// Writes text from (x, y) on one line, at most `maxWidth` cells, cutting with "…" (or "~") when it
    /// does not fit. Returns the number of cells written. Control characters must have been removed.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil,
                               ellipsis: String? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        let ellipsis = ellipsis ?? self.ellipsis
        let limit = min(maxWidth ?? (width - x), width - x)
        guard limit > 0 else { return 0 }
        let total = DisplayWidth.of(text)
        let cut = total > limit
        let room = cut ? limit - DisplayWidth.of(ellipsis) : limit
        var column = x
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if characterWidth == 0 { continue }
            if column + characterWidth > x + room { break }
            if column >= 0 {
                self[column, y] = Cell(String(character), style: style)
                if characterWidth == 2 { self[column + 1, y] = Cell("", style: style) }
            }
            column += characterWidth
        }
        if cut, room >= 0 {
            for character in ellipsis where column < x + limit {
                self[column, y] = Cell(String(character), style: style)
                column += 1
            }
        }
        return column - x
    }

    /// Makes the `width` cells from (x, y), as they are now, a link to `url` (clipped to the buffer).
    public mutating func link(_ url: URL, x: Int, y: Int, width: Int) {
        let left = max(0, x)
        let right = min(self.width, x + width)
        guard y >= 0, y < height, left < right else { return }
        links.append(Hyperlink(url: url.absoluteString, x: left, y: y, cells: Array(cells[(y * self.width + left)..<(y * self.width + right)])))
    }

    /// Writes text centred in a row of the given rect.
    public mutating func writeCentered(_ text: String, in rect: Rect, y: Int, style: CellStyle = .plain) {
        let textWidth = min(DisplayWidth.of(text), rect.width)
        write(text, x: rect.x + (rect.width - textWidth) / 2, y: y, style: style, maxWidth: rect.width)
    }

    /// Copies a picture's cells with its top-left corner at (x, y); only rows inside `clip` (when given)
    /// and inside the buffer are written.
    /// `playback`: for an animation the terminal plays, whether it plays or stands at a frame.
    public mutating func draw(_ picture: CellPicture, x: Int, y: Int, clip: Rect? = nil, playback: PicturePlacement.Playback? = nil) {
        let top = max(0, clip?.y ?? 0)
        let bottom = min(height, clip?.maxY ?? height)
        if let pixels = picture.pixels {
            let left = max(0, x)
            let right = min(width, x + picture.columns)
            let visible = Rect(x: left, y: max(top, y), width: right - left, height: min(bottom, y + picture.rows) - max(top, y))
            guard visible.width > 0, visible.height > 0 else { return }
            fill(visible, with: .picture)
            placements.append(PicturePlacement(picture: pixels, x: x, y: y, visible: visible,
                                               playback: pixels.motion == nil ? nil : playback ?? .playing))
            return
        }
        // (An animation's frames stay cells: curses sends only the cells one frame changed from the last.)
        if placesCellPictures, playback == nil {
            let left = max(0, x)
            let right = min(width, x + picture.columns)
            let visible = Rect(x: left, y: max(top, y), width: right - left, height: min(bottom, y + picture.rows) - max(top, y))
            guard visible.width > 0, visible.height > 0 else { return }
            fill(visible, with: .picture)
            cellPlacements.append(CellPicturePlacement(picture: picture, x: x, y: y, visible: visible))
            return
        }
        for row in 0..<picture.rows where y + row >= top && y + row < bottom {
            for column in 0..<picture.columns where x + column >= 0 && x + column < width {
                cells[(y + row) * width + x + column] = Cell(picture[column, row])
            }
        }
    }

    /// Moves rows `top…bottom` up by `shift` (down when negative), as a terminal scrolls a region: rows
    /// moved in from outside the region are blank.
    mutating func shiftRows(top: Int, bottom: Int, by shift: Int) {
        guard top >= 0, bottom < height, top <= bottom, shift != 0 else { return }
        let rows = bottom - top + 1
        guard abs(shift) < rows else {
            fill(Rect(x: 0, y: top, width: width, height: rows))
            return
        }
        let kept = rows - abs(shift)
        // Whole rows move at once (one copy of a range, not a cell at a time); the rows left behind are blank.
        let to = shift > 0 ? top : top - shift
        let from = to + shift
        let moved = Array(cells[from * width..<(from + kept) * width])
        cells.replaceSubrange(to * width..<(to + kept) * width, with: moved)
        let cleared = shift > 0 ? top + kept : top
        fill(Rect(x: 0, y: cleared, width: width, height: abs(shift)))
    }

    /// The text of each line, for tests: wide characters once, styles left out, trailing spaces trimmed.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width { line += cells[y * width + x] == .picture ? " " : cells[y * width + x].text }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}

/// Cells of a row that link to an address.
public struct Hyperlink: Equatable, Sendable {
    public var url: String
    public var x: Int
    public var y: Int
    /// The cells as the link was made: where the buffer no longer holds them, the link does not reach.
    public var cells: [Cell]
}

/// A picture in characters whose rows the backend sends itself (`CellBuffer.placesCellPictures`): its top-left cell
/// (which may be off screen) and the cells of it in view.
public struct CellPicturePlacement: Equatable, Sendable {
    public var picture: CellPicture
    public var x: Int
    public var y: Int
    public var visible: Rect

    public static func == (lhs: CellPicturePlacement, rhs: CellPicturePlacement) -> Bool {
        lhs.picture.id == rhs.picture.id && lhs.x == rhs.x && lhs.y == rhs.y && lhs.visible == rhs.visible
    }
}

/// A picture in pixels on the screen: its top-left cell (which may be off screen) and the cells of it in view.
public struct PicturePlacement: Equatable, Sendable {
    public var picture: PixelPicture
    public var x: Int
    public var y: Int
    public var visible: Rect
    /// For an animation the terminal plays (`picture.motion`): whether it plays, or stands at a frame.
    public var playback: Playback?

    public enum Playback: Equatable, Sendable {
        case playing
        /// Stopped at this frame (0-based).
        case paused(frame: Int)
    }

    public init(picture: PixelPicture, x: Int, y: Int, visible: Rect, playback: Playback? = nil) {
        self.picture = picture
        self.x = x
        self.y = y
        self.visible = visible
        self.playback = playback
    }

    public static func == (lhs: PicturePlacement, rhs: PicturePlacement) -> Bool {
        lhs.picture.id == rhs.picture.id && lhs.x == rhs.x && lhs.y == rhs.y && lhs.visible == rhs.visible && lhs.playback == rhs.playback
    }
}
