import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import TestSupport
import XCTest

/// The viewer's animation through the pipeline: the still first, then the frames as the clock says; a slow link holds
/// it as a still until Space; a terminal that plays it gets one picture with every frame.
final class ViewerAnimationTests: XCTestCase {
    /// The still (a JPEG) at `…/still`, the animation (the demo's GIF) at `…/moving.gif`.
    final class Files: ImageSource, @unchecked Sendable {
        /// What `moving.gif` is instead of the demo's GIF.
        let animation: Data?

        init(animation: Data? = nil) {
            self.animation = animation
        }

        func imageData(at url: URL) async throws(ServiceError) -> Data {
            let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Assets/animations")
            if url.lastPathComponent == "moving.gif", let animation { return animation }
            if url.lastPathComponent == "moving.gif", let data = try? Data(contentsOf: assets.appendingPathComponent("rocket.gif")) { return data }
            guard let data = try? ImageCodec.encodeJPEG(RGBImage(width: 320, height: 180, red: 10, green: 20, blue: 30)) else { throw .other("no JPEG") }
            return data
        }
    }

    final class Clock: @unchecked Sendable {
        var now = 100.0
    }

    let photo: Photo = {
        var photo = Photo(id: "gif", width: 320, height: 180,
                          urls: PhotoURLs(regular: URL(string: "http://127.0.0.1/still")!),
                          links: PhotoLinks(download: URL(string: "http://127.0.0.1/moving.gif")!))
        photo.isAnimated = true
        return photo
    }()

    func pipeline(_ drawer: PictureDrawer, clock: Clock, files: Files = Files(),
                  limits: AnimationLimits = .standard) -> (ImagePipeline, ImagePipelineTests.Mailbox) {
        let mailbox = ImagePipelineTests.Mailbox()
        let pipeline = ImagePipeline(source: files, drawer: drawer, animationLimits: limits, now: { clock.now }) { mailbox.post($0) }
        return (pipeline, mailbox)
    }

    func frame(_ pipeline: ImagePipeline) -> PictureSlot {
        pipeline.beginFrame()
        defer { pipeline.endFrame() }
        return pipeline.viewerPicture(for: photo, columns: 40, rows: 11, view: ViewTransform())
    }

