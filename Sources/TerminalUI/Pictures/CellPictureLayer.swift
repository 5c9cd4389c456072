import Foundation
import TerminalImage

/// Pictures in characters: coloured half blocks (or quadrants, sextants, blocks) in the terminal's colours, paced by the
/// program where they move.
enum CellsProtocol: PictureProtocol {
    static let mode = GraphicsMode.cells
    static let playback = PictureDrawer.AnimationPlayback.paced

    static func layer(_ setup: PictureLayerSetup) -> PictureLayer? {
        // Pictures in characters are sent by the program where their rows cost most through curses (a colour per
        // cell from the 256-colour palette or in 24-bit); with fewer colours, curses draws them with the rest.
        guard setup.unicode, [.palette256, .truecolor].contains(setup.colorMode) else { return nil }
        return CellPictureLayer(colorMode: setup.colorMode)
    }

    static func frames(_ cells: RenderCells) -> PacedFrames { CellFrames(cells) }
}

/// `render`'s pictures in characters: each frame's rows that changed since the one before (the others are stepped over).
final class CellFrames: PacedFrames {
    let cells: RenderCells
    private let drawer: MosaicBlitter
    private var previousRows: [Substring] = []

    init(_ cells: RenderCells) {
        self.cells = cells
        drawer = MosaicBlitter(kind: cells.blitter, mode: cells.colorMode, unicode: cells.unicode)
    }

    func frame(_ image: RGBImage, index: Int, drawn: Int) throws -> [UInt8] {
        let text = ANSIPictureWriter.text(drawer.render(image, columns: cells.columns, rows: cells.rows))
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        var bytes: [UInt8] = []
        for (number, row) in rows.enumerated() {
            bytes += number < previousRows.count && previousRows[number] == row ? Array("\n".utf8) : Array((row + "\n").utf8)
        }
        previousRows = Array(rows)
        return bytes
    }
}

/// Pictures in characters, sent by the program itself instead of through curses: each row of a picture is made into
/// bytes once (its colours and glyphs, `ANSIPictureWriter.appendRow`) and kept, and written where the picture
/// shows after curses' frame. curses keeps the picture's cells blank (`Cell.picture`, as under pictures in pixels);
/// a row is sent again only when it moves, changes, or curses wrote over it. The terminal scrolls text, so the rows
/// curses scrolled are still there, where they moved (`moved`): a next card sends only the rows it brings into view.
///
/// Through curses, a screen of photos cost a colour pair looked up per cell and terminfo's colour strings
/// formatted per cell by curses, every frame the picture moved (a next card at 200x60 in 24-bit colour: 8,000 such
/// cells). Here a row's bytes are made the first time it shows and copied after that.
///
/// On a fast link a frame's rows go with the frame (`sendFrameBytes`: a frame is whole when it is written); on a slow
/// one they wait in the queue in bands a few rows high, behind the text, so a key is answered before a photo that is
/// no longer wanted has crossed, and a band not begun is withdrawn.
final class CellPictureLayer: QueuedPictureLayer {
    /// The colours the rows are written in (the backend's).
    let colorMode: ColorMode
    var queue = ChunkQueue<PictureTile>()
    /// The rows of pictures drawn or queued.
    private var shown: Set<ShownRow> = []
    /// The rows of this frame, on a fast link: written with the frame.
    private var frameBytes: [UInt8] = []

    /// A row's bytes, by picture, row and columns.
    private struct RowKey: Hashable {
        var pictureID: UInt32
        var row: Int
        var column: Int
        var width: Int
    }

    /// Rows made, in two generations, each one block of bytes with the rows' places in it: when the newer passes
    /// `maximumKeptBytes` it becomes the older and the older is dropped (a row used again is copied to the newer), so
    /// what is kept stays bounded (about 1 MB: a screen of 200x60 cells in 24-bit colour is about 300 KB) and what
    /// shows stays kept. One block, not an array per row: hundreds of small arrays made and dropped as the user
    /// scrolls were scattered among the heap's long-lived blocks, and the process kept several megabytes more.
    private struct Generation {
        var bytes: [UInt8] = []
        var rows: [RowKey: Range<Int>] = [:]

        init() {
            bytes.reserveCapacity(CellPictureLayer.maximumKeptBytes + (64 << 10))
        }
    }
    private var newer = Generation()
    private var older = Generation()
    static let maximumKeptBytes = 512 << 10
    /// The bytes of rows kept (tests).
    var keptBytes: Int { newer.bytes.count + older.bytes.count }

    init(colorMode: ColorMode) {
        self.colorMode = colorMode
    }

    var usesBottomRow: Bool { true }
    /// The terminal moves text with the rows it scrolls.
    var followsScrolls: Bool { true }
    /// Characters, sent by the program with the frame.
    var drawsPixels: Bool { false }

