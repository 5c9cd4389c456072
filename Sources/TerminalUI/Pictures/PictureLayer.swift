import Foundation
import TerminalImage

/// The part of a picture on screen that shows: the screen cells of `rect`, which are the picture's cells from
/// (`column`, `row`) on.
struct PictureTile: Hashable {
    var pictureID: UInt32
    var rect: Rect
    var column: Int
    var row: Int
    /// The part of the picture's pixels its cells show (a zoomed view placed from the same upload), if not all.
    var crop: PixelPicture.Crop? = nil
}

extension Rect: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
        hasher.combine(width)
        hasher.combine(height)
    }
}

/// One cell row of a piece of a picture drawn or queued: the picture's row `row` from its column `column`, over the
/// screen's columns `x…x+width` of row `y` (the layers that draw pictures into the cells they cover keep these).
struct ShownRow: Hashable {
    var pictureID: UInt32
    var x: Int
    var width: Int
    var column: Int
    var y: Int
    var row: Int

    static func rows(of tile: PictureTile) -> [ShownRow] {
        (0..<tile.rect.height).map {
            ShownRow(pictureID: tile.pictureID, x: tile.rect.x, width: tile.rect.width, column: tile.column,
                     y: tile.rect.y + $0, row: tile.row + $0)
        }
    }

    /// The parts of `tile` whose rows are not in `shown`, top first, each at most `bandRows` rows high.
    static func missingBands(of tile: PictureTile, shown: Set<ShownRow>, bandRows: Int) -> [PictureTile] {
        let rows = rows(of: tile)
        var bands: [PictureTile] = []
        var start: Int?
        for offset in 0...rows.count {
            let missing = offset < rows.count && !shown.contains(rows[offset])
            if missing, start == nil { start = offset }
            let runEnds = start.map { !missing || offset - $0 >= bandRows } ?? false
            guard runEnds, let first = start else { continue }
            bands.append(PictureTile(pictureID: tile.pictureID,
                                     rect: Rect(x: tile.rect.x, y: tile.rect.y + first, width: tile.rect.width, height: offset - first),
                                     column: tile.column, row: tile.row + first, crop: tile.crop))
            start = missing ? offset : nil
        }
        return bands
    }

    /// The rows after the terminal moved them (`moves`); those moved off the screen are gone.
    static func moved(_ rows: Set<ShownRow>, by moves: RowMoves) -> Set<ShownRow> {
        Set(rows.compactMap { row in
            guard let now = moves.destination(of: row.y) else { return nil }
            var moved = row
            moved.y = now
            return moved
        })
    }
}

/// Where a picture of either kind is placed: its id, its top-left cell and the cells of it in view.
struct PictureArea {
    var pictureID: UInt32
    var x: Int
    var y: Int
    var visible: Rect
    var crop: PixelPicture.Crop? = nil
}

extension PicturePlacement {
    var area: PictureArea { PictureArea(pictureID: picture.id, x: x, y: y, visible: visible, crop: picture.crop) }
}

extension CellPicturePlacement {
    var area: PictureArea { PictureArea(pictureID: picture.id, x: x, y: y, visible: visible) }
}

/// What a picture layer knows of the link when it plans: the rate pictures are sized for (nil: fast, full
/// resolution), how long the output has been idle, and the screen's size in cells.
struct LinkState {
    var rate: Double?
    var idle: Double
    var screenCells: Int

    static let fast = LinkState(rate: nil, idle: 0, screenCells: 80 * 24)

    /// How long the link must have had nothing to send before a picture sent small is sent again in full.
    static let dwell = 2.5

    /// The share of the screen `columns` x `rows` cells are.
    func share(columns: Int, rows: Int) -> Double { Double(columns * rows) / Double(max(1, screenCells)) }
}

