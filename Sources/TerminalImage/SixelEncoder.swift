import Foundation
import CSixel
#if canImport(Glibc)
import Glibc
#endif

/// Sixel pictures (xterm as a VT340, foot, WezTerm, mlterm, Konsole, Windows Terminal), through libsixel: a
/// picture of at most 256 colours as Sixel tells them apart (a photo in black and white, a drawing) takes its own
/// colours exactly; any other, libsixel's median-cut palette of up to 256 colours from every pixel, each pixel mapped
/// to it here with error diffusion (`diffused`).
public enum SixelEncoder {
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// The picture as one DCS sequence (`ESC P q … ESC \`), drawn from the cursor's cell; nil when libsixel
    /// refused it (no memory).
    public static func encode(_ image: RGBImage, colors: Int = 256) -> [UInt8]? {
        Quantized(image, colors: colors)?.encode(x: 0, y: 0, width: image.width, height: image.height)
    }

    /// A picture mapped once to its own palette (its own colours when they are few, `fewColours`; else median cut
    /// over the whole picture, error diffusion across it),
    /// so that any part of it can be encoded later without choosing colours again: parts drawn at different
    /// times (a card's rows as a scroll brings them into view, the rows around a dialog when it closes) are the
    /// very pixels of the whole, and encoding a part costs only the encoding.
    public final class Quantized: @unchecked Sendable {
        public let width: Int
        public let height: Int
        private let indexes: [UInt8]
        private let dither: OpaquePointer

        /// nil when libsixel refused it (no memory).
        public init?(_ image: RGBImage, colors: Int = 256) {
            guard image.width > 0, image.height > 0 else { return nil }
            if let exact = SixelEncoder.fewColours(image, limit: max(2, min(256, colors))) {
                var palette = exact.palette
                guard let made = palette.withUnsafeMutableBufferPointer({ Self.dither(palette: $0.baseAddress!, count: exact.palette.count / 3) }) else {
                    return nil
                }
                indexes = exact.indexes
                dither = made
                width = image.width
                height = image.height
                nearest = LockedTable()
                return
            }
            var made: OpaquePointer?
            guard sixel_dither_new(&made, Int32(max(2, min(256, colors))), nil) == SIXEL_OK, let made else { return nil }
            var pixels = image.pixels
            // libsixel's palette from every pixel (its quicker one takes about 18,000 of them), mapped here: libsixel
            // maps against that palette by a search of every colour for every pixel (half a second a photo).
            let initialised = pixels.withUnsafeMutableBufferPointer { buffer in
                sixel_dither_initialize(made, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                        SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_FULL)
            }
            let count = Int(sixel_dither_get_num_of_palette_colors(made))
            guard initialised == SIXEL_OK, count > 0, let palette = sixel_dither_get_palette(made) else {
                sixel_dither_unref(made)
                return nil
            }
            indexes = SixelEncoder.diffused(image, palette: (0..<count * 3).map { palette[$0] })
            sixel_dither_set_pixelformat(made, SIXEL_PIXELFORMAT_PAL8)
            dither = made
            width = image.width
            height = image.height
            nearest = LockedTable()
        }