    /// The viewer's pipeline for a terminal that plays the frames (Kitty graphics, cells of 8x16), and the picture it
    /// gives that terminal once every frame is drawn.
    func playedByKitty(clock: Clock, files: Files = Files(), limits: AnimationLimits = .standard) throws -> (pipeline: ImagePipeline, picture: CellPicture) {
        let made = try motionPicture(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16,
                                                   playback: .terminalFrames), clock: clock, files: files, limits: limits)
        return (made.pipeline, made.picture)
    }

    /// The viewer's pipeline with `drawer`, and the one picture with every frame it gives once they are all drawn.
    func motionPicture(_ drawer: PictureDrawer, clock: Clock, files: Files = Files(), limits: AnimationLimits = .standard) throws
        -> (pipeline: ImagePipeline, mailbox: ImagePipelineTests.Mailbox, picture: CellPicture) {
        let (pipeline, mailbox) = pipeline(drawer, clock: clock, files: files, limits: limits)
        _ = frame(pipeline)
        var picture: CellPicture?
        settle(pipeline, mailbox) {
            if case let .ready(shown) = frame(pipeline), shown.pixels?.motion != nil { picture = shown }
            return picture != nil
        }
        return (pipeline, mailbox, try XCTUnwrap(picture))
    }

    func settle(_ pipeline: ImagePipeline, _ mailbox: ImagePipelineTests.Mailbox, until condition: () -> Bool) {
        // Long enough for a busy machine; it ends as soon as the condition holds.
        let deadline = Date().addingTimeInterval(90)
        while !condition(), Date() < deadline {
            for result in mailbox.take() { pipeline.deliver(result) }
            _ = frame(pipeline)
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func test_characters_theFramesFollowTheClock_spacePauses_andAFrameIsDrawnOnce() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        _ = frame(pipeline)
        // Every frame read (it plays while they are: see test_characters_playWhileTheRestAreRead).
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { !$0.reading } ?? false }
        let status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertEqual(status.frames, 20)
        XCTAssertEqual(status.frame, 0)
        XCTAssertFalse(status.paused)
        XCTAssertEqual(pipeline.nextAnimationFrame ?? 0, 100.08, accuracy: 0.001, "80 ms a frame")
        guard case let .ready(first) = frame(pipeline) else { return XCTFail("the first frame") }
        clock.now += 0.081
        XCTAssertTrue(pipeline.advanceAnimation())
        guard case let .ready(second) = frame(pipeline) else { return XCTFail("the second frame") }
        XCTAssertFalse(first == second, "the second frame is another picture")
        XCTAssertFalse(pipeline.advanceAnimation(), "not due yet: nothing to draw")
        // Late by five frames: the one due now.
        clock.now += 0.401
        XCTAssertTrue(pipeline.advanceAnimation())
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 6)
        pipeline.control(.playPause)
        XCTAssertEqual(pipeline.viewerAnimation?.paused, true)
        XCTAssertNil(pipeline.nextAnimationFrame, "paused: no frame is due, the loop sleeps")
        clock.now += 10
        XCTAssertFalse(pipeline.advanceAnimation())
        pipeline.control(.step(1))
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 7)
        pipeline.closeViewer()
        XCTAssertNil(pipeline.viewerAnimation, "leaving the viewer stops it at once")
        XCTAssertNil(pipeline.nextAnimationFrame)
    }

    /// A hidden window (the terminal said so): the animation stands where it is, the loop wakes for no frame, and it
    /// plays on from there when the window is seen again; one paused by hand stays paused.
    func test_aHiddenWindow_pausesPlayback_andItResumesWhenSeen() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames > 0 && !$0.reading } ?? false }
        XCTAssertNotNil(pipeline.nextAnimationFrame)
        pipeline.windowHidden = true
        XCTAssertNil(pipeline.nextAnimationFrame, "hidden: no frame is due")
        let frameWhenHidden = pipeline.viewerAnimation?.frame
        clock.now += 5
        XCTAssertFalse(pipeline.advanceAnimation(), "nothing drawn for nobody")
        XCTAssertEqual(pipeline.viewerAnimation?.frame, frameWhenHidden)
        pipeline.windowHidden = false
        XCTAssertEqual(pipeline.viewerAnimation?.paused, false, "seen again: it plays on")
        XCTAssertEqual(pipeline.nextAnimationFrame ?? 0, clock.now + 0.08, accuracy: 0.001, "from where it stood, from now")
        pipeline.control(.playPause)
        pipeline.windowHidden = true
        pipeline.windowHidden = false
        XCTAssertEqual(pipeline.viewerAnimation?.paused, true, "paused by hand, it stays paused")
    }

    /// `animations = off`: every animation stands as its still, the status line says so, and Space plays it.
    func test_animationsOff_holdsTheStill_untilSpace() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        pipeline.animationSetting = .off
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames > 0 && !$0.reading } ?? false }
        let held = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertTrue(held.paused)
        XCTAssertEqual(held.heldBecause, "animations are off")
        XCTAssertNil(pipeline.nextAnimationFrame, "nothing is due: the loop sleeps")
        XCTAssertEqual(ViewerScreen.motionLabel(held, unicode: true), "still: animations are off, Space plays")
        pipeline.control(.playPause)
        XCTAssertNil(pipeline.viewerAnimation?.heldBecause)
        XCTAssertEqual(pipeline.viewerAnimation?.paused, false)
        XCTAssertNotNil(pipeline.nextAnimationFrame, "it plays")
    }

    /// `animations = safe`: an animation that flashes more than three times a second stands still, and says why, before
    /// a flashing frame is shown; one that does not (the demo's rocket) plays.
    func test_animationsSafe_holdsOneThatFlashes_andPlaysTheRest() throws {
        var flashing = GIFWriter(width: 320, height: 180, colors: [(0, 0, 0), (255, 255, 255)])
        for index in 0..<12 {
            flashing.frame(left: 0, top: 0, width: 320, height: 180, pixels: [UInt8](repeating: UInt8(index % 2), count: 320 * 180), delay: 8)
        }
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock,
                                           files: Files(animation: flashing.data))
        pipeline.animationSetting = .safe
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames > 0 && !$0.reading } ?? false }
        let held = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertEqual(held.heldBecause, "it flashes 6 times a second")
        XCTAssertEqual(held.frame, 0)
        XCTAssertTrue(held.paused)
        pipeline.control(.playPause)
        XCTAssertEqual(pipeline.viewerAnimation?.paused, false, "Space plays it all the same")

        let (calm, calmMail) = self.pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: Clock())
        calm.animationSetting = .safe
        _ = frame(calm)
        settle(calm, calmMail) { calm.viewerAnimation.map { $0.frames > 0 && !$0.reading } ?? false }
        XCTAssertNil(calm.viewerAnimation?.heldBecause)
        XCTAssertEqual(calm.viewerAnimation?.paused, false, "the rocket plays")
    }

    /// Frames the program paces in pixels (Sixel) keep their picture ids from one loop to the next, each following the
    /// frame before it in the file: the layer's encoded bytes of a loop serve the next, nothing is encoded again.
    func test_pacedPixelFrames_keepTheirIdsFromLoopToLoop() throws {
        let clock = Clock()
        let drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16, playback: .paced)
        let (pipeline, mailbox) = pipeline(drawer, clock: clock)
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames == 20 && !$0.reading } ?? false }
        var ids: [[Int: UInt32]] = [[:], [:]]
        var follows: [Int: UInt32] = [:]
        for loop in 0..<2 {
            for _ in 0..<20 {
                guard case let .ready(shown) = frame(pipeline), let pixels = shown.pixels,
                      let index = pipeline.viewerAnimation?.frame else { return XCTFail("a frame") }
                ids[loop][index] = pixels.id
                follows[index] = pixels.follows?.pictureID
                clock.now += 0.081
                _ = pipeline.advanceAnimation()
            }
        }
        XCTAssertEqual(ids[0].count, 20)
        XCTAssertEqual(ids[0], ids[1], "the same ids in the second loop")
        for index in 1..<20 { XCTAssertEqual(follows[index], ids[0][index - 1], "frame \(index) follows frame \(index - 1)") }
        XCTAssertEqual(follows[0], ids[0][19], "the first follows the last")
    }

    /// The viewer's pipeline for a terminal that plays the frames (Kitty graphics, cells of 8x16) over a link of `rate`
    /// bytes a second, once the animation is read.
    func playedByKitty(overALinkOf rate: Double) -> ImagePipeline {
        let drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16, playback: .terminalFrames)
        let (pipeline, mailbox) = pipeline(drawer, clock: Clock())
        pipeline.linkRate = rate
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation != nil }
        return pipeline
    }

    /// Where the terminal is given every frame before it plays them, a slow link holds the still until Space.
    func test_aSlowLink_holdsTheStill_untilSpace_whereTheTerminalIsGivenEveryFrame() throws {
        let pipeline = playedByKitty(overALinkOf: 125_000)
        XCTAssertEqual(pipeline.viewerAnimation?.heldForLink, true)
        XCTAssertNil(pipeline.nextAnimationFrame)
        XCTAssertEqual(ViewerScreen.motionLabel(pipeline.viewerAnimation, unicode: true), "paused: slow link, Space plays")
        pipeline.control(.playPause)
        XCTAssertEqual(pipeline.viewerAnimation?.heldForLink, false)
        XCTAssertEqual(pipeline.viewerAnimation?.paused, false)
    }

    /// While a frame shows, the next is drawn off the loop: when it is due, the loop only places it (drawn on the loop, a
    /// frame at the view's pixels kept a key waiting behind it).
    func test_theNextFrameIsDrawnOffTheLoop_whileTheOneBeforeShows() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames == 20 && !$0.reading } ?? false }
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 0)
        XCTAssertEqual(pipeline.frameAhead?.index, 1)
        settle(pipeline, mailbox) { pipeline.frameAhead?.picture != nil }
        let ahead = try XCTUnwrap(pipeline.frameAhead?.picture)
        clock.now += 0.081
        XCTAssertTrue(pipeline.advanceAnimation())
        guard case let .ready(second) = frame(pipeline) else { return XCTFail("the second frame") }
        XCTAssertEqual(second.cells, ahead.cells, "the frame drawn ahead")
        XCTAssertEqual(pipeline.frameAhead?.index, 2, "and the one after it is on its way")
    }

    /// A zoom while it plays: the last frame stays until the frame for the new view is drawn off the loop, as the
    /// still's view does.
    func test_aViewChangedWhileItPlays_keepsTheLastFrame_untilTheNewViewsIsDrawnOffTheLoop() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames == 20 && !$0.reading } ?? false }
        guard case let .ready(whole) = frame(pipeline) else { return XCTFail("a frame") }
        let zoomed = ViewTransform(zoom: 2)
        func zoomedFrame() -> PictureSlot {
            pipeline.beginFrame()
            defer { pipeline.endFrame() }
            return pipeline.viewerPicture(for: photo, columns: 40, rows: 11, view: zoomed)
        }
        guard case let .ready(meanwhile) = zoomedFrame() else { return XCTFail("a frame") }
        XCTAssertEqual(meanwhile.cells, whole.cells, "the last frame stays")
        XCTAssertEqual(pipeline.frameAhead?.key.view, zoomed)
        var drawn: CellPicture?
        settle(pipeline, mailbox) {
            if case let .ready(picture) = zoomedFrame(), picture.cells != whole.cells { drawn = picture }
            return drawn != nil
        }
        XCTAssertNotNil(drawn, "the zoomed frame, once drawn")
    }

    /// Where the terminal is given every frame first, a slow link that carries them all in a few seconds plays it anyway
    /// (every byte goes once): at 39 Mbit/s the rocket's frames cross in well under four seconds.
    func test_aSlowLinkThatCarriesEveryFrameInAFewSeconds_playsWhereTheTerminalIsGivenEveryFrame() throws {
        let pipeline = playedByKitty(overALinkOf: 4_900_000)
        let status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertFalse(status.heldForLink)
        XCTAssertFalse(status.paused)
        let animation = try XCTUnwrap(pipeline.animation)
        XCTAssertTrue(pipeline.uploadCrosses(animation, rate: 4_900_000))
        XCTAssertFalse(pipeline.uploadCrosses(animation, rate: 125_000), "at 1 Mbit/s they would take \(animation.frames.count * animation.width * animation.height * 3 / 125_000) s")
    }

    /// Frames the program draws play over a slow link: made smaller until one crosses in a tenth of a second, shown
    /// once the link has carried the last (the clock keeps time: frames due meanwhile are skipped); where even a third
    /// of the picture each way would not cross in time, the still stays and says why, and Space tries.
    func test_aSlowLink_playsFramesSizedAndPacedToIt_orSaysItIsTooSlow() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        pipeline.linkRate = 125_000
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation.map { $0.frames == 20 && !$0.reading } ?? false }
        var status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertFalse(status.paused, "it plays")
        XCTAssertFalse(status.heldForLink)
        // 40x11 cells in 24-bit colour (about 16 KB a frame) over 125 KB a second: smaller, to cross in 80 ms.
        guard case let .ready(first) = frame(pipeline) else { return XCTFail("the first frame") }
        XCTAssertLessThan(first.columns, 40)
        XCTAssertGreaterThanOrEqual(first.columns, 14)
        XCTAssertLessThan(first.rows, 11)
        // The first frame shown. The next is due 80 ms on, but a frame as large is thought to cost 10 KB, which the
        // link carries (at 70% of it) in 114 ms: it shows then.
        pipeline.bytesWritten = 0
        clock.now += 0.001
        XCTAssertTrue(pipeline.advanceAnimation())
        clock.now = 100.081
        pipeline.bytesWritten = 5_000
        XCTAssertFalse(pipeline.advanceAnimation(), "due, but the link has not carried the last frame yet")
        XCTAssertEqual(pipeline.nextAnimationFrame ?? 0, 100.001 + 10_000 / 87_500, accuracy: 0.001)
        clock.now = 100.116
        XCTAssertTrue(pipeline.advanceAnimation())
        XCTAssertEqual(pipeline.viewerAnimation?.frame, 1)
        /// The next frame the link was given time for, `cost` bytes after the last.
        func next(costing cost: Int) -> Bool {
            clock.now = (pipeline.nextAnimationFrame ?? clock.now) + 0.001
            pipeline.bytesWritten += cost
            return pipeline.advanceAnimation()
        }
        // Two frames after a new size are not measured (they redraw all of it); then one that cost 5 KB: the next
        // may go 5,000 / (125,000 x 0.7) s after it, or when the clock says.
        XCTAssertTrue(next(costing: 30_000))
        XCTAssertTrue(next(costing: 5_000))
        XCTAssertTrue(next(costing: 5_000))
        XCTAssertGreaterThanOrEqual(pipeline.nextAnimationFrame ?? 0, clock.now + 5_000.0 / 87_500 - 0.002)
        XCTAssertEqual(first.columns, 32)
        // A frame that cost 40 KB (a third of a second of the link): the frames after are smaller, and the clock
        // keeps time (the frame shown is the one due now, those between skipped).
        XCTAssertTrue(next(costing: 40_000))
        XCTAssertEqual(pipeline.viewerAnimation?.frame, pipeline.clock?.frame, "the frame due now")
        let pacedAt = clock.now
        guard case let .ready(smaller) = frame(pipeline) else { return XCTFail("a frame") }
        XCTAssertLessThan(smaller.columns, first.columns)
        clock.now = pacedAt + 0.1
        XCTAssertFalse(pipeline.advanceAnimation(), "the link is given time for the last frame")
        XCTAssertGreaterThan(pipeline.nextAnimationFrame ?? 0, clock.now)
        // Frames that cost a second of the link: a third of the picture each way, and then, as dear, it stands and
        // says why.
        for _ in 0..<8 { _ = next(costing: 125_000) }
        status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertTrue(status.paused)
        XCTAssertTrue(status.linkTooSlow)
        XCTAssertEqual(ViewerScreen.motionLabel(status, unicode: true), "link too slow to play: Space tries")
        XCTAssertNil(pipeline.nextAnimationFrame)
        // Space tries: it plays, made smaller as the link demands down to a third of the picture each way, never held.
        pipeline.control(.playPause)
        status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertFalse(status.paused)
        XCTAssertFalse(status.linkTooSlow)
        for _ in 0..<10 { _ = next(costing: 125_000) }
        XCTAssertFalse(try XCTUnwrap(pipeline.viewerAnimation).paused, "asked for, it is not held again")
        guard case let .ready(smallest) = frame(pipeline) else { return XCTFail("a frame") }
        XCTAssertEqual(smallest.columns, 13, "a third of 40")

        // The link found fast again: the frames are the view's size.
        pipeline.linkRate = nil
        clock.now += 1
        _ = pipeline.advanceAnimation()
        guard case let .ready(whole) = frame(pipeline) else { return XCTFail("a frame") }
        XCTAssertEqual(whole.columns, 40)
    }

    /// A link too slow for even a third of the picture each way: the animation does not start; Space tries.
    func test_aLinkTooSlowForEvenSmallFrames_keepsTheStill_andSaysWhy() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)), clock: clock)
        pipeline.linkRate = 5_000
        _ = frame(pipeline)
        settle(pipeline, mailbox) { pipeline.viewerAnimation != nil }
        let status = try XCTUnwrap(pipeline.viewerAnimation)
        XCTAssertTrue(status.paused)
        XCTAssertEqual(ViewerScreen.motionLabel(status, unicode: true), "link too slow to play: Space tries")
        XCTAssertNil(pipeline.nextAnimationFrame)
        pipeline.control(.playPause)
        XCTAssertEqual(pipeline.viewerAnimation?.paused, false)
        XCTAssertNotNil(pipeline.nextAnimationFrame)
    }

    /// A Kitty terminal that plays no frames: the same one picture with every frame (their payloads made off the loop),
    /// but the program's clock paces it, and the placement names the frame due.
    func test_kittyThatPlaysNoFrames_getsThePicture_andTheClockPacesIt() throws {
        let clock = Clock()
        let drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16, playback: .framesInPlace)
        let (pipeline, mailbox, picture) = try motionPicture(drawer, clock: clock)
        let motion = try XCTUnwrap(picture.pixels?.motion)
        XCTAssertEqual(motion.frames.count, 20)
        XCTAssertEqual(motion.kittyPayloads.count, 20, "every frame's payload made off the loop")
        XCTAssertEqual(pipeline.viewerAnimation?.playedByTerminal, false)
        XCTAssertEqual(pipeline.nextAnimationFrame ?? 0, clock.now + 0.08, accuracy: 0.09, "the loop wakes for the next frame")
        clock.now += 0.081
        XCTAssertTrue(pipeline.advanceAnimation(), "a frame is due: the screen changes")
        guard case let .ready(next) = frame(pipeline) else { return XCTFail("the picture") }
        XCTAssertEqual(next.pixels?.id, picture.pixels?.id, "the same picture: the frame is the placement's")
        let screen = ViewerScreen(theme: Theme(colorMode: .truecolor, unicode: true), cellAspect: 2)
        var buffer = CellBuffer(width: 60, height: 20)
        var viewer = ViewerState(photo: photo)
        viewer.barHidden = true
        // The screen's own view of it (its size), drawn once the frames are made for it.
        settle(pipeline, mailbox) {
            buffer = CellBuffer(width: 60, height: 20)
            pipeline.beginFrame()
            screen.render(viewer, app: AppState(), ui: UIState(), pictures: pipeline, into: &buffer)
            pipeline.endFrame()
            return buffer.placements.first?.picture.motion != nil
        }
        XCTAssertEqual(buffer.placements.first?.playback, .paused(frame: pipeline.viewerAnimation?.frame ?? -1),
                       "the layer is told the frame the clock is at")
    }

    /// Zooming an animation kitty holds: the same picture showing the zoomed part of its frames (no frame drawn again
    /// off the loop), and the Kitty layer only places that part; back at the whole view, the whole picture again.
    func test_kitty_zoom_placesAPartOfThePictureItHolds_andSendsNoFrameAgain() throws {
        let clock = Clock()
        var drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16, playback: .terminalFrames)
        drawer.cropsPlacements = true
        let (pipeline, _, whole) = try motionPicture(drawer, clock: clock)
        let pixels = try XCTUnwrap(whole.pixels)
        pipeline.beginFrame()
        let slot = pipeline.viewerPicture(for: photo, columns: 40, rows: 11, view: ViewTransform(zoom: 2, panX: 0.25))
        pipeline.endFrame()
        guard case let .ready(zoomed) = slot, let part = zoomed.pixels else { return XCTFail("the zoomed view at once") }
        XCTAssertEqual(part.id, pixels.id, "the same picture, as the terminal holds it")
        let width = pixels.image.width, height = pixels.image.height
        XCTAssertEqual(part.crop, PixelPicture.Crop(x: width / 2, y: height / 4, width: width / 2, height: height / 2),
                       "half of it each way, panned to the right edge")
        XCTAssertNil(pipeline.motionRender, "no frame drawn again")

        let layer = KittyPictureLayer()
        var buffer = CellBuffer(width: 60, height: 20)
        buffer.draw(CellPicture(pixels: pixels), x: 0, y: 0, playback: .playing)
        _ = layer.frame(buffer, repainted: true)
        _ = layer.frame(buffer, repainted: false) // told to play
        var zoomedBuffer = CellBuffer(width: 60, height: 20)
        zoomedBuffer.draw(zoomed, x: 0, y: 0, playback: .playing)
        let commands = KittyGraphics.commands(in: layer.frame(zoomedBuffer, repainted: false))
        XCTAssertEqual(Set(commands.map { $0["a"] ?? "" }), ["p", "d"], "a placement of the part, the old one taken off: no pixels")
        let placed = try XCTUnwrap(commands.first { $0["a"] == "p" })
        XCTAssertEqual(placed.int("x"), width / 2)
        XCTAssertEqual(placed.int("y"), height / 4)
        XCTAssertEqual(placed.int("w"), width / 2)
        XCTAssertEqual(placed.int("h"), height / 2)
        XCTAssertEqual(placed.int("c"), 40, "over the view's cells")
        pipeline.beginFrame()
        let back = pipeline.viewerPicture(for: photo, columns: 40, rows: 11, view: ViewTransform())
        pipeline.endFrame()
        guard case let .ready(again) = back else { return XCTFail("the whole view") }
        XCTAssertNil(again.pixels?.crop)
        XCTAssertEqual(again.pixels?.id, pixels.id)
    }

    /// On a slow link, kitty is given a small animation's frames at their own size once Space plays it (the terminal
    /// scales them to the view's cells); on a fast one, at the view's pixels, as the still is drawn.
    func test_kitty_onASlowLink_getsASmallAnimationAtItsOwnSize() throws {
        let clock = Clock()
        let drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 8, cellHeight: 16, playback: .terminalFrames)
        let (pipeline, mailbox) = pipeline(drawer, clock: clock)
        pipeline.linkRate = 125_000
        // A view of 100x28 cells, 800x448 pixels: the 320x180 GIF is under half of them.
        func view() -> PictureSlot {
            pipeline.beginFrame()
            defer { pipeline.endFrame() }
            return pipeline.viewerPicture(for: photo, columns: 100, rows: 28, view: ViewTransform())
        }
        _ = view()
        var picture: CellPicture?
        // As `settle`, at this view's size (long enough for a busy machine; it ends as soon as the picture comes).
        let deadline = Date().addingTimeInterval(90)
        while picture == nil, Date() < deadline {
            for result in mailbox.take() { pipeline.deliver(result) }
            if pipeline.viewerAnimation?.heldForLink == true { pipeline.control(.playPause) }
            if case let .ready(shown) = view(), shown.pixels?.motion != nil { picture = shown }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let pixels = try XCTUnwrap(picture?.pixels)
        XCTAssertEqual(pixels.image.width, 320, "the frames at their own size")
        XCTAssertEqual(pixels.image.height, 180)
        XCTAssertEqual(pixels.motion?.frames.first?.width, 320)
        XCTAssertEqual(pixels.columns, 100, "shown over the view's cells")
    }

    func test_kitty_getsOnePictureWithEveryFrame_andTheLoopAsksForNoFrames() throws {
        let clock = Clock()
        let (pipeline, picture) = try playedByKitty(clock: clock)
        let motion = try XCTUnwrap(picture.pixels?.motion)
        XCTAssertEqual(motion.frames.count, 20)
        XCTAssertEqual(Set(motion.delays), [80])
        XCTAssertEqual(motion.loops, 0)
        XCTAssertEqual(motion.frames[0].width, picture.pixels?.image.width)
        XCTAssertEqual(pipeline.viewerAnimation?.playedByTerminal, true)
        XCTAssertNil(pipeline.nextAnimationFrame, "kitty plays it: the loop wakes for no frame")
        clock.now += 1
        XCTAssertFalse(pipeline.advanceAnimation(), "nothing to draw while kitty plays it")
        XCTAssertEqual(ViewerScreen.motionLabel(pipeline.viewerAnimation, unicode: true), "▶ 20 frames")
    }
}
