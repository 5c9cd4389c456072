import Foundation
import ImageFeedApp
import ImageFeedCore
import LocalStore
import TerminalImage
import TerminalUI
import UnsplashSandbox

/// The offline store: the cost of saving a 30-photo page into a store that holds 10,000 photos, and the
/// time from launch to the first painted feed when the service cannot be reached.
struct CacheBenchmark {
    let iterations: Int

    func run(into report: inout Report) async throws {
        try measureSaving(into: &report)
        try await measureLaunch(into: &report)
    }

    /// A photo with every field a real one has, so the rows are the size real rows are.
    static let template: Photo = {
        let image = { (path: String) in URL(string: "https://images.unsplash.com/photo-1234567890-abcdef?\(path)") }
        return Photo(id: "template", createdAt: Date(), updatedAt: Date(), width: 4000, height: 6000, color: "#c0d9d9",
                     blurHash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", likes: 123, likedByUser: false,
                     description: "A cup of coffee at a bar, on a wooden table, in the morning light.",
                     altDescription: "white ceramic cup with brown liquid",
                     urls: PhotoURLs(raw: image("ixid=1"), full: image("q=85"), regular: image("w=1080"), small: image("w=400"), thumb: image("w=200")),
                     links: PhotoLinks(html: URL(string: "https://unsplash.com/photos/abcdef"),
                                       download: URL(string: "https://unsplash.com/photos/abcdef/download"),
                                       downloadLocation: URL(string: "https://api.unsplash.com/photos/abcdef/download")),
                     user: User(id: "user1", username: "rachel", name: "Rachel Michetti", bio: "Coffee, light and wood grain.",
                                location: "Portland, Oregon",
                                profileImage: ProfileImage(small: image("w=32"), medium: image("w=64"), large: image("w=128")),
                                totalLikes: 12, totalPhotos: 340, htmlLink: URL(string: "https://unsplash.com/@rachel")),
                     exif: Exif(make: "Fujifilm", model: "X100S", name: "Fujifilm, X100S", exposureTime: "1/125", aperture: "2.0",
                                focalLength: "23.0", iso: 800),
                     location: PhotoLocation(name: "Pikolo Espresso Bar", city: "Portland", country: "United States"),
                     tags: ["coffee", "cup", "table"])
    }()

    static func photo(_ index: Int, template: Photo) -> Photo {
        var photo = template
        photo.id = "bench-\(index)"
        photo.likes = index % 997
        return photo
    }

