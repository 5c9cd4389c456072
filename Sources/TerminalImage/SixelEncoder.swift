import Foundation
import CSixel
#if canImport(Glibc)
import Glibc
#endif

/// Sixel pictures (xterm as a VT340, foot, WezTerm, mlterm, Konsole, Windows Terminal), through libsixel:
/// its median-cut palette of up to 256 colours with error diffusion decides the quality, as in `img2sixel`.
public enum SixelEncoder {
    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// The picture as one DCS sequence (`ESC P q … ESC \`), drawn from the cursor's cell; nil when libsixel
    /// refused it (no memory).
    public static func encode(_ image: RGBImage, colors: Int = 256) -> [UInt8]? {
        guard image.width > 0, image.height > 0 else { return nil }
        var dither: OpaquePointer?
        guard sixel_dither_new(&dither, Int32(max(2, min(256, colors))), nil) == SIXEL_OK, let dither else { return nil }
        defer { sixel_dither_unref(dither) }
        var pixels = image.pixels
        let initialised = pixels.withUnsafeMutableBufferPointer { buffer in
            sixel_dither_initialize(dither, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                    SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
        }
        guard initialised == SIXEL_OK else { return nil }
        sixel_dither_set_diffusion_type(dither, SIXEL_DIFFUSE_AUTO)
        return output(capacity: image.width * image.height / 2) { output in
            pixels.withUnsafeMutableBufferPointer { buffer in
                sixel_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output)
            }
        }
    }

    /// A picture mapped once to its own palette (median cut over the whole picture, error diffusion across it),
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
            var made: OpaquePointer?
            guard sixel_dither_new(&made, Int32(max(2, min(256, colors))), nil) == SIXEL_OK, let made else { return nil }
            var pixels = image.pixels
            let initialised = pixels.withUnsafeMutableBufferPointer { buffer in
                sixel_dither_initialize(made, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                        SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
            }
            guard initialised == SIXEL_OK else {
                sixel_dither_unref(made)
                return nil
            }
            sixel_dither_set_diffusion_type(made, SIXEL_DIFFUSE_AUTO)
            let mapped = pixels.withUnsafeMutableBufferPointer { buffer in
                sixel_dither_apply_palette(made, buffer.baseAddress, Int32(image.width), Int32(image.height))
            }
            guard let mapped else {
                sixel_dither_unref(made)
                return nil
            }
            indexes = Array(UnsafeBufferPointer(start: mapped, count: image.width * image.height))
            free(mapped)
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
            var made: OpaquePointer?
            guard count > 0, sixel_dither_new(&made, Int32(count), nil) == SIXEL_OK, let made else { return nil }
            sixel_dither_set_palette(made, palette)
            sixel_dither_set_pixelformat(made, SIXEL_PIXELFORMAT_PAL8)
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
