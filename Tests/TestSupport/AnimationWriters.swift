import Foundation

/// A GIF89a written here: a global colour table, and frames with their delay and disposal, LZW-compressed.
public struct GIFWriter {
    private var bytes = Data()
    private let tableBits: Int

    /// The file, with its trailer.
    public var data: Data { bytes + Data([0x3B]) }

    public init(width: Int, height: Int, colors: [(UInt8, UInt8, UInt8)]) {
        bytes.append(contentsOf: Array("GIF89a".utf8))
        bytes.append(contentsOf: Self.little(width) + Self.little(height))
        // A global table of 2^n colours.
        var tableBits = 1
        while (1 << tableBits) < colors.count { tableBits += 1 }
        self.tableBits = tableBits
        bytes.append(contentsOf: [0x80 | UInt8(tableBits - 1), 0, 0])
        for index in 0..<(1 << tableBits) {
            let color = index < colors.count ? colors[index] : (0, 0, 0)
            bytes.append(contentsOf: [color.0, color.1, color.2])
        }
        // Loops for ever.
        bytes.append(contentsOf: [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0])
    }

    /// `count` frames covering a `side` x `side` screen, alternately black and white, `delay` hundredths each: a few KB
    /// a frame (LZW packs a plain frame tightly), the screen's pixels of work each.
    public static func alternating(side: Int, count: Int, delay: Int = 10) -> GIFWriter {
        var gif = GIFWriter(width: side, height: side, colors: [(0, 0, 0), (255, 255, 255)])
        let packed = (0..<2).map { lzw([UInt8](repeating: UInt8($0), count: side * side), minimumCodeSize: gif.minimumCodeSize) }
        for index in 0..<count {
            gif.frame(left: 0, top: 0, width: side, height: side, packed: packed[index % 2], delay: delay)
        }
        return gif
    }

    /// The LZW code size of this file's frames.
    public var minimumCodeSize: Int { max(2, tableBits) }

    public mutating func frame(left: Int, top: Int, width: Int, height: Int, pixels: [UInt8], delay: Int, disposal: Int = 1) {
        frame(left: left, top: top, width: width, height: height, packed: Self.lzw(pixels, minimumCodeSize: minimumCodeSize),
              delay: delay, disposal: disposal)
    }

    /// A frame whose pixels are already packed (`lzw`), for many frames of the same pixels.
    public mutating func frame(left: Int, top: Int, width: Int, height: Int, packed: [UInt8], delay: Int, disposal: Int = 1) {
        bytes.append(contentsOf: [0x21, 0xF9, 4, UInt8(disposal << 2)] + Self.little(delay) + [0, 0])
        bytes.append(0x2C)
        bytes.append(contentsOf: Self.little(left) + Self.little(top) + Self.little(width) + Self.little(height) + [0])
        bytes.append(UInt8(minimumCodeSize))
        var offset = 0
        while offset < packed.count {
            let length = min(255, packed.count - offset)
            bytes.append(UInt8(length))
            bytes.append(contentsOf: packed[offset..<(offset + length)])
            offset += length
        }
        bytes.append(0)
    }

    private static func little(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    /// GIF's LZW: codes of growing width, least significant bit first, a clear code when the table is full.
    public static func lzw(_ pixels: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var output: [UInt8] = []
        var buffer = 0, bufferBits = 0
        var codeSize = minimumCodeSize + 1
        func emit(_ code: Int) {
            buffer |= code << bufferBits
            bufferBits += codeSize
            while bufferBits >= 8 {
                output.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bufferBits -= 8
            }
        }
        // The code for a prefix code followed by a byte, 0 for none (no entry is code 0).
        var table = [Int32](repeating: 0, count: 4096 * 256)
        var next = end + 1
        emit(clear)
        guard var prefix = pixels.first.map(Int.init) else { emit(end); return output }
        for pixel in pixels.dropFirst() {
            let key = prefix << 8 | Int(pixel)
            if table[key] != 0 { prefix = Int(table[key]); continue }
            emit(prefix)
            if next < 4096 {
                table[key] = Int32(next)
                next += 1
                if next > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            } else {
                emit(clear)
                for index in table.indices { table[index] = 0 }
                next = end + 1
                codeSize = minimumCodeSize + 1
            }
            prefix = Int(pixel)
        }
        emit(prefix)
        emit(end)
        if bufferBits > 0 { output.append(UInt8(buffer & 0xFF)) }
        return output
    }
}

/// An animated WebP put together here from frames' bitstreams (the container's VP8X, ANIM and ANMF chunks).
public enum WebPWriter {
    public struct Frame {
        public var x, y, width, height, duration: Int
        public var bitstream: (kind: String, bytes: [UInt8])

        public init(x: Int, y: Int, width: Int, height: Int, duration: Int, bitstream: (kind: String, bytes: [UInt8])) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.duration = duration
            self.bitstream = bitstream
        }
    }

    /// The payload of the first chunk named `kind` in a WebP file.
    public static func chunk(_ kind: String, in file: [UInt8]) -> (kind: String, bytes: [UInt8])? {
        var offset = 12
        while offset + 8 <= file.count {
            let name = String(decoding: file[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(file[offset + 4]) | Int(file[offset + 5]) << 8 | Int(file[offset + 6]) << 16 | Int(file[offset + 7]) << 24
            guard offset + 8 + size <= file.count else { return nil }
            if name == kind { return (kind, Array(file[(offset + 8)..<(offset + 8 + size)])) }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    public static func animation(width: Int, height: Int, frames: [Frame]) -> Data {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
            Array(name.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        var body = Array("WEBP".utf8)
        // VP8X: the animation flag (and alpha), the canvas's width and height less one.
        body += chunk("VP8X", [0x12, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
        body += chunk("ANIM", [0, 0, 0, 0] + le(0, 2))
        for frame in frames {
            // Offsets are stored halved; flags 0: blend, no disposal.
            let header = le(frame.x / 2, 3) + le(frame.y / 2, 3) + le(frame.width - 1, 3) + le(frame.height - 1, 3) + le(frame.duration, 3) + [0]
            body += chunk("ANMF", header + chunk(frame.bitstream.kind, frame.bitstream.bytes))
        }
        return Data(Array("RIFF".utf8) + le(body.count, 4) + body)
    }
}
