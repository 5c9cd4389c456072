import Foundation
import TerminalImage
import TerminalUI

/// `image-feed render --animate`: an animation (GIF, WebP, MP4) played in place, as chafa and timg do for file
/// managers and scripts. Kitty graphics is given every frame once and plays them itself (nothing is sent per loop),
/// or, in a terminal that plays no frames (`kittyPlays` false: Ghostty, Konsole, VS Code, Zellij), each frame goes up
/// when due under one of two ids, over the last; iTerm2's images play a GIF sent as it came; Sixel and characters are
/// paced here, a frame when it is due, frames skipped rather than queued when the terminal drains slowly, and
/// characters send only the rows that changed.
public enum AnimationCommand {
    /// How long and how often it plays.
    public struct Plan: Sendable {
        /// Plays: nil as the file says (0: for ever).
        public var loops: Int?
        /// Seconds at most; nil: until the loops end (or for ever).
        public var duration: Double?

        public init(loops: Int? = nil, duration: Double? = nil) {
            self.loops = loops
            self.duration = duration
        }
    }

    /// What playing needs from outside: a write that blocks while the terminal drains, a clock, a sleep, and
    /// whether to stop (Ctrl-C), which the decode also sees through `stop` (between lines and rows of a frame).
    public struct Output {
        public var write: ([UInt8]) throws -> Void
        public var now: () -> Double
        public var sleep: (Double) -> Void
        public var stopped: () -> Bool
        public var stop: DecodeStop?

