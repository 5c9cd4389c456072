import Foundation
import TerminalImage

/// Kitty graphics shown by Unicode placeholders (inside tmux or GNU screen, through the passthrough): not for `render`,
/// whose output is no screen of text kept around the picture (it draws as direct placements there).
enum KittyPlaceholdersProtocol: PictureProtocol {
    static let mode = GraphicsMode.kittyPlaceholders
    static let playback = PictureDrawer.AnimationPlayback.terminalFrames

    static func layer(_ setup: PictureLayerSetup) -> PictureLayer? {
        KittyPlaceholderLayer(tmux: [.tmux, .gnuScreen].contains(setup.profile.between),
                              pacesAnimations: setup.profile.graphics.playback == .framesInPlace)
    }

    static func frames(_ cells: RenderCells) -> PacedFrames { KittyProtocol.frames(cells) }

    /// Inside tmux, attached to a terminal that draws placeholders, with the passthrough on and colours enough to name
    /// the pictures.
    static func chosen(_ context: inout GraphicsContext) -> GraphicsVerdict? {
        guard context.between == .tmux, let tmux = context.tmux else { return nil }
        let name = context.tmuxTerminal
        guard tmux.drawsPlaceholders else {
            return .refused("inside tmux, attached to a terminal (\(name)) that does not draw Kitty's Unicode placeholders")
        }
        guard tmux.passthrough else {
            return .refused("inside tmux, whose allow-passthrough is off: `set -g allow-passthrough on` in tmux.conf lets \(name) draw the photos")
        }
        let term = context.environment["TERM"] ?? ""
        guard term.contains("256color") || term.hasSuffix("-direct") else {
            return .refused("inside tmux with TERM=\(term), which has too few colours to name pictures (set tmux's default-terminal to tmux-256color)")
        }
        return .chosen("inside tmux with allow-passthrough on, the terminal (\(name)) draws Kitty's Unicode placeholders" + context.unsizedNote)
    }

    static func chosen(bySetting context: GraphicsContext) -> GraphicsChoice? {
        inMultiplexer(named: mode, context)
    }

    static func animation(in context: GraphicsContext) -> (PictureDrawer.AnimationPlayback, String)? {
        KittyProtocol.playback(in: context)
    }

    /// Kitty graphics named in the settings (`setting`) inside tmux or GNU screen: direct placements would land wherever
    /// the terminal's cursor is, over other panes, so placeholders, through the passthrough; nil outside them.
    static func inMultiplexer(named setting: GraphicsMode, _ context: GraphicsContext) -> GraphicsChoice? {
        guard context.multiplexed else { return nil }
        if let tmux = context.tmux, !tmux.passthrough {
            return context.choice(.cells, "graphics = \(setting.rawValue) in the settings, but tmux's allow-passthrough is off")
        }
        return context.choice(mode, "graphics = \(setting.rawValue) in the settings, inside tmux: Unicode placeholders" + context.unsizedNote)
    }
}

/// Pictures shown by Kitty's Unicode placeholders (kitty 0.28+, Ghostty, Rio; inside tmux, through its
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
/// in full, under the same id, once the link has been idle with the picture in view (`UploadBook`).
final class KittyPlaceholderLayer: QueuedPictureLayer {
    enum JobKey: Hashable {
        case upload(UInt32) // PixelPicture id
        case control
    }

    /// Through tmux's passthrough (the program runs inside tmux).
    let tmux: Bool
    private var book: UploadBook
    private var nextID = 0
    var queue = ChunkQueue<JobKey>()
    /// Each placeholder's text, made once (its diacritics take a lookup each).
    private var texts: [Int: CellText] = [:]

    /// The terminal keeps pictures but plays no animation: the program paces an animation's frames, each going up
    /// whole in place of the last under the picture's one id (its placeholders stay as they are).
    let pacesAnimations: Bool