/// Pictures in pixels, written after curses has drawn a frame: the bytes the terminal needs to show the
/// frame's placements, given what it showed before. Pure bookkeeping: the backend writes what it hands out.
///
/// The bytes are handed out a chunk at a time (`nextChunk`, one or more whole escape sequences), between
/// which the backend writes curses' frames: a key is answered while a picture is still crossing a slow link.
/// Each frame the layer plans again: a picture no longer wanted is withdrawn before its bytes go, and one under
/// way is ended cleanly.
protocol PictureLayer: AnyObject {
    /// The frame as curses is to draw it (pictures shown by text become text here: Kitty's placeholders, and
    /// pictures waiting for room on a slow link, drawn in characters meanwhile).
    /// `repainted`: the terminal's screen was cleared or every cell rewritten (a resize, Ctrl-L), so
    /// nothing shown before can be trusted.
    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer
    /// After curses' frame: what the pictures need now, queued behind what is under way.
    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState)
    /// The next whole chunk to write, or nil when nothing waits.
    func nextChunk() -> [UInt8]?
    /// The chunk `nextChunk` gave is written whole.
    func chunkSent()
    /// The chunk `nextChunk` gives (or gave) hands the terminal picture data to keep and shows nothing by itself (a
    /// Kitty upload; its placement is another chunk): it goes between synchronized updates, never inside one.
    var chunkOnlyStores: Bool { get }
    /// Whether chunks wait.
    var hasWork: Bool { get }
    /// Whether the frame should be planned again now (a picture sent small can go in full: the link is idle).
    func wantsFrame(link: LinkState) -> Bool
    /// The bytes that take every picture away (on the way out); what was waiting is dropped, what was under
    /// way is ended first.
    func finish() -> [UInt8]
    /// Whether a picture can show in the screen's last row (Sixel there would scroll the terminal).
    var usesBottomRow: Bool { get }
    /// Whether pictures move with the text when the terminal scrolls (placeholders are text), so that
    /// curses may scroll the terminal.
    var movesWithText: Bool { get }
    /// Whether the terminal moves the pictures' pixels with the rows it scrolls (Sixel in xterm, mlterm and
    /// foot): curses may scroll the terminal, and `moved` says where the rows went.
    var followsScrolls: Bool { get }
    /// The terminal's rows moved (curses scrolled them, as it does wherever the terminal can scroll a region): what
    /// was drawn in them moved too where the terminal moves it (Sixel pixels that follow scrolls, kitty's placements).
    func moved(_ moves: RowMoves)
    /// Pictures are being made ready off the run loop (`wantsFrame` says when one is).
    var isPreparing: Bool { get }
    /// A frame will be wanted shortly without a key (an animation waits to be told to play): the loop looks again soon.
    var wantsFrameSoon: Bool { get }
    /// Pictures are pixels the terminal holds (false: characters sent by the program, part of the frame): the link's
    /// meter and the time the screen last changed are theirs.
    var drawsPixels: Bool { get }
    /// The terminal leaves a picture's pixels in the rows a scroll brings in (xterm's Sixel), which curses takes for
    /// blank: those rows are written whole with the frame.
    var leavesPixelsInRowsScrolledIn: Bool { get }
    /// What the last `plan` made to go with curses' frame on a fast link, handed to `send` and forgotten (pictures in
    /// characters: their rows are part of the frame).
    func sendFrameBytes(_ send: ([UInt8]) -> Void)
}

/// A layer whose bytes wait in a `ChunkQueue` (every layer here): the queue hands out the chunks.
protocol QueuedPictureLayer: PictureLayer {
    associatedtype JobKey: Hashable
    var queue: ChunkQueue<JobKey> { get set }
}

extension QueuedPictureLayer {
    func nextChunk() -> [UInt8]? { queue.next() }
    func chunkSent() { queue.sent() }
    var chunkOnlyStores: Bool { queue.nextOnlyStores }
    var hasWork: Bool { !queue.isEmpty }
}

extension PictureLayer {
    var movesWithText: Bool { false }
    var followsScrolls: Bool { false }
    func moved(_ moves: RowMoves) {}
    var isPreparing: Bool { false }
    var wantsFrameSoon: Bool { false }
    var drawsPixels: Bool { true }
    var leavesPixelsInRowsScrolledIn: Bool { false }
    func sendFrameBytes(_ send: ([UInt8]) -> Void) {}

    /// Everything a frame needs at once, as on a fast link: the frame as curses draws it and every byte (tests).
    func prepare(_ buffer: CellBuffer, repainted: Bool) -> (CellBuffer, [UInt8]) {
        let drawn = prepare(buffer, repainted: repainted, link: .fast)
        guard movesWithText else { return (drawn, []) }
        plan(buffer, repainted: repainted, link: .fast)
        return (drawn, drain())
    }

