import Foundation
import TerminalImage
import TerminalUI

/// `image-feed render --animate`: an animation (GIF, WebP, MP4) played in place, as chafa and timg do for file
/// managers and scripts. Kitty graphics is given every frame once and plays them itself (nothing is sent per loop);
/// iTerm2's images play a GIF sent as it came; Sixel and characters are paced here, a frame when it is due, frames
/// skipped rather than queued when the terminal drains slowly, and characters send only the rows that changed.
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
    nonisolated(unsafe) public static var cursorHidden: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()

    /// Plays `data` fitted in `columns` x `rows` cells. Returns the frames drawn (1 for a still, drawn as `render`
    /// draws it; what Kitty or iTerm2 play themselves counts as every frame sent).
    @discardableResult
    public static func play(_ data: Data, columns: Int, rows: Int, graphics: GraphicsMode, cellWidth: Int, cellHeight: Int,
                            mode: ColorMode, unicode: Bool, blitter: BlitterKind = .half, plan: Plan = Plan(),
                            output: Output) throws -> Int {
        let pixels = [.kitty, .sixel, .iterm2].contains(graphics) && cellWidth > 0 && cellHeight > 0
        let cell = pixels ? (width: cellWidth, height: cellHeight) : blitter.cellPixels
        var decoded: AnimatedImage?
        if AnimationFormat(sniffing: data) != nil {
            do {
                decoded = try ImageCodec.decodeAnimation(data, fitting: (columns * cell.width, rows * cell.height), stop: output.stop)
            } catch is CancellationError {
                // Ctrl-C while the frames were read: nothing is drawn.
                return 0
            } catch {
                decoded = nil
            }
        }
        if output.stopped() { return 0 }
        guard let animation = decoded, animation.moves else {
            // A still (or a first frame only): as render draws it.
            try output.write(try PictureCommand.render(data, columns: columns, rows: rows, graphics: graphics, cellWidth: cellWidth,
                                                       cellHeight: cellHeight, mode: mode, unicode: unicode, blitter: blitter))
            return 1
        }
        let first = animation.frames[0].image
        // Pixels keep the cell's own shape; characters take two square pixels a cell, as render draws them.
        let cells = CellPicture.fittedSize(pixelWidth: first.width, pixelHeight: first.height, columns: columns, rows: rows,
                                           cellAspect: pixels ? Double(cell.height) / Double(cell.width) : 2)
        let loops = plan.loops ?? animation.loops
        if graphics == .kitty, pixels {
            // The frames go at the size they were read (the terminal scales them to the cells), each written as it is
            // made: enlarging every frame to the cells' pixels first held them all (a thousand frames, gigabytes).
            let id = UInt32.random(in: 1_000_000...UInt32.max)
            try output.write(KittyGraphics.transmit(animation.frames[0].image, id: id, display: (cells.columns, cells.rows)))
            var sent = 1
            do {
                try KittyGraphics.animationFrames(count: animation.frames.count, delays: animation.frames.map { Int(($0.delay * 1000).rounded()) },
                                                  id: id, frame: { (animation.frames[$0].image, nil) }, emit: { bytes in
                    if output.stopped() { throw CancellationError() }
                    try output.write(bytes)
                    sent += 1
                })
            } catch is CancellationError {
                // Ctrl-C while the frames went: the first frame stays, the cursor under it.
                try output.write(Array(String(repeating: "\n", count: cells.rows).utf8))
                return sent
            }
            try output.write(Array(KittyGraphics.play(id: id, loops: loops).utf8) + Array(String(repeating: "\n", count: cells.rows).utf8))
            // The terminal plays it; a duration stops it where it is then.
            if let duration = plan.duration {
                let end = output.now() + duration
                while output.now() < end, !output.stopped() { output.sleep(min(0.1, end - output.now())) }
                try output.write(Array("\u{1B}_Ga=a,i=\(id),s=1,q=2\u{1B}\\".utf8))
            }
            return animation.frames.count
        }
        if graphics == .iterm2, pixels, AnimationFormat(sniffing: data) == .gif {
            // iTerm2 plays a GIF itself, as it came.
            try output.write(ITerm2Images.inline(file: data, columns: cells.columns, rows: cells.rows) + Array("\n".utf8))
            return animation.frames.count
        }
        return try pace(animation, cells: cells, graphics: pixels ? graphics : .cells, cell: cell, mode: mode, unicode: unicode,
                        blitter: blitter, loops: loops, duration: plan.duration, output: output)
    }

    /// Bytes of drawn frames kept to be written again in the next loops (a few loops of a short animation).
    static let keptFrameBytes = 16 << 20

    /// The program plays it: each frame when it is due, over the last, the cursor under the picture between frames.
    private static func pace(_ animation: AnimatedImage, cells: (columns: Int, rows: Int), graphics: GraphicsMode,
                             cell: (width: Int, height: Int), mode: ColorMode, unicode: Bool, blitter: BlitterKind,
                             loops: Int, duration: Double?, output: Output) throws -> Int {
        let drawer = MosaicBlitter(kind: blitter, mode: mode, unicode: unicode)
        let start = output.now()
        var clock = AnimationClock(delays: animation.frames.map(\.delay), loops: loops, now: start)
        var previousRows: [Substring] = []
        var drawn = 0
        // The cursor hides while frames are drawn, and comes back whatever ends the play.
        try output.write(Array("\u{1B}[?25l".utf8))
        cursorHidden.pointee = 1
        defer {
            cursorHidden.pointee = 0
            try? output.write(Array("\u{1B}[?25h".utf8))
        }
        // A short loop's frames are made once: each frame's bytes are kept while they come to little.
        var made: [Int: [UInt8]] = [:]
        var madeBytes = 0
        var shown = -1
        while true {
            let index = clock.frame
            if index != shown {
                var bytes: [UInt8] = drawn == 0 ? [] : Array("\r\u{1B}[\(cells.rows)A".utf8)
                let image = animation.frames[index].image
                switch graphics {
                case .sixel:
                    if let sixel = made[index] {
                        bytes += sixel
                        break
                    }
                    let size = (width: cells.columns * cell.width, height: cells.rows * cell.height)
                    guard let sixel = SixelEncoder.encode(AreaResampler.resize(image, width: size.width, height: size.height)) else {
                        throw PictureCommand.Failure.unreadable("the frame could not be turned into Sixel")
                    }
                    let frame = sixel + Array("\n".utf8)
                    if madeBytes + frame.count <= Self.keptFrameBytes {
                        made[index] = frame
                        madeBytes += frame.count
                    }
                    bytes += frame
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
                shown = index
            }
            if output.stopped() || clock.finished { break }
            if let duration, output.now() - start >= duration { break }
            // Until the next frame is due (or the duration ends); frames whose time passed while writing are skipped.
            guard let due = clock.nextChange else { break }
            let until = min(due, duration.map { start + $0 } ?? due)
            let wait = until - output.now()
            if wait > 0 { output.sleep(min(wait, 0.25)) }
            clock.advance(to: output.now())
        }
        return drawn
    }
}
