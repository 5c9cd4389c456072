import Foundation
import TerminalImage

/// Pictures drawn into the cells they cover, Sixel or iTerm2's inline images: each piece of a picture in view
/// is drawn once; it is drawn again only when it moves, changes, or curses wrote over it. Pieces never reach
/// the last row (a picture there scrolls the terminal). The backend keeps picture cells distinct in curses'
/// own picture of the screen, so that when a picture goes, curses rewrites its cells and the terminal's
/// pixels there go too.
///
/// On a slow link, pieces are sent in bands a few rows high (a key waits for one band, not a whole picture);
/// iTerm2's pictures are sent smaller (the terminal stretches them over their cells), and Sixel pictures, which
/// the terminal cannot scale, are drawn in characters until the link has been idle, then in pixels.
final class InlinePictureLayer: QueuedPictureLayer {
    enum Format {
        case sixel, iterm2
    }

    let format: Format
    /// What pictures waiting for the link are drawn with meanwhile (the backend's colours).
    var cellsBlitter: HalfBlockBlitter?

    /// Sixel pictures move with the rows when the terminal scrolls, within its scrolling region (xterm, mlterm).
    let followsScrolls: Bool

    /// xterm copies a picture's Sixel pixels with a scroll and leaves them in the rows it brings in too.
    var leavesPixelsInRowsScrolledIn: Bool { followsScrolls }

    init(format: Format, followsScrolls: Bool = false) {
        self.format = format
        self.followsScrolls = followsScrolls && format == .sixel
    }

    /// The rows of pieces drawn or queued.
    private var shown: Set<ShownRow> = []
    var queue = ChunkQueue<PictureTile>()
    /// Pictures in view sent in pixels on a slow link; the others are characters for now.
    private var inPixels: Set<UInt32> = []
    /// Pictures sent at full resolution on a slow link (iTerm2), once the link had room.
    private var full: Set<UInt32> = []
    /// Each picture in characters, while it waits.
    private var inCells: [UInt32: CellPicture] = [:]
    private var waiting = false

    /// A part of a picture, wherever it is on screen (a card moved up draws the same Sixel).
    private struct Piece: Hashable {
        var pictureID: UInt32
        var column: Int
        var row: Int
        var columns: Int
        var rows: Int
        var scale: Double
    }

    /// Pieces encoded on another thread, handed over when the loop plans again.
    private final class Encoding: @unchecked Sendable {
        private let lock = NSLock()
        private var done: [Piece: [UInt8]] = [:]
        private var failed: Set<Piece> = []
        private var pending: Set<Piece> = []
        func isPending(_ piece: Piece) -> Bool { lock.withLock { pending.contains(piece) } }
        var isBusy: Bool { lock.withLock { !pending.isEmpty } }
        var hasResults: Bool { lock.withLock { !done.isEmpty || !failed.isEmpty } }
        func begin(_ piece: Piece) { lock.withLock { _ = pending.insert(piece) } }
        func finish(_ piece: Piece, _ bytes: [UInt8]?) {
            lock.withLock {
                pending.remove(piece)
                if let bytes { done[piece] = bytes } else { failed.insert(piece) }
            }
        }
        func take() -> [Piece: [UInt8]] {
            lock.withLock {
                defer { done.removeAll(); failed.removeAll() }
                return done
            }
        }

        /// Each picture's colours, chosen once (the most recent few).
        private var quantized: [UInt32: SixelEncoder.Quantized] = [:]
        private var quantizedOrder: [UInt32] = []

        func quantized(_ picture: PixelPicture) -> SixelEncoder.Quantized? {
            if let known = lock.withLock({ quantized[picture.id] }) { return known }
            // An animation's next frame takes the colours of the frame it follows (chosen once, for the first).
            let earlier = picture.follows.flatMap { follows in lock.withLock { quantized[follows.pictureID] } }
            guard let made = earlier.flatMap({ SixelEncoder.Quantized(picture.image, sharingPaletteOf: $0) }) ?? SixelEncoder.Quantized(picture.image)
            else { return nil }
            lock.withLock {
                quantized[picture.id] = made
                quantizedOrder.append(picture.id)
                if quantizedOrder.count > 12 { quantized[quantizedOrder.removeFirst()] = nil }
            }
            return made
        }
    }

