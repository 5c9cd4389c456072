import Foundation

/// Where an animation is at a moment, from the frames' delays and the loops the file asks for: pure, the run loop
/// gives it the time. Frames whose time passed while the terminal was busy are skipped, never queued (a slow
/// link shows fewer frames, at the right moments).
public struct AnimationClock: Equatable, Sendable {
    /// Seconds each frame shows.
    public private(set) var delays: [Double]
    /// How many times the whole plays; 0 for ever.
    public private(set) var loops: Int
    /// The frame shown (0-based).
    public private(set) var frame = 0
    /// The play under way (1-based).
    public private(set) var loop = 1
    public private(set) var paused: Bool
    /// Played to the end of its last loop: it stays on the last frame.
    public private(set) var finished = false
    /// When the frame shown began (seconds on the caller's clock).
    private var frameStart: Double
    /// When the frame shown became due.
    public var frameDue: Double { frameStart }

    public init(delays: [Double], loops: Int, now: Double, paused: Bool = false) {
        self.delays = Self.sane(delays)
        self.loops = max(0, loops)
        self.paused = paused
        frameStart = now
    }

    private static func sane(_ delays: [Double]) -> [Double] {
        delays.isEmpty ? [1] : delays.map { $0.isFinite && $0 > 0 ? $0 : 0.1 }
    }

    /// More frames read (the same first ones and more after them), and the loops the whole file asks for: it plays
    /// on from where it is. Stopped at the last frame read so far, it goes on from `now`: to the next frame, or, with
    /// no more frames but loops left (every frame read as it played), to the first frame of the next loop.
    public mutating func extend(delays more: [Double], loops: Int, now: Double) {
        guard more.count >= delays.count else { return }
        let waiting = finished
        delays = Self.sane(more)
        self.loops = max(0, loops)
        guard waiting else { return }
        if frame + 1 < delays.count {
            finished = false
            frame += 1
            frameStart = now
        } else if self.loops == 0 || loop < self.loops {
            finished = false
            frame = 0
            loop += 1
            frameStart = now
        }
    }

    public var frameCount: Int { delays.count }
    /// Whether it changes by itself: more than one frame, playing, not at its end.
    public var isRunning: Bool { !paused && !finished && delays.count > 1 }

    /// When the next frame is due; nil while nothing will change by itself.
    public var nextChange: Double? { isRunning ? frameStart + delays[frame] : nil }

    /// Moves to the frame due at `now`. Returns whether the frame shown changed.
    @discardableResult
    public mutating func advance(to now: Double) -> Bool {
        guard isRunning else { return false }
        let before = (frame, loop, finished)
        var steps = 0
        while now - frameStart >= delays[frame] {
            frameStart += delays[frame]
            if frame + 1 < delays.count {
                frame += 1
            } else if loops == 0 || loop < loops {
                frame = 0
                loop += 1
            } else {
                finished = true
                break
            }
            steps += 1
            // Far behind (the program was stopped, Ctrl-Z): carry on from now rather than race through loops.
            if steps > delays.count {
                frameStart = now
                break
            }
        }
        return before != (frame, loop, finished)
    }

    /// Space: pauses where it is, or plays on from there (from the start, after its last loop).
    public mutating func togglePause(now: Double) {
        if paused {
            paused = false
            if finished {
                finished = false
                frame = 0
                loop = 1
            }
            frameStart = now
        } else {
            advance(to: now)
            paused = true
        }
    }

    /// A frame forward or back, paused there.
    public mutating func step(by offset: Int, now: Double) {
        paused = true
        finished = false
        let count = delays.count
        frame = ((frame + offset) % count + count) % count
        frameStart = now
    }
}
