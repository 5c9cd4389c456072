import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// The run loop with a test terminal, a stub service and stub images: input in, frames out.
final class TerminalAppTests: XCTestCase {
    struct StubImages: ImageSource {
        let data: Data?
        func imageData(at url: URL) async throws(ServiceError) -> Data {
            guard let data else { throw .notFound }
            return data
        }
    }

    final class StubPerformer: EffectPerformer, @unchecked Sendable {
        let lock = NSLock()
        var performed: [AppViewModel.Effect] = []
        let likeFails: Bool

        init(likeFails: Bool = false) {
            self.likeFails = likeFails
        }

        func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event] {
            lock.withLock { performed.append(effect) }
            switch effect {
            case let .feed(.loadPage(page, perPage)):
                let photos = (0..<perPage).map { photo("p\(page)-\($0)") }
                return [.feed(.pageLoaded(page: page, .success(Page(items: photos, number: page, perPage: perPage, nextPage: page + 1))))]
            case let .feed(.setLike(photoID, liked)):
                if likeFails { return [.feed(.likeFinished(photoID: photoID, liked: liked, .failure(.server(status: 500))))] }
                return [.feed(.likeFinished(photoID: photoID, liked: liked, .success(photo(photoID, liked: liked, likes: 4))))]
            default:
                return []
            }
        }
    }

    static let jpeg: Data = {
        let image = RGBImage(width: 64, height: 16, red: 200, green: 30, blue: 40)
        return (try? ImageCodec.encodeJPEG(image)) ?? Data()
    }()

    /// Steps the loop until `done` or a second passes.
    func run(_ app: TerminalApp, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !done(), Date() < deadline { app.step(timeout: 10) }
    }

    func test_loadsTheFeed_drawsPhotos_andAsksForTheNextPageInTime() {
        let backend = TestBackend(width: 60, height: 16)
        let performer = StubPerformer()
        let app = TerminalApp(backend: backend, theme: unicodeTheme, imageSource: StubImages(data: Self.jpeg), performer: performer)
        app.dispatch(.start)
        run(app) { app.state.feed.photos.count == 30 }
        for _ in 0..<20 { app.step(timeout: 5) }
        XCTAssertEqual(app.state.feed.photos.count, 30, "one page while the top of the feed is shown")
        backend.input = [.key(.character("G"))]
        run(app) { app.state.feed.photos.count == 60 }
        XCTAssertEqual(app.state.feed.photos.count, 60, "the next page was asked for near the end")
        backend.input = [.key(.character("g"))]
        run(app) { app.ui.feedSelected == 0 }
        // Let the first photo load, then draw.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            app.step(timeout: 10)
            if case .indexed = backend.frames.last?[10, 3].style.background { break }
        }
        let frame = try! XCTUnwrap(backend.frames.last)
        XCTAssertTrue(frame.lines[0].contains("Feed"))
        // The picture is drawn in colour: red cells.
        let cell = frame[10, 3]
        XCTAssertNotEqual(cell.style.background, .standard)
    }

    /// A frame is made and written before the pictures it shows start loading: their decoding, as many at once as
    /// there are cores, would take the cores the frame is being made on (a next card at 200 columns brings six).
    func test_theFramesPictures_startLoadingOnceTheFrameIsOut() throws {
        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var framesOut = 0
            /// The first frame that shows photos (how many frames were out before it).
            var firstWithPhotos: Int?
            /// How many frames were out when each picture was asked for.
            var askedAfter: [Int] = []
        }
        final class SlowBackend: TerminalBackend {
            let counter: Counter
            init(_ counter: Counter) { self.counter = counter }
            var width: Int { 60 }
            var height: Int { 16 }
            func draw(_ buffer: CellBuffer) {
                let showsPhotos = buffer.lines.contains { $0.contains("Ann Author") }
                counter.lock.withLock {
                    if showsPhotos, counter.firstWithPhotos == nil { counter.firstWithPhotos = counter.framesOut }
                }
                // Long enough for a picture asked for before the frame to be asked for while it is drawn.
                Thread.sleep(forTimeInterval: 0.05)
                counter.lock.withLock { counter.framesOut += 1 }
            }
            func readInput(timeout: Int) -> InputEvent? { nil }
            func invalidate() {}
            func restore() {}
        }
        struct CountingImages: ImageSource {
            let counter: Counter
            func imageData(at url: URL) async throws(ServiceError) -> Data {
                counter.lock.withLock { counter.askedAfter.append(counter.framesOut) }
                return TerminalAppTests.jpeg
            }
        }
        let counter = Counter()
        let app = TerminalApp(backend: SlowBackend(counter), theme: unicodeTheme, imageSource: CountingImages(counter: counter),
                              performer: StubPerformer())
        app.dispatch(.start)
        run(app) { counter.lock.withLock { !counter.askedAfter.isEmpty } }
        let (asked, first) = counter.lock.withLock { (counter.askedAfter, counter.firstWithPhotos) }
        let firstWithPhotos = try XCTUnwrap(first, "no frame showed photos")
        XCTAssertFalse(asked.isEmpty, "no picture was asked for")
        // Every picture was asked for once the first frame showing photos was out, none while it was drawn.
        XCTAssertTrue(asked.allSatisfy { $0 > firstWithPhotos }, "frames out when asked: \(asked); the photos' frame: \(firstWithPhotos)")
    }

    func test_like_throughTheLoop_turnsTheHeartRed() {
        let backend = TestBackend(width: 60, height: 16)
        let app = TerminalApp(backend: backend, theme: unicodeTheme, imageSource: StubImages(data: Self.jpeg), performer: StubPerformer())
        app.dispatch(.start)
        run(app) { !app.state.feed.photos.isEmpty }
        backend.input = [.key(.character("f"))]
        run(app) { app.state.feed.photos.first?.likedByUser == true }
        XCTAssertTrue(app.state.feed.photos[0].likedByUser)
        app.drawFrame()
        XCTAssertTrue(backend.frames.last!.lines.contains { $0.contains("♥ 4") })
    }

    func test_likeFailure_showsTheDialog_andCancelLeavesTheHeart() {
        let backend = TestBackend(width: 60, height: 16)
        let app = TerminalApp(backend: backend, theme: unicodeTheme, imageSource: StubImages(data: Self.jpeg), performer: StubPerformer(likeFails: true))
        app.dispatch(.start)
        run(app) { !app.state.feed.photos.isEmpty }
        backend.input = [.key(.character("f"))]
        run(app) { app.state.feed.modal != nil }
        app.drawFrame()
        XCTAssertTrue(backend.frames.last!.lines.contains { $0.contains("Try again") })
        backend.input = [.key(.escape)]
        run(app) { app.state.feed.modal == nil }
        XCTAssertFalse(app.state.feed.photos[0].likedByUser)
    }

    func test_unloadableImages_showThePlaceholder() {
        let backend = TestBackend(width: 60, height: 16)
        let app = TerminalApp(backend: backend, theme: unicodeTheme, imageSource: StubImages(data: nil), performer: StubPerformer())
        app.dispatch(.start)
        run(app) { backend.frames.last?.lines.contains { $0.contains("Photo unavailable") } == true }
        XCTAssertTrue(backend.frames.last?.lines.contains { $0.contains("Photo unavailable") } == true)
    }

    /// The loop on a 60x16 test terminal, the feed loaded and its first photo opened in the viewer.
    func appInTheViewer() -> (TerminalApp, TestBackend) {
        let backend = TestBackend(width: 60, height: 16)
        let app = TerminalApp(backend: backend, theme: unicodeTheme, imageSource: StubImages(data: Self.jpeg), performer: StubPerformer())
        app.dispatch(.start)
        run(app) { !app.state.feed.photos.isEmpty }
        backend.input = [.key(.enter)]
        run(app) { app.state.viewer != nil }
        return (app, backend)
    }

    func test_share_putsTheReferralLinkOnTheBackendsClipboard_andASignalEndsTheLoop() {
        let (app, backend) = appInTheViewer()
        app.handle(.key(.character("y")))
        XCTAssertEqual(backend.copied, ["https://unsplash.test/photos/p1-0?utm_source=image_feed&utm_medium=referral"])
        // SIGTERM, as the backend saw it: the loop ends.
        backend.quitSignal = 15
        XCTAssertTrue(app.run().quitting)
    }

    func test_viewer_opensAndCloses_andQuitEndsTheLoop() {
        let (app, backend) = appInTheViewer()
        run(app) { backend.frames.last?.lines.last?.contains("Photo by Ann Author on Unsplash") == true }
        XCTAssertTrue(backend.frames.last?.lines.last?.contains("Photo by Ann Author on Unsplash") == true)
        backend.input = [.key(.escape), .key(.character("q"))]
        run(app) { app.state.quitting }
        XCTAssertNil(app.state.viewer)
        XCTAssertTrue(app.state.quitting)
    }
}
