import Foundation
import TerminalImage

/// What a terminal that keeps uploaded pictures holds (Kitty graphics, with direct placements or placeholders): for
/// each picture, the id the terminal knows it by, its size as sent, whether it went in full or smaller for a slow link,
/// and the frame it was last shown in. The budget of raw pixels kept there, which pictures to let go when over it,
/// which picture goes again in full once the link has been idle, and the reset when the screen is repainted: the
/// bookkeeping both Kitty layers share.
struct UploadBook {
    struct Entry {
        /// The id the terminal knows the picture by.
        var id: UInt32
        var width: Int
        var height: Int
        /// Raw bytes the terminal keeps for it.
        var bytes: Int
        /// Sent at its own size (not smaller, for a slow link).
        var full: Bool
        var lastUsed: Int
        /// For an animation: what the terminal was last told (playing, or stopped at a frame).
        var playback: PicturePlacement.Playback?
        /// The frame it was sent in.
        var sentIn: Int
        /// For an animation the program paces: the frame the terminal holds under `id`, and the other id it alternates
        /// with (the frame before, still shown while the next goes), if one was taken.
        var frame = 0
        var spareID: UInt32?
    }

    /// Raw pixels kept uploaded before the least recently shown are let go (kitty's own quota is 320 MB).
    let budget: Int
    private(set) var entries: [UInt32: Entry] = [:] // by PixelPicture id
    private(set) var bytes = 0
    private(set) var frame = 0
    /// A picture in view was sent smaller than it is.
    private(set) var smallInView = false

    init(budget: Int) {
        self.budget = budget
    }

    subscript(picture: UInt32) -> Entry? { entries[picture] }
    var isEmpty: Bool { entries.isEmpty }

    /// A frame is planned.
    mutating func nextFrame() {
        frame += 1
        playbackWaits = false
    }

    /// `image` sent for `picture` under `id`, replacing what was recorded for it.
    /// `paced`: the animation's frames go one at a time (`frame` first), under two ids at most.
    mutating func record(_ picture: PixelPicture, image: RGBImage, id: UInt32, paced: Int? = nil) {
        forget(picture.id)
        // An animation the terminal plays keeps all its frames there; one the program paces, two at most.
        let frames = paced == nil ? max(1, picture.motion?.frames.count ?? 1) : 2
        var entry = Entry(id: id, width: image.width, height: image.height, bytes: image.pixels.count * frames,
                          full: image.width == picture.image.width, lastUsed: frame, sentIn: frame)
        entry.frame = paced ?? 0
        entries[picture.id] = entry
        bytes += entry.bytes
    }

    /// An animation was sent in this frame: it is told to play in a later one (`wantsFrame`).
    private(set) var playbackWaits = false

    /// What to tell the terminal so that the animation uploaded for `picture` plays as `wanted` (nil: it does already,
    /// or not yet). Not in the frame that sent it: kitty was seen to leave an animation standing when told to play in
    /// the same write as its placement, before it had drawn it once; a frame later, once the link was idle, it plays.
    mutating func playbackCommand(for picture: PixelPicture, wanted: PicturePlacement.Playback?) -> String? {
        guard let motion = picture.motion, let wanted, let entry = entries[picture.id], entry.playback != wanted else { return nil }
        guard entry.sentIn < frame else {
            playbackWaits = true
            return nil
        }
        entries[picture.id]?.playback = wanted
        switch wanted {
        case .playing: return KittyGraphics.play(id: entry.id, loops: motion.loops)
        case let .paused(frame): return KittyGraphics.stop(id: entry.id, atFrame: frame)
        }
    }

    /// Frame `index` of the paced animation `picture` went up under `id`; the id it was shown under becomes the spare.
    mutating func showFrame(_ index: Int, of picture: UInt32, id: UInt32) {
        guard let entry = entries[picture] else { return }
        entries[picture]?.spareID = entry.id
        entries[picture]?.id = id
        entries[picture]?.frame = index
    }

    /// The picture is shown in this frame.
    mutating func touch(_ picture: UInt32) { entries[picture]?.lastUsed = frame }

    /// The terminal no longer holds the picture (withdrawn before it went, deleted, or about to be sent again).
    @discardableResult
    mutating func forget(_ picture: UInt32) -> Entry? {
        guard let entry = entries.removeValue(forKey: picture) else { return nil }
        bytes -= entry.bytes
        return entry
    }

    /// The picture whose terminal id is `id`, if one is recorded.
    func picture(withID id: UInt32) -> UInt32? {
        entries.first { $0.value.id == id }?.key
    }

    /// The screen was cleared or the layer is done: nothing recorded is held any more. Returns what was.
    @discardableResult
    mutating func reset() -> [Entry] {
        let all = Array(entries.values)
        entries.removeAll()
        bytes = 0
        return all
    }

    /// Past the budget, the pictures not on screen shown longest ago, forgotten here until three quarters of it are
    /// left: the caller tells the terminal.
    mutating func evict(keeping onScreen: Set<UInt32>) -> [Entry] {
        guard bytes > budget else { return [] }
        var gone: [Entry] = []
        for (picture, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) where bytes > budget * 3 / 4 {
            guard !onScreen.contains(picture) else { continue }
            forget(picture)
            gone.append(entry)
        }
        return gone
    }

