import Foundation

/// How often an animation flashes, by the general flash threshold of WCAG 2.3.1: a flash is a pair of opposing changes
/// of at least a tenth of the relative luminance where the darker state is below 0.80, and more than three flashes in
/// any one second is too many. Measured on the frame as a whole and on each of its quarters (a flash over a quarter of
/// the picture counts), a loop and a second more played on the frames' own clock.
public enum Flashes {
    /// The most flashes (whole pairs of opposing changes) in any one second, over the frames (`delays` in seconds,
    /// each frame's time).
    public static func perSecond(_ frames: [RGBImage], delays: [Double]) -> Double {
        perSecond(luminances: frames.map(luminances), delays: delays)
    }

    /// The same, from each frame's `luminances` measured beforehand (a frame measured once, however often the frames
    /// read so far are checked).
    public static func perSecond(luminances regions: [[Double]], delays: [Double]) -> Double {
        guard regions.count > 1, regions.count == delays.count else { return 0 }
        let times = delays.map { $0.isFinite && $0 > 0 ? $0 : 0.1 }
        let loop = times.reduce(0, +)
        guard loop > 0 else { return 0 }
        // The frames' start times over as many loops as make a loop and a second (a short loop repeats).
        var starts: [(time: Double, frame: Int)] = []
        var clock = 0.0
        while clock < loop + 1, starts.count < 100_000 {
            for (index, time) in times.enumerated() {
                starts.append((clock, index))
                clock += time
            }
        }
        var most = 0.0
        for region in 0..<5 {
            let changes = transitions(starts.map { (time: $0.time, value: regions[$0.frame][region]) })
            // Whole flashes (pairs of opposing changes) in any one second, by a window ending at each change (a change a
            // second before, to the clock's rounding, is outside it).
            var first = 0
            for (last, time) in changes.enumerated() {
                while time - changes[first] >= 1 - 1e-9 { first += 1 }
                most = max(most, Double((last - first + 1) / 2))
            }
        }
        return most
    }

    /// Whether an animation flashes more than WCAG 2.3.1 allows (more than three times in any one second).
    public static func tooMany(_ perSecond: Double) -> Bool { perSecond > 3 }

    /// The times at which the luminance turned by a tenth or more, the darker side below 0.80, each turn opposing the
    /// one before it.
    static func transitions(_ series: [(time: Double, value: Double)]) -> [Double] {
        guard var extreme = series.first?.value else { return [] }
        var rising: Bool?
        var times: [Double] = []
        for (time, value) in series.dropFirst() {
            let change = value - extreme
            let turned = abs(change) >= 0.1 && min(value, extreme) < 0.8
            if turned, rising != (change > 0) {
                times.append(time)
                rising = change > 0
                extreme = value
            } else if let rising, rising ? value > extreme : value < extreme {
                // Further the same way: the change is measured from the new extreme.
                extreme = value
            } else if rising == nil, !turned {
                extreme = value
            }
        }
        return times
    }

    /// The relative luminance (0...1) of the whole frame and of its four quarters, from a sample of its pixels: what
    /// `perSecond` measures of each frame.
    public static func luminances(_ image: RGBImage) -> [Double] {
        guard image.width > 0, image.height > 0 else { return [0, 0, 0, 0, 0] }
        var sums = [Double](repeating: 0, count: 4)
        var counts = [Int](repeating: 0, count: 4)
        let step = max(1, Int((Double(image.width * image.height) / 20_000).squareRoot()))
        image.pixels.withUnsafeBufferPointer { pixels in
            var y = 0
            while y < image.height {
                var x = 0
                let lower = y >= image.height / 2 ? 2 : 0
                while x < image.width {
                    let at = (y * image.width + x) * 3
                    let luminance = 0.2126 * linear[Int(pixels[at])] + 0.7152 * linear[Int(pixels[at + 1])] + 0.0722 * linear[Int(pixels[at + 2])]
                    let quarter = lower + (x >= image.width / 2 ? 1 : 0)
                    sums[quarter] += luminance
                    counts[quarter] += 1
                    x += step
                }
                y += step
            }
        }
        let quarters = (0..<4).map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : 0 }
        let whole = sums.reduce(0, +) / Double(max(1, counts.reduce(0, +)))
        return [whole] + quarters
    }

    /// sRGB's channel values made linear.
    private static let linear: [Double] = (0..<256).map { value in
        let channel = Double(value) / 255
        return channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
    }
}
