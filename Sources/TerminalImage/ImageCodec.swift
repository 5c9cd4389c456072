import CImageCodec
import Foundation

public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    /// The first frame of an animation, over its logical screen.
    case gif = "GIF"
    /// A still picture, or an animation's first frame.
    case webp = "WebP"
    case bmp = "BMP"
    /// The first page.
    case tiff = "TIFF"
    /// An MP4 or WebM video (Imgur's `gifv` and `mp4` items): its first frame, through FFmpeg.
    case video = "MP4"

    /// Recognises a format by its magic bytes, whatever the URL, the file's name or Content-Type claimed.
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && Array(bytes.prefix(magic.count)) == magic }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
                    || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) {
            self = .tiff // little- or big-endian, classic or BigTIFF
        } else if starts([0x42, 0x4D]), bytes.count >= 6 {
            self = .bmp
        } else if AnimationFormat(sniffing: data) == .video {
            self = .video
        } else {
            return nil
        }
    }

    /// The formats read, for messages ("JPEG, PNG, GIF, WebP, BMP, TIFF or MP4").
    public static var names: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + (all.last ?? "")
    }
}

public enum ImageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownFormat
    case corrupt(String)

    public var description: String {
        switch self {
        case .unknownFormat: "The image is not one of the formats read (\(ImageFormat.names))."
        case let .corrupt(reason): "The image could not be decoded: \(reason)."
        }
    }
}

/// The outcome of decoding: the picture, and whether the data was damaged on the way.
public struct DecodedImage: Sendable {
    public let image: RGBImage
    /// libjpeg (or libpng) met damaged data and filled in what it could not read.
    public let isDamaged: Bool
    public let format: ImageFormat
}

/// Stops a decode from another thread (a picture nobody waits for any more).
public final class DecodeStop: @unchecked Sendable {
    let flag: UnsafeMutablePointer<Int32>

    public init() {
        flag = .allocate(capacity: 1)
        flag.initialize(to: 0)
    }

    deinit {
        flag.deallocate()
    }

    public func stop() {
        // A plain store the decoder's thread reads between passes (a volatile int on the C side).
        flag.pointee = 1
    }

    public var isStopped: Bool { flag.pointee != 0 }
}

public enum ImageCodec {
    /// The default pixel budget: a picture whose header claims more (full size) is not decoded.
    public static let defaultPixelBudget = 50_000_000
    /// The most any budget may be set to.
    public static let largestPixelBudget = Int(ifc_effective_budget(0))

    nonisolated(unsafe) private static var configuredBudget = defaultPixelBudget
    private static let budgetLock = NSLock()

    /// The pixel budget every decode applies unless it is given one: `max_image_megapixels` in the settings. It is
    /// also the budget of all the decodes in flight at once, whatever the number of cores: a picture waits for its
    /// pixels while others hold them.
    public static var pixelBudget: Int {
        get { budgetLock.withLock { configuredBudget } }
        set {
            budgetLock.withLock {
                configuredBudget = min(max(1, newValue), largestPixelBudget)
                ifc_set_decode_budget(UInt64(configuredBudget))
            }
        }
    }

    /// The most pixels the decodes in flight held at once since the last call that reset it.
    public static func decodesInFlightPeak(reset: Bool = false) -> Int {
        Int(ifc_decode_budget_peak(reset ? 1 : 0))
    }

    /// Decodes as `decode` does, stopping as soon as the task is cancelled (libjpeg between its passes, and a
    /// decode waiting for the budget at once): a picture scrolled away from costs no more.
    public static func decodeWhileWanted(_ data: Data, minimumWidth: Int? = nil, minimumHeight: Int? = nil,
                                         maximumPixels: Int? = nil, oversampling: Int = 1) async throws -> DecodedImage {
        let stop = DecodeStop()
        return try await withTaskCancellationHandler {
            try decode(data, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maximumPixels: maximumPixels,
                       oversampling: oversampling, stop: stop)
        } onCancel: {
            stop.stop()
        }
    }

