import Foundation
import TerminalImage

extension PixelPicture {
    /// The pixels under cells (`column`, `row`, `columns` x `rows`) in a copy of the picture `width` x `height`
    /// pixels (a copy sent smaller on a slow link).
    func pixelRect(column: Int, row: Int, columns: Int, rows: Int, inWidth width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        guard width != image.width || height != image.height else {
            return pixelRect(column: column, row: row, columns: columns, rows: rows)
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

/// Cursor saved, moved to the cell, `bytes`, cursor and colours put back as curses left them: a chunk that can
/// go between any two of curses' frames.
private func atCell(_ x: Int, _ y: Int, _ bytes: [UInt8]) -> [UInt8] {
    Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
}

/// What ends a Kitty upload cut short: its last chunk (empty, so the terminal drops what it got) and a delete
/// of the id, in case it kept anything.
private func kittyAbort(id: UInt32) -> [UInt8] {
    Array("\u{1B}_Gm=0,q=2;\u{1B}\\".utf8) + Array(KittyGraphics.deletePicture(id: id).utf8)
}

/// The Kitty graphics protocol with direct placements: each picture is uploaded once (compressed), then
/// each frame only places, moves and takes away placements. A scroll step costs placements, not pixels.
///
/// On a slow link a picture is first uploaded smaller (the terminal scales a placement to its cells), and
/// again in full once the link has been idle and the picture is still in view.
final class KittyPictureLayer: PictureLayer {
    enum JobKey: Hashable {
        case upload(UInt32) // Kitty image id
        case place(PictureTile, UInt32)
        case control
    }

    private struct Uploaded {
        var kittyID: UInt32
        var width: Int
        var height: Int
        var full: Bool
        var lastUsed: Int
        var bytes: Int { width * height * 3 }
    }

    private var uploaded: [UInt32: Uploaded] = [:] // by PixelPicture id
    private var uploadedBytes = 0
    private var shown: [PictureTile: (kittyID: UInt32, placement: UInt32)] = [:]
    private var queue = ChunkQueue<JobKey>()
    private var nextPlacement: UInt32 = 1
    private var nextKittyID: UInt32 = 1
    private var frameNumber = 0
    /// A picture in view was sent smaller than it is.
    private var smallInView = false
    /// Raw pixels kept uploaded in the terminal before the least recently shown are let go (kitty's own
    /// quota is 320 MB).
    let budget: Int

    init(budget: Int = 96 << 20) {
        self.budget = budget
    }

    var usesBottomRow: Bool { true }

    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer { buffer }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {
        frameNumber += 1
        if repainted {
            // The screen was cleared (a resize, Ctrl-L), and clearing the screen makes kitty forget the
            // pictures on it, data and all: every picture is sent again when next shown.
            _ = queue.withdraw { _ in true }
            if !uploaded.isEmpty { queue.append(.control, chunks: [Array(KittyGraphics.deleteAll.utf8)], withdrawable: false) }
            shown.removeAll()
            uploaded.removeAll()
            uploadedBytes = 0
        }
        let wanted = Self.tiles(buffer, bottomRow: true)
        let wantedTiles = Set(wanted.map(\.1))
        let liveIDs = Set(wanted.compactMap { uploaded[$0.1.pictureID]?.kittyID })
        // What is queued for pictures and places no longer wanted goes before a byte of it is written.
        for key in queue.withdraw(where: { key in
            switch key {
            case let .upload(id): !liveIDs.contains(id)
            case let .place(tile, id): !wantedTiles.contains(tile) || !liveIDs.contains(id)
            case .control: false
            }
        }) {
            switch key {
            case let .upload(id):
                if let (picture, entry) = uploaded.first(where: { $0.value.kittyID == id }) {
                    uploadedBytes -= entry.bytes
                    uploaded[picture] = nil
                }
            case let .place(tile, id):
                if shown[tile]?.kittyID == id { shown[tile] = nil }
            case .control:
                break
            }
        }
        for (tile, entry) in shown where !wantedTiles.contains(tile) {
            queue.append(.control, chunks: [Array(KittyGraphics.deletePlacement(id: entry.kittyID, placement: entry.placement).utf8)],
                         withdrawable: false)
            shown[tile] = nil
        }
        for (placement, tile) in wanted {
            let picture = placement.picture
            if uploaded[picture.id] == nil {
                let scale = LinkMeter.scale(pixels: picture.image.width * picture.image.height,
                                            screenShare: link.share(columns: picture.columns, rows: picture.rows), rate: link.rate)
                upload(picture, scale: scale)
            }
            uploaded[picture.id]?.lastUsed = frameNumber
            guard let entry = uploaded[picture.id] else { continue }
            if let known = shown[tile], known.kittyID == entry.kittyID { continue }
            place(tile, of: picture, entry)
        }
        // The link has been idle: the largest picture in view that went small goes again in full.
        let small = wanted.filter { uploaded[$0.1.pictureID]?.full == false }
        if link.idle >= LinkState.dwell, queue.isEmpty,
           let (placement, _) = small.max(by: { $0.0.picture.columns * $0.0.picture.rows < $1.0.picture.columns * $1.0.picture.rows }),
           let old = uploaded[placement.picture.id] {
            let picture = placement.picture
            uploadedBytes -= old.bytes
            uploaded[picture.id] = nil
            upload(picture, scale: 1)
            if let entry = uploaded[picture.id] {
                for (_, tile) in wanted where tile.pictureID == picture.id { place(tile, of: picture, entry) }
            }
            queue.append(.control, chunks: [Array(KittyGraphics.deletePicture(id: old.kittyID).utf8)], withdrawable: false)
        }
        smallInView = wanted.contains { uploaded[$0.1.pictureID]?.full == false }
        evict(keeping: Set(wanted.map(\.1.pictureID)))
    }

    private func upload(_ picture: PixelPicture, scale: Double) {
        let image = picture.scaled(scale)
        let id = nextKittyID
        nextKittyID = nextKittyID == UInt32.max ? 1 : nextKittyID + 1
        queue.append(.upload(id), chunks: escapeSequences(KittyGraphics.transmit(image, id: id)), abort: kittyAbort(id: id))
        let entry = Uploaded(kittyID: id, width: image.width, height: image.height, full: image.width == picture.image.width,
                             lastUsed: frameNumber)
        uploaded[picture.id] = entry
        uploadedBytes += entry.bytes
    }

    private func place(_ tile: PictureTile, of picture: PixelPicture, _ entry: Uploaded) {
        let source = picture.pixelRect(column: tile.column, row: tile.row, columns: tile.rect.width, rows: tile.rect.height,
                                       inWidth: entry.width, height: entry.height)
        guard source.width > 0, source.height > 0 else { return }
        let id = nextPlacement
        nextPlacement = nextPlacement == UInt32.max ? 1 : nextPlacement + 1
        let command = KittyGraphics.place(id: entry.kittyID, placement: id, x: source.x, y: source.y, width: source.width,
                                          height: source.height, columns: tile.rect.width, rows: tile.rect.height)
        queue.append(.place(tile, entry.kittyID), chunks: [atCell(tile.rect.x, tile.rect.y, Array(command.utf8))])
        shown[tile] = (entry.kittyID, id)
    }

    /// Lets the terminal forget the pictures shown longest ago while more than the budget is uploaded.
    private func evict(keeping onScreen: Set<UInt32>) {
        guard uploadedBytes > budget else { return }
        for (picture, entry) in uploaded.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where uploadedBytes > budget * 3 / 4 {
            guard !onScreen.contains(picture) else { continue }
            if queue.withdraw(where: { $0 == .upload(entry.kittyID) }).isEmpty {
                queue.append(.control, chunks: [Array(KittyGraphics.deletePicture(id: entry.kittyID).utf8)], withdrawable: false)
            }
            uploadedBytes -= entry.bytes
            uploaded[picture] = nil
        }
    }

    func nextChunk() -> [UInt8]? { queue.next() }
    func chunkSent() { queue.sent() }
    var hasWork: Bool { !queue.isEmpty }

    func wantsFrame(link: LinkState) -> Bool {
        smallInView && queue.isEmpty && link.idle >= LinkState.dwell
    }

    func finish() -> [UInt8] {
        _ = queue.withdraw { _ in true }
        var output = drain()
        if !uploaded.isEmpty || !output.isEmpty { output += Array(KittyGraphics.deleteAll.utf8) }
        uploaded.removeAll()
        shown.removeAll()
        return output
    }
}

/// Pictures drawn into the cells they cover, Sixel or iTerm2's inline images: each piece of a picture in view
/// is drawn once; it is drawn again only when it moves, changes, or curses wrote over it. Pieces never reach
/// the last row (a picture there scrolls the terminal). The backend keeps picture cells distinct in curses'
/// own picture of the screen, so that when a picture goes, curses rewrites its cells and the terminal's
/// pixels there go too.
///
/// On a slow link, pieces are sent in bands a few rows high (a key waits for one band, not a whole picture);
/// iTerm2's pictures are sent smaller (the terminal stretches them over their cells), and Sixel pictures, which
/// the terminal cannot scale, are drawn in characters until the link has been idle, then in pixels.
final class InlinePictureLayer: PictureLayer {
    enum Format {
        case sixel, iterm2
    }

    let format: Format
    /// What pictures waiting for the link are drawn with meanwhile (the backend's colours).
    var cellsBlitter: HalfBlockBlitter?

    /// Sixel pictures move with the rows when the terminal scrolls, within its scrolling region (xterm, mlterm).
    let followsScrolls: Bool

    init(format: Format, followsScrolls: Bool = false) {
        self.format = format
        self.followsScrolls = followsScrolls && format == .sixel
    }

    /// One cell row of a piece drawn or queued: the picture's row `row` from its column `column`, over the
    /// screen's columns `x…x+width` of row `y`.
    struct ShownRow: Hashable {
        var pictureID: UInt32
        var x: Int
        var width: Int
        var column: Int
        var y: Int
        var row: Int
    }

    /// The rows of pieces drawn or queued.
    private var shown: Set<ShownRow> = []
    private var queue = ChunkQueue<PictureTile>()
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
            guard let made = SixelEncoder.Quantized(picture.image) else { return nil }
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
                    drawn[x, y] = Cell(String(cell.glyph), style: CellStyle(foreground: cell.foreground, background: cell.background))
                    waiting = true
                }
            }
        }
        return drawn
    }

    static func rows(of tile: PictureTile) -> [ShownRow] {
        (0..<tile.rect.height).map {
            ShownRow(pictureID: tile.pictureID, x: tile.rect.x, width: tile.rect.width, column: tile.column,
                     y: tile.rect.y + $0, row: tile.row + $0)
        }
    }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {
        if repainted {
            shown.removeAll()
            _ = queue.withdraw { _ in true }
        }
        for (piece, bytes) in encoding.take() { remember(piece, bytes) }
        let wanted = Self.tiles(buffer, bottomRow: false)
        let wantedRows = Set(wanted.flatMap { Self.rows(of: $0.1) })
        for tile in queue.withdraw(where: { !Self.rows(of: $0).allSatisfy(wantedRows.contains) }) {
            shown.subtract(Self.rows(of: tile))
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
            let rows = Self.rows(of: tile)
            var start: Int?
            for offset in 0...rows.count {
                let missing = offset < rows.count && !shown.contains(rows[offset])
                if missing, start == nil { start = offset }
                let runEnds = start.map { !missing || offset - $0 >= bandRows } ?? false
                guard runEnds, let first = start else { continue }
                let band = PictureTile(pictureID: tile.pictureID,
                                       rect: Rect(x: tile.rect.x, y: tile.rect.y + first, width: tile.rect.width, height: offset - first),
                                       column: tile.column, row: tile.row + first)
                if let bytes = piece(for: band, of: placement.picture, scale: scale(of: placement.picture, link: link)) {
                    queue.append(band, chunks: [atCell(band.rect.x, band.rect.y, bytes)])
                    shown.formUnion(Self.rows(of: band))
                }
                start = missing ? offset : nil
            }
        }
    }

    func moved(_ moves: RowMoves) {
        // A band still queued would land where its rows were: it goes again, where they are now.
        for tile in queue.withdraw(where: { _ in true }) { shown.subtract(Self.rows(of: tile)) }
        shown = Set(shown.compactMap { row in
            guard let now = moves.destination(of: row.y) else { return nil }
            var moved = row
            moved.y = now
            return moved
        })
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
        var part = picture.crop(x: source.x, y: source.y, width: source.width, height: source.height)
        if scale < 1 {
            part = AreaResampler.resize(part, width: max(piece.columns, Int(Double(part.width) * scale)),
                                        height: max(piece.rows, Int(Double(part.height) * scale)))
        }
        return ITerm2Images.inline(part, columns: piece.columns, rows: piece.rows, quality: scale < 1 ? 80 : 92)
    }

    func nextChunk() -> [UInt8]? { queue.next() }
    func chunkSent() { queue.sent() }
    var hasWork: Bool { !queue.isEmpty }

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