    /// Cell rows in a band on a slow link.
    static let bandRows = 4

    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer {
        // The screen's last cell is written by curses, which knows how to write there without scrolling the terminal.
        let x = buffer.width - 1, y = buffer.height - 1
        guard x >= 0, y >= 0, buffer[x, y] == .picture,
              let placement = buffer.cellPlacements.last(where: { $0.visible.contains(x: x, y: y) }) else { return buffer }
        let column = x - placement.x, row = y - placement.y
        guard column >= 0, row >= 0, column < placement.picture.columns, row < placement.picture.rows else { return buffer }
        var drawn = buffer
        let cell = placement.picture[column, row]
        drawn[x, y] = Cell(cell)
        return drawn
    }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {
        if repainted {
            shown.removeAll()
            _ = queue.withdraw { _ in true }
        }
        let placements = buffer.cellPlacements
        let areas = placements.map(\.area)
        let wanted = Self.pictureTiles(areas, in: buffer, bottomRow: true)
        let wantedRows = Set(wanted.flatMap { ShownRow.rows(of: $0.1) })
        for tile in queue.withdraw(where: { !ShownRow.rows(of: $0).allSatisfy(wantedRows.contains) }) {
            shown.subtract(ShownRow.rows(of: tile))
        }
        shown.formIntersection(wantedRows)
        let fast = link.rate == nil
        let bandRows = fast ? Int.max : Self.bandRows
        for (index, tile) in wanted {
            let picture = placements[index].picture
            for band in ShownRow.missingBands(of: tile, shown: shown, bandRows: bandRows) {
                if fast {
                    append(band, of: picture, to: &frameBytes)
                } else {
                    var bytes: [UInt8] = []
                    append(band, of: picture, to: &bytes)
                    queue.append(band, chunks: [bytes])
                }
                shown.formUnion(ShownRow.rows(of: band))
            }
        }
    }

    /// The rows the last `plan` made on a fast link, handed to `send` (the output queue: written with the frame, after
    /// curses' part of it; no copy of the rows is made for it), then forgotten.
    func sendFrameBytes(_ send: ([UInt8]) -> Void) {
        guard !frameBytes.isEmpty else { return }
        send(frameBytes)
        frameBytes.removeAll(keepingCapacity: true)
    }

    /// The band's rows, each where it shows: the cursor and curses' attributes are saved first and restored after,
    /// so curses goes on from where it left off.
    private func append(_ band: PictureTile, of picture: CellPicture, to output: inout [UInt8]) {
        // (The row's first cell sets both colours; the attributes start plain whatever curses left on.)
        output.append(contentsOf: [0x1B, UInt8(ascii: "7"), 0x1B, UInt8(ascii: "["), UInt8(ascii: "m")])
        for offset in 0..<band.rect.height {
            Self.appendMove(band.rect.x, band.rect.y + offset, to: &output)
            appendRow(picture, row: band.row + offset, column: band.column, width: band.rect.width, to: &output)
        }
        output.append(contentsOf: [0x1B, UInt8(ascii: "8")])
    }

    /// CUP to the cell (x, y).
    static func appendMove(_ x: Int, _ y: Int, to output: inout [UInt8]) {
        func number(_ value: Int) {
            if value >= 10 { number(value / 10) }
            output.append(UInt8(48 + value % 10))
        }
        output.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        number(y + 1)
        output.append(UInt8(ascii: ";"))
        number(x + 1)
        output.append(UInt8(ascii: "H"))
    }

    /// Appends the bytes of the picture's row `row`, cells `column..<column + width`, made once.
    private func appendRow(_ picture: CellPicture, row: Int, column: Int, width: Int, to output: inout [UInt8]) {
        let key = RowKey(pictureID: picture.id, row: row, column: column, width: width)
        if let range = newer.rows[key] {
            output.append(contentsOf: newer.bytes[range])
            return
        }
        let start = newer.bytes.count
        if let range = older.rows[key] {
            newer.bytes.append(contentsOf: older.bytes[range])
        } else {
            ANSIPictureWriter.appendRow(picture, row: row, columns: column..<(column + width), mode: colorMode, to: &newer.bytes)
        }
        let range = start..<newer.bytes.count
        newer.rows[key] = range
        output.append(contentsOf: newer.bytes[range])
        if newer.bytes.count >= Self.maximumKeptBytes {
            older = newer
            newer = Generation()
        }
    }

    func moved(_ moves: RowMoves) {
        // A band still queued would land where its rows were: it goes again, where they are now.
        for tile in queue.withdraw(where: { _ in true }) { shown.subtract(ShownRow.rows(of: tile)) }
        shown = ShownRow.moved(shown, by: moves)
    }

    func wantsFrame(link: LinkState) -> Bool { false }

    func finish() -> [UInt8] {
        _ = queue.withdraw { _ in true }
        frameBytes.removeAll()
        let output = drain()
        shown.removeAll()
        return output
    }
}