        /// `image` mapped to the palette `other` chose: the frames of an animation share the first frame's colours,
        /// so a frame costs a lookup per pixel (the nearest colour, remembered for each 15-bit colour in a table the
        /// frames share) and the encoding, not a median cut and a search of its own. No error diffusion: a frame shows
        /// for a tenth of a second, and diffusion's noise would shimmer from frame to frame.
        public init?(_ image: RGBImage, sharingPaletteOf other: Quantized) {
            guard image.width > 0, image.height > 0, let palette = sixel_dither_get_palette(other.dither) else { return nil }
            let count = Int(sixel_dither_get_num_of_palette_colors(other.dither))
            guard count > 0, let made = Self.dither(palette: palette, count: count) else { return nil }
            let colours = (0..<count * 3).map { Int(palette[$0]) }
            let shared = other.nearest
            var indexes = [UInt8](repeating: 0, count: image.width * image.height)
            image.pixels.withUnsafeBufferPointer { pixels in
                shared.withLock { table in
                    for index in 0..<(image.width * image.height) {
                        let red = Int(pixels[index * 3]), green = Int(pixels[index * 3 + 1]), blue = Int(pixels[index * 3 + 2])
                        let key = (red >> 3) << 10 | (green >> 3) << 5 | blue >> 3
                        var found = Int(table[key])
                        if found < 0 {
                            // The nearest of the palette to the middle of this 15-bit colour's box.
                            let (r, g, b) = (red | 4, green | 4, blue | 4)
                            var best = Int.max
                            for colour in 0..<count {
                                let dr = colours[colour * 3] - r, dg = colours[colour * 3 + 1] - g, db = colours[colour * 3 + 2] - b
                                let distance = dr * dr * 2 + dg * dg * 4 + db * db * 3
                                if distance < best {
                                    best = distance
                                    found = colour
                                }
                            }
                            table[key] = Int16(found)
                        }
                        indexes[index] = UInt8(found)
                    }
                }
            }
            self.indexes = indexes
            nearest = shared
            dither = made
            width = image.width
            height = image.height
        }

        /// A dither that encodes palette indexes in the `count` colours of `palette` (red, green, blue each; copied).
        private static func dither(palette: UnsafeMutablePointer<UInt8>, count: Int) -> OpaquePointer? {
            var made: OpaquePointer?
            guard sixel_dither_new(&made, Int32(count), nil) == SIXEL_OK, let made else { return nil }
            sixel_dither_set_palette(made, palette)
            sixel_dither_set_pixelformat(made, SIXEL_PIXELFORMAT_PAL8)
            return made
        }

        /// The palette index nearest each 15-bit colour (-1: not looked up yet), shared by the frames that share
        /// the palette.
        let nearest: LockedTable

        final class LockedTable: @unchecked Sendable {
            private let lock = NSLock()
            private var table = [Int16](repeating: -1, count: 1 << 15)
            func withLock<T>(_ body: (inout [Int16]) -> T) -> T { lock.withLock { body(&table) } }
        }

        deinit {
            sixel_dither_unref(dither)
        }

        /// The part at (`x`, `y`), `partWidth` x `partHeight` pixels, as one DCS sequence. Not thread-safe: one
        /// part at a time.
        public func encode(x: Int, y: Int, width partWidth: Int, height partHeight: Int) -> [UInt8]? {
            guard x >= 0, y >= 0, partWidth > 0, partHeight > 0, x + partWidth <= width, y + partHeight <= height else { return nil }
            var part = [UInt8](repeating: 0, count: partWidth * partHeight)
            for line in 0..<partHeight {
                let from = (y + line) * width + x
                part.replaceSubrange((line * partWidth)..<((line + 1) * partWidth), with: indexes[from..<(from + partWidth)])
            }
            return SixelEncoder.output { output in
                part.withUnsafeMutableBufferPointer { buffer in
                    sixel_encode(buffer.baseAddress, Int32(partWidth), Int32(partHeight), 1, dither, output)
                }
            }
        }
    }

    /// A Sixel palette gives each channel in hundredths (`#n;2;r;g;b`, 0–100): the hundredth each 8-bit level is
    /// written as, rounded as libsixel writes it.
    static let hundredths: [UInt8] = (0..<256).map { UInt8(($0 * 100 + 127) / 255) }

    /// The 8-bit level a hundredth is drawn as (and libsixel writes back as that hundredth).
    static func level(fromHundredth hundredth: Int) -> Int { (hundredth * 255 + 50) / 100 }

