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
        /// An animation that flashes more than three times a second (WCAG 2.3.1) is drawn as its first frame, and why is
        /// said: its frames are all read and measured before one plays.
        public var safe: Bool

        public init(loops: Int? = nil, duration: Double? = nil, safe: Bool = false) {
            self.loops = loops
            self.duration = duration
            self.safe = safe
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
        /// A word for the person watching (standard error): why a safe animation stands still.
        public var say: (String) -> Void

        public init(write: @escaping ([UInt8]) throws -> Void, now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
                    sleep: @escaping (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }, stopped: @escaping () -> Bool = { false },
                    stop: DecodeStop? = nil, say: @escaping (String) -> Void = { _ in }) {
            self.write = write
            self.now = now
            self.sleep = sleep
            self.stopped = stopped
            self.stop = stop
            self.say = say
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
    /// frames are read (from the second frame read on: one frame is a still); the next loops go by the clock. What
    /// each frame's bytes are is the protocol's (`PictureProtocols`); the pacing is this player's.
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
        guard let format = AnimationFormat(sniffing: data) else { return try still() }
        let drawn = pixels ? graphics : .cells
        // A terminal that plays the file as it came (iTerm2, a GIF): the frames are only counted.
        let terminalPlaysFile = pixels && PictureProtocols.playsFile(drawn, format)
        // Pixels keep the cell's own shape; characters take two square pixels a cell, as render draws them.
        let fitted = { (image: RGBImage) -> RenderCells in
            let size = CellPicture.fittedSize(pixelWidth: image.width, pixelHeight: image.height, columns: columns, rows: rows,
                                              cellAspect: pixels ? Double(cell.height) / Double(cell.width) : 2)
            return RenderCells(columns: size.columns, rows: size.rows, cellWidth: cell.width, cellHeight: cell.height,
                               colorMode: mode, unicode: unicode, blitter: blitter)
        }
        // The player for the cells the first frame takes: the protocol's frames, paced here or played by the terminal.
        let makePlayer = { (first: RGBImage) -> Player in
            let cells = fitted(first)
            return Player(cells: cells, frames: PictureProtocols.frames(drawn, cells),
                          played: kittyPlays ? PictureProtocols.playedFrames(drawn, cells) : nil, duration: plan.duration, output: output)
        }
        var first: AnimatedImage.Frame?
        var player: Player?
        let animation: AnimatedImage
        do {
            animation = try ImageCodec.decodeAnimation(data, fitting: (columns * cell.width, rows * cell.height), stop: output.stop) { frame, index in
                // A safe play measures every frame before one plays.
                guard !terminalPlaysFile, !plan.safe else { return }
                if index == 0 {
                    first = frame
                    return
                }
                if player == nil, let first {
                    // It moves: the first frame now, then each as it comes.
                    player = makePlayer(first.image)
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
        if plan.safe {
            let rate = Flashes.perSecond(animation.frames.map(\.image), delays: animation.frames.map(\.delay))
            if Flashes.tooMany(rate) {
                output.say("the animation flashes \(Int(rate.rounded())) times a second: its first frame is drawn (--animate on plays it)")
                return try still()
            }
            if !terminalPlaysFile {
                // Every frame read: the first loop goes by the clock as the others do.
                let safePlayer = makePlayer(animation.frames[0].image)
                player = safePlayer
                do {
                    for (index, frame) in animation.frames.enumerated() { try safePlayer.firstLoop(frame, index: index) }
                } catch is CancellationError {
                    return try safePlayer.end()
                }
            }
        }
        let loops = plan.loops ?? animation.loops
        if terminalPlaysFile {
            try output.write(PictureProtocols.playedFile(drawn, data, cells: fitted(animation.frames[0].image)))
            return animation.frames.count
        }
        guard let player else { return try still() }
        return try player.rest(of: animation, loops: loops)
    }

    /// Plays the frames: where the terminal plays them (`played`: Kitty graphics in kitty), each is sent as it is read
    /// and the terminal is told to play; elsewhere they are paced here by the `AnimationClock` that paces the viewer's
    /// (its frames joining it as they are read, frames due while writing skipped), each over the last when it is due,
    /// the cursor hidden under the picture meanwhile.
    private final class Player {
        let cells: RenderCells
        let frames: PacedFrames
        let played: PlayedFrames?
        let duration: Double?
        let output: Output
        let start: Double
        /// Where the animation is: the first loop's frames join it as they are read, then the loops after it.
        private var clock: AnimationClock?
        private var delays: [Double] = []
        private var drawn = 0
        private var finished = false

        init(cells: RenderCells, frames: PacedFrames, played: PlayedFrames?, duration: Double?, output: Output) {
            self.cells = cells
            self.frames = frames
            self.played = played
            self.duration = duration
            self.output = output
            start = output.now()
        }

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
            if let played {
                if over { throw CancellationError() }
                try output.write(try played.frame(frame.image, index: index, delay: frame.delay))
                drawn += 1
                return
            }
            delays.append(frame.delay)
            guard var clock else {
                clock = AnimationClock(delays: delays, loops: 1, now: output.now())
                if over { throw CancellationError() }
                return try draw(frame.image, index: index)
            }
            // The frame before shows its time; a frame read later than it was due shows from now, for its whole time.
            clock.extend(delays: delays, loops: 1, now: output.now())
            if let next = clock.nextChange { wait(until: next) }
            if over { throw CancellationError() }
            clock.advance(to: output.now())
            self.clock = clock
            try draw(frame.image, index: index)
        }

        /// The loops after the first, once every frame is read.
        func rest(of animation: AnimatedImage, loops: Int) throws -> Int {
            if let played {
                try output.write(played.play(loops: loops))
                finished = true
                // The terminal plays it; a duration stops it where it is then.
                if duration != nil {
                    wait(until: .infinity)
                    try output.write(played.stop())
                }
                return animation.frames.count
            }
            // The same clock plays on from the first loop's last frame: its time, then the loops left.
            guard var clock else { return try end() }
            clock.extend(delays: animation.frames.map(\.delay), loops: loops, now: output.now())
            var shown = clock.frame
            // Until the next frame is due (or the duration ends); frames whose time passed while writing are skipped.
            while !over, let next = clock.nextChange {
                wait(until: next)
                if over { break }
                clock.advance(to: output.now())
                if clock.frame != shown {
                    try draw(animation.frames[clock.frame].image, index: clock.frame)
                    shown = clock.frame
                }
            }
            return try end()
        }

        /// Ends the play: the cursor under the picture, shown again.
        func end() throws -> Int {
            guard !finished else { return drawn }
            finished = true
            if let played {
                // Stopped while the frames went: the frames sent stay, the cursor under them.
                try output.write(played.cut())
                return drawn
            }
            if drawn > 0 {
                cursorHidden.pointee = 0
                try output.write(frames.end(drawn: drawn) + Array("\u{1B}[?25h".utf8))
            }
            return drawn
        }

        /// Frame `index` over the last.
        private func draw(_ image: RGBImage, index: Int) throws {
            var bytes: [UInt8]
            if drawn == 0 {
                // The cursor hides while frames are drawn (`end` shows it again).
                bytes = Array("\u{1B}[?25l".utf8)
                cursorHidden.pointee = 1
            } else {
                bytes = Array("\r\u{1B}[\(cells.rows)A".utf8)
            }
            do {
                bytes += try frames.frame(image, index: index, drawn: drawn)
            } catch let failure as PictureProtocolFailure {
                throw PictureCommand.Failure.unreadable(failure.description)
            }
            try output.write(bytes)
            drawn += 1
        }
    }
}
