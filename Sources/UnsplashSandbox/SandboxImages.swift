import Foundation
import TerminalImage

/// Serves catalog pictures at the size a client asks for, with imgix's parameters as Unsplash's
/// image CDN takes them: `w`, `h`, `fit` (`max`, `clip`, `crop`), `q`, `dpr`.
final class SandboxImages: @unchecked Sendable {
    struct Request: Hashable {
        var path: String
        var width: Int?
        var height: Int?
        var crop: Bool
        var quality: Int
    }

    private let lock = NSLock()
    private var decoded: [String: RGBImage] = [:]
    private var encoded: [Request: Data] = [:]
    private var encodedOrder: [Request] = []
    private let maximumEncoded = 400

    static func request(path: String, query: [String: String]) -> Request {
        let dpr = query["dpr"].flatMap(Double.init).map { min(max($0, 1), 3) } ?? 1
        func dimension(_ name: String) -> Int? {
            query[name].flatMap(Double.init).map { Int(($0 * dpr).rounded()) }.map { min(max($0, 1), 4_000) }
        }
        let quality = query["q"].flatMap(Int.init).map { min(max($0, 1), 100) } ?? 80
        return Request(path: path, width: dimension("w"), height: dimension("h"), crop: query["fit"] == "crop", quality: quality)
    }

    /// The JPEG bytes for a request; the original file when no size is asked for.
    func jpeg(for request: Request, file: URL) throws -> Data {
        if let cached = lock.withLock({ encoded[request] }) { return cached }
        guard request.width != nil || request.height != nil else {
            return try Data(contentsOf: file)
        }
        let source = try image(at: file)
        let target = Self.targetSize(source: (source.width, source.height), request: request)
        let resized = request.crop && request.width != nil && request.height != nil
            ? AreaResampler.fill(source, width: target.width, height: target.height)
            : AreaResampler.resize(source, width: target.width, height: target.height)
        let data = try ImageCodec.encodeJPEG(resized, quality: request.quality)
        lock.withLock {
            encoded[request] = data
            encodedOrder.append(request)
            if encodedOrder.count > maximumEncoded {
                encoded.removeValue(forKey: encodedOrder.removeFirst())
            }
        }
        return data
    }

    /// imgix semantics: `fit=crop` gives exactly w x h; otherwise the picture fits inside w x h,
    /// keeping its shape, and is never enlarged.
    static func targetSize(source: (Int, Int), request: Request) -> (width: Int, height: Int) {
        let (sourceWidth, sourceHeight) = source
        if request.crop, let width = request.width, let height = request.height {
            return (width, height)
        }
        var scale = 1.0
        if let width = request.width { scale = min(scale, Double(width) / Double(sourceWidth)) }
        if let height = request.height { scale = min(scale, Double(height) / Double(sourceHeight)) }
        return (max(1, Int((Double(sourceWidth) * scale).rounded())), max(1, Int((Double(sourceHeight) * scale).rounded())))
    }

    private func image(at file: URL) throws -> RGBImage {
        if let cached = lock.withLock({ decoded[file.path] }) { return cached }
        let data = try Data(contentsOf: file)
        // A video's still is its first frame.
        let image = AnimationFormat(sniffing: data) == .video
            ? try ImageCodec.decodeAnimation(data, limits: AnimationLimits(frames: 1)).frames[0].image
            : try ImageCodec.decode(data).image
        lock.withLock { decoded[file.path] = image }
        return image
    }

    /// Damages a JPEG past its header: the size still reads, the picture does not.
    /// A small progressive-looking JPEG whose header claims `width` x `height` pixels (60000 x 60000 unless
    /// asked otherwise): a few hundred bytes that would take gigabytes to decode at the size they claim.
    static func bomb(width: Int = 60_000, height: Int = 60_000) throws -> Data {
        let tiny = RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3))
        return ImageCodec.claimingSize(try ImageCodec.encodeJPEG(tiny, quality: 50, progressive: true), width: width, height: height)
    }

    static func corrupt(_ data: Data) -> Data {
        var bytes = [UInt8](data.prefix(max(data.count / 3, 64)))
        let start = min(bytes.count, 200)
        for index in stride(from: start, to: bytes.count, by: 7) { bytes[index] = 0xFF }
        return Data(bytes)
    }
}