    /// The picture bytes of a frame curses drew, all at once (tests).
    func frame(_ buffer: CellBuffer, repainted: Bool) -> [UInt8] {
        plan(buffer, repainted: repainted, link: .fast)
        return drain()
    }

    /// Every chunk waiting, as if written at once.
    func drain() -> [UInt8] {
        var output: [UInt8] = []
        while let chunk = nextChunk() {
            output += chunk
            chunkSent()
        }
        return output
    }

    /// Each placement split into rectangles of the cells it still shows in: text drawn over a picture (a
    /// dialog) leaves up to four rectangles around it. A later placement covers an earlier one.
    static func tiles(_ buffer: CellBuffer, bottomRow: Bool) -> [(PicturePlacement, PictureTile)] {
        let areas = buffer.placements.map(\.area)
        return pictureTiles(areas, in: buffer, bottomRow: bottomRow).map { (buffer.placements[$0.0], $0.1) }
    }

    /// `tiles` for any pictures placed in `buffer`: the index in `areas` of each tile's picture.
    static func pictureTiles(_ areas: [PictureArea], in buffer: CellBuffer, bottomRow: Bool) -> [(Int, PictureTile)] {
        guard !areas.isEmpty else { return [] }
        let limit = bottomRow ? buffer.height : buffer.height - 1
        var owner = [Int32](repeating: -1, count: buffer.width * buffer.height)
        for (index, placement) in areas.enumerated() {
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(limit, area.maxY)) {
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    owner[y * buffer.width + x] = Int32(index)
                }
            }
        }
        var tiles: [(Int, PictureTile)] = []
        for (index, placement) in areas.enumerated() {
            let area = placement.visible
            // Rectangles still growing downwards, by their columns.
            var open: [Range<Int>: Int] = [:] // columns → first row
            var lastRow = area.y - 1
            func close(_ columns: Range<Int>, from top: Int, to bottom: Int) {
                let rect = Rect(x: columns.lowerBound, y: top, width: columns.count, height: bottom - top)
                tiles.append((index, PictureTile(pictureID: placement.pictureID, rect: rect,
                                                 column: rect.x - placement.x, row: rect.y - placement.y, crop: placement.crop)))
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

extension PixelPicture {
    /// The pixels under cells (`column`, `row`, `columns` x `rows`) in a copy of the picture `width` x `height`
    /// pixels (a copy sent smaller on a slow link).
    func pixelRect(column: Int, row: Int, columns: Int, rows: Int, inWidth width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        guard width != image.width || height != image.height else {
            return pixelRect(column: column, row: row, columns: columns, rows: rows)
        }
        if crop != nil {
            // A crop's rectangle in the full picture, scaled to the copy sent.
            let full = pixelRect(column: column, row: row, columns: columns, rows: rows)
            let scaleX = Double(width) / Double(max(1, image.width)), scaleY = Double(height) / Double(max(1, image.height))
            let x = Int((Double(full.x) * scaleX).rounded()), y = Int((Double(full.y) * scaleY).rounded())
            return (x, y, max(0, min(width - x, Int((Double(full.width) * scaleX).rounded()))),
                    max(0, min(height - y, Int((Double(full.height) * scaleY).rounded()))))
        }
        let cellWidth = Double(width) / Double(max(1, self.columns))
        let cellHeight = Double(height) / Double(max(1, self.rows))
        let x0 = Int((Double(column) * cellWidth).rounded())
        let y0 = Int((Double(row) * cellHeight).rounded())
        let x1 = min(width, Int((Double(column + columns) * cellWidth).rounded()))
        let y1 = min(height, Int((Double(row + rows) * cellHeight).rounded()))
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
    }

    /// The picture `scale` of its size each way (at least a pixel a cell), or itself at 1.
    func scaled(_ scale: Double) -> RGBImage {
        guard scale < 1 else { return image }
        let width = max(columns, Int((Double(image.width) * scale).rounded()))
        let height = max(rows, Int((Double(image.height) * scale).rounded()))
        guard width < image.width || height < image.height else { return image }
        return AreaResampler.resize(image, width: min(width, image.width), height: min(height, image.height))
    }
}