    /// Each pixel's palette index, the error of each choice spread to the pixels after it (Atkinson's pattern: six
    /// neighbours an eighth each, three quarters of the error passed on). Against libsixel's quicker palette and mapping
    /// (the whole error passed on, Floyd and Steinberg's), five colour demo photos at 540 pixels are 2.7 dB closer to
    /// the photo and 15% smaller in Sixel. The error is measured against each colour as Sixel writes it (hundredths).
    static func diffused(_ image: RGBImage, palette: [UInt8]) -> [UInt8] {
        let shown = palette.map { level(fromHundredth: Int(hundredths[Int($0)])) }
        let search = NearestColour(palette: shown)
        let width = image.width
        var indexes = [UInt8](repeating: 0, count: image.width * image.height)
        // The error waiting for three rows (this one and the two under it), two pixels of margin each side.
        let stride = (width + 4) * 3
        var errors = [Float](repeating: 0, count: stride * 3)
        image.pixels.withUnsafeBufferPointer { pixels in
            errors.withUnsafeMutableBufferPointer { errors in
                for y in 0..<image.height {
                    let row = (y % 3) * stride
                    // Where each eighth goes: the next two pixels, three under, one two rows down.
                    let neighbours = [row + 3, row + 6, ((y + 1) % 3) * stride - 3, ((y + 1) % 3) * stride,
                                      ((y + 1) % 3) * stride + 3, ((y + 2) % 3) * stride]
                    for x in 0..<width {
                        let at = (x + 2) * 3
                        let source = (y * width + x) * 3
                        let red = Int(min(255, max(0, Float(pixels[source]) + errors[row + at])).rounded())
                        let green = Int(min(255, max(0, Float(pixels[source + 1]) + errors[row + at + 1])).rounded())
                        let blue = Int(min(255, max(0, Float(pixels[source + 2]) + errors[row + at + 2])).rounded())
                        let chosen = search.nearest(red: red, green: green, blue: blue)
                        indexes[y * width + x] = UInt8(chosen)
                        // An eighth of the error, in whole levels (an error under eight levels is not passed on: no
                        // noise where the palette is already close).
                        let shares = (Float((red - shown[chosen * 3]) / 8), Float((green - shown[chosen * 3 + 1]) / 8),
                                      Float((blue - shown[chosen * 3 + 2]) / 8))
                        guard shares != (0, 0, 0) else { continue }
                        for neighbour in neighbours {
                            errors[neighbour + at] += shares.0
                            errors[neighbour + at + 1] += shares.1
                            errors[neighbour + at + 2] += shares.2
                        }
                    }
                    // This row's slots take the error for the row three on.
                    for index in row..<(row + stride) { errors[index] = 0 }
                }
            }
        }
        return indexes
    }

    /// The palette colour nearest a colour (squared distance), found among the colours sorted by green, going out
    /// from the pixel's green until green alone is farther than the best found: a few colours a pixel, not all 256.
    struct NearestColour {
        private let greens: [Int]
        private let colours: [(red: Int, green: Int, blue: Int, index: Int)]

        init(palette: [Int]) {
            colours = (0..<(palette.count / 3)).map { (palette[$0 * 3], palette[$0 * 3 + 1], palette[$0 * 3 + 2], $0) }
                .sorted { $0.green < $1.green }
            greens = colours.map(\.green)
        }

        func nearest(red: Int, green: Int, blue: Int) -> Int {
            var low = 0, high = greens.count
            while low < high {
                let middle = (low + high) / 2
                if greens[middle] < green { low = middle + 1 } else { high = middle }
            }
            var best = Int.max, found = colours.isEmpty ? 0 : colours[min(low, colours.count - 1)].index
            /// Weighs the colour at `position`; false once its green alone is as far as the best: every colour past it
            /// that way is farther.
            func closer(_ position: Int) -> Bool {
                let colour = colours[position]
                let dg = colour.green - green
                guard dg * dg < best else { return false }
                let dr = colour.red - red, db = colour.blue - blue
                let distance = dr * dr + dg * dg + db * db
                if distance < best { best = distance; found = colour.index }
                return true
            }
            var up = low, down = low - 1
            while up < colours.count || down >= 0 {
                if up < colours.count { up = closer(up) ? up + 1 : colours.count }
                if down >= 0 { down = closer(down) ? down - 1 : -1 }
            }
            return found
        }
    }