    /// The size stored in a JPEG's header, without decoding it.
    public static func jpegSize(_ data: Data) throws -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw in
            ifc_jpeg_size(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &width, &height, &message, message.count)
        }
        guard status == IFC_OK else { throw ImageDecodingError.corrupt(messageText(message)) }
        return (Int(width), Int(height))
    }

    /// Decodes JPEG, PNG, GIF, WebP, BMP, TIFF or a video's first frame (recognised by their bytes). For a JPEG with a size hint, libjpeg's DCT scaling decodes at the smallest
    /// of 1/8, 1/4, 1/2 or 1/1 that is still at least `oversampling` times `minimumWidth` x `minimumHeight`
    /// (photos drawn in characters ask for `cellsOversampling`; pictures in pixels for 1, their pixels exactly).
    /// Scaled down to just the size asked for, a 4:2:0 file's colour comes from blocks of 16x16 source pixels
    /// and its edges from one coefficient a block, which the resampling to the cells cannot undo: the Grace
    /// Hopper portrait at 40x20 half blocks scored 34.0 dB against the photo (chafa: 42.4), 43.8 dB with twice
    /// the pixels, and 49.5 dB decoded whole. A picture whose header claims more than `maximumPixels` is
    /// refused before any memory is taken for it.
    /// `stop`: set from another thread when nobody waits for the picture any more (`CancellationError` then).
    public static func decode(_ data: Data, minimumWidth: Int? = nil, minimumHeight: Int? = nil,
                              maximumPixels: Int? = nil, oversampling: Int = 1, stop: DecodeStop? = nil) throws -> DecodedImage {
        ifc_begin_decode(stop?.flag)
        defer { ifc_end_decode() }
        do {
            return try decodeReserving(data, minimumWidth: minimumWidth, minimumHeight: minimumHeight, maximumPixels: maximumPixels,
                                       oversampling: oversampling)
        } catch {
            if stop?.isStopped == true { throw CancellationError() }
            throw error
        }
    }

    private static func decodeReserving(_ data: Data, minimumWidth: Int?, minimumHeight: Int?, maximumPixels: Int?,
                                        oversampling: Int) throws -> DecodedImage {
        guard let format = ImageFormat(sniffing: data) else { throw ImageDecodingError.unknownFormat }
        let budget = UInt64(min(max(1, maximumPixels ?? pixelBudget), largestPixelBudget))
        switch format {
        case .jpeg:
            var denominator: Int32 = 1
            if minimumWidth != nil || minimumHeight != nil {
                let size = try jpegSize(data)
                for candidate: Int32 in [8, 4, 2] {
                    let scaledWidth = (size.width + Int(candidate) - 1) / Int(candidate)
                    let scaledHeight = (size.height + Int(candidate) - 1) / Int(candidate)
                    if scaledWidth >= (minimumWidth ?? 0) * oversampling, scaledHeight >= (minimumHeight ?? 0) * oversampling {
                        denominator = candidate
                        break
                    }
                }
            }
            return try decodeJPEG(data, scaleDenominator: denominator, budget: budget)
        case .png, .gif, .webp, .bmp, .tiff:
            return try decodeRGBA(data, format: format, budget: budget)
        case .video:
            // The video's first frame (the decode already holds this thread's share of the budget).
            let first = try decodeAnimationFrames(data, fitting: nil, limits: AnimationLimits(frames: 1), budget: budget, stop: nil)
            return DecodedImage(image: first.frames[0].image, isDamaged: false, format: .video)
        }
    }

    /// PNG, GIF, WebP, BMP and TIFF through their libraries (libpng, giflib, libwebp, a reader of its own, libtiff), to
    /// RGBA, then over black: transparent areas take the terminal's usual background.
    static func decodeRGBA(_ data: Data, format: ImageFormat, budget: UInt64) throws -> DecodedImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw in
            let base = raw.bindMemory(to: UInt8.self).baseAddress
            return switch format {
            case .png: ifc_png_decode(base, raw.count, budget, &pixels, &width, &height, &message, message.count)
            case .gif: ifc_gif_decode(base, raw.count, budget, &pixels, &width, &height, &message, message.count)
            case .webp: ifc_webp_decode(base, raw.count, budget, &pixels, &width, &height, &message, message.count)
            case .bmp: ifc_bmp_decode(base, raw.count, budget, &pixels, &width, &height, &message, message.count)
            case .tiff: ifc_tiff_decode(base, raw.count, budget, &pixels, &width, &height, &message, message.count)
            case .jpeg, .video: IFC_ERROR
            }
        }
        defer { ifc_free(pixels) }
        guard status != IFC_ERROR, let pixels, width > 0, height > 0 else { throw ImageDecodingError.corrupt(messageText(message)) }
        return DecodedImage(image: overBlack(pixels, width: Int(width), height: Int(height)), isDamaged: status == IFC_PARTIAL,
                            format: format)
    }

    /// Packed RGBA composed over black, the terminal's usual background.
    static func overBlack(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) -> RGBImage {
        let count = width * height
        var rgb = [UInt8](repeating: 0, count: count * 3)
        for index in 0..<count {
            let alpha = UInt32(pixels[index * 4 + 3])
            for channel in 0..<3 {
                rgb[index * 3 + channel] = UInt8((UInt32(pixels[index * 4 + channel]) * alpha + 127) / 255)
            }
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// How many times the size asked for a JPEG is decoded at, at least, for photos drawn in characters
    /// (see `decode`).
    public static let cellsOversampling = 8

    static func decodeJPEG(_ data: Data, scaleDenominator: Int32, budget: UInt64) throws -> DecodedImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw in
            ifc_jpeg_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, scaleDenominator, budget,
                            &pixels, &width, &height, &message, message.count)
        }
        defer { ifc_free(pixels) }
        guard status != IFC_ERROR, let pixels else { throw ImageDecodingError.corrupt(messageText(message)) }
        let count = Int(width) * Int(height) * 3
        let image = RGBImage(width: Int(width), height: Int(height),
                             pixels: Array(UnsafeBufferPointer(start: pixels, count: count)))
        return DecodedImage(image: image, isDamaged: status == IFC_PARTIAL, format: .jpeg)
    }

    /// Encodes as baseline JPEG at the given quality (1...100), or progressive.
    public static func encodeJPEG(_ image: RGBImage, quality: Int = 85, progressive: Bool = false) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = image.pixels.withUnsafeBufferPointer { buffer in
            ifc_jpeg_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, Int32(quality), progressive ? 1 : 0,
                            &output, &length, &message, message.count)
        }
        defer { ifc_free(output) }
        guard status == IFC_OK, let output else { throw ImageDecodingError.corrupt(messageText(message)) }
        return Data(bytes: output, count: length)
    }

    /// A progressive JPEG of `side` x `side` grey pixels whose last scan is repeated `copies` times: each copy is a
    /// few bytes that make libjpeg pass over the whole picture again (a few hundred KB can cost minutes of CPU
    /// without the scan limit). For the tests and the benchmarks.
    public static func repeatingLastScan(side: Int, copies: Int) throws -> Data {
        let grey = RGBImage(width: side, height: side, pixels: [UInt8](repeating: 128, count: side * side * 3))
        let jpeg = [UInt8](try encodeJPEG(grey, quality: 50, progressive: true))
        // The last SOS segment and its entropy-coded data run up to the EOI at the end.
        var lastScan = -1
        var index = 2
        while index + 3 < jpeg.count {
            guard jpeg[index] == 0xFF else { index += 1; continue }
            let marker = jpeg[index + 1]
            if marker == 0xDA { lastScan = index }
            // Markers without a length, stuffing, and a scan's header (its data follows: walked byte by byte).
            if marker == 0xD9 || marker == 0x00 || (0xD0...0xD7).contains(marker) || marker == 0xFF || marker == 0xDA {
                index += 2
                continue
            }
            index += 2 + (Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3]))
        }
        let end = jpeg.count - 2
        guard lastScan > 0, jpeg[end] == 0xFF, jpeg[end + 1] == 0xD9 else {
            throw ImageDecodingError.corrupt("the encoder's progressive JPEG has no scan to repeat")
        }
        var bytes = Array(jpeg[..<end])
        for _ in 0..<copies { bytes += jpeg[lastScan..<end] }
        return Data(bytes + [0xFF, 0xD9])
    }

    /// The JPEG with its frame header rewritten to claim `width` x `height` pixels (at most 65535 a side): from a
    /// progressive JPEG (libjpeg keeps every coefficient of the whole image for those), a decompression bomb of
    /// a few hundred bytes, for the sandbox's hostile answers, the tests and the fuzz seeds.
    public static func claimingSize(_ jpeg: Data, width: Int, height: Int) -> Data {
        var bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                bytes[index + 5] = UInt8(min(height, 65_535) >> 8 & 0xFF)
                bytes[index + 6] = UInt8(min(height, 65_535) & 0xFF)
                bytes[index + 7] = UInt8(min(width, 65_535) >> 8 & 0xFF)
                bytes[index + 8] = UInt8(min(width, 65_535) & 0xFF)
                break
            }
            index += 2 + max(length, 2)
        }
        return Data(bytes)
    }

    private static func messageText(_ message: [CChar]) -> String {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "unknown error" : text
    }
}
