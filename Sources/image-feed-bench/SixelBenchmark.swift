import Foundation
import TerminalImage
import UnsplashSandbox

/// The Sixel encoder against chafa's, without a terminal: each demo photo encoded as the picture layer encodes a card
/// (one palette for the whole picture, then the picture), decoded back with libsixel, and compared with the photo at
/// the same pixels (PSNR), with its bytes and time; chafa's Sixel of the same photo likewise, at the size it chose.
struct SixelBenchmark {
    /// A card's picture at 200x60 in cells of 9x18 pixels is about 900 pixels wide.
    let width = 900

    func run(into report: inout Report) throws {
        guard let assets = SandboxCatalog.locateAssets() else { return }
        let folder = assets.appendingPathComponent("photos")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { $0.hasSuffix(".jpg") }
        let chafa = ThumbnailBenchmark.chafaPath()
        var ours = (psnr: 0.0, bytes: 0, seconds: 0.0)
        var theirs = (psnr: 0.0, bytes: 0, count: 0)
        var worst = (margin: Double.infinity, name: "")
        for name in names {
            let jpeg = try Data(contentsOf: folder.appendingPathComponent(name))
            let whole = try ImageCodec.decode(jpeg).image
            let image = AreaResampler.resize(whole, width: width, height: max(1, whole.height * width / whole.width))
            let started = now()
            guard let quantized = SixelEncoder.Quantized(image),
                  let bytes = quantized.encode(x: 0, y: 0, width: image.width, height: image.height) else { continue }
            ours.seconds += now() - started
            guard let decoded = SixelEncoder.decode(bytes) else { continue }
            let psnr = Self.cropped(decoded, to: image).psnr(image)
            ours.psnr += psnr
            ours.bytes += bytes.count
            if let chafa, let output = try? Self.chafaSixel(chafa, jpeg: jpeg, columns: 100, rows: 50),
               let drawn = SixelEncoder.decode(output) {
                // chafa picks the pixel size from its cell size: the photo at that size is its reference.
                let fitted = Self.fitted(drawn, aspectOf: whole)
                let reference = AreaResampler.resize(whole, width: fitted.width, height: fitted.height)
                let their = Self.cropped(drawn, to: reference).psnr(reference)
                theirs.psnr += their
                theirs.bytes += output.count
                theirs.count += 1
                if psnr - their < worst.margin { worst = (psnr - their, name) }
            }
        }
        let count = Double(max(1, names.count))
        report.add("sixel, \(names.count) demo photos \(width) px wide: PSNR; bytes; palette + encode time (mean)",
                   String(format: "%.2f dB; %d; %.1f ms", ours.psnr / count, ours.bytes / max(1, names.count), ours.seconds / count * 1_000))
        if theirs.count > 0 {
            let their = Double(theirs.count)
            report.add("chafa's sixel, same photos (its own size): PSNR; bytes (mean)",
                       String(format: "%.2f dB; %d", theirs.psnr / their, theirs.bytes / theirs.count))
            report.add("sixel: worst margin over chafa (\(worst.name))", String(format: "%+.2f dB", worst.margin), target: ">= 0 dB")
        }
    }

    /// The picture's top-left part of `reference`'s size (a Sixel's height is rounded up to six pixels).
    static func cropped(_ image: RGBImage, to reference: RGBImage) -> RGBImage {
        guard image.width != reference.width || image.height != reference.height else { return image }
        let width = min(image.width, reference.width), height = min(image.height, reference.height)
        var pixels = [UInt8](repeating: 0, count: reference.width * reference.height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    pixels[(y * reference.width + x) * 3 + channel] = image.pixels[(y * image.width + x) * 3 + channel]
                }
            }
        }
        return RGBImage(width: reference.width, height: reference.height, pixels: pixels)
    }

    /// The size of the photo in chafa's drawing: its width, and the photo's height at that width.
    static func fitted(_ drawn: RGBImage, aspectOf whole: RGBImage) -> (width: Int, height: Int) {
        let height = max(1, Int((Double(whole.height) * Double(drawn.width) / Double(whole.width)).rounded()))
        return (drawn.width, min(height, drawn.height))
    }

    static func chafaSixel(_ chafa: String, jpeg: Data, columns: Int, rows: Int) throws -> [UInt8] {
        try BlitterBenchmark.chafaOutput(chafa, jpeg: jpeg, arguments: ["--format", "sixels", "--size", "\(columns)x\(rows)",
                                                                        "--animate", "off", "--polite", "on"])
    }
}
