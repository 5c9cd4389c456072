import Foundation
import TerminalImage

/// The part of a picture on screen that shows: the screen cells of `rect`, which are the picture's cells from
/// (`column`, `row`) on.
struct PictureTile: Hashable {
    var pictureID: UInt32
    var rect: Rect
    var column: Int
    var row: Int
}

extension Rect: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
        hasher.combine(width)
        hasher.combine(height)
    }
}

/// Pictures in pixels, written after curses has drawn a frame: the bytes the terminal needs to show the
/// frame's placements, given what it showed before. Pure bookkeeping: the backend writes what it returns.
protocol PictureLayer: AnyObject {
    /// The bytes for `buffer`'s pictures. `repainted`: the terminal's screen was cleared or every cell
    /// rewritten (a resize, Ctrl-L), so nothing shown before can be trusted.
    func frame(_ buffer: CellBuffer, repainted: Bool) -> [UInt8]
    /// The bytes that take every picture away (on the way out).
    func finish() -> [UInt8]
    /// Whether a picture can show in the screen's last row (Sixel there would scroll the terminal).
    var usesBottomRow: Bool { get }
    /// The frame as curses is to draw it, and the bytes the terminal needs before it (pictures shown by
    /// text, Kitty's placeholders, become text here).
    func prepare(_ buffer: CellBuffer, repainted: Bool) -> (CellBuffer, [UInt8])
    /// Whether pictures move with the text when the terminal scrolls (placeholders are text), so that
    /// curses may scroll the terminal.
    var movesWithText: Bool { get }
}

extension PictureLayer {
    func prepare(_ buffer: CellBuffer, repainted: Bool) -> (CellBuffer, [UInt8]) { (buffer, []) }
    var movesWithText: Bool { false }

    /// Each placement split into rectangles of the cells it still shows in: text drawn over a picture (a
    /// dialog) leaves up to four rectangles around it. A later placement covers an earlier one.
    static func tiles(_ buffer: CellBuffer, bottomRow: Bool) -> [(PicturePlacement, PictureTile)] {
        guard !buffer.placements.isEmpty else { return [] }
        let limit = bottomRow ? buffer.height : buffer.height - 1
        var owner = [Int32](repeating: -1, count: buffer.width * buffer.height)
        for (index, placement) in buffer.placements.enumerated() {
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(limit, area.maxY)) {
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    owner[y * buffer.width + x] = Int32(index)
                }
            }
        }
        var tiles: [(PicturePlacement, PictureTile)] = []
        for (index, placement) in buffer.placements.enumerated() {
            let area = placement.visible
            // Rectangles still growing downwards, by their columns.
            var open: [Range<Int>: Int] = [:] // columns → first row
            var lastRow = area.y - 1
            func close(_ columns: Range<Int>, from top: Int, to bottom: Int) {
                let rect = Rect(x: columns.lowerBound, y: top, width: columns.count, height: bottom - top)
                tiles.append((placement, PictureTile(pictureID: placement.picture.id, rect: rect,
                                                     column: rect.x - placement.x, row: rect.y - placement.y)))
            }
            for y in max(0, area.y)..<max(max(0, area.y), min(limit, area.maxY)) {
                var runs: [Range<Int>] = []
                var start: Int?
                for x in max(0, area.x)...min(buffer.width, area.maxX) {
                    let mine = x < min(buffer.width, area.maxX) && owner[y * buffer.width + x] == Int32(index)
                    if mine, start == nil { start = x }
                    if !mine, let first = start {
                        runs.append(first..<x)
                        start = nil
                    }
                }
                for (columns, top) in open where !runs.contains(columns) {
                    close(columns, from: top, to: y)
                    open[columns] = nil
                }
                for columns in runs where open[columns] == nil { open[columns] = y }
                lastRow = y
            }
            for (columns, top) in open.sorted(by: { $0.key.lowerBound < $1.key.lowerBound }) {
                close(columns, from: top, to: lastRow + 1)
            }
        }
        return tiles
    }

    static func moveCursor(_ x: Int, _ y: Int) -> String { "\u{1B}[\(y + 1);\(x + 1)H" }
}

