import Foundation
import TerminalImage
import UnsplashSandbox

/// A 1080-pixel-wide JPEG to a 40x20-cell thumbnail, the work the image pipeline does per feed card:
/// decode (libjpeg's DCT scaling picks the smallest scale still covering 40x40 pixels), area-resample,
/// draw with half blocks.
struct ThumbnailBenchmark {
    let iterations: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run(into report: inout Report) throws {
        guard let assets = SandboxCatalog.locateAssets() else {
            throw Failure(description: "The demo catalog (Assets/) was not found; run from the repository or set IMAGE_FEED_ASSETS.")
        }
        let jpeg = try Self.photo1080(assets: assets)
        let size = try ImageCodec.jpegSize(jpeg)
        report.note("thumbnail source: \(size.width)x\(size.height) JPEG, \(jpeg.count / 1024) KiB (the demo's coffee photo enlarged)")
        for mode in [ColorMode.palette256, .truecolor] {
            let blitter = HalfBlockBlitter(mode: mode, unicode: true)
            var samples = Samples()
            for index in 0..<(iterations + 10) {
                let start = now()
                let decoded = try ImageCodec.decode(jpeg, minimumWidth: 40, minimumHeight: 40)
                let picture = blitter.render(decoded.image, columns: 40, rows: 20)
                let elapsed = now() - start
                precondition(picture.columns <= 40 && picture.rows <= 20)
                if index >= 10 { samples.add(elapsed) } // the first runs warm caches up
            }
            report.add("thumbnail 1080px JPEG -> 40x20 cells, \(mode.name), median", milliseconds(samples.median))
            report.add("thumbnail 1080px JPEG -> 40x20 cells, \(mode.name), p99", milliseconds(samples.p99), target: "< 3 ms")
        }
    }

    /// A 1080x720 JPEG made from a demo photo (the demo's photos are 512 pixels at most).
    static func photo1080(assets: URL) throws -> Data {
        let source = try ImageCodec.decode(try Data(contentsOf: assets.appendingPathComponent("photos/coffee.jpg"))).image
        let enlarged = AreaResampler.fill(source, width: 1080, height: 720)
        return try ImageCodec.encodeJPEG(enlarged, quality: 85)
    }
}

extension ColorMode {
    var name: String {
        switch self {
        case .truecolor: "truecolor"
        case .palette256: "256 colours"
        case .palette16: "16 colours"
        case .none: "no colour"
        }
    }
}
