import Foundation
import GRDB
import ImageFeedCore
@testable import LocalStore
import TestSupport
import XCTest

/// Seed 001's use cases for the cache, against a real SQLite file in a temporary folder.
final class SavedListsTests: XCTestCase {
    var folder: TemporaryFolder!
    var store: SQLiteStore!
    var clock: TestClock!

    final class TestClock: WallClock, @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
    }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        store = try SQLiteStore(file: folder.url.appendingPathComponent("cache/store.sqlite"))
        clock = TestClock()
    }

    var lists: SavedLists {
        SavedLists(cache: store, clock: clock, policy: CachePolicy(maximumAge: 7 * 24 * 3600))
    }

    func photo(_ id: String, liked: Bool = false) -> Photo {
        Photo(id: id, createdAt: Date(timeIntervalSince1970: 1_700_000_000), width: 400, height: 300, color: "#223344",
              blurHash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", likes: 5, likedByUser: liked, description: "Photo \(id)",
              urls: PhotoURLs(small: URL(string: "https://images.test/\(id)")),
              user: User(id: "u", username: "ann", name: "Ann"), exif: Exif(make: "Canon", iso: 100), tags: ["x"])
    }

    func page(_ ids: [String], number: Int = 1) -> Page<Photo> {
        Page(items: ids.map { photo($0) }, number: number, perPage: 30, nextPage: number + 1)
    }

    func test_aListTheStoreCannotKeep_isAnErrorTheCallerSees_notACrash() throws {
        XCTAssertNil(lists.save(page(["a"]), as: .feed))
        try store.pool.write { db in try db.execute(sql: "DROP TABLE cached_photo") }
        XCTAssertNotNil(lists.save(page(["b"]), as: .feed), "the caller is told (the session says it once)")
        XCTAssertNotNil(lists.save(page(["c"], number: 2), as: .feed))
    }

    /// A long session saves every feed page: the store's page cache stays small on every connection, writer and readers.
    func test_everyConnectionsPageCache_isBounded() throws {
        let expected = -SQLiteStore.pageCacheKiB
        XCTAssertEqual(try store.pool.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }, expected)
        XCTAssertEqual(try store.pool.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") }, expected)
    }

    func test_loadFeedFromRemote_replacesTheCache() throws {
        lists.save(page(["a", "b", "c"]), as: .feed)
        lists.save(page(["d", "e"]), as: .feed)
        XCTAssertEqual(try store.loadList(.feed)?.photos.map(\.id), ["d", "e"])
    }

    func test_saveFeedItems_replacesWithTimestamp_andKeepsEveryField() throws {
        lists.save(page(["a"]), as: .feed)
        clock.now = clock.now.addingTimeInterval(60)
        lists.save(page(["b", "c"]), as: .feed)
        let saved = try XCTUnwrap(try store.loadList(.feed))
        XCTAssertEqual(saved.timestamp, clock.now)
        XCTAssertEqual(saved.photos, [photo("b"), photo("c")], "every field comes back as it went in")
    }

    func test_laterPages_areAddedOnce() throws {
        lists.save(page(["a", "b"]), as: .feed)
        lists.save(page(["b", "c"], number: 2), as: .feed)
        XCTAssertEqual(try store.loadList(.feed)?.photos.map(\.id), ["a", "b", "c"])
    }

    func test_offline_deliversTheCachedFeed_youngerThanTheMaxAge() {
        lists.save(page(["a", "b"]), as: .feed)
        clock.now = clock.now.addingTimeInterval(7 * 24 * 3600 - 1)
        XCTAssertEqual(lists.load(.feed)?.photos.map(\.id), ["a", "b"])
        XCTAssertEqual(SavedLists.page(lists.load(.feed)!, perPage: 30).nextPage, 2)
    }

    func test_expiredCache_deliversNothing_andIsDeleted() throws {
        lists.save(page(["a"]), as: .feed)
        clock.now = clock.now.addingTimeInterval(7 * 24 * 3600)
        XCTAssertNil(lists.load(.feed))
        XCTAssertNil(try store.loadList(.feed), "the expired list is gone from the store")
    }

    func test_emptyCache_deliversNothing() {
        XCTAssertNil(lists.load(.feed))
        XCTAssertNil(lists.loadProfile())
    }

    func test_aCacheFromTheFuture_isNotTrusted() {
        lists.save(page(["a"]), as: .feed)
        clock.now = clock.now.addingTimeInterval(-3600)
        XCTAssertNil(lists.load(.feed))
    }

    func test_savedSearch_isOnlyForItsQuery() {
        lists.save(page(["a"]), as: .search, note: "Cats")
        XCTAssertEqual(lists.load(.search, note: "cats")?.photos.count, 1)
        XCTAssertNil(lists.load(.search, note: "dogs"))
    }

    func test_profile_andLoggingOutDeletesEverythingAboutTheUser() throws {
        let me = User(id: "u1", username: "demo", name: "Dana", bio: "Hi", totalLikes: 3)
        lists.saveProfile(me)
        lists.save(page(["f"]), as: .favorites)
        lists.save(page(["s"]), as: .search, note: "q")
        lists.save(page(["a"]), as: .feed)
        XCTAssertEqual(lists.loadProfile(), me)
        try store.deleteUserData()
        XCTAssertNil(lists.loadProfile())
        for name in CachedListName.allCases { XCTAssertNil(try store.loadList(name), "\(name)") }
    }

    func test_aFailedWrite_leavesThePreviousListWhole() throws {
        lists.save(page(["a", "b"]), as: .feed)
        try store.pool.write { db in
            try db.execute(sql: """
                CREATE TRIGGER poison BEFORE INSERT ON cached_photo WHEN NEW.photo_id = 'poison'
                BEGIN SELECT RAISE(ABORT, 'poisoned'); END
                """)
        }
        XCTAssertThrowsError(try store.saveList(.feed, photos: [photo("c"), photo("poison"), photo("d")], note: nil, timestamp: Date()))
        XCTAssertEqual(try store.loadList(.feed)?.photos.map(\.id), ["a", "b"])
    }

    func test_anUnreadableFile_isSetAsideNotDeleted_andANewStoreStarts() throws {
        let file = folder.url.appendingPathComponent("broken/store.sqlite")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let junk = Data(repeating: 0x5A, count: 8192)
        try junk.write(to: file)
        let rebuilt = try SQLiteStore(file: file)
        XCTAssertTrue(rebuilt.wasRebuilt)
        let aside = try XCTUnwrap(rebuilt.setAside)
        XCTAssertTrue(aside.lastPathComponent.hasPrefix("store.sqlite.damaged-"))
        XCTAssertEqual(try Data(contentsOf: aside), junk, "the damaged file is kept, byte for byte")
        try rebuilt.saveList(.feed, photos: [photo("a")], note: nil, timestamp: Date())
        XCTAssertEqual(try rebuilt.loadList(.feed)?.photos.count, 1)
    }

    func test_twoInstances_shareOneFile() throws {
        let other = try SQLiteStore(file: store.file)
        try store.saveList(.feed, photos: [photo("a")], note: nil, timestamp: Date())
        XCTAssertEqual(try other.loadList(.feed)?.photos.map(\.id), ["a"])
        // Writes from both at once wait for each other rather than fail.
        let group = DispatchGroup()
        let failures = Failures()
        let batches = (0..<4).map { index in (0..<20).map { round in (0..<30).map { self.photo("\(index)-\(round)-\($0)") } } }
        for (index, instance) in [store!, other, store!, other].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                do {
                    for photos in batches[index] {
                        try instance.saveList(.favorites, photos: photos, note: nil, timestamp: Date())
                    }
                } catch {
                    failures.add(error)
                }
            }
        }
        group.wait()
        XCTAssertTrue(failures.isEmpty, "\(failures)")
        XCTAssertEqual(try other.loadList(.favorites)?.photos.count, 30)
    }

    func test_theStoreIsTheUsersAlone() throws {
        let mode = (try FileManager.default.attributesOfItem(atPath: store.file.path)[.posixPermissions] as? Int ?? 0) & 0o777
        XCTAssertEqual(mode, 0o600)
    }

    final class Failures: @unchecked Sendable, CustomStringConvertible {
        private let lock = NSLock()
        private var errors: [Error] = []
        func add(_ error: Error) { lock.withLock { errors.append(error) } }
        var isEmpty: Bool { lock.withLock { errors.isEmpty } }
        var description: String { lock.withLock { "\(errors)" } }
    }
}
