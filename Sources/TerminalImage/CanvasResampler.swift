/// An animation's canvas (RGBA, as the decoder composes it) made into frames of one size, over black, frame after
/// frame: only the part of the frame that the canvas's changed rectangle reaches is made again, the rest is the
/// frame before. A one-pixel change on a 7000x7000 canvas costs a few output pixels, not the canvas; the first frame
/// (and the first after a change of size) is made whole. Each pixel is what `AreaResampler.resize` makes of the
/// canvas over black.
struct CanvasResampler {
    let canvasWidth: Int
    let canvasHeight: Int
    let width: Int
    let height: Int
    private let across: AreaResampler.Taps
    private let down: AreaResampler.Taps
    /// For each canvas column (row), the first and last output column (row) that takes from it.
    private let columnsReached: (first: [Int], last: [Int])
    private let rowsReached: (first: [Int], last: [Int])
    /// The frame made last, which the next starts from.
    private var last: [UInt8]?

    init(canvasWidth: Int, canvasHeight: Int, width: Int, height: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.width = width
        self.height = height
        across = AreaResampler.Taps(AreaResampler.spans(source: canvasWidth, target: width))
        down = AreaResampler.Taps(AreaResampler.spans(source: canvasHeight, target: height))
        columnsReached = across.reached(sources: canvasWidth)
        rowsReached = down.reached(sources: canvasHeight)
    }

    /// The output pixels a change of the canvas in `changed` reaches (empty when it reaches none).
    func reach(_ changed: (x: Int, y: Int, width: Int, height: Int)) -> (columns: Range<Int>, rows: Range<Int>) {
        let columns = Self.span(changed.x, changed.width, columnsReached, limit: canvasWidth)
        let rows = Self.span(changed.y, changed.height, rowsReached, limit: canvasHeight)
        return columns.isEmpty || rows.isEmpty ? (0..<0, 0..<0) : (columns, rows)
    }

    private static func span(_ start: Int, _ length: Int, _ reached: (first: [Int], last: [Int]), limit: Int) -> Range<Int> {
        let from = max(0, start), to = min(limit, start + max(0, length))
        guard from < to else { return 0..<0 }
        var low = Int.max, high = -1
        for source in from..<to {
            low = min(low, reached.first[source])
            high = max(high, reached.last[source])
        }
        return low <= high ? low..<(high + 1) : 0..<0
    }

    /// The next frame: the last one with what `changed` reaches made again from `canvas`. `stopped` is asked between
    /// rows (a frame can be large); when it says so, nil.
    mutating func frame(canvas: UnsafePointer<UInt8>, changed: (x: Int, y: Int, width: Int, height: Int),
                        stopped: () -> Bool) -> RGBImage? {
        var output: [UInt8]
        let region: (columns: Range<Int>, rows: Range<Int>)
        if let last {
            output = last
            region = reach(changed)
        } else {
            output = [UInt8](repeating: 0, count: width * height * 3)
            region = (0..<width, 0..<height)
        }
        if !region.columns.isEmpty, !region.rows.isEmpty {
            guard make(region, from: canvas, into: &output, stopped: stopped) else { return nil }
        }
        last = output
        return RGBImage(width: width, height: height, pixels: output)
    }

    /// Makes the output pixels of `region` from the canvas: each canvas row a target row takes is resized across
    /// (only the region's columns) once, in a ring of four rows as `AreaResampler.resize` does, then rows combined down.
    private func make(_ region: (columns: Range<Int>, rows: Range<Int>), from canvas: UnsafePointer<UInt8>,
                      into output: inout [UInt8], stopped: () -> Bool) -> Bool {
        let columns = region.columns
        let rowLength = columns.count * 3
        let slots = min(down.widest, 4)
        var ring = [Float](repeating: 0, count: slots * rowLength)
        var held = [Int](repeating: -1, count: slots)
        var row = [Float](repeating: 0, count: rowLength)
        return ring.withUnsafeMutableBufferPointer { ring in
            row.withUnsafeMutableBufferPointer { row in
                output.withUnsafeMutableBufferPointer { output in
                    for targetY in region.rows {
                        if stopped() { return false }
                        row.update(repeating: 0)
                        for tap in down.range(targetY) {
                            let sourceY = down.index[tap]
                            let slot = sourceY % slots
                            if held[slot] != sourceY {
                                across.resizeCanvasRow(canvas + sourceY * canvasWidth * 4, targets: columns, into: ring, at: slot * rowLength)
                                held[slot] = sourceY
                            }
                            let weight = down.weight[tap]
                            let base = slot * rowLength
                            for index in 0..<rowLength { row[index] += ring[base + index] * weight }
                        }
                        let base = (targetY * width + columns.lowerBound) * 3
                        for index in 0..<rowLength { output[base + index] = UInt8(max(0, min(255, row[index].rounded()))) }
                    }
                    return true
                }
            }
        }
    }
}

extension AreaResampler.Taps {
    /// For each source index, the first and last target that takes from it (-1 when none does).
    func reached(sources: Int) -> (first: [Int], last: [Int]) {
        var first = [Int](repeating: Int.max, count: sources), last = [Int](repeating: -1, count: sources)
        for target in 0..<(start.count - 1) {
            for tap in range(target) {
                let source = index[tap]
                first[source] = min(first[source], target)
                last[source] = max(last[source], target)
            }
        }
        return (first, last)
    }

    /// The targets `targets` of one canvas row (RGBA, each pixel over black as `ImageCodec.overBlack` makes it), into
    /// `ring` from `at`.
    func resizeCanvasRow(_ row: UnsafePointer<UInt8>, targets: Range<Int>, into ring: UnsafeMutableBufferPointer<Float>, at: Int) {
        start.withUnsafeBufferPointer { start in
            index.withUnsafeBufferPointer { index in
                weight.withUnsafeBufferPointer { weight in
                    for target in targets {
                        var red: Float = 0, green: Float = 0, blue: Float = 0
                        for tap in start[target]..<start[target + 1] {
                            let pixel = row + index[tap] * 4
                            let alpha = UInt32(pixel[3])
                            let share = weight[tap]
                            red += Float((UInt32(pixel[0]) * alpha + 127) / 255) * share
                            green += Float((UInt32(pixel[1]) * alpha + 127) / 255) * share
                            blue += Float((UInt32(pixel[2]) * alpha + 127) / 255) * share
                        }
                        let offset = at + (target - targets.lowerBound) * 3
                        ring[offset] = red
                        ring[offset + 1] = green
                        ring[offset + 2] = blue
                    }
                }
            }
        }
    }
}
