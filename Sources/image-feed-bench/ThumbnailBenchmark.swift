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
        let chafa = Self.chafaPath()
        if chafa == nil { report.note("chafa is not installed (Debian: chafa; make bench installs it): no comparison") }
        for mode in [ColorMode.palette256, .truecolor] {
            let blitter = HalfBlockBlitter(mode: mode, unicode: true)
            var samples = Samples()
            var cpu = Samples()
            for index in 0..<(iterations + 10) {
                let start = now()
                let startCPU = threadCPUTime()
                let decoded = try ImageCodec.decode(jpeg, minimumWidth: 40, minimumHeight: 40, oversampling: ImageCodec.cellsOversampling)
                let picture = blitter.render(decoded.image, columns: 40, rows: 20)
                let elapsed = now() - start
                let elapsedCPU = threadCPUTime() - startCPU
                precondition(picture.columns <= 40 && picture.rows <= 20)
                if index >= 10 { // the first runs warm caches up
                    samples.add(elapsed)
                    cpu.add(elapsedCPU)
                }
            }
            report.add("thumbnail 1080px JPEG -> 40x20 cells, \(mode.name), median", milliseconds(samples.median))
            report.add("thumbnail 1080px JPEG -> 40x20 cells, \(mode.name), p99; / median",
                       milliseconds(samples.p99) + String(format: "; %.2f", samples.p99 / samples.median), target: "<= 2")
            // The thread's own CPU time leaves out the time other programs had the core: what is left of the spread
            // is the work's own.
            report.add("thumbnail, \(mode.name), the thread's CPU time: median; p99; p99 / median",
                       milliseconds(cpu.median) + "; " + milliseconds(cpu.p99) + String(format: "; %.2f", cpu.p99 / cpu.median),
                       target: "<= 2")
            if let chafa {
                let theirs = try Self.chafaTime(chafa, jpeg: jpeg, mode: mode)
                report.add("chafa, same picture, size and colours, \(mode.name), per picture", milliseconds(theirs))
                report.add("thumbnail time / chafa's, \(mode.name)", String(format: "%.3f", samples.median / theirs),
                           target: "< 1")
            }
        }
    }

    static func chafaPath() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/chafa" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// chafa drawing the same JPEG into at most 40x20 cells with half blocks in the same colour mode, one
    /// thread (as one thumbnail is made here). One run draws the file many times, so its start-up is spread
    /// thin; the best of three runs, per picture.
    static func chafaTime(_ chafa: String, jpeg: Data, mode: ColorMode, symbols: String = "vhalf", stretch: Bool = false) throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-1080.jpg")
        try jpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let copies = 200
        var best = Double.infinity
        for _ in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: chafa)
            process.arguments = ["--format", "symbols", "--size", "40x20", "--colors", mode == .truecolor ? "full" : "256",
                                 "--symbols", symbols, "--animate", "off", "--threads", "1", "--polite", "on"]
                + (stretch ? ["--stretch"] : [])
                + Array(repeating: file.path, count: copies)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = now()
            try process.run()
            process.waitUntilExit()
            let elapsed = now() - start
            guard process.terminationStatus == 0 else {
                throw Failure(description: "chafa failed with status \(process.terminationStatus)")
            }
            best = min(best, elapsed / Double(copies))
        }
        return best
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
        case .palette8: "8 colours"
        case .none: "no colour"
        }
    }
}
