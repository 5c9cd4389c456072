import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import TestSupport
import XCTest

/// Animations as each picture mode plays them: Kitty graphics is given every frame once and plays them (nothing is
/// sent per loop; Space stops it at a frame); Sixel's next frame sends only the rows that changed; the clock skips
/// frames that are late instead of queueing them.
final class AnimationPlaybackTests: XCTestCase {
    static func frames(_ count: Int, columns: Int = 10, rows: Int = 5) -> [RGBImage] {
        (0..<count).map { frame in
            var pixels = [UInt8](repeating: 0, count: columns * 8 * rows * 16 * 3)
            for index in pixels.indices { pixels[index] = UInt8((index + frame * 37) % 251) }
            return RGBImage(width: columns * 8, height: rows * 16, pixels: pixels)
        }
    }

    func moving(_ count: Int = 4, loops: Int = 0) -> CellPicture {
        let frames = Self.frames(count)
        let motion = PixelMotion(frames: frames, delays: Array(repeating: 80, count: count), loops: loops)
        return CellPicture(pixels: PixelPicture(image: frames[0], columns: 10, rows: 5, motion: motion))
    }

    func test_kitty_getsEveryFrameOnce_thenPlaysThem_andNothingIsSentPerLoop() {
        let picture = moving()
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(picture, x: 2, y: 1, playback: .playing)
        let layer = KittyPictureLayer()
        let upload = layer.frame(buffer, repainted: true)
        let commands = KittyGraphics.commands(in: upload)
        // As kitty's icat sends them: the first frame, its gap, the second frame, "play what has come", the rest.
        XCTAssertEqual(commands.map { $0["a"] }, ["t", "a", "f", "a", "f", "f", "p"])
        let id = commands[0]["i"]
        XCTAssertTrue(commands.allSatisfy { $0["i"] == id }, "one picture, its frames and its controls")
        XCTAssertEqual(commands[1].int("r"), 1, "the first frame's gap")
        XCTAssertEqual(commands[2].payload, Self.frames(4)[1].pixels, "the second frame, whole")
        XCTAssertEqual(commands[2].int("z"), 80, "its gap")
        XCTAssertEqual(commands[3]["s"], "2")
        // Every chunk of a frame names its action (a chunk without one would replace the first frame's pixels).
        // Told to play a frame later (kitty left it standing when told in the same write as its placement).
        let play = KittyGraphics.commands(in: layer.frame(buffer, repainted: false))
        XCTAssertEqual(play.map { $0["a"] }, ["a"])
        XCTAssertEqual(play[0]["s"], "3", "it plays")
        XCTAssertEqual(play[0]["v"], "1", "for ever")
        // The same frame again, for as long as it plays: nothing.
        XCTAssertTrue(layer.frame(buffer, repainted: false).isEmpty)
        XCTAssertTrue(layer.frame(buffer, repainted: false).isEmpty)

        // Space: it stops at the frame the program shows; Space again: it plays on.
        var paused = CellBuffer(width: 40, height: 12)
        paused.draw(picture, x: 2, y: 1, playback: .paused(frame: 2))
        let stop = KittyGraphics.commands(in: layer.frame(paused, repainted: false))
        XCTAssertEqual(stop.map { $0["a"] }, ["a", "a"])
        XCTAssertEqual(stop[0]["s"], "1")
        XCTAssertEqual(stop[1].int("c"), 3, "frames count from 1")
        XCTAssertTrue(layer.frame(paused, repainted: false).isEmpty)
        let again = KittyGraphics.commands(in: layer.frame(buffer, repainted: false))
        XCTAssertEqual(again.map { $0["s"] }, ["3"])
    }