    /// The picture's colours as a Sixel palette can tell them apart (each channel in hundredths), when there are at
    /// most `limit` of them: a drawing, a logo, a screenshot, a photo in black and white (at most 101 greys). Each
    /// pixel then takes its own colour, with nothing to diffuse: the picture as exactly as Sixel can draw it. A
    /// picture in more than `greyLevels` greys takes the greys that keep it closest (`fewerGreys`). (libsixel's
    /// palette is chosen from colours cut to 5 bits a channel, 32 greys for such a photo, evenly spaced, and its error
    /// diffusion's noise between them.) Nil past `limit` colours, found in the first rows of a colour photo.
    static func fewColours(_ image: RGBImage, limit: Int) -> (palette: [UInt8], indexes: [UInt8])? {
        let count = image.width * image.height
        var slots = [Int16](repeating: -1, count: 101 * 101 * 101)
        var palette: [UInt8] = []
        var indexes = [UInt8](repeating: 0, count: count)
        let complete: Bool = image.pixels.withUnsafeBufferPointer { pixels in
            hundredths.withUnsafeBufferPointer { hundredths in
                for index in 0..<count {
                    let red = Int(hundredths[Int(pixels[index * 3])])
                    let green = Int(hundredths[Int(pixels[index * 3 + 1])])
                    let blue = Int(hundredths[Int(pixels[index * 3 + 2])])
                    let key = (red * 101 + green) * 101 + blue
                    var slot = Int(slots[key])
                    if slot < 0 {
                        slot = palette.count / 3
                        guard slot < limit else { return false }
                        slots[key] = Int16(slot)
                        palette += [red, green, blue].map { UInt8(level(fromHundredth: $0)) }
                    }
                    indexes[index] = UInt8(slot)
                }
                return true
            }
        }
        guard complete else { return nil }
        let grey = stride(from: 0, to: palette.count, by: 3).allSatisfy { (slot: Int) -> Bool in
            palette[slot] == palette[slot + 1] && palette[slot] == palette[slot + 2]
        }
        if grey, palette.count / 3 > greyLevels {
            return fewerGreys(palette: palette, indexes: indexes, levels: greyLevels)
        }
        return (palette, indexes)
    }

    /// The greys a picture in black and white is shown in: with 32 chosen for the photo, each of the demo's seven
    /// black-and-white photos is drawn 6 to 10 dB closer than with libsixel's palette and ahead of chafa's Sixel, and
    /// the 14 photos take 2% more bytes in all; 24 left contours in a smooth background (photographed in xterm), and
    /// all 101 of Sixel's greys would take a grainy photo's bytes up by a third (docs/dev/benchmarks.md).
    static let greyLevels = 32

