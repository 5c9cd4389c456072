import Foundation
import GRDB
import ImageFeedCore

/// The offline store, one SQLite file through GRDB: saved lists of photos (feed, favorites, last search),
/// the profile, and the image cache's index.
///
/// WAL and a busy timeout let two running instances share it; every write is a transaction, so a crash
/// mid-write leaves the previous list whole. A store another process holds is waited for, then left alone
/// (the caller goes on without it). A file SQLite itself calls damaged (an error saying so, or
/// `PRAGMA quick_check`), or one whose tables another program made under the same names, is set aside,
/// renamed next to it, never deleted, and a new one made. A store in a folder that cannot be written (a
/// read-only home) is opened read-only, as it is on disk. Every value read back is checked as the network's
/// answers are: a row whose values are not of the types the store writes is left out, never trusted.
public final class SQLiteStore: PhotoCache, @unchecked Sendable {
    public let file: URL
    let pool: any DatabaseWriter
    /// Where the file went when it was set aside and a new store made; nil when it opened as it was.
    public private(set) var setAside: URL?
    /// Why it was set aside: damaged, or another program's tables.
    public private(set) var setAsideReason: String?
    /// Whether the file on disk could not be opened and an empty store took its place.
    public var wasRebuilt: Bool { setAside != nil }
    /// Opened read-only (its folder cannot be written): what was saved is shown, nothing new is kept.
    public private(set) var isReadOnly = false
    /// Rows found at opening whose values are not of the types the store writes (another program wrote them):
    /// they are left out wherever they are read.
    public private(set) var unfitRows = 0

    /// Why the store cannot be used now.
    public enum OpenError: Error, CustomStringConvertible {
        /// Another process holds it locked past the wait.
        case busy(URL)
        /// It cannot be opened for another reason (permissions, a full disk, not a file).
        case unusable(URL, String)

        public var description: String {
            switch self {
            case let .busy(file):
                "The offline store \(file.path) is in use by another copy of ImageFeed; this one goes on without it (nothing is saved offline until the next start)."
            case let .unusable(file, reason):
                "The offline store \(file.path) cannot be used (\(reason)); ImageFeed goes on without it."
            }
        }
    }

    /// A store whose tables are not the ones this program makes.
    struct ForeignSchema: Error, CustomStringConvertible {
        var detail: String
        var description: String { detail }
    }

    /// - Parameter wait: how long to wait for a store another process holds (each statement waits as long).
    public init(file: URL, wait: TimeInterval = 5) throws {
        self.file = file
        let folder = file.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        let previousMask = umask(0o077) // the store is the user's alone
        defer { umask(previousMask) }
        do {
            pool = try Self.open(file, wait: wait)
        } catch {
            if Self.isBusy(error) { throw OpenError.busy(file) }
            if FileManager.default.fileExists(atPath: file.path), !Self.canWrite(folder), let readOnly = try? Self.openReadOnly(file) {
                // A read-only home: what was saved can still be shown offline.
                pool = readOnly
                isReadOnly = true
                unfitRows = (try? pool.read(Self.countUnfitRows)) ?? 0
                return
            }
            let foreign = error is ForeignSchema || Self.isSchemaClash(error)
            guard foreign || Self.isDamaged(error) || Self.failsQuickCheck(file, wait: wait) else {
                throw OpenError.unusable(file, Self.reason(error))
            }
            // Damaged by SQLite's own word, or another program's tables: kept beside the new store for whoever
            // wants to look at it.
            let aside = try Self.setAside(file, as: foreign ? "foreign" : "damaged")
            pool = try Self.open(file, wait: wait)
            setAside = aside
            setAsideReason = foreign ? "its tables were made by another program" : "it was damaged"
        }
        unfitRows = (try? pool.read(Self.countUnfitRows)) ?? 0
    }

    /// Whether files can be made in `folder` (the -wal and -shm files beside the store).
    static func canWrite(_ folder: URL) -> Bool {
        access(folder.path, W_OK) == 0 && statvfsAllowsWriting(folder)
    }