    /// A frame sent in chunks names its action in each (kitty reads a chunk without one as the first frame's own
    /// pixels, and the animation would stand on its last frame).
    func test_kitty_everyChunkOfAFrame_namesItsAction() {
        var noisy = Self.frames(2, columns: 40, rows: 20)
        var seed: UInt32 = 12_345
        for index in noisy[1].pixels.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noisy[1].pixels[index] = UInt8(truncatingIfNeeded: seed >> 24)
        }
        let bytes = KittyGraphics.animationFrames(noisy, delays: [50, 50], id: 7)
        let text = String(decoding: bytes, as: UTF8.self)
        let chunks = text.components(separatedBy: "\u{1B}_G").dropFirst()
        XCTAssertGreaterThan(chunks.count, 3, "the frame went in several chunks")
        XCTAssertTrue(chunks.allSatisfy { $0.hasPrefix("a=") }, "each chunk names its action")
    }

    func test_kitty_aFiniteAnimation_playsItsLoops() {
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(moving(loops: 3), x: 0, y: 0, playback: .playing)
        let layer = KittyPictureLayer()
        _ = layer.frame(buffer, repainted: true)
        let commands = KittyGraphics.commands(in: layer.frame(buffer, repainted: false))
        XCTAssertEqual(commands.last?["v"], "4", "kitty counts one more than the plays")
    }

    func test_placeholders_getEveryFrameOnce_throughTmux() {
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(moving(), x: 2, y: 1, playback: .playing)
        let layer = KittyPlaceholderLayer(tmux: false)
        let (_, bytes) = layer.prepare(buffer, repainted: true)
        let commands = KittyGraphics.commands(in: bytes)
        XCTAssertEqual(commands.map { $0["a"] }, ["T", "a", "f", "a", "f", "f"])
        XCTAssertEqual(KittyGraphics.commands(in: layer.prepare(buffer, repainted: false).1).map { $0["s"] }, ["3"], "told to play a frame later")
        XCTAssertTrue(layer.prepare(buffer, repainted: false).1.isEmpty, "nothing per loop")
    }

    /// A Kitty terminal that plays no frames (Ghostty, Konsole, Zellij, xterm.js): the program paces them. Each frame
    /// due goes up whole under one of two ids, is placed, and the placement of the one before goes after it: what
    /// the terminal holds stays two frames, and the picture never leaves the screen between them.
    func test_kitty_thatPlaysNoFrames_getsEachFrameDue_underTwoIdsAtMost() {
        let picture = moving(4)
        let layer = KittyPictureLayer(pacesAnimations: true)
        func showing(_ frame: Int) -> CellBuffer {
            var buffer = CellBuffer(width: 40, height: 12)
            buffer.draw(picture, x: 2, y: 1, playback: .paused(frame: frame))
            return buffer
        }
        let first = KittyGraphics.commands(in: layer.frame(showing(0), repainted: true))
        XCTAssertEqual(first.map { $0["a"] }, ["t", "p"], "the first frame alone: no frames for the terminal to play")
        XCTAssertTrue(first[0].payload == Self.frames(4)[0].pixels)
        XCTAssertTrue(layer.frame(showing(0), repainted: false).isEmpty, "the same frame: nothing")
        var ids = Set<String>()
        ids.insert(first[0]["i"] ?? "")
        for (step, frame) in [1, 2, 3, 0, 1].enumerated() {
            let commands = KittyGraphics.commands(in: layer.frame(showing(frame), repainted: false))
            XCTAssertEqual(commands.map { $0["a"] }, ["t", "p", "d"], "frame \(frame): up, placed, the last one's placement gone")
            XCTAssertTrue(commands[0].payload == Self.frames(4)[frame].pixels, "frame \(frame) whole")
            XCTAssertEqual(commands[1]["i"], commands[0]["i"], "placed as it went")
            XCTAssertNotEqual(commands[2]["i"], commands[0]["i"], "the frame before is taken off")
            XCTAssertEqual(commands[2]["d"], "i", "its placements only: nothing freed, its id goes again next")
            XCTAssertTrue(commands.allSatisfy { $0["a"] != "a" && $0["a"] != "f" }, "no animation commands at step \(step)")
            ids.insert(commands[0]["i"] ?? "")
        }
        XCTAssertEqual(ids.count, 2, "two ids, alternating, whatever the number of frames shown")
    }

    /// A frame due while the one before is still on its way is skipped, never queued behind it.
    func test_kitty_pacedFrames_areSkipped_whileTheLastIsOnItsWay() {
        let picture = moving(4)
        let layer = KittyPictureLayer(pacesAnimations: true)
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(picture, x: 2, y: 1, playback: .paused(frame: 0))
        _ = layer.frame(buffer, repainted: true)
        var next = CellBuffer(width: 40, height: 12)
        next.draw(picture, x: 2, y: 1, playback: .paused(frame: 1))
        layer.plan(next, repainted: false, link: .fast)
        // Frame 1 not yet written (a slow link), and frame 2 is due.
        var later = CellBuffer(width: 40, height: 12)
        later.draw(picture, x: 2, y: 1, playback: .paused(frame: 2))
        layer.plan(later, repainted: false, link: .fast)
        let rest = KittyGraphics.commands(in: layer.drain()).filter { $0["a"] == "t" }
        XCTAssertEqual(rest.count, 1, "one frame went")
        XCTAssertTrue(rest.first?.payload == Self.frames(4)[1].pixels, "frame 1, which was on its way; frame 2 was not queued behind it")
        let then = KittyGraphics.commands(in: layer.frame(later, repainted: false))
        XCTAssertTrue(then.first?.payload == Self.frames(4)[2].pixels, "once frame 1 is through, the frame due goes")
    }

    /// Placeholders in a terminal that plays no frames: each frame due goes up under the picture's one id, with its
    /// virtual placement, so the placeholder text never changes.
    func test_placeholders_thatPlayNoFrames_replaceTheFrameUnderOneID() {
        let picture = moving(3)
        let layer = KittyPlaceholderLayer(tmux: false, pacesAnimations: true)
        func showing(_ frame: Int) -> CellBuffer {
            var buffer = CellBuffer(width: 40, height: 12)
            buffer.draw(picture, x: 2, y: 1, playback: .paused(frame: frame))
            return buffer
        }
        let (firstText, firstBytes) = layer.prepare(showing(0), repainted: true)
        let unwrapped = { (bytes: [UInt8]) in KittyGraphics.commands(in: bytes) }
        let first = unwrapped(firstBytes)
        XCTAssertEqual(first.map { $0["a"] }, ["T"])
        let (secondText, secondBytes) = layer.prepare(showing(1), repainted: false)
        let second = unwrapped(secondBytes)
        XCTAssertEqual(second.map { $0["a"] }, ["T"], "frame 1 in place of frame 0")
        XCTAssertEqual(second[0]["i"], first[0]["i"], "under the same id")
        XCTAssertEqual(second[0]["U"], "1", "with its virtual placement")
        XCTAssertTrue(second[0].payload == Self.frames(3)[1].pixels)
        XCTAssertEqual(firstText.cells, secondText.cells, "the placeholder text is the same")
    }

    /// Sixel: the next frame names the one on screen and the cell rows they share; only the others are drawn.
    func test_sixel_nextFrame_sendsOnlyTheRowsThatChanged() {
        let first = PixelPicture(image: Self.frames(1)[0], columns: 10, rows: 5)
        var changed = first.image
        // Only the third cell row (pixels 32..<48) differs.
        for y in 32..<48 { for x in 0..<80 { changed.pixels[(y * 80 + x) * 3] ^= 0xFF } }
        let next = PixelPicture(image: changed, columns: 10, rows: 5)
        let follows = PixelPicture(image: changed, columns: 10, rows: 5,
                                   follows: .init(pictureID: first.id, unchangedRows: next.unchangedRows(since: first)))
        XCTAssertEqual(next.unchangedRows(since: first), [0, 1, 3, 4])
        let layer = InlinePictureLayer(format: .sixel)
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(CellPicture(pixels: first), x: 2, y: 1)
        let whole = layer.frame(buffer, repainted: true)
        var after = CellBuffer(width: 40, height: 12)
        after.draw(CellPicture(pixels: follows), x: 2, y: 1)
        let step = layer.frame(after, repainted: false)
        XCTAssertFalse(step.isEmpty)
        XCTAssertEqual(String(decoding: step, as: UTF8.self).components(separatedBy: "\u{1B}P").count - 1, 1, "one Sixel: the changed row")
        XCTAssertEqual(String(decoding: whole, as: UTF8.self).components(separatedBy: "\u{1B}P").count - 1, 1, "the whole picture at first")
        XCTAssertTrue(String(decoding: step, as: UTF8.self).contains("\u{1B}[4;3H"), "drawn at the changed row (row 3 of the picture)")
        XCTAssertFalse(String(decoding: step, as: UTF8.self).contains("\u{1B}[2;3H"), "the first row stays")
    }

    // MARK: The clock

    func test_clock_playsLoops_skipsLateFrames_pausesAndSteps() {
        var clock = AnimationClock(delays: [0.1, 0.1, 0.2], loops: 2, now: 0)
        XCTAssertEqual(clock.nextChange, 0.1)
        XCTAssertFalse(clock.advance(to: 0.05))
        XCTAssertTrue(clock.advance(to: 0.1))
        XCTAssertEqual(clock.frame, 1)
        // The terminal was busy for a while: the frame due now, not every frame in between.
        XCTAssertTrue(clock.advance(to: 0.45))
        XCTAssertEqual(clock.frame, 0)
        XCTAssertEqual(clock.loop, 2)
        clock.togglePause(now: 0.5)
        XCTAssertTrue(clock.paused)
        XCTAssertNil(clock.nextChange, "a paused animation asks for no frame")
        XCTAssertFalse(clock.advance(to: 9))
        clock.step(by: -1, now: 9)
        XCTAssertEqual(clock.frame, 2, "back from the first frame is the last")
        clock.togglePause(now: 10)
        XCTAssertEqual(clock.nextChange ?? 0, 10.2, accuracy: 0.001)
        XCTAssertTrue(clock.advance(to: 10.25))
        XCTAssertTrue(clock.finished, "two loops played: it stays on its last frame")
        XCTAssertEqual(clock.frame, 2)
        XCTAssertNil(clock.nextChange)
        clock.togglePause(now: 11)
        clock.togglePause(now: 11)
        XCTAssertEqual(clock.frame, 0, "Space after the end plays it again")
        XCTAssertFalse(clock.finished)
    }

    /// Every frame read while it played: the clock ran out at the last frame read so far, and the whole file (no more
    /// frames, but loops left) plays on from its first frame; a file whose loops are over stays at its end.
    func test_clock_caughtUpWithTheReading_loopsOnceTheWholeIsRead() {
        var clock = AnimationClock(delays: [0.1, 0.1], loops: 1, now: 0)
        clock.advance(to: 0.35)
        XCTAssertTrue(clock.finished, "at the last frame read so far")
        clock.extend(delays: [0.1, 0.1], loops: 0, now: 0.4)
        XCTAssertFalse(clock.finished, "loops left: it plays on")
        XCTAssertEqual(clock.frame, 0)
        XCTAssertEqual(clock.loop, 2)
        XCTAssertEqual(clock.nextChange ?? 0, 0.5, accuracy: 1e-9)
        var done = AnimationClock(delays: [0.1, 0.1], loops: 1, now: 0)
        done.advance(to: 0.35)
        done.extend(delays: [0.1, 0.1], loops: 1, now: 0.4)
        XCTAssertTrue(done.finished, "played once, as the file asks: it stays at its end")
    }

    func test_clock_afterALongStop_carriesOnFromNow() {
        var clock = AnimationClock(delays: [0.1, 0.1], loops: 0, now: 0)
        clock.advance(to: 3_600)
        XCTAssertEqual(clock.nextChange ?? 0, 3_600.1, accuracy: 0.11)
    }
}