/// The Kitty graphics protocol with direct placements: each picture is uploaded once (compressed), then
/// each frame only places, moves and takes away placements. A scroll step costs placements, not pixels.
final class KittyPictureLayer: PictureLayer {
    private struct Uploaded {
        var picture: PixelPicture
        var lastUsed: Int
    }

    private var uploaded: [UInt32: Uploaded] = [:]
    private var uploadedBytes = 0
    private var shown: [PictureTile: UInt32] = [:]
    private var nextPlacement: UInt32 = 1
    private var frameNumber = 0
    /// Raw pixels kept uploaded in the terminal before the least recently shown are let go (kitty's own
    /// quota is 320 MB).
    let budget: Int

    init(budget: Int = 96 << 20) {
        self.budget = budget
    }

    var usesBottomRow: Bool { true }

    func frame(_ buffer: CellBuffer, repainted: Bool) -> [UInt8] {
        frameNumber += 1
        var output: [UInt8] = []
        if repainted {
            // The screen was cleared (a resize, Ctrl-L), and clearing the screen makes kitty forget the
            // pictures on it, data and all: every picture is sent again when next shown.
            if !uploaded.isEmpty { output += Array(KittyGraphics.deleteAll.utf8) }
            shown.removeAll()
            uploaded.removeAll()
            uploadedBytes = 0
        }
        let wanted = Self.tiles(buffer, bottomRow: true)
        let wantedKeys = Set(wanted.map(\.1))
        for (tile, placement) in shown where !wantedKeys.contains(tile) {
            output += Array(KittyGraphics.deletePlacement(id: tile.pictureID, placement: placement).utf8)
            shown[tile] = nil
        }
        for (placement, tile) in wanted {
            uploaded[tile.pictureID]?.lastUsed = frameNumber
            guard shown[tile] == nil else { continue }
            let picture = placement.picture
            if uploaded[picture.id] == nil {
                output += KittyGraphics.transmit(picture)
                uploaded[picture.id] = Uploaded(picture: picture, lastUsed: frameNumber)
                uploadedBytes += picture.image.pixels.count
            }
            let source = picture.pixelRect(column: tile.column, row: tile.row, columns: tile.rect.width, rows: tile.rect.height)
            guard source.width > 0, source.height > 0 else { continue }
            let id = nextPlacement
            nextPlacement = nextPlacement == UInt32.max ? 1 : nextPlacement + 1
            output += Array((Self.moveCursor(tile.rect.x, tile.rect.y)
                + KittyGraphics.place(id: picture.id, placement: id, x: source.x, y: source.y, width: source.width,
                                      height: source.height, columns: tile.rect.width, rows: tile.rect.height)).utf8)
            shown[tile] = id
        }
        output += evict(keeping: Set(wanted.map(\.1.pictureID)))
        guard !output.isEmpty else { return [] }
        // The cursor and its colours as curses left them.
        return Array("\u{1B}7".utf8) + output + Array("\u{1B}8".utf8)
    }

    /// Lets the terminal forget the pictures shown longest ago while more than the budget is uploaded.
    private func evict(keeping onScreen: Set<UInt32>) -> [UInt8] {
        guard uploadedBytes > budget else { return [] }
        var output: [UInt8] = []
        for (id, entry) in uploaded.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where uploadedBytes > budget * 3 / 4 {
            guard !onScreen.contains(id) else { continue }
            output += Array(KittyGraphics.deletePicture(id: id).utf8)
            uploadedBytes -= entry.picture.image.pixels.count
            uploaded[id] = nil
        }
        return output
    }

    func finish() -> [UInt8] {
        guard !uploaded.isEmpty else { return [] }
        uploaded.removeAll()
        shown.removeAll()
        return Array(KittyGraphics.deleteAll.utf8)
    }
}

