import Foundation

/// A saved list of photos: the feed, the favorites, or the last search's results.
public struct CachedList: Sendable, Equatable {
    public var photos: [Photo]
    public var timestamp: Date
    /// What the list is of, where it matters (the search's query).
    public var note: String?

    public init(photos: [Photo], timestamp: Date, note: String? = nil) {
        self.photos = photos
        self.timestamp = timestamp
        self.note = note
    }
}

public enum CachedListName: String, Sendable, CaseIterable {
    case feed
    case favorites
    case search
    /// The last photographer's, topic's or collection's photos explored (its note names which); stored under
    /// its earlier name, so that a store written before keeps it.
    case explore = "browse"
}

/// What is kept for offline use: lists of photos and the profile, each with the time it was saved.
/// Saving replaces what was there, as one transaction; nothing is ever half-written.
public protocol PhotoCache: Sendable {
    func saveList(_ name: CachedListName, photos: [Photo], note: String?, timestamp: Date) throws
    /// Adds a later page to a saved list (nothing happens when the list is not there).
    func appendToList(_ name: CachedListName, photos: [Photo]) throws
    func loadList(_ name: CachedListName) throws -> CachedList?
    func deleteList(_ name: CachedListName) throws
    func saveProfile(_ profile: Profile, timestamp: Date) throws
    func loadProfile() throws -> (profile: Profile, timestamp: Date)?
    /// Logging out: the profile, the favorites, the last search, and the feed (its liked flags are the user's).
    func deleteUserData() throws
}

/// How old a saved list may be and still be shown (the seed's "max age").
public struct CachePolicy: Sendable, Equatable {
    public var maximumAge: TimeInterval

    public static let defaultMaximumAge: TimeInterval = 7 * 24 * 3600

    public init(maximumAge: TimeInterval = CachePolicy.defaultMaximumAge) {
        self.maximumAge = maximumAge
    }

    public func isValid(_ timestamp: Date, now: Date) -> Bool {
        now.timeIntervalSince(timestamp) < maximumAge && timestamp <= now.addingTimeInterval(60)
    }
}
