import Foundation
import TerminalImage

/// How an animation the program draws frame by frame (characters, Sixel) plays over a slow link: each frame made
/// small enough to cross in a tenth of a second, so a key waits behind at most that; frames shown no more often than
/// the link carries them with room left for keys (the clock keeps time: frames due meanwhile are skipped, never
/// queued); and where even a third of the picture each way would not cross in that time, it does not play.
///
/// Pure bookkeeping: it is told the link's rate, what a whole frame is thought to cost, and, as frames are shown,
/// every byte written so far; what the frames really cost is measured from that.
struct LinkPacing {
    /// The longest a frame may take to cross the link.
    static let frameSeconds = 0.1
    /// A frame is sized to this share of `frameSeconds` (what it really costs may differ from the estimate).
    static let aim = 0.8
    /// The share of the link frames may take; the rest is left for keys and the status line.
    static let share = 0.7
    /// The smallest a frame is made, each way, before the animation is held still instead.
    static let smallest = 1.0 / 3

    /// Bytes a second.
    private(set) var rate: Double
    /// The share of the view's cells (each way) frames are drawn at.
    private(set) var scale: Double
    /// What a frame costs at `scale`: estimated, then measured.
    private(set) var bytesPerFrame: Double
    /// When the last frame was shown, and the bytes written by then.
    private var lastShown: (time: Double, bytes: Int)?
    /// Whether `bytesPerFrame` was measured (not only estimated).
    private var measured = false
    /// Space asked for it to play whatever the link: it is never held, and goes no smaller than `smallest`.
    let anyway: Bool

    /// Frames drawn since the size last changed whose cost is not measured: the first after a change redraws the whole
    /// picture (and clears the larger one around it), which says nothing of what the frames cost.
    private var settling = Self.settlingFrames
    static let settlingFrames = 2

    /// Frames that would cost `wholeFrame` bytes at the view's full size, over a link of `rate` bytes a second. The
    /// estimate takes every cell or pixel as changed; what changes costs less (curses sends the cells that changed, a
    /// Sixel frame the rows): where the smallest is thought to cost up to four times what crosses in time, it is
    /// tried at the smallest and measured; beyond that, nil. `anyway` (Space asked for it): at the smallest at worst.
    init?(rate: Double, wholeFrame: Double, anyway: Bool = false) {
        guard rate > 0, wholeFrame > 0 else { return nil }
        self.rate = rate
        var fit = min(1, (rate * Self.frameSeconds * Self.aim / wholeFrame).squareRoot())
        if fit < Self.smallest {
            guard anyway || fit >= Self.smallest / 2 else { return nil }
            fit = Self.smallest
        }
        scale = fit
        self.anyway = anyway
        bytesPerFrame = min(wholeFrame * fit * fit, rate * Self.frameSeconds)
    }

    /// The link measured anew: followed where it changed by more than a quarter (the frames' size is kept; what they
    /// cost says whether it must change).
    mutating func follow(rate newRate: Double) {
        guard newRate > 0, abs(newRate - rate) > rate / 4 else { return }
        rate = newRate
    }

    /// Paused, stepped or played on: what is written meanwhile (the frame it stands at, the status line) is no frame's
    /// cost; measuring starts again two frames on.
    mutating func restart() {
        lastShown = nil
        settling = Self.settlingFrames
    }

    /// What a whole frame is thought to cost before any is measured: characters by the cell (an escape sequence for
    /// each colour, 24-bit ones longer), pixels by the pixel (Sixel's bands at most colours).
    static func estimate(cells: Int, trueColor: Bool) -> Double {
        Double(cells) * (trueColor ? 36 : 12)
    }

    static func estimate(pixels: Int) -> Double {
        Double(pixels) * 0.75
    }

    /// The share of a frame that changes from one frame to the next (a GIF's still background is not sent again:
    /// curses sends the cells that changed, a Sixel frame the rows): of sixteen bands across each frame, those in which
    /// any sampled pixel differs from the frame before, over at most eight pairs of frames; at least a quarter.
    static func changedShare(_ frames: [RGBImage]) -> Double {
        let bands = 16
        var changed = 0
        var compared = 0
        for (before, after) in zip(frames, frames.dropFirst()).prefix(8) {
            guard before.width == after.width, before.height == after.height, before.height >= bands else { continue }
            let rowBytes = before.width * 3
            for band in 0..<bands {
                compared += 1
                let rows = (band * before.height / bands)..<((band + 1) * before.height / bands)
                var differs = false
                for row in stride(from: rows.lowerBound, to: rows.upperBound, by: 2) where !differs {
                    let start = row * rowBytes
                    for offset in stride(from: start, to: start + rowBytes, by: 12) where before.pixels[offset] != after.pixels[offset] {
                        differs = true
                        break
                    }
                }
                if differs { changed += 1 }
            }
        }
        guard compared > 0 else { return 1 }
        return max(0.25, Double(changed) / Double(compared))
    }

    /// The shortest time between two frames: what the last cost, at the share of the link frames may take.
    var interval: Double { bytesPerFrame / (rate * Self.share) }

    /// When the next frame may be shown (nil: now).
    var readyAt: Double? { lastShown.map { $0.time + interval } }

    func mayShow(at now: Double) -> Bool {
        readyAt.map { now >= $0 - 0.001 } ?? true
    }

    /// A frame is shown at `now`, `bytes` having been written to the terminal by then: the bytes since the frame before
    /// are what that frame cost. A frame that took longer than `frameSeconds` to cross makes the next ones smaller;
    /// returns false where they would have to be smaller than `smallest` (the link cannot carry the animation).
    mutating func shown(at now: Double, bytesWritten bytes: Int) -> Bool {
        defer { lastShown = (now, bytes) }
        guard let last = lastShown, bytes > last.bytes else { return true }
        if settling > 0 {
            settling -= 1
            return true
        }
        // What the frames cost, smoothed: one frame whose bytes were counted with the next's is not a trend.
        let sample = Double(bytes - last.bytes)
        let cost = measured ? (bytesPerFrame + sample) / 2 : sample
        measured = true
        bytesPerFrame = cost
        guard cost > rate * Self.frameSeconds else { return true }
        let smaller = max(Self.smallest, scale * (rate * Self.frameSeconds * Self.aim / cost).squareRoot())
        // Already the smallest: the link cannot carry it (unless Space asked), once they cost a quarter more than a
        // tenth of a second of it.
        guard smaller < scale else { return anyway || cost <= rate * Self.frameSeconds * 1.25 }
        bytesPerFrame = cost * (smaller / scale) * (smaller / scale)
        scale = smaller
        settling = Self.settlingFrames
        return true
    }
}
