import Foundation
import ImageFeedCore
import LocalStore

/// `image-feed cache info` and `image-feed cache clear`: what the offline store holds, and emptying it.
public enum CacheCommands {
    /// The cache folder the app uses (the demo has its own inside it).
    public static func folder(_ configuration: Settings, demo: Bool) -> URL {
        demo ? configuration.paths.cache.appendingPathComponent("demo") : configuration.paths.cache
    }

    /// Where the other cache is (the demo's, or the account's), when it holds something: a user who ran the demo
    /// and asks about "the cache" is told the demo's is apart, and how to see it.
    static func otherCache(_ configuration: Settings, demo: Bool, command: String) -> String? {
        let other = folder(configuration, demo: !demo)
        guard FileManager.default.fileExists(atPath: other.appendingPathComponent("store.sqlite").path) else { return nil }
        return demo ? "The account's cache is apart: \(other.path) (image-feed cache \(command))."
            : "The demo's cache is apart: \(other.path) (image-feed cache \(command) --demo)."
    }

    public static func info(_ configuration: Settings, demo: Bool, now: Date = Date()) throws -> String {
        let folder = folder(configuration, demo: demo)
        let storeFile = folder.appendingPathComponent("store.sqlite")
        let other = otherCache(configuration, demo: demo, command: "info")
        guard FileManager.default.fileExists(atPath: storeFile.path) else {
            return (["Cache folder: \(folder.path)", "Nothing is cached yet."] + [other].compactMap { $0 }).joined(separator: "\n")
        }
        let store = try SQLiteStore(file: storeFile)
        let notes = Self.notes(store)
        let images = try DiskImageCache(folder: folder.appendingPathComponent("images"), store: store,
                                        budget: configuration.imageCacheMegabytes * 1024 * 1024)
        let summary = try store.summary()
        let policy = CachePolicy(maximumAge: configuration.cacheMaximumAgeDays * 24 * 3600)
        var lines = ["Cache folder: \(folder.path)", "Store: \(storeFile.lastPathComponent), \(bytes(summary.databaseBytes))"]
        let titles: [(CachedListName, String)] = [(.feed, "Feed"), (.favorites, "Favorites"), (.search, "Last search")]
        for (name, title) in titles {
            guard let list = summary.lists[name] else {
                lines.append("\(title): none")
                continue
            }
            let query = list.note.map { "\"\(UntrustedText.sanitize($0))\", " } ?? ""
            let expired = policy.isValid(list.savedAt, now: now) ? "" : " (expired: not shown, deleted when next read)"
            lines.append("\(title): \(query)\(list.count) photo\(list.count == 1 ? "" : "s"), saved \(age(list.savedAt, now: now))\(expired)")
        }
        lines.append("Profile: " + (summary.profileSavedAt.map { "saved \(age($0, now: now))" } ?? "none"))
        let usage = try images.usage()
        lines.append("Images: \(usage.files) file\(usage.files == 1 ? "" : "s"), \(bytes(usage.bytes)) of \(bytes(images.budget))")
        let days = configuration.cacheMaximumAgeDays
        lines.append("Max age: \(days == days.rounded() ? String(Int(days)) : String(days)) days")
        return (lines + notes + [other].compactMap { $0 }).joined(separator: "\n")
    }

    public static func clear(_ configuration: Settings, demo: Bool) throws -> String {
        let folder = folder(configuration, demo: demo)
        let storeFile = folder.appendingPathComponent("store.sqlite")
        guard FileManager.default.fileExists(atPath: storeFile.path) else {
            return (["Nothing to clear."] + [otherCache(configuration, demo: demo, command: "clear")].compactMap { $0 }).joined(separator: "\n")
        }
        let store: SQLiteStore
        var aside: URL?
        do {
            store = try SQLiteStore(file: storeFile)
            aside = store.setAside
        } catch SQLiteStore.OpenError.unusable {
            // Whatever is there cannot be used as it is: it is set aside, never deleted, and a new store made.
            aside = try SQLiteStore.setAside(storeFile, as: "unusable")
            store = try SQLiteStore(file: storeFile)
        }
        guard !store.isReadOnly else {
            throw SQLiteStore.OpenError.unusable(storeFile, "its folder cannot be written")
        }
        try store.clear()
        try DiskImageCache(folder: folder.appendingPathComponent("images"), store: store).clear()
        let setAside = aside.map { " (the old store was set aside as \($0.lastPathComponent))" } ?? ""
        return "Cache cleared: \(folder.path)\(setAside)"
    }

    /// What the user is told of a store that did not open as it was: set aside, read-only, or holding rows
    /// another program wrote.
    public static func notes(_ store: SQLiteStore) -> [String] {
        var notes: [String] = []
        if let aside = store.setAside {
            notes.append("The offline store could not be used (\(store.setAsideReason ?? "damaged")); it was set aside as \(aside.lastPathComponent) and a new one started.")
        }
        if store.isReadOnly {
            notes.append("The offline store's folder \(store.file.deletingLastPathComponent().path) cannot be written: what was saved is shown, nothing new is kept.")
        }
        if store.unfitRows > 0 {
            notes.append("The offline store holds \(store.unfitRows) row\(store.unfitRows == 1 ? "" : "s") with values ImageFeed does not write (another program wrote them); \(store.unfitRows == 1 ? "it is" : "they are") left out. image-feed cache clear starts afresh.")
        }
        return notes
    }

    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }

    static func age(_ date: Date, now: Date) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        // Local time, as the app shows times.
        let when = CivilTime.localDayAndTime(date)
        switch seconds {
        case ..<60: return "\(when) (just now)"
        case ..<3600: return "\(when) (\(Int(seconds / 60)) min ago)"
        case ..<86_400: return "\(when) (\(Int(seconds / 3600)) h ago)"
        default: return "\(when) (\(Int(seconds / 86_400)) days ago)"
        }
    }
}
