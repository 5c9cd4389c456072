import Foundation
import ImageFeedCore
@testable import LocalStore
import TestSupport
import XCTest

final class DiskImageCacheTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: SQLiteStore!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try SQLiteStore(file: folder.url.appendingPathComponent("store.sqlite"))
    }

    func url(_ name: String) -> URL { URL(string: "https://images.test/\(name)?w=400")! }

    func test_keepsAndGivesBack_byURL() throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store, budget: 1_000)
        try cache.store(Data("jpeg-a".utf8), for: url("a"))
        XCTAssertEqual(cache.data(for: url("a")), Data("jpeg-a".utf8))
        XCTAssertNil(cache.data(for: url("b")))
        XCTAssertEqual(try cache.usage().files, 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.folder.path)
        XCTAssertEqual(names.count, 1, "no temporary files left: \(names)")
        XCTAssertFalse(names[0].contains("images.test"), "URLs never become file names")
    }

    func test_evictsTheLeastRecentlyUsed_beyondTheBudget() throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store, budget: 250)
        try cache.store(Data(repeating: 1, count: 100), for: url("a"))
        Thread.sleep(forTimeInterval: 0.01)
        try cache.store(Data(repeating: 2, count: 100), for: url("b"))
        Thread.sleep(forTimeInterval: 0.01)
        XCTAssertNotNil(cache.data(for: url("a")), "a is used again, b is now the oldest")
        Thread.sleep(forTimeInterval: 0.01)
        try cache.store(Data(repeating: 3, count: 100), for: url("c"))
        XCTAssertNotNil(cache.data(for: url("a")))
        XCTAssertNil(cache.data(for: url("b")))
        XCTAssertNotNil(cache.data(for: url("c")))
        XCTAssertLessThanOrEqual(try cache.usage().bytes, 250)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.folder.path).count, 2)
    }

    /// A full cache evicts the oldest down to nine tenths of its budget, so the next images are kept without evicting
    /// again; what goes is the oldest, whatever the number of files.
    func test_aFullCache_evictsTheOldestToNineTenths_thenKeepsTheNextWithoutEvicting() throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store, budget: 10_000)
        func keep(_ index: Int) throws {
            try cache.store(Data(repeating: UInt8(index % 256), count: 100), for: url("p\(index)"))
            Thread.sleep(forTimeInterval: 0.002) // each its own time of last use
        }
        for index in 0..<100 { try keep(index) }
        XCTAssertEqual(try cache.usage().files, 100, "at the budget: nothing evicted")
        try keep(100)
        XCTAssertEqual(try cache.usage().bytes, 9_000, "past it: down to nine tenths")
        XCTAssertNil(cache.data(for: url("p0")))
        XCTAssertNil(cache.data(for: url("p10")))
        XCTAssertNotNil(cache.data(for: url("p11")))
        for index in 101..<111 { try keep(index) }
        XCTAssertEqual(try cache.usage().files, 100, "the next ten kept without evicting")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.folder.path).count, 100)
    }

    func test_anUnreadableFile_isFetchedAgain() async throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store)
        let upstream = CountingSource()
        let source = CachingImageSource(upstream: upstream, cache: cache)
        _ = try await source.imageData(at: url("a"))
        _ = try await source.imageData(at: url("a"))
        XCTAssertEqual(upstream.count, 1, "scrolling back never downloads the same photo twice")
        // The file goes bad (emptied, or removed by hand): it is fetched again, and kept again.
        try Data().write(to: cache.path(for: DiskImageCache.key(for: url("a"))))
        let again = try await source.imageData(at: url("a"))
        XCTAssertEqual(again, Data("bytes of https://images.test/a?w=400".utf8))
        XCTAssertEqual(upstream.count, 2)
        try FileManager.default.removeItem(at: cache.path(for: DiskImageCache.key(for: url("a"))))
        _ = try await source.imageData(at: url("a"))
        XCTAssertEqual(upstream.count, 3)
    }

    func test_failuresAreNotCached() async throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store)
        let source = CachingImageSource(upstream: FailingSource(), cache: cache)
        do {
            _ = try await source.imageData(at: url("a"))
            XCTFail("expected a failure")
        } catch {
            XCTAssertEqual(error, .notFound)
        }
        XCTAssertEqual(try cache.usage().files, 0)
    }

    func test_aCopyFromAnEarlierDay_isFetchedAgainOnline_andServesOffline() async throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store)
        try cache.store(Data("yesterday's".utf8), for: url("a"))
        let yesterday = Date().addingTimeInterval(-86_400)
        try FileManager.default.setAttributes([.modificationDate: yesterday],
                                              ofItemAtPath: cache.path(for: DiskImageCache.key(for: url("a"))).path)
        let today = CachingImageSource.startOfDay()
        // Offline (or the service failing): yesterday's copy.
        let offline = CachingImageSource(upstream: UnreachableSource(), cache: cache, freshSince: today)
        let kept = try await offline.imageData(at: url("a"))
        XCTAssertEqual(kept, Data("yesterday's".utf8))
        // Online: fetched again (a view Unsplash counts), kept, and from then on served from the cache today.
        let upstream = CountingSource()
        let online = CachingImageSource(upstream: upstream, cache: cache, freshSince: today)
        let fetched = try await online.imageData(at: url("a"))
        XCTAssertEqual(fetched, Data("bytes of https://images.test/a?w=400".utf8))
        _ = try await online.imageData(at: url("a"))
        XCTAssertEqual(upstream.count, 1)
    }

    /// A photo served from a kept copy is told (Unsplash did not count that view); one fetched is not, nor an image
    /// whose photo is not known.
    func test_aPhotoServedFromTheCache_isTold() async throws {
        let cache = try DiskImageCache(folder: folder.url.appendingPathComponent("images"), store: store)
        final class Told: @unchecked Sendable {
            let lock = NSLock()
            var ids: [String] = []
        }
        let told = Told()
        let source = CachingImageSource(upstream: CountingSource(), cache: cache, freshSince: .distantPast) { photoID, _ in
            told.lock.withLock { told.ids.append(photoID) }
        }
        _ = try await source.imageData(at: url("a"), of: "p1")
        XCTAssertEqual(told.lock.withLock { told.ids }, [], "fetched: the service counted it")
        _ = try await source.imageData(at: url("a"), of: "p1")
        _ = try await source.imageData(at: url("a"))
        XCTAssertEqual(told.lock.withLock { told.ids }, ["p1"])
    }

    struct UnreachableSource: ImageSource {
        func imageData(at url: URL) async throws(ServiceError) -> Data { throw .noConnection("offline") }
    }

    final class CountingSource: ImageSource, @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        var count: Int { lock.withLock { calls } }
        func imageData(at url: URL) async throws(ServiceError) -> Data {
            lock.withLock { calls += 1 }
            return Data("bytes of \(url.absoluteString)".utf8)
        }
    }

    struct FailingSource: ImageSource {
        func imageData(at url: URL) async throws(ServiceError) -> Data { throw .notFound }
    }
}
