import Foundation
import TerminalImage

/// Kitty graphics with direct placements (kitty, Ghostty, Konsole, Zellij, xterm.js): the terminal keeps each picture
/// uploaded and shows it by placements; it plays an animation's frames itself where it says it does.
enum KittyProtocol: PictureProtocol {
    static let mode = GraphicsMode.kitty
    static let playback = PictureDrawer.AnimationPlayback.terminalFrames
    static let cropsPlacements = true

    static func layer(_ setup: PictureLayerSetup) -> PictureLayer? {
        KittyPictureLayer(pacesAnimations: setup.profile.graphics.playback == .framesInPlace)
    }

    static func frames(_ cells: RenderCells) -> PacedFrames { KittyFrames(cells) }
    static func playedFrames(_ cells: RenderCells) -> PlayedFrames? { KittyPlayedFrames(cells) }

    /// Zellij draws Kitty graphics itself from 0.45 (it answers the query; its DA1 is never read as Sixel); elsewhere a
    /// terminal that answered the query draws them, unless its row says its Kitty graphics are not to be used.
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict? {
        switch context.between {
        case .zellij:
            return context.abilities?.kittyGraphics == true
                ? .chosen("inside Zellij, which answered the Kitty graphics query (it draws them itself from 0.45)")
                : .refused("inside Zellij, which draws no Kitty graphics before 0.45 (and passes no Sixel before 0.45)")
        case .nothing:
            guard context.abilities?.kittyGraphics == true, context.row?.kittyAnswer != .ignored else { return nil }
            return .chosen("the terminal\(context.name) answered the Kitty graphics query")
        case .tmux, .gnuScreen, .herdr:
            return nil
        }
    }

    /// Named in the settings inside tmux or GNU screen: only placeholders can work there.
    static func chosen(bySetting context: GraphicsContext) -> GraphicsChoice? {
        KittyPlaceholdersProtocol.inMultiplexer(named: mode, context)
    }

    static func animation(in context: GraphicsContext) -> (PictureDrawer.AnimationPlayback, String)? {
        playback(in: context)
    }

    /// Whether the terminal plays an animation's frames: what it answered when asked (kitty: OK; Zellij: ENOTSUPPORTED;
    /// xterm.js: EINVAL; Ghostty, Konsole: nothing), else what its row says; where they stand, the program paces them.
    static func playback(in context: GraphicsContext) -> (PictureDrawer.AnimationPlayback, String) {
        let paced = PictureDrawer.AnimationPlayback.framesInPlace
        switch context.abilities?.kittyFrames {
        case .played?: return (.terminalFrames, "the terminal played a test frame: it plays the frames it is given")
        case let .refused(error)?: return (paced, "the terminal refused a test frame (\(error)): the program paces the frames")
        case .unanswered?: return (paced, "the terminal did not answer a test frame: the program paces the frames")
        case nil: break
        }
        if context.between == .zellij { return (paced, "Zellij refuses animation frames: the program paces them") }
        if let row = context.row, row.kittyFramesStand { return (paced, "\(row.name) plays no animation frames: the program paces them") }
        return (.terminalFrames, "the terminal plays the frames it is given (\(context.row?.name ?? "not asked"))")
    }

    /// A picture as `render` sends it: at its own size when that is at most half the cells' pixels (the terminal scales
    /// it to the cells it is placed over: an 8-frame 240x160 GIF at 80x24 sent 4.25 MB enlarged to 720x480), else at
    /// the cells' pixels, as sharp as a still (the terminal's scaling of a few pixels would blur it for little gain).
    static func sized(_ image: RGBImage, for cells: RenderCells) -> RGBImage {
        let size = cells.pixels
        let ownSize = image.width <= size.width && image.height <= size.height && image.width * image.height * 2 <= size.width * size.height
        return ownSize || (image.width == size.width && image.height == size.height)
            ? image : AreaResampler.resize(image, width: size.width, height: size.height)
    }

    /// An id for a picture `render` sends (another program's pictures in the same terminal are not touched).
    static func renderID() -> UInt32 { UInt32.random(in: 1_000_000...(UInt32.max - 1)) }
}

