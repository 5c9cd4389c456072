import CImageCodec
import Foundation
@testable import TerminalImage
import TestSupport
import XCTest

/// Moving pictures an attacker would send, made here as small as they come: videos of 1x1 to 17x17 pixels in every
/// pixel format (libswscale writes past a line's end where the buffer is not padded), frames over the budget inside a
/// stream that declares a small one, a huge screen redrawn one pixel at a time, frames that cost the whole canvas. The
/// C reader is also run outside this process under AddressSanitizer and valgrind (`Tests/SanitizedCodec/frames.c`).
final class HostileAnimationTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private var temporary: TemporaryFolder!
    var folder: URL { temporary.url }

    override func setUpWithError() throws {
        temporary = try TemporaryFolder()
    }

    // MARK: Videos

    /// Every width and height from 1 to 17 in H.264 (4:2:0 where it allows, 4:4:4) and VP9 (4:2:0, 4:4:4, 10-bit):
    /// each frame is the video's size, and no byte is written outside a buffer (the frames are read here, under
    /// AddressSanitizer and under valgrind).
    func test_videosOf1To17Pixels_inEveryPixelFormat_areReadInsideTheirBuffers() throws {
        var arguments = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=34x34:r=10:d=0.3"]
        var files: [(name: String, side: Int)] = []
        for side in 1...17 {
            var kinds = [("x444", "mp4", ["-c:v", "libx264", "-pix_fmt", "yuv444p"]),
                         ("vp9-420", "webm", ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p", "-deadline", "realtime", "-cpu-used", "8"]),
                         ("vp9-444", "webm", ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv444p", "-deadline", "realtime", "-cpu-used", "8"]),
                         ("vp9-10bit", "webm", ["-c:v", "libvpx-vp9", "-pix_fmt", "yuv420p10le", "-deadline", "realtime", "-cpu-used", "8"])]
            // x264 takes 4:2:0 at even sizes only.
            if side % 2 == 0 { kinds.append(("x420", "mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"])) }
            for (kind, ending, options) in kinds {
                let name = "\(kind)-\(side).\(ending)"
                arguments += ["-s", "\(side)x\(side)"] + options + [name]
                files.append((name, side))
            }
        }
        try runTool(arguments, in: folder)
        for file in files {
            let animation = try ImageCodec.decodeAnimation(Data(contentsOf: folder.appendingPathComponent(file.name)))
            XCTAssertEqual(animation.frames.count, 3, file.name)
            XCTAssertEqual(animation.frames[0].image.width, file.side, file.name)
            XCTAssertEqual(animation.frames[0].image.height, file.side, file.name)
        }
        let names = files.map(\.name)
        let sanitized = try SanitizedReader.run(names, in: folder, under: .addressSanitizer)
        XCTAssertEqual(sanitized.status, 0, sanitized.output)
        XCTAssertFalse(sanitized.output.contains("AddressSanitizer"), sanitized.output)
        XCTAssertEqual(sanitized.output.components(separatedBy: " frames 3 end ").count - 1, files.count, sanitized.output)
        let checked = try SanitizedReader.run(names, in: folder, under: .valgrind)
        XCTAssertEqual(checked.status, 0, checked.output)
        XCTAssertFalse(checked.output.contains("Invalid write"), checked.output)
    }

    /// A VP8 stream whose container says 64x64 and one of whose key frames says 15360x15360 (236 million pixels):
    /// that frame is refused before FFmpeg takes memory for it (its own `max_pixels`, for the decoders that read the
    /// streams' facts too), whether it is the first frame or comes midway; the other frames play.
    func test_aFrameOverTheBudget_midStream_isRefusedBeforeFFmpegTakesItsMemory() throws {
        try runTool(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=1", "-c:v", "libvpx", "-g", "1",
                     "-auto-alt-ref", "0", "small.webm"], in: folder)
        let video = [UInt8](try Data(contentsOf: folder.appendingPathComponent("small.webm")))
        // Each key frame starts 9d 01 2a, then its width and height (14 bits each, little-endian).
        var keyFrames: [Int] = []
        for index in 0..<(video.count - 3) where video[index] == 0x9D && video[index + 1] == 0x01 && video[index + 2] == 0x2A {
            keyFrames.append(index + 3)
        }
        XCTAssertEqual(keyFrames.count, 10)
        for (name, which) in [("first.webm", 0), ("midway.webm", 4)] {
            var patched = video
            patched.replaceSubrange(keyFrames[which]..<(keyFrames[which] + 4), with: [0x00, 0x3C, 0x00, 0x3C])
            try Data(patched).write(to: folder.appendingPathComponent(name))
            let animation = try ImageCodec.decodeAnimation(Data(patched))
            XCTAssertEqual(animation.frames.count, 9, "\(name): every frame but the huge one")
            XCTAssertEqual(animation.frames[0].image.width, 64)
        }
        // In a process of its own, the reader's peak memory: the huge frame would take 354 MB and more.
        let read = try SanitizedReader.run(["first.webm", "midway.webm"], in: folder, under: .none)
        XCTAssertEqual(read.status, 0, read.output)
        XCTAssertLessThan(try XCTUnwrap(SanitizedReader.peakKilobytes(read.output)), 120_000, read.output)
    }

    /// An MP4 whose sample entry declares 15360x15360: refused as soon as the container is opened, with the size said.
    func test_aContainerDeclaringAHugeVideo_isRefusedBeforeAFrameIsDecoded() throws {
        try runTool(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=64x64:r=10:d=0.5", "-c:v", "libx264",
                     "-pix_fmt", "yuv420p", "small.mp4"], in: folder)
        var video = [UInt8](try Data(contentsOf: folder.appendingPathComponent("small.mp4")))
        // avc1's sample entry: size, type, 6 reserved, the reference index, 16 bytes of predefined and reserved, then
        // the width and the height (16 bits each, big-endian).
        // (The brand list in ftyp names avc1 too: the entry is the one inside stsd.)
        let list = try XCTUnwrap((0..<(video.count - 4)).first { Array(video[$0..<($0 + 4)]) == Array("stsd".utf8) })
        let entry = try XCTUnwrap((list..<(video.count - 4)).first { Array(video[$0..<($0 + 4)]) == Array("avc1".utf8) })
        video.replaceSubrange((entry + 28)..<(entry + 32), with: [0x3C, 0x00, 0x3C, 0x00])
        XCTAssertThrowsError(try ImageCodec.decodeAnimation(Data(video))) { error in
            XCTAssertTrue(String(describing: error).contains("15360 x 15360"), String(describing: error))
        }
        XCTAssertTrue(ImageCodec.isAnimation(Data(video)), "still a video: refused when read, with the reason")
    }

    // MARK: Work that follows the frame

    /// A 2000x2000 screen redrawn one pixel at a time, 1500 times: each frame costs its pixel and the frame made of
    /// it, so every frame is read within a work budget that a frame costing the whole screen would pass at its
    /// second frame; and each frame is right (the pixel it drew, where it drew it).
    func test_aHugeScreenOfOnePixelFrames_costsTheFrames_notTheScreen() throws {
        let side = 2000, count = 1500
        var gif = GIFWriter(width: side, height: side, colors: [(0, 0, 0), (255, 255, 255)])
        for index in 0..<count {
            gif.frame(left: (index * 37) % side, top: (index * 53) % side, width: 1, height: 1, pixels: [1], delay: 2)
        }
        let output = 100
        let limits = AnimationLimits(frames: count + 1, work: side * side + count * (output * output + 1) + output * output)
        let animation = try ImageCodec.decodeAnimation(gif.data, fitting: (output, output), limits: limits)
        XCTAssertEqual(animation.frames.count, count)
        XCTAssertNil(animation.cut)
        // The last frame shows every pixel drawn (none is disposed): the cells under them are lit, no other.
        let last = animation.frames[count - 1].image
        let lit = (0..<(output * output)).filter { last.pixels[$0 * 3] > 0 }.count
        XCTAssertGreaterThan(lit, 100)
        XCTAssertLessThan(lit, count * 9)
    }

    /// Frames that "restore previous" over a 2000x2000 screen: only what each frame covered is kept and put back
    /// (the whole screen was copied twice a frame), and the frames are as ImageMagick composes them.
    func test_restorePreviousFrames_keepOnlyWhatTheyCover() throws {
        var gif = GIFWriter(width: 400, height: 300, colors: [(0, 0, 128), (255, 0, 0), (0, 255, 0)])
        gif.frame(left: 0, top: 0, width: 400, height: 300, pixels: [UInt8](repeating: 0, count: 400 * 300), delay: 10)
        for index in 0..<6 {
            gif.frame(left: index * 50, top: index * 30, width: 40, height: 20, pixels: [UInt8](repeating: 1 + UInt8(index % 2), count: 800),
                      delay: 10, disposal: 3)
        }
        let file = folder.appendingPathComponent("restore.gif")
        try gif.data.write(to: file)
        let animation = try ImageCodec.decodeAnimation(gif.data)
        try runTool(["convert", file.path, "-coalesce", "-background", "black", "-alpha", "remove", "-alpha", "off", "ref-%03d.png"], in: folder)
        XCTAssertEqual(animation.frames.count, 7)
        for index in 0..<7 {
            let reference = try ImageCodec.decode(Data(contentsOf: folder.appendingPathComponent(String(format: "ref-%03d.png", index)))).image
            XCTAssertEqual(animation.frames[index].image.psnr(reference), .infinity, "frame \(index)")
        }
    }

    /// Twelve full 2000x2000 frames (a few KB: LZW packs a plain frame tightly): reading stops at the work budget,
    /// and says so.
    func test_framesThatEachCostTheScreen_areCutAtTheWorkBudget_andSaySo() throws {
        let side = 2000
        let gif = GIFWriter.alternating(side: side, count: 12)
        XCTAssertLessThan(gif.data.count, 200_000)
        let animation = try ImageCodec.decodeAnimation(gif.data, fitting: (64, 64),
                                                       limits: AnimationLimits(work: 3 * (side * side + 64 * 64)))
        XCTAssertEqual(animation.frames.count, 3)
        XCTAssertEqual(animation.cut, "the first 3 of its frames (the rest would take too long to read)")
        // The standard budget cuts such a file too, after 500 million pixels of work.
        let standard = try ImageCodec.decodeAnimation(gif.data, fitting: (64, 64))
        XCTAssertEqual(standard.frames.count, 12, "12 x 4 million is within 500 million")
    }

    /// A decode given up from another thread stops inside a frame, not after it: a stop set before reading ends it
    /// before any line is read, and the frame made of a canvas asks between its rows.
    func test_aStop_isSeenInsideAFrame() throws {
        let side = 2000
        let gif = GIFWriter.alternating(side: side, count: 2)
        let stop = DecodeStop()
        stop.stop()
        XCTAssertThrowsError(try ImageCodec.decodeAnimation(gif.data, stop: stop)) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        var resampler = CanvasResampler(canvasWidth: side, canvasHeight: side, width: 500, height: 500)
        let canvas = [UInt8](repeating: 255, count: side * side * 4)
        var asked = 0
        let frame = canvas.withUnsafeBufferPointer { canvas in
            resampler.frame(canvas: canvas.baseAddress!, changed: (0, 0, side, side)) {
                asked += 1
                return asked > 10
            }
        }
        XCTAssertNil(frame, "stopped")
        XCTAssertEqual(asked, 11, "asked before each row; no row made after the stop")
    }

    /// A WebP of 300 frames of 2x2 on a 2000x2000 canvas: each frame is decoded at its size and blended where it
    /// lies (libwebp's animation decoder copied two whole canvases a frame), so all are read within a budget a frame
    /// costing the canvas would pass at its second.
    func test_aWebPOfTinyFramesOnAHugeCanvas_costsTheFrames() throws {
        try runTool(["convert", "-size", "2x2", "xc:red", "-define", "webp:lossless=true", "tiny.webp"], in: folder)
        let still = [UInt8](try Data(contentsOf: folder.appendingPathComponent("tiny.webp")))
        let bitstream = try XCTUnwrap(WebPWriter.chunk("VP8L", in: still))
        let side = 2000, count = 300
        var frames: [WebPWriter.Frame] = []
        for index in 0..<count {
            frames.append(.init(x: (index * 40) % (side - 2), y: (index * 26) % (side - 2), width: 2, height: 2, duration: 50, bitstream: bitstream))
        }
        let data = WebPWriter.animation(width: side, height: side, frames: frames)
        let output = 100
        let animation = try ImageCodec.decodeAnimation(data, fitting: (output, output),
                                                       limits: AnimationLimits(work: side * side + count * (output * output + 4) + output * output))
        XCTAssertEqual(animation.frames.count, count)
        XCTAssertNil(animation.cut)
        XCTAssertEqual(animation.frames[0].delay, 0.05)
        let red = (0..<(output * output)).filter { animation.frames[count - 1].image.pixels[$0 * 3] > 0 }.count
        XCTAssertGreaterThan(red, 50)
    }
}

