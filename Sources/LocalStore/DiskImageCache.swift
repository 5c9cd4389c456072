import Foundation
import GRDB
import ImageFeedCore

/// Image bytes on disk, keyed by URL, within a size budget: the least recently used go first.
///
/// Files are written to a temporary name and renamed into place, so a reader never sees half a file;
/// a file that has gone or cannot be read is a miss, and the image is simply fetched again. The index
/// (size and last use of each file) lives in the store's SQLite file.
public final class DiskImageCache: @unchecked Sendable {
    public let folder: URL
    public let budget: Int
    private let store: SQLiteStore

    public static let defaultBudget = 200 * 1024 * 1024

    public init(folder: URL, store: SQLiteStore, budget: Int = DiskImageCache.defaultBudget) throws {
        self.folder = folder
        self.store = store
        self.budget = max(0, budget)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// A file name for a URL: a stable 64-bit FNV-1a hash in hex, twice (different seeds), so collisions
    /// are not a practical concern; the URL itself never reaches the file system.
    static func key(for url: URL) -> String {
        let bytes = Array(url.absoluteString.utf8)
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        let first = String(fnv(0xCBF2_9CE4_8422_2325), radix: 16)
        let second = String(fnv(0x8422_2325_CBF2_9CE4), radix: 16)
        return String(repeating: "0", count: 16 - first.count) + first + String(repeating: "0", count: 16 - second.count) + second
    }

    func path(for key: String) -> URL {
        folder.appendingPathComponent(key)
    }

    /// The bytes for `url`, if they are here and readable.
    public func data(for url: URL) -> Data? {
        let key = Self.key(for: url)
        guard let data = try? Data(contentsOf: path(for: key)), !data.isEmpty else {
            try? store.pool.write { db in try db.execute(sql: "DELETE FROM image_entry WHERE key = ?", arguments: [key]) }
            return nil
        }
        try? store.pool.write { db in
            try db.execute(sql: "UPDATE image_entry SET last_used = ? WHERE key = ?", arguments: [Date().timeIntervalSince1970, key])
        }
        return data
    }

    /// The bytes for `url` and when they were kept (the file's time), if they are here and readable.
    public func entry(for url: URL) -> (data: Data, stored: Date)? {
        guard let data = data(for: url) else { return nil }
        let stored = (try? FileManager.default.attributesOfItem(atPath: path(for: Self.key(for: url)).path)[.modificationDate] as? Date) ?? .distantPast
        return (data, stored ?? .distantPast)
    }

    /// Keeps the bytes for `url`, then, past the budget, evicts the least recently used files down to nine tenths of
    /// it: a full cache does that work once every few dozen images, not at each one.
    public func store(_ data: Data, for url: URL) throws {
        guard data.count <= budget else { return }
        let key = Self.key(for: url)
        let target = path(for: key)
        let temporary = folder.appendingPathComponent(".\(key).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            // A full disk: whatever part of the file was written goes.
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteOutOfSpace)
        }
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
        let evicted: [String] = try store.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO image_entry (key, bytes, last_used) VALUES (?, ?, ?)",
                           arguments: [key, data.count, Date().timeIntervalSince1970])
            var total = try DatabaseValue.fetchOne(db, sql: "SELECT coalesce(sum(bytes), 0) FROM image_entry").flatMap { Int.fromDatabaseValue($0) } ?? 0
            var gone: [String] = []
            guard total > budget else { return gone }
            let target = budget - budget / 10
            // The oldest rows a few at a time (the index on last_used finds them): the whole index read into memory
            // for each image was thousands of rows, once the cache had filled.
            while total > target {
                let oldest = try Row.fetchAll(db, sql: "SELECT key, bytes FROM image_entry ORDER BY last_used ASC LIMIT 64")
                var deleted = 0
                for row in oldest where total > target {
                    // A row another program wrote with values of another type goes first (`IS`: a NULL key too); its key
                    // names no file of ours.
                    let value: DatabaseValue = row["key"]
                    try db.execute(sql: "DELETE FROM image_entry WHERE key IS ?", arguments: [value])
                    deleted += db.changesCount
                    total -= Int.fromDatabaseValue(row["bytes"]) ?? 0
                    if let oldKey = String.fromDatabaseValue(value), oldKey.count == 32, oldKey.allSatisfy(\.isHexDigit) { gone.append(oldKey) }
                }
                guard deleted > 0 else { break } // rows that would not go: the same ones would come back
            }
            return gone
        }
        for key in evicted { try? FileManager.default.removeItem(at: path(for: key)) }
    }

    /// Forgets the bytes for `url` (they turned out damaged).
    public func remove(_ url: URL) {
        let key = Self.key(for: url)
        try? store.pool.write { db in try db.execute(sql: "DELETE FROM image_entry WHERE key = ?", arguments: [key]) }
        try? FileManager.default.removeItem(at: path(for: key))
    }

    /// The number of files and their bytes, as the index knows them.
    public func usage() throws -> (files: Int, bytes: Int) {
        try store.pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*) AS files, coalesce(sum(bytes), 0) AS bytes FROM image_entry")
            return (row.flatMap { Int.fromDatabaseValue($0["files"]) } ?? 0, row.flatMap { Int.fromDatabaseValue($0["bytes"]) } ?? 0)
        }
    }

    /// Removes every file.
    public func clear() throws {
        try store.pool.write { db in try db.execute(sql: "DELETE FROM image_entry") }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}

/// An image source that looks in the disk cache first and keeps what it fetches.
public struct CachingImageSource: ImageSource {
    let upstream: any ImageSource
    let cache: DiskImageCache
    /// Copies kept since then are served without asking; older ones only when the image cannot be had.
    let freshSince: Date
    /// Told of each photo served from a kept copy (the service did not count that view).
    let servedFromCache: (@Sendable (_ photoID: String, _ url: URL) -> Void)?

    /// `freshSince`: from when a kept copy stands for a view. Unsplash counts a photo's views when its image
    /// servers send it, so a photo shown again on a later day is fetched again (the session and the day
    /// reuse their copies; offline, any copy serves).
    public init(upstream: any ImageSource, cache: DiskImageCache, freshSince: Date = .distantPast,
                servedFromCache: (@Sendable (_ photoID: String, _ url: URL) -> Void)? = nil) {
        self.upstream = upstream
        self.cache = cache
        self.freshSince = freshSince
        self.servedFromCache = servedFromCache
    }

    /// The start of the day `now` is in: what the app passes as `freshSince`.
    public static func startOfDay(_ now: Date = Date()) -> Date {
        CivilTime.startOfLocalDay(now)
    }

    public func imageData(at url: URL) async throws(ServiceError) -> Data {
        try await imageData(at: url, of: nil)
    }

    public func imageData(at url: URL, of photoID: String?) async throws(ServiceError) -> Data {
        let kept = cache.entry(for: url)
        func served(_ data: Data) -> Data {
            if let photoID { servedFromCache?(photoID, url) }
            return data
        }
        if let kept, kept.stored >= freshSince { return served(kept.data) }
        do {
            let data = try await upstream.imageData(at: url)
            try? cache.store(data, for: url)
            return data
        } catch {
            // No network, or the service failing: the copy from an earlier day is better than none.
            if let kept, error != .notFound { return served(kept.data) }
            throw error
        }
    }

    public func discard(_ url: URL) {
        cache.remove(url)
    }
}