    init(tmux: Bool, budget: Int = 96 << 20, pacesAnimations: Bool = false) {
        self.tmux = tmux
        book = UploadBook(budget: budget)
        self.pacesAnimations = pacesAnimations
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
        book.nextFrame()
        if repainted {
            // Ctrl-L or a resize: the terminal may be another one (tmux attached from elsewhere) or have let
            // go of what it had; every picture is sent again when next shown.
            _ = queue.withdraw { _ in true }
            for entry in book.reset() { control(KittyGraphics.deletePicture(id: entry.id)) }
        }
        let onScreen = Set(buffer.placements.map(\.picture.id))
        for key in queue.withdraw(where: { key in
            if case let .upload(picture) = key { return !onScreen.contains(picture) }
            return false
        }) {
            if case let .upload(picture) = key { book.forget(picture) }
        }
        var drawn = buffer
        for placement in buffer.placements {
            let picture = placement.picture
            guard picture.columns <= KittyPlaceholders.maximumCells, picture.rows <= KittyPlaceholders.maximumCells else { continue }
            let id: UInt32
            let frame = pacesAnimations ? pacedFrame(placement) : nil
            if let known = book[picture.id] {
                id = known.id
                book.touch(picture.id)
                // The frame due, once the one before has gone (frames are skipped, never queued).
                if let frame, known.frame != frame, !queue.contains(.upload(picture.id)) {
                    upload(picture, id: id, scale: 1, frame: frame)
                }
            } else {
                id = Self.imageID(nextID)
                nextID += 1
                upload(picture, id: id, scale: linkScale(picture, link: link), frame: frame)
            }
            if !pacesAnimations, let command = book.playbackCommand(for: picture, wanted: placement.playback) { control(command) }
            let style = CellStyle(foreground: .indexed(UInt8(id & 0xFF)))
            let high = UInt8(id >> 24)
            let area = placement.visible
            for y in max(0, area.y)..<max(max(0, area.y), min(buffer.height, area.maxY)) {
                for x in max(0, area.x)..<max(max(0, area.x), min(buffer.width, area.maxX)) where buffer[x, y] == .picture {
                    let row = y - placement.y, column = x - placement.x
                    let key = Int(high) << 20 | row << 10 | column
                    let text: CellText
                    if let known = texts[key] {
                        text = known
                    } else {
                        guard let made = KittyPlaceholders.cell(row: row, column: column, high: high) else { continue }
                        text = CellText(made)
                        texts[key] = text
                    }
                    drawn[x, y] = Cell(text, style: style)
                }
            }
        }
        if let picture = book.fullAgain(inView: buffer.placements.map(\.picture), link: link, queueEmpty: queue.isEmpty),
           let entry = book[picture.id] {
            // The link has room: the picture again in full, under the same id (its placeholders stay).
            upload(picture, id: entry.id, scale: 1)
        }
        book.noteInView(buffer.placements.map(\.picture.id))
        for entry in book.evict(keeping: onScreen) { control(KittyGraphics.deletePicture(id: entry.id)) }
        return drawn
    }

    /// `frame`: for an animation the program paces, the frame to send (the others go when they are due).
    private func upload(_ picture: PixelPicture, id: UInt32, scale: Double, frame: Int? = nil) {
        let image = picture.scaled(scale)
        let bytes: [UInt8]
        if let frame {
            let made = kittyFrame(picture, frame, width: image.width, height: image.height)
            bytes = KittyPlaceholders.transmit(made.image, id: id, columns: picture.columns, rows: picture.rows, prepared: made.prepared)
        } else {
            bytes = KittyPlaceholders.transmit(image, id: id, columns: picture.columns, rows: picture.rows,
                                               prepared: preparedPayload(picture, sentAs: image))
                + kittyMotion(picture, sentAs: image, id: id)
        }
        queue.append(.upload(picture.id), chunks: escapeSequences(bytes).map(wrapped), abort: wrapped(kittyAbort(id: id)), stores: true)
        book.record(picture, image: image, id: id, paced: frame)
    }

    func plan(_ buffer: CellBuffer, repainted: Bool, link: LinkState) {}


    func wantsFrame(link: LinkState) -> Bool {
        book.wantsFrame(link: link, queueEmpty: queue.isEmpty)
    }

    var wantsFrameSoon: Bool { book.waitsForTerminal }

    func finish() -> [UInt8] {
        // Deleting by id is the only way to reach virtual placements (`d=A` leaves them).
        _ = queue.withdraw { _ in true }
        var output = drain()
        for entry in book.reset() { output += wrapped(Array(KittyGraphics.deletePicture(id: entry.id).utf8)) }
        return output
    }
}