    /// Of the pictures in view, the largest that went small, once the link has been idle long enough and nothing waits:
    /// it goes again in full.
    func fullAgain(inView pictures: [PixelPicture], link: LinkState, queueEmpty: Bool) -> PixelPicture? {
        guard link.idle >= LinkState.dwell, queueEmpty else { return nil }
        return pictures.filter { entries[$0.id]?.full == false }.max { $0.columns * $0.rows < $1.columns * $1.rows }
    }

    /// Notes whether a picture in view went small (`wantsFrame` then waits for the link to have room).
    mutating func noteInView(_ pictures: [UInt32]) {
        smallInView = pictures.contains { entries[$0]?.full == false }
    }

    /// Whether the layer wants the frame planned again: a picture in view went small and the link has room now.
    func wantsFrame(link: LinkState, queueEmpty: Bool) -> Bool {
        (smallInView && queueEmpty && link.idle >= LinkState.dwell) || (playbackWaits && queueEmpty && link.idle >= Self.playbackDwell)
    }

    /// How long the link is idle after an animation went before it is told to play (the terminal has drawn it by then).
    static let playbackDwell = 0.05

    /// Whether a frame will be wanted soon without a key (an animation waits to be told to play): the loop looks again.
    var waitsForTerminal: Bool { playbackWaits }
}

/// The bytes that give a Kitty terminal the rest of an animation whose first frame went as picture `id` at the size
/// of `image`: its other frames and their gaps (both Kitty layers). The terminal plays them; nothing is sent per loop.
func kittyMotion(_ picture: PixelPicture, sentAs image: RGBImage, id: UInt32) -> [UInt8] {
    guard let motion = picture.motion, motion.frames.count > 1 else { return [] }
    // The payloads made off the loop, when the frames go at their own size.
    let prepared = image.width == picture.image.width && motion.kittyPayloads.count == motion.frames.count ? motion.kittyPayloads : nil
    var output: [UInt8] = []
    // A frame at a time: resized (for a picture sent smaller on a slow link), made into its bytes and let go, so that
    // a long animation is never held enlarged whole.
    KittyGraphics.animationFrames(count: motion.frames.count, delays: motion.delays, id: id, frame: { index in
        let frame = motion.frames[index]
        let sized = frame.width == image.width && frame.height == image.height
            ? frame : AreaResampler.resize(frame, width: image.width, height: image.height)
        return (sized, prepared?[index])
    }, emit: { output += $0 })
    return output
}

/// The frame of an animation the program paces that `placement` asks for (it stands at the frame the clock is at).
func pacedFrame(_ placement: PicturePlacement) -> Int? {
    guard let motion = placement.picture.motion, motion.frames.count > 1 else { return nil }
    guard case let .paused(frame)? = placement.playback else { return 0 }
    return min(max(0, frame), motion.frames.count - 1)
}

/// Frame `index` of `picture`'s animation as it goes up at the size of `image` (the picture sent whole or smaller),
/// with its payload made off the loop where the sizes agree.
func kittyFrame(_ picture: PixelPicture, _ index: Int, width: Int, height: Int) -> (image: RGBImage, prepared: KittyGraphics.Payload?) {
    guard let motion = picture.motion, motion.frames.indices.contains(index) else {
        let image = width == picture.image.width && height == picture.image.height
            ? picture.image : AreaResampler.resize(picture.image, width: width, height: height)
        return (image, preparedPayload(picture, sentAs: image))
    }
    let frame = motion.frames[index]
    guard frame.width == width, frame.height == height else {
        return (AreaResampler.resize(frame, width: width, height: height), nil)
    }
    return (frame, motion.kittyPayloads.indices.contains(index) ? motion.kittyPayloads[index] : nil)
}

/// The first frame's payload made off the loop, for an animation sent at its own size.
func preparedPayload(_ picture: PixelPicture, sentAs image: RGBImage) -> KittyGraphics.Payload? {
    image.width == picture.image.width && image.height == picture.image.height ? picture.motion?.kittyPayloads.first : nil
}

/// The scale a picture is first sent at for the link, as a share of the screen (1 on a fast link).
func linkScale(_ picture: PixelPicture, link: LinkState) -> Double {
    // An animation goes whole (it is held as a still on a slow link until Space).
    guard picture.motion == nil else { return 1 }
    return LinkMeter.scale(pixels: picture.image.width * picture.image.height,
                    screenShare: link.share(columns: picture.columns, rows: picture.rows), rate: link.rate)
}

/// Cursor saved, moved to the cell, `bytes`, cursor and colours put back as curses left them: a chunk that can
/// go between any two of curses' frames.
func atCell(_ x: Int, _ y: Int, _ bytes: [UInt8]) -> [UInt8] {
    Array("\u{1B}7\u{1B}[\(y + 1);\(x + 1)H".utf8) + bytes + Array("\u{1B}8".utf8)
}

/// What ends a Kitty upload cut short: its last chunk (empty, so the terminal drops what it got), and the id
/// let go in case it kept anything: deleted, or where pictures are kept off screen without a placement, retired
/// (a delete that frees data takes every such picture with it in kitty before 0.38.1).
func kittyAbort(id: UInt32, retiring: Bool = false) -> [UInt8] {
    Array("\u{1B}_Gm=0,q=2;\u{1B}\\".utf8)
        + Array((retiring ? KittyGraphics.retire(id: id) : KittyGraphics.deletePicture(id: id)).utf8)
}