/// Pictures shown by Kitty's Unicode placeholders (kitty 0.28+, Ghostty; inside tmux, through its
/// passthrough): each picture is uploaded once with a virtual placement of its cells, and the frame's picture
/// cells become placeholder text that names the picture's cell, which curses draws (and tmux keeps) like any
/// other text. Text drawn over a picture simply replaces its placeholders; a card moved up is rows of text
/// moved up, which curses may send as a terminal scroll.
///
/// The picture's id travels in the foreground colour (its low byte, as a colour of the 256-colour palette, which
/// tmux passes on unchanged) and the third diacritic (its high byte); ids are given out here, 16–255 in the low
/// byte (past the 16 colours a terminal or tmux may send in their older SGR forms).
///
/// On a slow link a picture is first uploaded smaller (the virtual placement scales it to its cells), and again
/// in full, under the same id, once the link has been idle with the picture in view.
final class KittyPlaceholderLayer: PictureLayer {
    enum JobKey: Hashable {
        case upload(UInt32) // PixelPicture id
        case control
    }

    private struct Uploaded {
        var id: UInt32
        var bytes: Int
        var lastUsed: Int
        var full: Bool
    }

    /// Through tmux's passthrough (the program runs inside tmux).
    let tmux: Bool
    let budget: Int
    private var uploaded: [UInt32: Uploaded] = [:] // by PixelPicture id
    private var uploadedBytes = 0
    private var nextID = 0
    private var frameNumber = 0
    private var queue = ChunkQueue<JobKey>()
    private var smallInView = false
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