/// `render`'s pictures where the terminal plays no frames: each at the cursor under one of two ids, over the last,
/// whose placement then goes (the terminal holds two at most); each frame's payload made once, while they come to little.
final class KittyFrames: PacedFrames {
    let cells: RenderCells
    private let ids: [UInt32]
    private var payloads: [Int: KittyGraphics.Payload] = [:]
    private var payloadBytes = 0

    init(_ cells: RenderCells) {
        self.cells = cells
        let id = KittyProtocol.renderID()
        ids = [id, id + 1]
    }

    func frame(_ image: RGBImage, index: Int, drawn: Int) throws -> [UInt8] {
        let image = KittyProtocol.sized(image, for: cells)
        let payload: KittyGraphics.Payload
        if let kept = payloads[index] {
            payload = kept
        } else {
            payload = KittyGraphics.payload(of: image)
            if payloadBytes + payload.base64.count <= AnimationLimits.drawnFrameBytes {
                payloads[index] = payload
                payloadBytes += payload.base64.count
            }
        }
        var bytes = KittyGraphics.transmit(image, id: ids[drawn % 2], display: (cells.columns, cells.rows), prepared: payload)
        if drawn > 0 { bytes += Array(KittyGraphics.deletePlacements(id: ids[(drawn + 1) % 2]).utf8) }
        // The picture takes its rows; the cursor goes under it.
        return bytes + Array(String(repeating: "\n", count: cells.rows).utf8)
    }

    func end(drawn: Int) -> [UInt8] {
        // The frame before the last lets its pixels go.
        drawn > 1 ? Array(KittyGraphics.retire(id: ids[drawn % 2]).utf8) : []
    }
}

/// `render`'s animation given to kitty: every frame sent once as it is read, then played; nothing per loop.
final class KittyPlayedFrames: PlayedFrames {
    let cells: RenderCells
    private let id = KittyProtocol.renderID()
    private var sent = 0

    init(_ cells: RenderCells) {
        self.cells = cells
    }

    func frame(_ image: RGBImage, index: Int, delay: Double) throws -> [UInt8] {
        let image = KittyProtocol.sized(image, for: cells)
        let milliseconds = Int((delay * 1000).rounded())
        defer { sent += 1 }
        guard sent > 0 else {
            return KittyGraphics.transmit(image, id: id, display: (cells.columns, cells.rows))
                + Array(KittyGraphics.firstFrameGap(id: id, milliseconds: milliseconds).utf8)
        }
        return KittyGraphics.animationFrame(image, index: index, delay: milliseconds, id: id)
    }

    func play(loops: Int) -> [UInt8] {
        Array((KittyGraphics.play(id: id, loops: loops) + String(repeating: "\n", count: cells.rows)).utf8)
    }

    func stop() -> [UInt8] { Array("\u{1B}_Ga=a,i=\(id),s=1,q=2\u{1B}\\".utf8) }

    func cut() -> [UInt8] { sent > 0 ? Array(String(repeating: "\n", count: cells.rows).utf8) : [] }
}

/// The Kitty graphics protocol with direct placements: each picture is uploaded once (compressed), then
/// each frame only places, moves and takes away placements. A scroll step costs placements, not pixels.
///
/// On a slow link a picture is first uploaded smaller (the terminal scales a placement to its cells), and
/// again in full once the link has been idle and the picture is still in view (`UploadBook`).
final class KittyPictureLayer: QueuedPictureLayer {
    enum JobKey: Hashable {
        case upload(UInt32) // Kitty image id
        case place(PictureTile, UInt32)
        case control
    }

    private var book: UploadBook
    private var shown: [PictureTile: (kittyID: UInt32, placement: UInt32)] = [:]
    var queue = ChunkQueue<JobKey>()
    private var nextPlacement: UInt32 = 1
    private var nextKittyID: UInt32 = 1
    /// Kitty ids let go of (retired, or an upload withdrawn), each taken again by a later upload: kitty keeps a
    /// one-pixel picture under a retired id, so the ids are reused and what it holds stays bounded. Whatever
    /// retired an id is queued ahead of the upload that reuses it.
    private var freeKittyIDs: [UInt32] = []
    /// The terminal keeps pictures but plays no animation: the program paces an animation's frames, each going up
    /// whole under one of two ids and placed over the last (`showFrame`).
    let pacesAnimations: Bool