    /// Sixel is encoded off the run loop (libsixel takes tens of milliseconds for a card): a key's frame goes
    /// at once and the piece follows when it is ready. Off in the tests, which read a frame's bytes at once.
    var encodesInBackground = false
    /// Wakes the run loop when a piece is ready.
    var wake: (@Sendable () -> Void)?
    private let encoding = Encoding()
    private static let encoder = DispatchQueue(label: "image-feed.sixel", qos: .userInitiated)

    /// Encoded pieces kept for the next frames (a card moved, or scrolling back into view), most recent last.
    private var encoded: [Piece: [UInt8]] = [:]
    private var encodedOrder: [Piece] = []
    private let maximumEncoded = 96

    var usesBottomRow: Bool { false }

    /// Cell rows in a band on a slow link.
    static let bandRows = 4

    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer {
        let onScreen = Set(buffer.placements.map(\.picture.id))
        inPixels.formIntersection(onScreen)
        full.formIntersection(onScreen)
        inCells = inCells.filter { onScreen.contains($0.key) }
        guard format == .sixel, link.rate != nil, let blitter = cellsBlitter else {
            // A fast link: every picture in pixels (and one that was in pixels stays so if the link slows).
            inPixels = onScreen
            waiting = false
            return buffer
        }
        // A picture that crosses the link in its share of time goes in pixels at once (on a link slow only
        // for big pictures, cards are pixels and the viewer's photo waits).
        for placement in buffer.placements where !inPixels.contains(placement.picture.id) {
            let picture = placement.picture
            if LinkMeter.scale(pixels: picture.image.width * picture.image.height,
                               screenShare: link.share(columns: picture.columns, rows: picture.rows), rate: link.rate) >= 1 {
                inPixels.insert(picture.id)
            }
        }
        if link.idle >= LinkState.dwell, queue.isEmpty,
           let next = buffer.placements.filter({ !inPixels.contains($0.picture.id) })
               .max(by: { $0.picture.columns * $0.picture.rows < $1.picture.columns * $1.picture.rows }) {
            inPixels.insert(next.picture.id)
        }
        var drawn = buffer
        waiting = false
        for placement in buffer.placements where !inPixels.contains(placement.picture.id) {
            let picture = placement.picture
            let cells = inCells[picture.id] ?? blitter.render(picture.image, columns: picture.columns, rows: picture.rows)
            inCells[picture.id] = cells
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    let column = x - placement.x, row = y - placement.y
                    guard column >= 0, row >= 0, column < cells.columns, row < cells.rows else { continue }
                    let cell = cells[column, row]
                    drawn[x, y] = Cell(cell)
                    waiting = true
                }
            }
        }
        return drawn
    }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {
        if repainted {
            shown.removeAll()
            _ = queue.withdraw { _ in true }
        }
        for (piece, bytes) in encoding.take() { remember(piece, bytes) }
        let wanted = Self.tiles(buffer, bottomRow: false)
        let wantedRows = Set(wanted.flatMap { ShownRow.rows(of: $0.1) })
        for tile in queue.withdraw(where: { !ShownRow.rows(of: $0).allSatisfy(wantedRows.contains) }) {
            shown.subtract(ShownRow.rows(of: tile))
        }
        // An animation's next frame: the rows it shares with the frame on screen stay as they are.
        for (placement, _) in wanted {
            guard let follows = placement.picture.follows else { continue }
            shown = Set(shown.map { row in
                guard row.pictureID == follows.pictureID, follows.unchangedRows.contains(row.row) else { return row }
                var same = row
                same.pictureID = placement.picture.id
                return same
            })
        }
        shown.formIntersection(wantedRows)
        if format == .iterm2, link.rate != nil, link.idle >= LinkState.dwell, queue.isEmpty,
           let small = wanted.first(where: { !full.contains($0.1.pictureID) && scale(of: $0.0.picture, link: link) < 1 }) {
            // The link has room: the picture goes again at full resolution.
            full.insert(small.1.pictureID)
            shown = shown.filter { $0.pictureID != small.1.pictureID }
        }
        // Only the rows of each piece the terminal does not show already (a card moved by a scroll shows the
        // rows it had; the rows it brings into view are drawn).
        let bandRows = link.rate != nil ? Self.bandRows : Int.max
        for (placement, tile) in wanted {
            for band in ShownRow.missingBands(of: tile, shown: shown, bandRows: bandRows) {
                if let bytes = piece(for: band, of: placement.picture, scale: scale(of: placement.picture, link: link)) {
                    queue.append(band, chunks: [atCell(band.rect.x, band.rect.y, bytes)])
                    shown.formUnion(ShownRow.rows(of: band))
                }
            }
        }
    }

    func moved(_ moves: RowMoves) {
        // Where the terminal leaves the pixels where they were, what was drawn is still there.
        guard followsScrolls else { return }
        // A band still queued would land where its rows were: it goes again, where they are now.
        for tile in queue.withdraw(where: { _ in true }) { shown.subtract(ShownRow.rows(of: tile)) }
        shown = ShownRow.moved(shown, by: moves)
    }

    /// The scale an iTerm2 picture is sent at (Sixel: always full, or characters).
    private func scale(of picture: PixelPicture, link: LinkState) -> Double {
        guard format == .iterm2, !full.contains(picture.id) else { return 1 }
        return LinkMeter.scale(pixels: picture.image.width * picture.image.height,
                               screenShare: link.share(columns: picture.columns, rows: picture.rows), rate: link.rate)
    }

    private func remember(_ piece: Piece, _ bytes: [UInt8]) {
        encoded[piece] = bytes
        encodedOrder.append(piece)
        if encodedOrder.count > maximumEncoded {
            encoded[encodedOrder.removeFirst()] = nil
        }
    }

    private func piece(for tile: PictureTile, of picture: PixelPicture, scale: Double) -> [UInt8]? {
        let piece = Piece(pictureID: tile.pictureID, column: tile.column, row: tile.row, columns: tile.rect.width,
                          rows: tile.rect.height, scale: scale)
        if let cached = encoded[piece] { return cached }
        guard encodesInBackground else {
            guard let bytes = Self.encode(piece, of: picture, format: format, scale: scale, encoding: encoding) else { return nil }
            remember(piece, bytes)
            return bytes
        }
        if !encoding.isPending(piece) {
            encoding.begin(piece)
            let format = self.format, encoding = self.encoding, wake = self.wake
            Self.encoder.async {
                encoding.finish(piece, Self.encode(piece, of: picture, format: format, scale: scale, encoding: encoding))
                wake?()
            }
        }
        return nil
    }

    /// What the terminal draws for `piece`: a Sixel, or an iTerm2 inline image at `scale` of its pixels.
    private static func encode(_ piece: Piece, of picture: PixelPicture, format: Format, scale: Double,
                               encoding: Encoding) -> [UInt8]? {
        let source = picture.pixelRect(column: piece.column, row: piece.row, columns: piece.columns, rows: piece.rows)
        guard source.width > 0, source.height > 0 else { return nil }
        if format == .sixel {
            // The picture's colours are chosen once, over all of it: every piece is the very pixels of the whole.
            return encoding.quantized(picture)?.encode(x: source.x, y: source.y, width: source.width, height: source.height)
        }
        // A GIF the terminal plays itself goes as it came, when the whole picture is drawn at once.
        if let file = picture.motion?.file, scale >= 1, piece.column == 0, piece.row == 0, piece.columns == picture.columns,
           piece.rows == picture.rows {
            return ITerm2Images.inline(file: file, columns: piece.columns, rows: piece.rows)
        }
        var part = picture.crop(x: source.x, y: source.y, width: source.width, height: source.height)
        if scale < 1 {
            part = AreaResampler.resize(part, width: max(piece.columns, Int(Double(part.width) * scale)),
                                        height: max(piece.rows, Int(Double(part.height) * scale)))
        }
        return ITerm2Images.inline(part, columns: piece.columns, rows: piece.rows, quality: scale < 1 ? 80 : 92)
    }


    /// Pieces are being encoded.
    var isPreparing: Bool { encoding.isBusy || encoding.hasResults }

    func wantsFrame(link: LinkState) -> Bool {
        if encoding.hasResults { return true }
        guard queue.isEmpty, link.idle >= LinkState.dwell, link.rate != nil else { return false }
        return waiting || (format == .iterm2 && shown.contains { !full.contains($0.pictureID) })
    }

    func finish() -> [UInt8] {
        _ = queue.withdraw { _ in true }
        let output = drain()
        shown.removeAll()
        return output
    }
}