    func measureSaving(into report: inout Report) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = Self.template
        let store = try SQLiteStore(file: folder.appendingPathComponent("store.sqlite"))
        let lists = SavedLists(cache: store)
        // 10,000 photos: a long feed, many favorites, a search.
        try store.saveList(.feed, photos: (0..<4_000).map { Self.photo($0, template: template) }, note: nil, timestamp: Date())
        try store.saveList(.favorites, photos: (4_000..<8_000).map { Self.photo($0, template: template) }, note: nil, timestamp: Date())
        try store.saveList(.search, photos: (8_000..<10_000).map { Self.photo($0, template: template) }, note: "a", timestamp: Date())
        var replace = Samples()
        var append = Samples()
        var load = Samples()
        for round in 0..<iterations {
            let page = (0..<30).map { Self.photo(20_000 + round * 30 + $0, template: template) }
            // Page 2 of the favorites: added to 4,000.
            var start = now()
            lists.save(Page(items: page, number: 2, perPage: 30, nextPage: 3), as: .favorites)
            append.add(now() - start)
            // Page 1 of the feed: replaces what was there.
            start = now()
            lists.save(Page(items: page, number: 1, perPage: 30, nextPage: 2), as: .feed)
            replace.add(now() - start)
            start = now()
            _ = lists.load(.feed)
            load.add(now() - start)
            // Keep the store at 10,000 photos: the feed grows back.
            try store.appendToList(.feed, photos: (0..<3_970).map { Self.photo(30_000 + $0, template: template) })
        }
        report.add("store with 10,000 photos: save a 30-photo page 1 (replaces 4,000), median", milliseconds(replace.median))
        report.add("store with 10,000 photos: save a 30-photo page 1, p99", milliseconds(replace.p99))
        report.add("store with 10,000 photos: add a 30-photo page 2, median", milliseconds(append.median))
        report.add("store with 10,000 photos: read the saved feed (30), median", milliseconds(load.median))
    }

    /// Browse once with the service up, stop it, and launch again: the splash, the stored token, the
    /// saved feed drawn, then its photos from the image cache.
    func measureLaunch(into report: inout Report) async throws {
        let width = 120
        let height = 40
        let configuration = try Settings.load(environment: FeedBenchmark.privateEnvironment(tag: "launch"))
        let context = try await CompositionRoot.make(configuration: configuration, demo: true)
        try await context.logInToDemo()
        try context.store?.clear()
        try context.imageCache?.clear()
        do {
            let terminal = try PseudoTerminal(width: width, height: height)
            defer { terminal.close() }
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"])
            defer { backend.restore() }
            let app = TerminalApp(backend: backend, theme: Theme(colorMode: backend.colorMode, unicode: true),
                                  imageSource: context.imageSource, performer: LiveEffectPerformer(context: context, opener: DesktopURLOpener(environment: [:])),
                                  state: AppState(session: .loggedIn))
            app.dispatch(.start)
            let deadline = now() + 30
            while app.isBusy || app.state.feed.phase != .content {
                app.step(timeout: 5)
                guard now() < deadline else { throw FeedBenchmark.Failure(description: "the first run did not settle") }
            }
        }
        // The service goes away; the token stays (as a stored one would).
        await context.stop()

        let terminal = try PseudoTerminal(width: width, height: height)
        defer { terminal.close() }
        let launched = now()
        let store = try SQLiteStore(file: try XCTUnwrap(context.store?.file))
        let images = try DiskImageCache(folder: try XCTUnwrap(context.imageCache?.folder), store: store)
        let performer = LiveEffectPerformer(client: context.client,
                                           downloader: PhotoDownloader(folder: FileManager.default.temporaryDirectory, client: context.client),
                                           opener: DesktopURLOpener(environment: [:]),
                                           saved: SavedLists(cache: store), splashPause: 0)
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"])
        defer { backend.restore() }
        let app = TerminalApp(backend: backend, theme: Theme(colorMode: backend.colorMode, unicode: true),
                              imageSource: CachingImageSource(upstream: HTTPImageSource(http: context.http), cache: images),
                              performer: performer, state: AppState(session: .splash))
        app.dispatch(.start)
        var feedPainted: Double?
        let deadline = now() + 30
        while now() < deadline {
            app.step(timeout: 2)
            if feedPainted == nil, app.state.feed.phase == .content, !app.state.feed.photos.isEmpty {
                app.drawFrame()
                _ = terminal.endFrame(flushing: backend)
                feedPainted = now()
            }
            if feedPainted != nil, !app.isBusy { break }
        }
        app.drawFrame()
        _ = terminal.endFrame(flushing: backend)
        let photosPainted = now()
        guard let feedPainted, app.state.feed.savedAt != nil else {
            throw FeedBenchmark.Failure(description: "the saved feed was not shown")
        }
        report.add("launch offline \(width)x\(height): saved feed painted", milliseconds(feedPainted - launched), target: "well under 100 ms")
        report.add("launch offline \(width)x\(height): its photos painted from the image cache", milliseconds(photosPainted - launched))
    }
}

/// Unwraps or fails the benchmark with a message.
func XCTUnwrap<Value>(_ value: Value?) throws -> Value {
    guard let value else { throw FeedBenchmark.Failure(description: "a value was missing") }
    return value
}