    private func wrapped(_ bytes: [UInt8]) -> [UInt8] { tmux ? KittyPlaceholders.tmuxPassthrough(bytes) : bytes }

    private func control(_ text: String) {
        queue.append(.control, chunks: [wrapped(Array(text.utf8))], withdrawable: false)
    }

    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer {
        frameNumber += 1
        if repainted {
            // Ctrl-L or a resize: the terminal may be another one (tmux attached from elsewhere) or have let
            // go of what it had; every picture is sent again when next shown.
            _ = queue.withdraw { _ in true }
            for entry in uploaded.values { control(KittyGraphics.deletePicture(id: entry.id)) }
            uploaded.removeAll()
            uploadedBytes = 0
        }
        let onScreen = Set(buffer.placements.map(\.picture.id))
        for key in queue.withdraw(where: { key in
            if case let .upload(picture) = key { return !onScreen.contains(picture) }
            return false
        }) {
            if case let .upload(picture) = key, let entry = uploaded[picture] {
                uploadedBytes -= entry.bytes
                uploaded[picture] = nil
            }
        }
        var drawn = buffer
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
                let scale = LinkMeter.scale(pixels: picture.image.width * picture.image.height,
                                            screenShare: link.share(columns: picture.columns, rows: picture.rows), rate: link.rate)
                upload(picture, id: id, scale: scale)
            }
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
        let small = buffer.placements.filter { uploaded[$0.picture.id]?.full == false }
        if link.idle >= LinkState.dwell, queue.isEmpty,
           let next = small.max(by: { $0.picture.columns * $0.picture.rows < $1.picture.columns * $1.picture.rows }),
           let entry = uploaded[next.picture.id] {
            // The link has room: the picture again in full, under the same id (its placeholders stay).
            uploadedBytes -= entry.bytes
            upload(next.picture, id: entry.id, scale: 1)
        }
        smallInView = buffer.placements.contains { uploaded[$0.picture.id]?.full == false }
        evict(keeping: onScreen)
        return drawn
    }

    private func upload(_ picture: PixelPicture, id: UInt32, scale: Double) {
        let image = picture.scaled(scale)
        let chunks = escapeSequences(KittyPlaceholders.transmit(image, id: id, columns: picture.columns, rows: picture.rows)).map(wrapped)
        queue.append(.upload(picture.id), chunks: chunks, abort: wrapped(kittyAbort(id: id)))
        uploaded[picture.id] = Uploaded(id: id, bytes: image.pixels.count, lastUsed: frameNumber, full: image.width == picture.image.width)
        uploadedBytes += image.pixels.count
    }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {}

    /// Lets the terminal forget the pictures shown longest ago while more than the budget is uploaded.
    private func evict(keeping onScreen: Set<UInt32>) {
        guard uploadedBytes > budget else { return }
        for (picture, entry) in uploaded.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where uploadedBytes > budget * 3 / 4 {
            guard !onScreen.contains(picture) else { continue }
            control(KittyGraphics.deletePicture(id: entry.id))
            uploadedBytes -= entry.bytes
            uploaded[picture] = nil
        }
    }

    func nextChunk() -> [UInt8]? { queue.next() }
    func chunkSent() { queue.sent() }
    var hasWork: Bool { !queue.isEmpty }

    func wantsFrame(link: LinkState) -> Bool {
        smallInView && queue.isEmpty && link.idle >= LinkState.dwell
    }

    func finish() -> [UInt8] {
        // Deleting by id is the only way to reach virtual placements (`d=A` leaves them).
        _ = queue.withdraw { _ in true }
        var output = drain()
        for entry in uploaded.values { output += wrapped(Array(KittyGraphics.deletePicture(id: entry.id).utf8)) }
        uploaded.removeAll()
        uploadedBytes = 0
        return output
    }
}