/// Pictures drawn into the cells they cover, Sixel or iTerm2's inline images: each piece of a picture in view
/// is drawn once; it is drawn again only when it moves, changes, or curses wrote over it. Pieces never reach
/// the last row (a picture there scrolls the terminal). The backend keeps picture cells distinct in curses'
/// own picture of the screen, so that when a picture goes, curses rewrites its cells and the terminal's
/// pixels there go too.
final class InlinePictureLayer: PictureLayer {
    enum Format {
        case sixel, iterm2
    }

    let format: Format

    init(format: Format) {
        self.format = format
    }

    private var shown: Set<PictureTile> = []
    /// A part of a picture, wherever it is on screen (a card moved up draws the same Sixel).
    private struct Piece: Hashable {
        var pictureID: UInt32
        var column: Int
        var row: Int
        var columns: Int
        var rows: Int
    }

    /// Encoded pieces kept for the next frames (a card moved, or scrolling back into view), most recent last.
    private var encoded: [Piece: [UInt8]] = [:]
    private var encodedOrder: [Piece] = []
    private let maximumEncoded = 48

    var usesBottomRow: Bool { false }

    func frame(_ buffer: CellBuffer, repainted: Bool) -> [UInt8] {
        if repainted { shown.removeAll() }
        let wanted = Self.tiles(buffer, bottomRow: false)
        var output: [UInt8] = []
        var now: Set<PictureTile> = []
        for (placement, tile) in wanted {
            now.insert(tile)
            guard !shown.contains(tile) else { continue }
            guard let sixel = piece(for: tile, of: placement.picture) else { continue }
            output += Array(Self.moveCursor(tile.rect.x, tile.rect.y).utf8)
            output += sixel
        }
        shown = now
        guard !output.isEmpty else { return [] }
        return Array("\u{1B}7".utf8) + output + Array("\u{1B}8".utf8)
    }

    private func piece(for tile: PictureTile, of picture: PixelPicture) -> [UInt8]? {
        let piece = Piece(pictureID: tile.pictureID, column: tile.column, row: tile.row, columns: tile.rect.width, rows: tile.rect.height)
        if let cached = encoded[piece] { return cached }
        let source = picture.pixelRect(column: tile.column, row: tile.row, columns: tile.rect.width, rows: tile.rect.height)
        guard source.width > 0, source.height > 0 else { return nil }
        let part = picture.crop(x: source.x, y: source.y, width: source.width, height: source.height)
        let made: [UInt8]?
        switch format {
        case .sixel: made = SixelEncoder.encode(part)
        case .iterm2: made = ITerm2Images.inline(part, columns: tile.rect.width, rows: tile.rect.height)
        }
        guard let bytes = made else { return nil }
        encoded[piece] = bytes
        encodedOrder.append(piece)
        if encodedOrder.count > maximumEncoded {
            encoded[encodedOrder.removeFirst()] = nil
        }
        return bytes
    }

    func finish() -> [UInt8] {
        shown.removeAll()
        return []
    }
}

/// Pictures shown by Kitty's Unicode placeholders (kitty 0.28+, Ghostty; inside tmux, through its
/// passthrough): each picture is uploaded once with a virtual placement of its cells, and the frame's picture
/// cells become placeholder text that names the picture's cell, which curses draws (and tmux keeps) like any
/// other text. Text drawn over a picture simply replaces its placeholders; a card moved up is rows of text
/// moved up, which curses may send as a terminal scroll.
///
/// The picture's id travels in the foreground colour (its low byte, as a colour of the 256-colour palette, which
/// tmux passes on unchanged) and the third diacritic (its high byte); ids are given out here, 16–255 in the low
/// byte (past the 16 colours a terminal or tmux may send in their older SGR forms).
final class KittyPlaceholderLayer: PictureLayer {
    private struct Uploaded {
        var id: UInt32
        var bytes: Int
        var lastUsed: Int
    }

