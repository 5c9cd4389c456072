import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import XCTest

/// An album's animated tiles play where they stand: with `animations = hover` the selected one, with `on` every one in
/// view; none with `off`, over a slow link or in a hidden window; a tile no longer asked for stops and lets its frames go.
final class TileAnimationTests: XCTestCase {
    typealias Files = ViewerAnimationTests.Files
    typealias Clock = ViewerAnimationTests.Clock

    func animated(_ id: String) -> Photo {
        var photo = Photo(id: id, width: 320, height: 180, urls: PhotoURLs(regular: URL(string: "http://127.0.0.1/still")!),
                          links: PhotoLinks(download: URL(string: "http://127.0.0.1/moving.gif")!))
        photo.isAnimated = true
        return photo
    }

    func pipeline(_ setting: AnimationSetting, clock: Clock) -> (ImagePipeline, ImagePipelineTests.Mailbox) {
        let mailbox = ImagePipelineTests.Mailbox()
        let pipeline = ImagePipeline(source: Files(), drawer: PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor)),
                                     now: { clock.now }) { mailbox.post($0) }
        pipeline.animationSetting = setting
        return (pipeline, mailbox)
    }

    /// One frame of the album: the tiles of `photos`, the one at `selected` selected.
    func frame(_ pipeline: ImagePipeline, _ photos: [Photo], selected: Int) -> [PictureSlot] {
        pipeline.beginFrame()
        defer { pipeline.endFrame() }
        return photos.enumerated().map { index, photo in
            pipeline.picture(for: photo, url: photo.urls.regular, columns: 20, rows: 6, selected: index == selected)
        }
    }

    /// Frames until `condition` holds (the reading and drawing happen off the loop).
    func settle(_ pipeline: ImagePipeline, _ mailbox: ImagePipelineTests.Mailbox, _ photos: [Photo], selected: Int,
                until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(90)
        while !condition(), Date() < deadline {
            for result in mailbox.take() { pipeline.deliver(result) }
            _ = frame(pipeline, photos, selected: selected)
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    func test_hover_theSelectedTilePlays_theOthersStandStill_andATileLeftStops() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(.hover, clock: clock)
        let photos = [animated("a"), animated("b")]
        settle(pipeline, mailbox, photos, selected: 0) { pipeline.tilePlayers["a"]?.clock != nil }
        XCTAssertNotNil(pipeline.tilePlayers["a"]?.clock, "the selected tile plays")
        XCTAssertNil(pipeline.tilePlayers["b"], "the other is a still")
        XCTAssertNotNil(pipeline.nextAnimationFrame)
        guard case let .ready(first) = frame(pipeline, photos, selected: 0)[0] else { return XCTFail("a frame") }
        XCTAssertEqual(first.columns, 20)
        XCTAssertEqual(first.rows, 6)
        clock.now = try XCTUnwrap(pipeline.nextAnimationFrame) + 0.001
        XCTAssertTrue(pipeline.advanceAnimation())
        guard case let .ready(second) = frame(pipeline, photos, selected: 0)[0] else { return XCTFail("a frame") }
        XCTAssertNotEqual(first.cells, second.cells, "the next frame")
        // The selection moves on: the first stops (its frames go), the second plays.
        settle(pipeline, mailbox, photos, selected: 1) { pipeline.tilePlayers["b"]?.clock != nil }
        XCTAssertNil(pipeline.tilePlayers["a"])
        XCTAssertNotNil(pipeline.tilePlayers["b"]?.clock)
        // Nothing asked for: nothing plays, nothing is due.
        pipeline.beginFrame()
        pipeline.endFrame()
        pipeline.beginFrame()
        pipeline.endFrame()
        XCTAssertTrue(pipeline.tilePlayers.isEmpty)
        XCTAssertNil(pipeline.nextAnimationFrame)
    }

    func test_on_everyAnimatedTileInViewPlays_atMostFour() throws {
        let clock = Clock()
        let (pipeline, mailbox) = pipeline(.on, clock: clock)
        var photos = (0..<6).map { animated("p\($0)") }
        photos.append(Photo(id: "still", width: 320, height: 180, urls: PhotoURLs(regular: URL(string: "http://127.0.0.1/still")!)))
        settle(pipeline, mailbox, photos, selected: 0) { pipeline.tilePlayers.values.filter { $0.clock != nil }.count == 4 }
        XCTAssertEqual(Set(pipeline.tilePlayers.keys), ["p0", "p1", "p2", "p3"])
    }

    func test_off_aSlowLink_orAHiddenWindow_keepTheTilesStill() {
        let clock = Clock()
        let photos = [animated("a")]
        for setup in [{ (p: ImagePipeline) in p.animationSetting = .off }, { $0.linkRate = 125_000 }, { $0.windowHidden = true }] {
            let (pipeline, mailbox) = pipeline(.hover, clock: clock)
            setup(pipeline)
            for _ in 0..<30 {
                for result in mailbox.take() { pipeline.deliver(result) }
                _ = frame(pipeline, photos, selected: 0)
                Thread.sleep(forTimeInterval: 0.01)
            }
            XCTAssertTrue(pipeline.tilePlayers.isEmpty)
            XCTAssertNil(pipeline.nextAnimationFrame)
        }
    }
}