/// The C reader built outside Swift, run in a process of its own: under AddressSanitizer, under valgrind's memcheck
/// (which sees the writes of libraries that are not instrumented, FFmpeg's converters among them), or plain.
enum SanitizedReader {
    enum Check { case addressSanitizer, valgrind, none }

    private static let built = NSLock()
    nonisolated(unsafe) private static var binaries: [Check: URL] = [:]

    /// The reader's output over `files` (names in `folder`) and its exit status.
    static func run(_ files: [String], in folder: URL, under check: Check) throws -> (status: Int32, output: String) {
        let binary = try build(check == .addressSanitizer ? .addressSanitizer : .none)
        var arguments = [binary.path] + files
        if check == .valgrind { arguments = ["valgrind", "-q", "--error-exitcode=99"] + arguments }
        return try runTool(arguments, in: folder, environment: ["ASAN_OPTIONS": "detect_leaks=0"], expectSuccess: false)
    }

    /// The largest peak the reader printed (`peak N KB`).
    static func peakKilobytes(_ output: String) -> Int? {
        output.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: "peak ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }.max()
    }

    /// CImageCodec's C files and the reader compiled with the toolchain's clang, once a process for each kind.
    private static func build(_ check: Check) throws -> URL {
        built.lock()
        defer { built.unlock() }
        if let binary = binaries[check] { return binary }
        let root = HostileAnimationTests.root
        let codec = root.appendingPathComponent("Sources/Shims/CImageCodec")
        let sources = try FileManager.default.contentsOfDirectory(atPath: codec.path).filter { $0.hasSuffix(".c") }.sorted()
            .map { codec.appendingPathComponent($0).path }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("codec-reader-\(check)-\(UUID().uuidString)")
        let flags = try runTool(["pkg-config", "--cflags", "libavformat", "libavcodec", "libswscale", "libavutil", "libwebp", "libwebpdemux"],
                                in: FileManager.default.temporaryDirectory).output.split(whereSeparator: \.isWhitespace).map(String.init)
        // valgrind reads DWARF 4; AddressSanitizer's build keeps its frames for the report.
        let mode = check == .addressSanitizer ? ["-fsanitize=address", "-fno-omit-frame-pointer", "-g", "-O1"] : ["-gdwarf-4", "-O1"]
        try runTool(["clang"] + mode + ["-I", codec.appendingPathComponent("include").path, "-I", codec.path] + flags + sources
                    + [root.appendingPathComponent("Tests/SanitizedCodec/frames.c").path, "-o", output.path,
                       "-ljpeg", "-lpng16", "-lgif", "-lwebp", "-lwebpdemux", "-ldl", "-lpthread", "-lm"],
                    in: FileManager.default.temporaryDirectory)
        binaries[check] = output
        return output
    }
}

/// Runs a command line (ffmpeg, ImageMagick, clang) in `folder`; its status and its output and errors together.
/// A command that fails fails the test unless `expectSuccess` is false.
@discardableResult
func runTool(_ arguments: [String], in folder: URL, environment: [String: String] = [:], expectSuccess: Bool = true,
             file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, output: String) {
    let (status, output) = try Tool.outcome(arguments, in: folder, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                            errors: true)
    if expectSuccess {
        XCTAssertEqual(status, 0, "\(arguments.prefix(3).joined(separator: " ")): \(output.suffix(2000))", file: file, line: line)
    }
    return (status, output)
}
