import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import XCTest

/// The image pipeline without a terminal: which files it asks for, and when it asks again.
final class ImagePipelineTests: XCTestCase {
    /// Answers with a JPEG of the size its URL names (`…/w`), or fails for `…/broken`; records every request.
    final class Files: ImageSource, @unchecked Sendable {
        private let lock = NSLock()
        private var requested: [String] = []
        var requests: [String] { lock.withLock { requested } }

        func imageData(at url: URL) async throws(ServiceError) -> Data {
            lock.withLock { requested.append(url.lastPathComponent) }
            guard let width = Int(url.lastPathComponent) else { throw .noConnection("test") }
            let image = RGBImage(width: width, height: width, red: 120, green: 80, blue: 40)
            guard let data = try? ImageCodec.encodeJPEG(image) else { throw .other("no JPEG") }
            return data
        }
    }

    /// Finished work posted by the pipeline, handed back on this thread as the run loop does.
    final class Mailbox: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [ImagePipeline.Result] = []
        func post(_ result: ImagePipeline.Result) { lock.withLock { results.append(result) } }
        func take() -> [ImagePipeline.Result] { lock.withLock { defer { results.removeAll() }; return results } }
    }

    func settle(_ pipeline: ImagePipeline, _ mailbox: Mailbox, until condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline {
            for result in mailbox.take() { pipeline.deliver(result) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// One frame asking for the cards' pictures of photos `photos` (`p0`, `p1`, …, each a JPEG `width` pixels square
    /// from `Files`, or a file that fails when `broken`), each `columns`x`rows` cells, as a screen of cards does.
    static func frame(_ pipeline: ImagePipeline, photos: Range<Int>, width: Int, columns: Int, rows: Int,
                      broken: Bool = false) -> [PictureSlot] {
        pipeline.beginFrame()
        defer { pipeline.endFrame() }
        return photos.map { index in
            pipeline.picture(for: Photo(id: "p\(index)", width: width, height: width),
                             url: URL(string: "http://127.0.0.1/p\(index)/\(broken ? "broken" : String(width))")!,
                             columns: columns, rows: rows)
        }
    }

    static func allReady(_ slots: [PictureSlot]) -> Bool {
        slots.allSatisfy { if case .ready = $0 { true } else { false } }
    }

    func test_zoomingPastTheLoadedFile_asksForTheLargerOne_once() {
        let files = Files()
        let mailbox = Mailbox()
        let pipeline = ImagePipeline(source: files, blitter: HalfBlockBlitter(mode: .truecolor)) { mailbox.post($0) }
        let photo = Photo(id: "p", width: 1000, height: 1000,
                          urls: PhotoURLs(full: URL(string: "http://127.0.0.1/full/1600")!, regular: URL(string: "http://127.0.0.1/regular/200")!))
        func frame(_ view: ViewTransform) -> PictureSlot {
            pipeline.beginFrame()
            defer { pipeline.endFrame() }
            return pipeline.viewerPicture(for: photo, columns: 60, rows: 30, view: view)
        }
        let fit = ViewTransform()
        _ = frame(fit)
        settle(pipeline, mailbox) { if case .ready = frame(fit) { true } else { false } }
        XCTAssertEqual(files.requests, ["200"], "the whole photo needs only the regular file")

        // 8x: 200 px / 8 = 25 px in view for 60 columns: the larger file is asked for, once.
        let zoomed = ViewTransform(zoom: 8)
        _ = frame(zoomed)
        settle(pipeline, mailbox) { files.requests.count == 2 && pipeline.isBusy == false }
        for _ in 0..<5 { _ = frame(zoomed) }
        settle(pipeline, mailbox) { !pipeline.isBusy }
        XCTAssertEqual(files.requests, ["200", "1600"])
        guard case let .ready(picture) = frame(zoomed) else { return XCTFail("the zoomed picture is drawn") }
        XCTAssertEqual(picture.columns, 60)
    }

    func test_aFailedPicture_isAskedForAgain_backInViewAfterItsWait_orOnRetry() {
        let files = Files()
        let mailbox = Mailbox()
        var now = 100.0
        let pipeline = ImagePipeline(source: files, blitter: HalfBlockBlitter(mode: .truecolor), now: { now }) { mailbox.post($0) }
        let photo = Photo(id: "b", width: 10, height: 10)
        let broken = URL(string: "http://127.0.0.1/broken")!
        func frame(shown: Bool) -> PictureSlot? {
            pipeline.beginFrame()
            defer { pipeline.endFrame() }
            return shown ? pipeline.picture(for: photo, url: broken, columns: 4, rows: 2) : nil
        }
        _ = frame(shown: true)
        settle(pipeline, mailbox) { frame(shown: true) == .failed }
        XCTAssertEqual(files.requests.count, 1)
        _ = frame(shown: false)
        _ = frame(shown: true)
        XCTAssertEqual(files.requests.count, 1, "back in view before its wait: not yet")
        now += 2.5
        _ = frame(shown: false)
        _ = frame(shown: true)
        settle(pipeline, mailbox) { files.requests.count == 2 && frame(shown: true) == .failed }
        XCTAssertEqual(files.requests.count, 2, "back in view after 2 s: asked for again")
        XCTAssertEqual(ImagePipeline.retryDelay(afterFailures: 2), 4)
        XCTAssertEqual(ImagePipeline.retryDelay(afterFailures: 10), 60)
        pipeline.retryFailed()
        _ = frame(shown: true)
        settle(pipeline, mailbox) { files.requests.count == 3 }
        XCTAssertEqual(files.requests.count, 3, "r asks again at once")
    }

    /// A feed scrolled with every picture failing (offline all afternoon): the failures counted for their waits go
    /// with the pictures' entries, so they are never more than the entries kept.
    func test_picturesThatFailed_areForgottenWithTheirEntries() {
        let files = Files()
        let mailbox = Mailbox()
        let pipeline = ImagePipeline(source: files, blitter: HalfBlockBlitter(mode: .truecolor)) { mailbox.post($0) }
        func frame(screen: Int) -> [PictureSlot] {
            Self.frame(pipeline, photos: screen * 10..<screen * 10 + 10, width: 10, columns: 4, rows: 2, broken: true)
        }
        for screen in 0..<60 {
            _ = frame(screen: screen)
            settle(pipeline, mailbox) { frame(screen: screen).allSatisfy { $0 == .failed } }
        }
        XCTAssertEqual(files.requests.count, 600)
        XCTAssertLessThanOrEqual(pipeline.failureCount, 400, "no more than the entries kept")
        XCTAssertEqual(frame(screen: 59), Array(repeating: .failed, count: 10), "those in view stay failed, not asked for again at once")
        XCTAssertEqual(files.requests.count, 600)
    }

    /// Pictures in pixels at 200 columns are 1.5 MB each (96x32 cells of 9x18 pixels): going down a grid of them by
    /// seven rows and back up asks for none twice (with room for 8 pictures, each step back had thrown away the one
    /// it needed and decoded it again).
    func test_picturesInPixels_downAGridAndBack_areEachLoadedOnce() {
        let files = Files()
        let mailbox = Mailbox()
        let drawer = PictureDrawer(blitter: HalfBlockBlitter(mode: .truecolor), cellWidth: 9, cellHeight: 18)
        let pipeline = ImagePipeline(source: files, drawer: drawer) { mailbox.post($0) }
        /// Two columns of cards, two rows of them in view: the grid's `row`th row at the top.
        func frame(row: Int) -> [PictureSlot] { Self.frame(pipeline, photos: row * 2..<row * 2 + 4, width: 1000, columns: 96, rows: 32) }
        for row in Array(0...7) + Array((0...6).reversed()) {
            _ = frame(row: row)
            settle(pipeline, mailbox) { Self.allReady(frame(row: row)) }
        }
        XCTAssertEqual(files.requests.count, 18, "each picture once: \(files.requests.count) requests")
        guard case let .ready(picture) = frame(row: 0).first, let pixels = picture.pixels else { return XCTFail("a picture in pixels") }
        XCTAssertEqual(pixels.image.pixels.count, 96 * 9 * 32 * 18 * 3, "1.5 MB a picture")
    }

    /// Pictures in characters are kept for sixteen screens of the fullest screen seen, not a fixed 6 MB: going down
    /// forty screens of two pictures each holds no more than that, and going back twelve screens (what is left when
    /// the oldest go, down to three quarters) asks for none again.
    func test_picturesInCharacters_keptForSixteenScreens_andNoMore() {
        let files = Files()
        let mailbox = Mailbox()
        let pipeline = ImagePipeline(source: files, blitter: HalfBlockBlitter(mode: .truecolor)) { mailbox.post($0) }
        /// The `screen`th screen: two pictures of 40x20 cells.
        func frame(screen: Int) -> [PictureSlot] { Self.frame(pipeline, photos: screen * 2..<screen * 2 + 2, width: 200, columns: 40, rows: 20) }
        var mostHeld = 0
        for screen in 0..<40 {
            _ = frame(screen: screen)
            settle(pipeline, mailbox) { Self.allReady(frame(screen: screen)) }
            mostHeld = max(mostHeld, pipeline.heldBytes)
        }
        let screenBytes = 2 * 40 * 20 * MemoryLayout<CellPicture.Cell>.stride
        XCTAssertEqual(pipeline.keptBytes, ImagePipeline.screensKept * screenBytes, "sixteen of the fullest screen")
        XCTAssertLessThanOrEqual(mostHeld, pipeline.keptBytes + screenBytes, "at most one screen over while it comes in")
        XCTAssertEqual(files.requests.count, 80)
        for screen in (27..<39).reversed() {
            XCTAssertTrue(Self.allReady(frame(screen: screen)),
                          "screen \(screen), \(39 - screen) back, still drawn")
        }
        XCTAssertEqual(files.requests.count, 80, "none asked for again")
    }
}