    /// Through tmux's passthrough (the program runs inside tmux).
    let tmux: Bool
    let budget: Int
    private var uploaded: [UInt32: Uploaded] = [:] // by PixelPicture id
    private var uploadedBytes = 0
    private var nextID = 0
    private var frameNumber = 0
    /// Each placeholder's text, made once: the same String every frame compares and hashes fast.
    private var texts: [Int: String] = [:]

    init(tmux: Bool, budget: Int = 96 << 20) {
        self.tmux = tmux
        self.budget = budget
    }

    var usesBottomRow: Bool { true }
    var movesWithText: Bool { true }

    /// The image id of the `count`th picture: low byte 16…255, high byte the rest, wrapping after 61,440.
    static func imageID(_ count: Int) -> UInt32 {
        let number = count % (240 * 256)
        return KittyPlaceholders.imageID(low: UInt8(16 + number % 240), high: UInt8(number / 240))
    }

    func prepare(_ buffer: CellBuffer, repainted: Bool) -> (CellBuffer, [UInt8]) {
        frameNumber += 1
        var output: [UInt8] = []
        if repainted {
            // Ctrl-L or a resize: the terminal may be another one (tmux attached from elsewhere) or have let
            // go of what it had; every picture is sent again when next shown.
            for entry in uploaded.values { output += Array(KittyGraphics.deletePicture(id: entry.id).utf8) }
            uploaded.removeAll()
            uploadedBytes = 0
        }
        var drawn = buffer
        var onScreen: Set<UInt32> = []
        for placement in buffer.placements {
            let picture = placement.picture
            guard picture.columns <= KittyPlaceholders.maximumCells, picture.rows <= KittyPlaceholders.maximumCells else { continue }
            let id: UInt32
            if let known = uploaded[picture.id] {
                id = known.id
                uploaded[picture.id]?.lastUsed = frameNumber
            } else {
                id = Self.imageID(nextID)
                nextID += 1
                output += KittyPlaceholders.transmit(picture.image, id: id, columns: picture.columns, rows: picture.rows)
                uploaded[picture.id] = Uploaded(id: id, bytes: picture.image.pixels.count, lastUsed: frameNumber)
                uploadedBytes += picture.image.pixels.count
            }
            onScreen.insert(picture.id)
            let style = CellStyle(foreground: .indexed(UInt8(id & 0xFF)))
            let high = UInt8(id >> 24)
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    let row = y - placement.y, column = x - placement.x
                    let key = Int(high) << 20 | row << 10 | column
                    let text: String
                    if let known = texts[key] {
                        text = known
                    } else {
                        guard let made = KittyPlaceholders.cell(row: row, column: column, high: high) else { continue }
                        texts[key] = made
                        text = made
                    }
                    drawn[x, y] = Cell(text, style: style)
                }
            }
        }
        output += evict(keeping: onScreen)
        guard !output.isEmpty else { return (drawn, []) }
        if tmux { output = KittyPlaceholders.tmuxPassthrough(output) }
        return (drawn, output)
    }

    /// Lets the terminal forget the pictures shown longest ago while more than the budget is uploaded.
    private func evict(keeping onScreen: Set<UInt32>) -> [UInt8] {
        guard uploadedBytes > budget else { return [] }
        var output: [UInt8] = []
        for (picture, entry) in uploaded.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where uploadedBytes > budget * 3 / 4 {
            guard !onScreen.contains(picture) else { continue }
            output += Array(KittyGraphics.deletePicture(id: entry.id).utf8)
            uploadedBytes -= entry.bytes
            uploaded[picture] = nil
        }
        return output
    }

    func frame(_ buffer: CellBuffer, repainted: Bool) -> [UInt8] { [] }

    func finish() -> [UInt8] {
        // Deleting by id is the only way to reach virtual placements (`d=A` leaves them).
        var output: [UInt8] = []
        for entry in uploaded.values { output += Array(KittyGraphics.deletePicture(id: entry.id).utf8) }
        uploaded.removeAll()
        uploadedBytes = 0
        if tmux, !output.isEmpty { output = KittyPlaceholders.tmuxPassthrough(output) }
        return output
    }
}