    private static func statvfsAllowsWriting(_ folder: URL) -> Bool {
        var info = statvfs()
        guard statvfs(folder.path, &info) == 0 else { return true }
        return info.f_flag & UInt(ST_RDONLY) == 0
    }

    /// The store as it is on disk, read-only: SQLite's `immutable` mode, which needs no -shm file beside it (a
    /// WAL database opened plainly read-only does, and cannot make one in a read-only folder).
    static func openReadOnly(_ file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        var components = URLComponents()
        components.scheme = "file"
        components.path = file.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        guard let uri = components.string else { throw ForeignSchema(detail: "the path cannot be named as a URI") }
        let queue = try DatabaseQueue(path: uri, configuration: configuration)
        try queue.read { db in try checkSchema(db) }
        return queue
    }

    static func isBusy(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    static func isDamaged(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    public static func reason(_ error: Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "SQLite error \(error.resultCode.rawValue)" }
        return error.localizedDescription
    }

    /// Whether SQLite's own check finds the file damaged. A file it cannot even open read-only, because it is
    /// busy, is not called damaged.
    static func failsQuickCheck(_ file: URL, wait: TimeInterval) -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(wait)
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            defer { try? queue.close() }
            let result = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
            return result != "ok"
        } catch {
            return isDamaged(error)
        }
    }

    /// Whether migrating failed because a table or index of ours already exists, made by someone else.
    static func isSchemaClash(_ error: Error) -> Bool {
        guard let error = error as? DatabaseError, error.resultCode == .SQLITE_ERROR else { return false }
        let message = error.message ?? ""
        return message.contains("already exists") || message.contains("no such column") || message.contains("has no column")
    }

    /// Renames the file (and its -wal and -shm) to "NAME.KIND-TIMESTAMP"; returns the new name of the file.
    public static func setAside(_ file: URL, as kind: String = "damaged") throws -> URL {
        let stamp = Int(Date().timeIntervalSince1970)
        var aside = URL(fileURLWithPath: file.path + ".\(kind)-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: aside.path) {
            attempt += 1
            aside = URL(fileURLWithPath: file.path + ".\(kind)-\(stamp)-\(attempt)")
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file.path + suffix) {
            guard rename(file.path + suffix, aside.path + suffix) == 0 else {
                throw OpenError.unusable(file, "it could not be set aside: \(String(cString: strerror(errno)))")
            }
        }
        return aside
    }

    /// Each connection's page cache, in KiB.
    static let pageCacheKiB = 256

    private static func open(_ file: URL, wait: TimeInterval) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(wait)
        configuration.foreignKeysEnabled = true
        // A long session's store grows (every feed page is saved); each connection's page cache is bounded small
        // (SQLite's default is 2 MB a connection), so the program's memory does not grow with it.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)") }
        let pool = try DatabasePool(path: file.path, configuration: configuration)
        // Migrating writes; a store that is up to date is only read here, so another copy's write does not block it.
        if try !pool.read({ db in try migrator.hasCompletedMigrations(db) }) {
            try migrator.migrate(pool)
        }
        // Check that the file reads back (a damaged page shows here rather than mid-session), and that its tables
        // are the ones this program makes.
        try pool.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM cached_photo")
            try checkSchema(db)
        }
        return pool
    }

    /// The columns each table must have: what another program's table of the same name lacks.
    static let expectedColumns: [String: Set<String>] = [
        "cached_list": ["name", "saved_at", "note"],
        "cached_photo": ["list", "position", "photo_id", "json"],
        "cached_value": ["name", "saved_at", "json"],
        "image_entry": ["key", "bytes", "last_used"],
    ]

    static func checkSchema(_ db: Database) throws {
        for (table, columns) in expectedColumns {
            let found = Set(try db.columns(in: table).map { $0.name.lowercased() })
            let missing = columns.subtracting(found)
            guard missing.isEmpty else {
                throw ForeignSchema(detail: "its table \(table) has no \(missing.sorted().joined(separator: ", "))")
            }
        }
    }

    /// Rows whose values are not of the types this program writes: a date saved as text, a NULL, a number where
    /// a name goes. They are left out wherever they are read.
    static func countUnfitRows(_ db: Database) throws -> Int {
        let checks = [
            "SELECT count(*) FROM cached_list WHERE typeof(name) != 'text' OR typeof(saved_at) NOT IN ('real', 'integer') OR typeof(note) NOT IN ('text', 'null')",
            "SELECT count(*) FROM cached_photo WHERE typeof(list) != 'text' OR typeof(position) != 'integer' OR typeof(json) NOT IN ('blob', 'text')",
            "SELECT count(*) FROM cached_value WHERE typeof(name) != 'text' OR typeof(saved_at) NOT IN ('real', 'integer') OR typeof(json) NOT IN ('blob', 'text')",
            "SELECT count(*) FROM image_entry WHERE typeof(key) != 'text' OR typeof(bytes) != 'integer' OR typeof(last_used) NOT IN ('real', 'integer')",
        ]
        return try checks.reduce(0) { total, sql in total + (try Int.fetchOne(db, sql: sql) ?? 0) }
    }

    /// A time saved as seconds since 1970; nil for anything else (text, NULL, an absurd number).
    static func time(_ value: DatabaseValue) -> Date? {
        guard let seconds = Double.fromDatabaseValue(value), seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: lists, profile, images") { db in
            try db.create(table: "cached_list") { table in
                table.primaryKey("name", .text)
                table.column("saved_at", .double).notNull()
                table.column("note", .text)
            }
            try db.create(table: "cached_photo") { table in
                table.column("list", .text).notNull().references("cached_list", onDelete: .cascade)
                table.column("position", .integer).notNull()
                table.column("photo_id", .text).notNull()
                table.column("json", .blob).notNull()
                table.primaryKey(["list", "position"])
            }
            try db.create(table: "cached_value") { table in
                table.primaryKey("name", .text)
                table.column("saved_at", .double).notNull()
                table.column("json", .blob).notNull()
            }
            try db.create(table: "image_entry") { table in
                table.primaryKey("key", .text)
                table.column("bytes", .integer).notNull()
                table.column("last_used", .double).notNull()
            }
            try db.create(index: "image_entry_last_used", on: "image_entry", columns: ["last_used"])
        }
        migrator.registerMigration("v2: find a saved photo by id") { db in
            try db.create(index: "cached_photo_id", on: "cached_photo", columns: ["list", "photo_id"])
        }
        return migrator
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    // MARK: Lists

    public func saveList(_ name: CachedListName, photos: [Photo], note: String?, timestamp: Date) throws {
        let rows = try photos.map { (id: $0.id, json: try Self.encoder.encode($0)) }
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cached_list WHERE name = ?", arguments: [name.rawValue])
            try db.execute(sql: "INSERT INTO cached_list (name, saved_at, note) VALUES (?, ?, ?)",
                           arguments: [name.rawValue, timestamp.timeIntervalSince1970, note])
            let statement = try db.makeStatement(sql: "INSERT INTO cached_photo (list, position, photo_id, json) VALUES (?, ?, ?, ?)")
            for (position, row) in rows.enumerated() {
                try statement.execute(arguments: [name.rawValue, position, row.id, row.json])
            }
        }
    }

    public func appendToList(_ name: CachedListName, photos: [Photo]) throws {
        let rows = try photos.map { (id: $0.id, json: try Self.encoder.encode($0)) }
        try pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM cached_list WHERE name = ?", arguments: [name.rawValue]) == true else { return }
            var position = try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM cached_photo WHERE list = ?",
                                            arguments: [name.rawValue]) ?? 0
            let exists = try db.makeStatement(sql: "SELECT 1 FROM cached_photo WHERE list = ? AND photo_id = ?")
            let statement = try db.makeStatement(sql: "INSERT INTO cached_photo (list, position, photo_id, json) VALUES (?, ?, ?, ?)")
            for row in rows where try Bool.fetchOne(exists, arguments: [name.rawValue, row.id]) != true {
                try statement.execute(arguments: [name.rawValue, position, row.id, row.json])
                position += 1
            }
        }
    }

    public func loadList(_ name: CachedListName) throws -> CachedList? {
        try pool.read { db in
            // A list whose time is not a time is not trusted to be current: it is left out.
            guard let list = try Row.fetchOne(db, sql: "SELECT saved_at, note FROM cached_list WHERE name = ?", arguments: [name.rawValue]),
                  let savedAt = Self.time(list["saved_at"]) else {
                return nil
            }
            let values = try DatabaseValue.fetchAll(db, sql: "SELECT json FROM cached_photo WHERE list = ? ORDER BY position",
                                                    arguments: [name.rawValue])
            let photos = Self.restore(values.compactMap { Data.fromDatabaseValue($0) })
            return CachedList(photos: photos, timestamp: savedAt, note: String.fromDatabaseValue(list["note"]))
        }
    }

    /// The photos a saved list's rows hold. A photo that no longer decodes is left out; the others are still
    /// worth showing. What comes back is checked as the network's answers are, where it enters the core
    /// (`SavedLists.load`).
    public static func restore(_ blobs: [Data]) -> [Photo] {
        blobs.compactMap { try? decoder.decode(Photo.self, from: $0) }
    }

    public func deleteList(_ name: CachedListName) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cached_list WHERE name = ?", arguments: [name.rawValue])
        }
    }

    // MARK: The profile

    public func saveProfile(_ profile: Profile, timestamp: Date) throws {
        let json = try Self.encoder.encode(profile)
        try pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO cached_value (name, saved_at, json) VALUES ('profile', ?, ?)",
                           arguments: [timestamp.timeIntervalSince1970, json])
        }
    }

    public func loadProfile() throws -> (profile: Profile, timestamp: Date)? {
        guard let row = try pool.read({ db in try Row.fetchOne(db, sql: "SELECT saved_at, json FROM cached_value WHERE name = 'profile'") }),
              let json = Data.fromDatabaseValue(row["json"]), let savedAt = Self.time(row["saved_at"]) else {
            return nil
        }
        guard let profile = try? Self.decoder.decode(Profile.self, from: json) else { return nil }
        return (profile, savedAt)
    }

    public func deleteUserData() throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cached_list")
            try db.execute(sql: "DELETE FROM cached_value")
        }
    }

    // MARK: Facts for `image-feed cache info`

    public struct Summary: Sendable, Equatable {
        public var lists: [CachedListName: (count: Int, savedAt: Date, note: String?)]
        public var profileSavedAt: Date?
        public var databaseBytes: Int

        public static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.databaseBytes == rhs.databaseBytes && lhs.profileSavedAt == rhs.profileSavedAt
                && lhs.lists.keys == rhs.lists.keys
        }
    }

    public func summary() throws -> Summary {
        try pool.read { db in
            var lists: [CachedListName: (count: Int, savedAt: Date, note: String?)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT l.name, l.saved_at, l.note, (SELECT count(*) FROM cached_photo p WHERE p.list = l.name) AS count
                FROM cached_list l
                """) {
                guard let name = String.fromDatabaseValue(row["name"]), let list = CachedListName(rawValue: name),
                      let savedAt = Self.time(row["saved_at"]) else { continue }
                lists[list] = (Int.fromDatabaseValue(row["count"]) ?? 0, savedAt, String.fromDatabaseValue(row["note"]))
            }
            let profile = try DatabaseValue.fetchOne(db, sql: "SELECT saved_at FROM cached_value WHERE name = 'profile'").flatMap(Self.time)
            let bytes = ["", "-wal"].reduce(0) { total, suffix in
                total + ((try? FileManager.default.attributesOfItem(atPath: file.path + suffix)[.size] as? Int) ?? 0)
            }
            return Summary(lists: lists, profileSavedAt: profile, databaseBytes: bytes)
        }
    }

    /// Empties the store (the file stays, with its tables).
    public func clear() throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM cached_list")
            try db.execute(sql: "DELETE FROM cached_value")
            try db.execute(sql: "DELETE FROM image_entry")
        }
    }
}