    /// A picture in greys with its greys cut to the `levels` that keep it closest: the picture's histogram (in
    /// hundredths) cut into `levels` runs of neighbouring greys, each shown as its mean, the cuts chosen for the
    /// least squared error over all pixels (dynamic programming over at most 101 greys).
    static func fewerGreys(palette: [UInt8], indexes: [UInt8], levels wanted: Int) -> (palette: [UInt8], indexes: [UInt8]) {
        let hundredth = stride(from: 0, to: palette.count, by: 3).map { Int(hundredths[Int(palette[$0])]) }
        var counts = [Double](repeating: 0, count: 101)
        for index in indexes { counts[hundredth[Int(index)]] += 1 }
        let present = (0..<101).filter { counts[$0] > 0 }
        let n = present.count, levels = min(wanted, n)
        // Sums over present[0..<i] of the pixels, of their greys and of their greys squared: a run's error from them.
        var weights = [0.0], sums = [0.0], squares = [0.0]
        for grey in present {
            let weight = counts[grey], value = Double(grey)
            weights.append(weights.last! + weight)
            sums.append(sums.last! + weight * value)
            squares.append(squares.last! + weight * value * value)
        }
        func mean(_ first: Int, _ last: Int) -> Double {
            ((sums[last + 1] - sums[first]) / (weights[last + 1] - weights[first])).rounded()
        }
        func error(_ first: Int, _ last: Int) -> Double {
            let level = mean(first, last)
            let weight = weights[last + 1] - weights[first], sum = sums[last + 1] - sums[first]
            return squares[last + 1] - squares[first] - 2 * level * sum + level * level * weight
        }
        // least[l][j]: the least error of present[0...j] in l + 1 levels; start[l][j]: where its last run starts.
        var least = [[Double]](repeating: [Double](repeating: .infinity, count: n), count: levels)
        var start = [[Int]](repeating: [Int](repeating: 0, count: n), count: levels)
        for j in 0..<n { least[0][j] = error(0, j) }
        for l in 1..<max(1, levels) {
            for j in l..<n {
                for i in l...j where least[l - 1][i - 1] + error(i, j) < least[l][j] {
                    least[l][j] = least[l - 1][i - 1] + error(i, j)
                    start[l][j] = i
                }
            }
        }
        var level = [Int](repeating: 0, count: 101)
        var runs: [(first: Int, last: Int)] = []
        var last = n - 1
        for l in stride(from: levels - 1, through: 0, by: -1) {
            let first = l == 0 ? 0 : start[l][last]
            runs.insert((first, last), at: 0)
            last = first - 1
        }
        var greys: [UInt8] = []
        for (number, run) in runs.enumerated() {
            let value = UInt8(Self.level(fromHundredth: Int(mean(run.first, run.last))))
            greys += [value, value, value]
            for k in run.first...run.last { level[present[k]] = number }
        }
        return (greys, indexes.map { UInt8(level[hundredth[Int($0)]]) })
    }

    /// What `encode` writes to a libsixel output, gathered.
    static func output(capacity: Int = 0, _ encode: (OpaquePointer) -> SIXELSTATUS) -> [UInt8]? {
        let sink = Sink()
        sink.bytes.reserveCapacity(capacity)
        var output: OpaquePointer?
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        let created = sixel_output_new(&output, { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { bytes in
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(size)))
            }
            return size
        }, box.toOpaque(), nil)
        guard created == SIXEL_OK, let output else { return nil }
        defer { sixel_output_unref(output) }
        guard encode(output) == SIXEL_OK else { return nil }
        return sink.bytes
    }

    /// A Sixel sequence back to pixels (the tests' check of what a terminal would draw); nil if it is not one.
    public static func decode(_ bytes: [UInt8]) -> RGBImage? {
        var input = bytes
        var indexes: UnsafeMutablePointer<UInt8>?
        var palette: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var count: Int32 = 0
        let status = input.withUnsafeMutableBufferPointer { buffer in
            sixel_decode_raw(buffer.baseAddress, Int32(buffer.count), &indexes, &width, &height, &palette, &count, nil)
        }
        defer {
            free(indexes)
            free(palette)
        }
        guard status == SIXEL_OK, let indexes, let palette, width > 0, height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 3)
        for index in 0..<(Int(width) * Int(height)) {
            let colour = Int(indexes[index])
            guard colour < Int(count) else { continue }
            pixels[index * 3] = palette[colour * 3]
            pixels[index * 3 + 1] = palette[colour * 3 + 1]
            pixels[index * 3 + 2] = palette[colour * 3 + 2]
        }
        return RGBImage(width: Int(width), height: Int(height), pixels: pixels)
    }
}