extension ViewerAnimationTests {
    /// A hundred frames for a terminal that plays them, under a budget of 8 MB: the frames drawn for the view are
    /// held under the budget of the frames read (made smaller past it, for the terminal to scale), not all at the
    /// view's size (17 MB here; a thousand frames of a large view were gigabytes).
    func test_kitty_framesForTheTerminal_areHeldUnderTheBudget() throws {
        var gif = GIFWriter(width: 320, height: 180, colors: [(0, 0, 0), (255, 255, 255)])
        gif.frame(left: 0, top: 0, width: 320, height: 180, pixels: [UInt8](repeating: 1, count: 320 * 180), delay: 10)
        for index in 0..<99 {
            gif.frame(left: index % 320, top: index % 180, width: 1, height: 1, pixels: [0], delay: 10)
        }
        let limits = AnimationLimits(bytes: 8 << 20, smallestSide: 32)
        let picture = try playedByKitty(clock: Clock(), files: Files(animation: gif.data), limits: limits).picture
        let motion = try XCTUnwrap(picture.pixels?.motion)
        XCTAssertEqual(motion.frames.count, 100)
        let held = motion.frames.reduce(0) { $0 + $1.pixels.count }
        XCTAssertLessThanOrEqual(held, limits.bytes, "at the view's size: 17 MB")
        XCTAssertGreaterThan(held, limits.bytes / 2, "as large as the budget allows")
        XCTAssertEqual(picture.pixels?.columns, 40, "shown over the view's cells all the same")
    }