    init(budget: Int = 96 << 20, pacesAnimations: Bool = false) {
        book = UploadBook(budget: budget)
        self.pacesAnimations = pacesAnimations
    }

    var usesBottomRow: Bool { true }

    func prepare(_ buffer: CellBuffer, repainted: Bool, link: LinkState) -> CellBuffer { buffer }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {
        book.nextFrame()
        if repainted {
            // The screen was cleared (a resize, Ctrl-L), and clearing the screen makes kitty forget the
            // pictures on it, data and all: every picture is sent again when next shown.
            _ = queue.withdraw { _ in true }
            if !book.isEmpty { control(KittyGraphics.deleteAll) }
            shown.removeAll()
            book.reset()
        }
        let wanted = Self.tiles(buffer, bottomRow: true)
        let wantedTiles = Set(wanted.map(\.1))
        let liveIDs = Set(wanted.compactMap { book[$0.1.pictureID]?.id })
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
                if let picture = book.picture(withID: id), let spare = book.forget(picture)?.spareID { retire(spare) }
                freeKittyIDs.append(id)
            case let .place(tile, id):
                if shown[tile]?.kittyID == id { shown[tile] = nil }
            case .control:
                break
            }
        }
        for (tile, entry) in shown where !wantedTiles.contains(tile) {
            control(KittyGraphics.deletePlacement(id: entry.kittyID, placement: entry.placement))
            shown[tile] = nil
        }
        // Ids an animation's frame was shown under until this plan: their placements go once the next frame's are made.
        var replaced: [UInt32] = []
        var advanced = Set<UInt32>()
        for (placement, tile) in wanted {
            let picture = placement.picture
            let frame = pacesAnimations ? pacedFrame(placement) : nil
            if book[picture.id] == nil { upload(picture, scale: linkScale(picture, link: link), frame: frame) }
            book.touch(picture.id)
            if let frame, let entry = book[picture.id], entry.frame != frame, advanced.insert(picture.id).inserted,
               let old = showFrame(frame, of: picture, entry) {
                replaced.append(old)
            }
            guard let entry = book[picture.id] else { continue }
            if shown[tile]?.kittyID != entry.id { place(tile, of: picture, entry) }
            if !pacesAnimations, let command = book.playbackCommand(for: picture, wanted: placement.playback) { control(command) }
        }
        for id in replaced { control(KittyGraphics.deletePlacements(id: id)) }
        // The link has been idle: the largest picture in view that went small goes again in full.
        if let picture = book.fullAgain(inView: wanted.map(\.0.picture), link: link, queueEmpty: queue.isEmpty),
           let old = book.forget(picture.id) {
            upload(picture, scale: 1)
            if let entry = book[picture.id] {
                for (_, tile) in wanted where tile.pictureID == picture.id { place(tile, of: picture, entry) }
            }
            retire(old.id)
        }
        book.noteInView(wanted.map(\.1.pictureID))
        for entry in book.evict(keeping: Set(wanted.map(\.1.pictureID))) {
            // An upload still queued is withdrawn (ended with its id retired, if it began); else the id is retired.
            if queue.withdraw(where: { $0 == .upload(entry.id) }).isEmpty {
                retire(entry.id)
            } else {
                freeKittyIDs.append(entry.id)
            }
            if let spare = entry.spareID { retire(spare) }
        }
    }

    /// curses scrolled rows (it does wherever the terminal scrolls a region), and kitty moved the placements in them
    /// with the text. A placement moved whole within the region is where its tile moved to; one cut by the region's
    /// edge or scrolled off goes (by its id, wherever it is now), and the frame places its tile again. A placement
    /// still waiting is written after the scroll, at its own cells.
    func moved(_ moves: RowMoves) {
        var kept = shown
        var arrived: [(PictureTile, (kittyID: UInt32, placement: UInt32))] = []
        for (tile, entry) in shown where !queue.waits(.place(tile, entry.kittyID)) {
            let rows = tile.rect.y..<tile.rect.maxY
            guard rows.contains(where: { moves.destination(of: $0) != $0 }) else { continue }
            kept[tile] = nil
            let shifts = Set(rows.map { row in moves.destination(of: row).map { $0 - row } })
            if shifts.count == 1, let shift = shifts.first ?? nil {
                var moved = tile
                moved.rect.y += shift
                arrived.append((moved, entry))
            } else {
                control(KittyGraphics.deletePlacement(id: entry.kittyID, placement: entry.placement))
            }
        }
        for (tile, entry) in arrived {
            if kept[tile] == nil {
                kept[tile] = entry
            } else {
                control(KittyGraphics.deletePlacement(id: entry.kittyID, placement: entry.placement))
            }
        }
        shown = kept
    }

    private func control(_ command: String) {
        queue.append(.control, chunks: [Array(command.utf8)], withdrawable: false)
    }

    /// Lets one picture go in the terminal (never a delete that frees data: in kitty before 0.38.1 that takes every
    /// picture kept off screen with it, and the feed would come back blank after the viewer) and frees its id.
    private func retire(_ id: UInt32) {
        control(KittyGraphics.retire(id: id))
        freeKittyIDs.append(id)
    }

    /// An id for a picture: one let go of, else a new one.
    private func takeID() -> UInt32 {
        guard freeKittyIDs.isEmpty else { return freeKittyIDs.removeFirst() }
        let id = nextKittyID
        nextKittyID = nextKittyID == UInt32.max ? 1 : nextKittyID + 1
        return id
    }

    /// `frame`: for an animation the program paces, the frame to send (the others go when they are due).
    private func upload(_ picture: PixelPicture, scale: Double, frame: Int? = nil) {
        let image = picture.scaled(scale)
        let id = takeID()
        let bytes: [UInt8]
        if let frame {
            let made = kittyFrame(picture, frame, width: image.width, height: image.height)
            bytes = KittyGraphics.transmit(made.image, id: id, prepared: made.prepared)
        } else {
            bytes = KittyGraphics.transmit(image, id: id, prepared: preparedPayload(picture, sentAs: image)) + kittyMotion(picture, sentAs: image, id: id)
        }
        queue.append(.upload(id), chunks: escapeSequences(bytes), abort: kittyAbort(id: id, retiring: true), stores: true)
        book.record(picture, image: image, id: id, paced: frame)
    }

    /// Frame `index` of an animation the program paces goes up under the id the frame before the last was shown under
    /// (or a new one the first time), to be placed over the one shown: the terminal holds two frames at most, and the
    /// picture never leaves the screen between them. Returns the id shown until now, whose placements then go. Nothing
    /// while the frame before is still on its way: frames are skipped, never queued.
    private func showFrame(_ index: Int, of picture: PixelPicture, _ entry: UploadBook.Entry) -> UInt32? {
        guard !queue.contains(.upload(entry.id)) else { return nil }
        let id = entry.spareID ?? takeID()
        let made = kittyFrame(picture, index, width: entry.width, height: entry.height)
        queue.append(.upload(id), chunks: escapeSequences(KittyGraphics.transmit(made.image, id: id, prepared: made.prepared)),
                     abort: kittyAbort(id: id, retiring: true), stores: true)
        book.showFrame(index, of: picture.id, id: id)
        return entry.id
    }

    private func place(_ tile: PictureTile, of picture: PixelPicture, _ entry: UploadBook.Entry) {
        let source = picture.pixelRect(column: tile.column, row: tile.row, columns: tile.rect.width, rows: tile.rect.height,
                                       inWidth: entry.width, height: entry.height)
        guard source.width > 0, source.height > 0 else { return }
        let id = nextPlacement
        nextPlacement = nextPlacement == UInt32.max ? 1 : nextPlacement + 1
        let command = KittyGraphics.place(id: entry.id, placement: id, x: source.x, y: source.y, width: source.width,
                                          height: source.height, columns: tile.rect.width, rows: tile.rect.height)
        queue.append(.place(tile, entry.id), chunks: [atCell(tile.rect.x, tile.rect.y, Array(command.utf8))])
        shown[tile] = (entry.id, id)
    }


    func wantsFrame(link: LinkState) -> Bool {
        book.wantsFrame(link: link, queueEmpty: queue.isEmpty)
    }

    var wantsFrameSoon: Bool { book.waitsForTerminal }

    func finish() -> [UInt8] {
        _ = queue.withdraw { _ in true }
        var output = drain()
        if !book.isEmpty || !output.isEmpty { output += Array(KittyGraphics.deleteAll.utf8) }
        book.reset()
        shown.removeAll()
        return output
    }
}
