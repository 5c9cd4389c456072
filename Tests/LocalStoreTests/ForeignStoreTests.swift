import Foundation
import GRDB
import ImageFeedCore
@testable import LocalStore
import TestSupport
import XCTest

/// A store another program wrote: values of other types, tables of the same names with other columns, and a
/// store in a folder that cannot be written. None may crash; what can be read is read; nothing is deleted.
final class ForeignStoreTests: XCTestCase {
    var folder: TemporaryFolder!
    var file: URL { folder.url.appendingPathComponent("cache/store.sqlite") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    func photo(_ id: String) -> Photo {
        Photo(id: id, createdAt: Date(timeIntervalSince1970: 1_700_000_000), width: 400, height: 300, color: "#223344",
              blurHash: nil, likes: 5, likedByUser: false, description: "Photo \(id)",
              urls: PhotoURLs(small: URL(string: "https://images.test/\(id)")), user: User(id: "u", username: "ann", name: "Ann"))
    }

    /// Runs SQL on the file with Python's sqlite3, as another program would.
    func sqlite(_ statements: [String]) throws {
        let script = "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nfor s in sys.argv[2:]: c.execute(s)\nc.commit()\nc.close()"
        try Tool.run(["python3", "-c", script, file.path] + statements)
    }

    /// The image index as another program may make it, without its constraints: rows with no key, and sizes that are
    /// no numbers. Evicting past the budget deletes them as the oldest and ends.
    func test_anImageIndexWithoutItsConstraints_isEvictedAndTheEvictionEnds() throws {
        _ = try SQLiteStore(file: file)
        try sqlite([
            "DROP TABLE image_entry",
            "CREATE TABLE image_entry (key TEXT PRIMARY KEY, bytes INTEGER, last_used DOUBLE)",
            "INSERT INTO image_entry VALUES (NULL, 100, 1)",
            "INSERT INTO image_entry VALUES (NULL, 100, 2)",
            "INSERT INTO image_entry VALUES (X'00', 'many', 3)",
        ])
        let store = try SQLiteStore(file: file)
        let images = try DiskImageCache(folder: folder.url.appendingPathComponent("cache/images"), store: store, budget: 150)
        try images.store(Data(repeating: 1, count: 8), for: URL(string: "https://images.test/x")!)
        XCTAssertEqual(images.data(for: URL(string: "https://images.test/x")!), Data(repeating: 1, count: 8))
        XCTAssertEqual(try images.usage().files, 2, "the keyless rows went; the blob's and ours stay")
    }

    func test_valuesOfAnotherType_areLeftOut_andCounted_neverACrash() throws {
        do {
            let store = try SQLiteStore(file: file)
            try store.saveList(.feed, photos: [photo("a"), photo("b")], note: nil, timestamp: Date(timeIntervalSince1970: 1_800_000_000))
            try store.saveList(.favorites, photos: [photo("c")], note: nil, timestamp: Date(timeIntervalSince1970: 1_800_000_000))
            try store.saveProfile(User(id: "u", username: "ann", name: "Ann"), timestamp: Date(timeIntervalSince1970: 1_800_000_000))
        }
        try sqlite([
            "UPDATE cached_list SET saved_at = '2024-01-01' WHERE name = 'favorites'",
            "UPDATE cached_photo SET json = 7 WHERE photo_id = 'b'",
            // The same columns without their constraints, as another program may make them: a NULL time.
            "DROP TABLE cached_value",
            "CREATE TABLE cached_value (name TEXT PRIMARY KEY, saved_at DOUBLE, json BLOB)",
            "INSERT INTO cached_value VALUES ('profile', NULL, '{}')",
            "INSERT INTO image_entry (key, bytes, last_used) VALUES (42, 'many', 'yesterday')",
        ])
        let store = try SQLiteStore(file: file)
        XCTAssertEqual(store.unfitRows, 4)
        XCTAssertEqual(try store.loadList(.feed)?.photos.map(\.id), ["a"], "the readable photo is still shown")
        XCTAssertNil(try store.loadList(.favorites), "a list whose time is text is left out")
        XCTAssertNil(try store.loadProfile())
        let summary = try store.summary()
        XCTAssertEqual(Set(summary.lists.keys), [.feed])
        let images = try DiskImageCache(folder: folder.url.appendingPathComponent("cache/images"), store: store, budget: 10)
        XCTAssertEqual(try images.usage().files, 1)
        // Storing past the budget evicts by age; the foreign row's bytes count as none, its key is no file name.
        try images.store(Data(repeating: 1, count: 8), for: URL(string: "https://images.test/x")!)
        try images.store(Data(repeating: 2, count: 8), for: URL(string: "https://images.test/y")!)
        XCTAssertNil(images.data(for: URL(string: "https://images.test/x")!))
        XCTAssertEqual(images.data(for: URL(string: "https://images.test/y")!), Data(repeating: 2, count: 8))
    }

    func test_aTableOfTheSameNameFromAnotherProgram_isSetAside_andANewStoreStarts() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sqlite(["CREATE TABLE cached_list (id INTEGER PRIMARY KEY, title TEXT)", "INSERT INTO cached_list (title) VALUES ('theirs')"])
        let store = try SQLiteStore(file: file)
        let aside = try XCTUnwrap(store.setAside)
        XCTAssertTrue(aside.lastPathComponent.hasPrefix("store.sqlite.foreign-"), aside.path)
        XCTAssertEqual(store.setAsideReason, "its tables were made by another program")
        try store.saveList(.feed, photos: [photo("a")], note: nil, timestamp: Date())
        XCTAssertEqual(try store.loadList(.feed)?.photos.count, 1)
        // The other program's data is kept, whole, beside it.
        let theirs = try DatabaseQueue(path: aside.path)
        XCTAssertEqual(try theirs.read { try String.fetchOne($0, sql: "SELECT title FROM cached_list") }, "theirs")
    }

    func test_ourTablesWithTheirColumns_afterOurMigrations_areSetAsideToo() throws {
        _ = try SQLiteStore(file: file)
        try sqlite(["DROP TABLE image_entry", "CREATE TABLE image_entry (name TEXT)"])
        let store = try SQLiteStore(file: file)
        XCTAssertNotNil(store.setAside)
        XCTAssertEqual(try DiskImageCache(folder: folder.url.appendingPathComponent("cache/images"), store: store).usage().files, 0)
    }

    /// A read-only home: a read-only file system (root passes permission checks, not this), made with a tmpfs.
    func test_aStoreInAReadOnlyFolder_opensReadOnly_andShowsWhatWasSaved() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to mount a file system read-only") }
        let mountPoint = folder.url.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard runShell("mount -t tmpfs -o size=4m tmpfs '\(mountPoint.path)'") == 0 else { throw XCTSkip("cannot mount a tmpfs here") }
        defer { _ = runShell("umount -l '\(mountPoint.path)'") }
        let storeFile = mountPoint.appendingPathComponent("store.sqlite")
        do {
            let store = try SQLiteStore(file: storeFile)
            try store.saveList(.feed, photos: [photo("a"), photo("b")], note: nil, timestamp: Date())
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: storeFile.path + "-shm"), "a clean close leaves no -shm")
        XCTAssertEqual(runShell("mount -o remount,ro '\(mountPoint.path)'"), 0)
        let store = try SQLiteStore(file: storeFile)
        XCTAssertTrue(store.isReadOnly)
        XCTAssertEqual(try store.loadList(.feed)?.photos.map(\.id), ["a", "b"])
        XCTAssertThrowsError(try store.saveList(.feed, photos: [], note: nil, timestamp: Date()))
    }
}