    /// Where the program paces the frames, the animation plays while the rest of its frames are read: the frames so
    /// far come first (from the second on), the status line says more are coming, and the whole file then plays on
    /// from where it is.
    func test_characters_playWhileTheRestAreRead() throws {
        var gif = GIFWriter(width: 320, height: 180, colors: [(0, 0, 0), (255, 255, 255)])
        for index in 0..<12 {
            gif.frame(left: 0, top: 0, width: 320, height: 180, pixels: [UInt8](repeating: UInt8(index % 2), count: 320 * 180), delay: 10)
        }
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock, files: Files(animation: gif.data))
        _ = frame(pipeline)
        // Every result, in the order posted, until the whole animation.
        var results: [ImagePipeline.Result] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            results += mailbox.take()
            if results.contains(where: { if case .viewerAnimation = $0 { return true } else { return false } }) { break }
            _ = frame(pipeline)
            Thread.sleep(forTimeInterval: 0.01)
        }
        let partial = try XCTUnwrap(results.firstIndex { if case .viewerFrames = $0 { return true } else { return false } },
                                    "frames came before the whole")
        for result in results[...partial] { pipeline.deliver(result) }
        let playing = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertTrue(playing.reading)
        XCTAssertEqual(playing.frames, 2, "the frames so far")
        XCTAssertEqual(ViewerScreen.motionLabel(playing, unicode: true), "▶ 1/2…")
        guard case .ready = frame(pipeline) else { return XCTFail("the first frame shows") }
        clock.now += 0.101
        XCTAssertTrue(pipeline.advanceAnimation())
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 1)
        clock.now += 0.101
        pipeline.advanceAnimation()
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 1, "it waits on the last frame read")
        XCTAssertEqual(ViewerScreen.motionLabel(pipeline.viewerAnimation, unicode: true), "▶ 2/2…", "not 'ended'")
        for result in results[(partial + 1)...] { pipeline.deliver(result) }
        let whole = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertFalse(whole.reading)
        XCTAssertEqual(whole.frames, 12)
        XCTAssertEqual(whole.frame, 2, "it plays on from where it was")
        XCTAssertEqual(whole.loops, 0)
    }

    /// A file that is no animation leaves the still, and the status line says why.
    func test_anAnimationThatCannotBeRead_leavesTheStill_andSaysWhy() throws {
        final class Broken: ImageSource, @unchecked Sendable {
            func imageData(at url: URL) async throws(ServiceError) -> Data {
                if url.lastPathComponent == "moving.gif" { return Data("GIF89a and nothing more".utf8) }
                guard let data = try? ImageCodec.encodeJPEG(RGBImage(width: 32, height: 18, red: 1, green: 2, blue: 3)) else { throw .other("no JPEG") }
                return data
            }
        }
        let mailbox = ImagePipelineTests.Mailbox()
        let pipeline = ImagePipeline(source: Broken(), drawer: PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor))) { mailbox.post($0) }
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation != nil && !pipeline.isBusy }
        let status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertEqual(status.frames, 0)
        XCTAssertTrue(ViewerScreen.motionLabel(status, unicode: true).hasPrefix("still: the animation could not be played"),
                      ViewerScreen.motionLabel(status, unicode: true))
        XCTAssertNil(pipeline.nextAnimationFrame)
        guard case .ready = frame(pipeline) else { return XCTFail("the still shows") }
    }

    /// An animation damaged on its way (the server recovered since) is not kept: the cache is told to forget it, the
    /// status line says why it does not play and that `r` tries again, Space is not offered, and `r` reads it anew,
    /// when it plays. (The damaged bytes were kept in the image cache and reused for the day, `r` did nothing, and
    /// `Space play` was offered.)
    func test_aDamagedAnimation_isNotKept_andRReadsItAgain() throws {
        final class Recovering: ImageSource, @unchecked Sendable {
            let lock = NSLock()
            var damaged = true
            var discarded: [String] = []
            func imageData(at url: URL) async throws(ServiceError) -> Data {
                if url.lastPathComponent == "moving.gif" {
                    let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                        .deletingLastPathComponent().appendingPathComponent("Assets/animations/rocket.gif")
                    guard let whole = try? Data(contentsOf: assets) else { throw .other("no GIF") }
                    return lock.withLock { damaged } ? whole.prefix(40) : whole
                }
                guard let data = try? ImageCodec.encodeJPEG(RGBImage(width: 32, height: 18, red: 1, green: 2, blue: 3)) else { throw .other("no JPEG") }
                return data
            }
            func discard(_ url: URL) { lock.withLock { discarded.append(url.lastPathComponent) } }
        }
        let source = Recovering()
        let mailbox = ImagePipelineTests.Mailbox()
        let pipeline = ImagePipeline(source: source, drawer: PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor))) { mailbox.post($0) }
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation != nil && !pipeline.isBusy }
        let status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertEqual(status.frames, 0)
        XCTAssertTrue(ViewerScreen.motionLabel(status, unicode: true).hasSuffix("r tries again"), ViewerScreen.motionLabel(status, unicode: true))
        XCTAssertEqual(source.lock.withLock { source.discarded }, ["moving.gif"], "the damaged file is not kept")
        XCTAssertTrue(pipeline.animationRetries)
        let screen = ViewerScreen(theme: Theme(colorMode: .truecolor, unicode: true))
        var viewer = ViewerState(photo: photo)
        viewer.source = .feed
        let hints = screen.hints(viewer, motion: status, retries: pipeline.animationRetries)
        XCTAssertTrue(hints.contains("r retry"), "\(hints)")
        XCTAssertFalse(hints.contains { $0.hasSuffix(" play") }, "nothing to play is offered: \(hints)")
        // The server recovered: r reads it again, and it plays.
        source.lock.withLock { source.damaged = false }
        pipeline.control(.retry)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames == 20 && !$0.reading } ?? false }
        XCTAssertEqual(pipeline.viewerAnimation?.frames, 20)
        XCTAssertFalse(pipeline.animationRetries)
        let playing = screen.hints(viewer, motion: pipeline.viewerAnimation, retries: false)
        XCTAssertTrue(playing.contains("Space pause"), "Space says what it does now: \(playing)")
    }
}