        public init(write: @escaping ([UInt8]) throws -> Void, now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
                    sleep: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }, stopped: @escaping () -> Bool = { false },
                    stop: DecodeStop? = nil) {
            self.write = write
            self.now = now
            self.sleep = sleep
            self.stopped = stopped
            self.stop = stop
        }
    }

    /// Whether the cursor is hidden while frames are drawn (a suspended `render` gives it back to the shell meanwhile).
    nonisolated(unsafe) public static let cursorHidden: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Plays `data` fitted in `columns` x `rows` cells. Returns the frames drawn (1 for a still, drawn as `render`
    /// draws it; what Kitty or iTerm2 play themselves counts as every frame sent). The first loop plays while the
    /// frames are read (from the second frame read on: one frame is a still); the next loops go by the clock.
    @discardableResult
    public static func play(_ data: Data, columns: Int, rows: Int, graphics: GraphicsMode, cellWidth: Int, cellHeight: Int,
                            mode: ColorMode, unicode: Bool, blitter: BlitterKind = .half, kittyPlays: Bool = true,
                            plan: Plan = Plan(), output: Output) throws -> Int {
        let pixels = graphics.rendersPixels && cellWidth > 0 && cellHeight > 0
        let cell = pixels ? (width: cellWidth, height: cellHeight) : blitter.cellPixels
        let still = {
            // A still (or a first frame only): as render draws it.
            try output.write(try PictureCommand.render(data, columns: columns, rows: rows, graphics: graphics, cellWidth: cellWidth,
                                                       cellHeight: cellHeight, mode: mode, unicode: unicode, blitter: blitter))
            return 1
        }
        guard AnimationFormat(sniffing: data) != nil else { return try still() }
        // iTerm2 plays a GIF itself, as it came: the frames are only counted.
        let terminalPlaysFile = graphics == .iterm2 && pixels && AnimationFormat(sniffing: data) == .gif
        // Pixels keep the cell's own shape; characters take two square pixels a cell, as render draws them.
        let fitted = { (image: RGBImage) in
            CellPicture.fittedSize(pixelWidth: image.width, pixelHeight: image.height, columns: columns, rows: rows,
                                   cellAspect: pixels ? Double(cell.height) / Double(cell.width) : 2)
        }
        var first: AnimatedImage.Frame?
        var player: Player?
        let animation: AnimatedImage
        do {
            animation = try ImageCodec.decodeAnimation(data, fitting: (columns * cell.width, rows * cell.height), stop: output.stop) { frame, index in
                guard !terminalPlaysFile else { return }
                if index == 0 {
                    first = frame
                    return
                }
                if player == nil, let first {
                    // It moves: the first frame now, then each as it comes.
                    player = Player(cells: fitted(first.image), graphics: pixels ? graphics : .cells, kittyPlays: kittyPlays, cell: cell,
                                    mode: mode, unicode: unicode, blitter: blitter, duration: plan.duration, output: output)
                    try player?.firstLoop(first, index: 0)
                }
                try player?.firstLoop(frame, index: index)
            }
        } catch is CancellationError {
            // Ctrl-C (or the duration) while the frames were read: what was drawn stays, the cursor under it.
            return try player?.end() ?? 0
        } catch {
            // Once frames are drawn, only the output can fail: that failure is the command's.
            if let player {
                _ = try? player.end()
                throw error
            }
            return try still()
        }
        guard animation.moves else { return try still() }
        let loops = plan.loops ?? animation.loops
        if terminalPlaysFile {
            let cells = fitted(animation.frames[0].image)
            try output.write(ITerm2Images.inline(file: data, columns: cells.columns, rows: cells.rows) + Array("\n".utf8))
            return animation.frames.count
        }
        guard let player else { return try still() }
        return try player.rest(of: animation, loops: loops)
    }

    /// Draws the frames: Kitty graphics is sent each frame as it is read and plays them itself; Sixel, iTerm2's
    /// images and characters are paced here, each frame over the last, the cursor hidden under the picture meanwhile.
    private final class Player {
        let cells: (columns: Int, rows: Int)
        let graphics: GraphicsMode
        /// Kitty graphics, played by the terminal (false: paced here, frames replacing each other).
        let kittyPlays: Bool
        /// Whether the terminal is given every frame and plays them.
        private var terminalPlays: Bool { graphics == .kitty && kittyPlays }
        let cell: (width: Int, height: Int)
        let drawer: MosaicBlitter
        let duration: Double?
        let output: Output
        let start: Double
        /// When the next frame of the first loop is due.
        private var due: Double
        private var drawn = 0
        private var previousRows: [Substring] = []
        private var made: [Int: [UInt8]] = [:]
        private var madeBytes = 0
        /// Kitty: the picture's id (and, where frames are paced, the other id they alternate with).
        private let kittyID = UInt32.random(in: 1_000_000...(UInt32.max - 1))
        private var kittyPayloads: [Int: KittyGraphics.Payload] = [:]
        private var finished = false

        init(cells: (columns: Int, rows: Int), graphics: GraphicsMode, kittyPlays: Bool, cell: (width: Int, height: Int), mode: ColorMode,
             unicode: Bool, blitter: BlitterKind, duration: Double?, output: Output) {
            self.cells = cells
            self.graphics = graphics
            self.kittyPlays = kittyPlays
            self.cell = cell
            drawer = MosaicBlitter(kind: blitter, mode: mode, unicode: unicode)
            self.duration = duration
            self.output = output
            start = output.now()
            due = start
        }

        /// The cells' pixels: what a frame in pixels is made at.
        private var pixelSize: (width: Int, height: Int) { (cells.columns * cell.width, cells.rows * cell.height) }
        private var ends: Double? { duration.map { start + $0 } }
        private var over: Bool { output.stopped() || ends.map { output.now() >= $0 } ?? false }

        /// Sleeps until `time` (or the duration's end, or a stop).
        private func wait(until time: Double) {
            while !output.stopped() {
                let until = min(time, ends ?? time)
                let wait = until - output.now()
                guard wait > 0 else { return }
                output.sleep(min(wait, 0.25))
            }
        }

        /// Frame `index` of the first loop, as it is read: when it is due (or at once, when reading is slower).
        /// Throws `CancellationError` when stopped or the duration is over, which ends the reading.
        func firstLoop(_ frame: AnimatedImage.Frame, index: Int) throws {
            if terminalPlays {
                if over { throw CancellationError() }
                try sendKitty(frame, index: index)
                return
            }
            wait(until: due)
            if over { throw CancellationError() }
            // A frame read later than it was due shows from now, for its whole time.
            due = max(due, output.now()) + frame.delay
            try draw(frame.image, index: index)
        }

        /// The loops after the first, once every frame is read.
        func rest(of animation: AnimatedImage, loops: Int) throws -> Int {
            if terminalPlays {
                try output.write(Array(KittyGraphics.play(id: kittyID, loops: loops).utf8) + Array(String(repeating: "\n", count: cells.rows).utf8))
                finished = true
                // The terminal plays it; a duration stops it where it is then.
                if duration != nil {
                    wait(until: .infinity)
                    try output.write(Array("\u{1B}_Ga=a,i=\(kittyID),s=1,q=2\u{1B}\\".utf8))
                }
                return animation.frames.count
            }
            // The first loop's last frame shows its time, then the clock plays the loops left from the first frame.
            wait(until: due)
            if over || loops == 1 { return try end() }
            var clock = AnimationClock(delays: animation.frames.map(\.delay), loops: loops == 0 ? 0 : loops - 1, now: output.now())
            var shown = -1
            while true {
                let index = clock.frame
                if index != shown {
                    try draw(animation.frames[index].image, index: index)
                    shown = index
                }
                if over || clock.finished { break }
                // Until the next frame is due (or the duration ends); frames whose time passed while writing are skipped.
                guard let next = clock.nextChange else { break }
                wait(until: next)
                clock.advance(to: output.now())
            }
            return try end()
        }

        /// Ends the play: the cursor under the picture, shown again.
        func end() throws -> Int {
            guard !finished else { return drawn }
            finished = true
            if terminalPlays {
                // Stopped while the frames went: the frames sent stay, the cursor under them.
                if drawn > 0 { try output.write(Array(String(repeating: "\n", count: cells.rows).utf8)) }
                return drawn
            }
            if drawn > 0 {
                cursorHidden.pointee = 0
                // Paced Kitty frames: the id of the frame before the last lets its pixels go.
                let spare = graphics == .kitty && drawn > 1 ? KittyGraphics.retire(id: kittyIDs[drawn % 2]) : ""
                try output.write(Array((spare + "\u{1B}[?25h").utf8))
            }
            return drawn
        }

        private var kittyIDs: [UInt32] { [kittyID, kittyID + 1] }

        /// The frame as it goes up in Kitty graphics: at its own size when that is at most half the cells' pixels (the
        /// terminal scales it to the cells it is placed over: an 8-frame 240x160 GIF at 80x24 sent 4.25 MB enlarged to
        /// 720x480), else at the cells' pixels, as sharp as the still `render` draws (the terminal's scaling of a few
        /// pixels would blur it for little gain).
        private func kittyImage(_ image: RGBImage) -> RGBImage {
            let size = pixelSize
            let ownSize = image.width <= size.width && image.height <= size.height && image.width * image.height * 2 <= size.width * size.height
            return ownSize || (image.width == size.width && image.height == size.height)
                ? image : AreaResampler.resize(image, width: size.width, height: size.height)
        }

        /// Each frame as it is read, made into its bytes (`kittyImage`) and let go: the terminal keeps and plays them.
        private func sendKitty(_ frame: AnimatedImage.Frame, index: Int) throws {
            let image = kittyImage(frame.image)
            let delay = Int((frame.delay * 1000).rounded())
            if drawn == 0 {
                try output.write(KittyGraphics.transmit(image, id: kittyID, display: (cells.columns, cells.rows))
                                 + Array(KittyGraphics.firstFrameGap(id: kittyID, milliseconds: delay).utf8))
            } else {
                try output.write(KittyGraphics.animationFrame(image, index: index, delay: delay, id: kittyID))
            }
            drawn += 1
        }

        /// Frame `index` over the last (only the rows that changed, in characters).
        private func draw(_ image: RGBImage, index: Int) throws {
            var bytes: [UInt8]
            if drawn == 0 {
                // The cursor hides while frames are drawn (`end` shows it again).
                bytes = Array("\u{1B}[?25l".utf8)
                cursorHidden.pointee = 1
            } else {
                bytes = Array("\r\u{1B}[\(cells.rows)A".utf8)
            }
            switch graphics {
            case .sixel:
                if let sixel = made[index] {
                    bytes += sixel
                    break
                }
                guard let sixel = SixelEncoder.encode(AreaResampler.resize(image, width: pixelSize.width, height: pixelSize.height)) else {
                    throw PictureCommand.Failure.unreadable("the frame could not be turned into Sixel")
                }
                let frame = sixel + Array("\n".utf8)
                if madeBytes + frame.count <= AnimationLimits.drawnFrameBytes {
                    made[index] = frame
                    madeBytes += frame.count
                }
                bytes += frame
            case .kitty:
                // The terminal plays no frames: each goes up under one of two ids at the cursor, over the last, whose
                // placement then goes (what the terminal holds stays two frames); its payload is made once.
                let payload: KittyGraphics.Payload
                let image = kittyImage(image)
                if let kept = kittyPayloads[index] {
                    payload = kept
                } else {
                    payload = KittyGraphics.payload(of: image)
                    if madeBytes + payload.base64.count <= AnimationLimits.drawnFrameBytes {
                        kittyPayloads[index] = payload
                        madeBytes += payload.base64.count
                    }
                }
                bytes += KittyGraphics.transmit(image, id: kittyIDs[drawn % 2], display: (cells.columns, cells.rows), prepared: payload)
                if drawn > 0 { bytes += Array(KittyGraphics.deletePlacements(id: kittyIDs[(drawn + 1) % 2]).utf8) }
                bytes += Array(String(repeating: "\n", count: cells.rows).utf8)
            case .iterm2:
                guard let inline = ITerm2Images.inline(image, columns: cells.columns, rows: cells.rows) else {
                    throw PictureCommand.Failure.unreadable("the frame could not be turned into an iTerm2 image")
                }
                bytes += inline + Array("\n".utf8)
            default:
                // Only the rows that changed; the others are stepped over.
                let text = ANSIPictureWriter.text(drawer.render(image, columns: cells.columns, rows: cells.rows))
                let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                for (number, row) in rows.enumerated() {
                    bytes += number < previousRows.count && previousRows[number] == row ? Array("\n".utf8) : Array((row + "\n").utf8)
                }
                previousRows = Array(rows)
            }
            try output.write(bytes)
            drawn += 1
        }
    }
}
