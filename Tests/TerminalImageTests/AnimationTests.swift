import Foundation
import TerminalImage
import TestSupport
import XCTest

/// Animations read a frame at a time: every frame, delay, loop count and disposal against ImageMagick's own
/// decoding of the same file (`convert FILE -coalesce frame-%d.png`), MP4 against ffmpeg's, and what an attacker
/// would send (a screen of 60000x60000, a cut file, ten thousand frames) refused or cut before it costs memory.
final class AnimationTests: XCTestCase {
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/animations")
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("animation-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a command line (ImageMagick, ffmpeg) in the test's folder; its output. A tool not installed skips the
    /// test, naming it; one that fails throws what it said.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let (status, output) = try Tool.outcome(arguments, in: folder)
        guard status == 0 else { throw Tool.Failed(arguments: arguments, status: status, said: output) }
        return output
    }

    /// ImageMagick's frames of `file`, composed as a browser shows them, over black.
    func referenceFrames(_ file: URL) throws -> [RGBImage] {
        try run(["convert", file.path, "-coalesce", "-background", "black", "-alpha", "remove", "-alpha", "off", "ref-%03d.png"])
        return try frames(named: "ref-")
    }

    func frames(named prefix: String) throws -> [RGBImage] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(prefix) }.sorted()
        return try names.map { try ImageCodec.decode(Data(contentsOf: folder.appendingPathComponent($0))).image }
    }

    func test_gif_framesDelaysAndLoops_areImageMagicks() throws {
        let file = Self.assets.appendingPathComponent("rocket.gif")
        let animation = try ImageCodec.decodeAnimation(Data(contentsOf: file))
        let reference = try referenceFrames(file)
        XCTAssertEqual(animation.frames.count, 20)
        XCTAssertEqual(animation.frames.count, reference.count)
        for (index, frame) in animation.frames.enumerated() {
            XCTAssertEqual(frame.image.psnr(reference[index]), .infinity, "frame \(index) differs from ImageMagick's")
        }
        // identify's %T is the delay in hundredths of a second.
        let delays = try run(["identify", "-format", "%T\n", file.path]).split(separator: "\n").compactMap { Double($0) }
        XCTAssertEqual(animation.frames.map(\.delay), delays.map { $0 / 100 })
        XCTAssertEqual(animation.loops, 0, "-loop 0: for ever")
        XCTAssertEqual(animation.format, .gif)
        XCTAssertTrue(ImageCodec.isAnimation(try Data(contentsOf: file)))
    }

    /// Frames that cover part of the screen, each with another disposal: left, cleared to the background
    /// (transparent, black here), and put back as it was before the frame.
    func test_gif_disposal_composesAsImageMagickDoes() throws {
        try run(["convert", "-size", "48x36", "xc:navy",
                 "-dispose", "none", "-delay", "20", "(", "-size", "16x12", "xc:red", ")", "-geometry", "+4+4",
                 "-dispose", "background", "(", "-size", "16x12", "xc:lime", ")", "-geometry", "+20+8",
                 "-dispose", "previous", "(", "-size", "20x10", "xc:yellow", ")", "-geometry", "+10+20",
                 "-dispose", "none", "(", "-size", "8x8", "xc:white", ")", "-geometry", "+36+24",
                 "-loop", "3", "disposal.gif"])
        let file = folder.appendingPathComponent("disposal.gif")
        let animation = try ImageCodec.decodeAnimation(Data(contentsOf: file))
        let reference = try referenceFrames(file)
        XCTAssertEqual(animation.frames.count, reference.count)
        for (index, frame) in animation.frames.enumerated() {
            XCTAssertEqual(frame.image.width, 48)
            XCTAssertEqual(frame.image.psnr(reference[index]), .infinity, "frame \(index) differs from ImageMagick's")
        }
        // ImageMagick writes -loop 3 as two repeats after the first play; browsers read it so, and so does the player.
        XCTAssertEqual(animation.loops, 3)
    }

    func test_webp_framesAndDelays_areImageMagicks() throws {
        let file = Self.assets.appendingPathComponent("coffee.webp")
        let animation = try ImageCodec.decodeAnimation(Data(contentsOf: file))
        let reference = try referenceFrames(file)
        XCTAssertEqual(animation.frames.count, 20)
        XCTAssertEqual(animation.frames.count, reference.count)
        for (index, frame) in animation.frames.enumerated() {
            XCTAssertGreaterThan(frame.image.psnr(reference[index]), 45, "frame \(index) differs from ImageMagick's")
        }
        XCTAssertEqual(Set(animation.frames.map(\.delay)), [0.1])
        XCTAssertEqual(animation.loops, 0)
        XCTAssertTrue(ImageCodec.isAnimation(try Data(contentsOf: file)))
    }

    func test_mp4_framesAreFFmpegs() throws {
        let file = Self.assets.appendingPathComponent("hubble.mp4")
        let data = try Data(contentsOf: file)
        XCTAssertEqual(AnimationFormat(sniffing: data), .video)
        let animation = try ImageCodec.decodeAnimation(data)
        try run(["ffmpeg", "-loglevel", "error", "-i", file.path, "-pix_fmt", "rgb24", "ref-%03d.png"])
        let reference = try frames(named: "ref-")
        XCTAssertEqual(animation.frames.count, 40)
        XCTAssertEqual(animation.frames.count, reference.count)
        for (index, frame) in animation.frames.enumerated() {
            XCTAssertEqual(frame.image.width, 480)
            // The same decoder; only the conversion from YUV rounds otherwise.
            XCTAssertGreaterThan(frame.image.psnr(reference[index]), 35, "frame \(index)")
        }
        XCTAssertEqual(animation.frames[0].delay, 0.05, accuracy: 0.001, "20 frames a second")
        XCTAssertEqual(animation.loops, 0, "a video item loops")
    }

    func test_frames_areFittedAndHalvedUnderTheBudget_thenCut() throws {
        let data = try Data(contentsOf: Self.assets.appendingPathComponent("coffee.webp"))
        let fitted = try ImageCodec.decodeAnimation(data, fitting: (240, 240))
        XCTAssertEqual(fitted.frames[0].image.width, 240)
        XCTAssertEqual(fitted.frames[0].image.height, 135)
        // Room for a few frames at full size: the frames are halved (twice), then it still fits.
        let frameBytes = 480 * 270 * 3
        let halved = try ImageCodec.decodeAnimation(data, limits: AnimationLimits(bytes: frameBytes * 2, smallestSide: 64))
        XCTAssertEqual(halved.frames.count, 20)
        XCTAssertEqual(halved.frames[0].image.width, 120)
        XCTAssertLessThanOrEqual(halved.bytes, frameBytes * 2)
        XCTAssertNil(halved.cut)
        // Not even halving makes room: the frames that fit, and why.
        let cut = try ImageCodec.decodeAnimation(data, limits: AnimationLimits(bytes: frameBytes * 3, smallestSide: 400))
        XCTAssertEqual(cut.frames.count, 3)
        XCTAssertNotNil(cut.cut)
        let counted = try ImageCodec.decodeAnimation(data, limits: AnimationLimits(frames: 5))
        XCTAssertEqual(counted.frames.count, 5)
        XCTAssertEqual(counted.cut, "the first 5 of its frames")
    }

    func test_delaysUnder20ms_areReadAs100ms_asBrowsersDo() throws {
        try run(["convert", "-delay", "1", "-size", "8x8", "xc:red", "xc:blue", "-delay", "0", "xc:green", "-loop", "1", "fast.gif"])
        let animation = try ImageCodec.decodeAnimation(Data(contentsOf: folder.appendingPathComponent("fast.gif")))
        XCTAssertEqual(animation.frames.map(\.delay), [0.1, 0.1, 0.1])
        XCTAssertEqual(animation.loops, 1, "-loop 1 writes no loop block: it plays once")
    }

    func test_aScreenOf60000Pixels_isRefusedBeforeItsMemoryIsTaken() throws {
        // A 1x1 GIF whose logical screen claims 60000 x 60000.
        var gif = [UInt8](try Data(contentsOf: Self.assets.appendingPathComponent("rocket.gif")))
        gif[6] = 0x60; gif[7] = 0xEA; gif[8] = 0x60; gif[9] = 0xEA
        XCTAssertThrowsError(try ImageCodec.decodeAnimation(Data(gif))) { error in
            XCTAssertTrue(String(describing: error).contains("GIF"), String(describing: error))
        }
        XCTAssertLessThan(ImageCodec.decodesInFlightPeak(reset: true), 60_000 * 60_000)
        // A WebP whose canvas claims 16384 x 16384 (VP8X stores width-1 and height-1 in 24 bits).
        var webp = [UInt8](try Data(contentsOf: Self.assets.appendingPathComponent("coffee.webp")))
        XCTAssertEqual(Array(webp[12..<16]), Array("VP8X".utf8))
        webp[24] = 0xFF; webp[25] = 0x3F; webp[26] = 0; webp[27] = 0xFF; webp[28] = 0x3F; webp[29] = 0
        XCTAssertThrowsError(try ImageCodec.decodeAnimation(Data(webp), maximumPixels: 10_000_000))
    }

    func test_cutFiles_keepTheFramesBeforeTheCut_orSayWhy() throws {
        for name in ["rocket.gif", "coffee.webp", "hubble.mp4"] {
            let data = try Data(contentsOf: Self.assets.appendingPathComponent(name))
            for fraction in [0.02, 0.5, 0.9] {
                let cut = data.prefix(Int(Double(data.count) * fraction))
                do {
                    let animation = try ImageCodec.decodeAnimation(cut)
                    XCTAssertFalse(animation.frames.isEmpty, name)
                    XCTAssertLessThan(animation.frames.count, name == "hubble.mp4" ? 40 : 20, "\(name) cut at \(fraction)")
                } catch let error as ImageDecodingError {
                    XCTAssertFalse(error.description.isEmpty)
                }
            }
            // Garbage after a real header.
            var scrambled = [UInt8](data)
            for index in stride(from: 64, to: scrambled.count, by: 13) { scrambled[index] ^= 0x5A }
            _ = try? ImageCodec.decodeAnimation(Data(scrambled), limits: AnimationLimits(frames: 50))
        }
    }

    func test_stills_areNotAnimations() throws {
        let formats = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Formats")
        XCTAssertFalse(ImageCodec.isAnimation(try Data(contentsOf: formats.appendingPathComponent("still.gif"))))
        XCTAssertFalse(ImageCodec.isAnimation(try Data(contentsOf: formats.appendingPathComponent("still.webp"))))
        XCTAssertTrue(ImageCodec.isAnimation(try Data(contentsOf: formats.appendingPathComponent("anim.gif"))))
        XCTAssertNil(AnimationFormat(sniffing: Data("not a picture at all".utf8)))
    }
}
