import CZlib

/// zlib's one-call compression, for bytes held in memory: Kitty's compressed pixels, a long list's packed photos.
public enum Deflate {
    /// `bytes` deflated at `level` (1 fastest, 9 smallest); nil for no bytes or when zlib refuses.
    public static func deflate(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(bytes.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        // A copy of the length written: the buffer was made for the worst case (about the input's size), and kept
        // bytes (a packed list's) must not carry that capacity.
        return Array(output[..<Int(length)])
    }

    /// Deflated `bytes` inflated: nil unless they are a whole zlib stream of exactly `expected` bytes.
    public static func inflate(_ bytes: [UInt8], expected: Int) -> [UInt8]? {
        guard expected >= 0 else { return nil }
        var length = uLongf(expected)
        var output = [UInt8](repeating: 0, count: expected)
        let status = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &length, source.baseAddress, uLong(bytes.count))
            }
        }
        guard status == Z_OK, Int(length) == expected else { return nil }
        return output
    }
}
