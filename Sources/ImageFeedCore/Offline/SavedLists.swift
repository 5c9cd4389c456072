import Foundation

/// The seed's use cases around the cache, for any saved list (the feed, the favorites, the last search):
/// a page from the service replaces (page 1) or extends (later pages) what is saved, with a timestamp;
/// when the service cannot be reached, the saved list is delivered if it is younger than the max age;
/// an expired one is deleted and delivers nothing; an empty cache delivers nothing.
public struct SavedLists: Sendable {
    public let cache: any PhotoCache
    public let clock: any WallClock
    public let policy: CachePolicy

    public init(cache: any PhotoCache, clock: any WallClock = SystemWallClock(), policy: CachePolicy = CachePolicy()) {
        self.cache = cache
        self.clock = clock
        self.policy = policy
    }

    /// Save Feed Items: page 1 replaces the list (timestamped now), later pages are added to it. The error when
    /// the store could not keep it (a full disk): the session goes on either way.
    @discardableResult
    public func save(_ page: Page<Photo>, as name: CachedListName, note: String? = nil) -> (any Error)? {
        do {
            if page.number <= 1 {
                try cache.saveList(name, photos: page.items, note: note, timestamp: clock.now)
            } else {
                try cache.appendToList(name, photos: page.items)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Load Feed Fallback (Cache): the saved list if it is there, readable, young enough and (for a
    /// search) of the same query; an expired list is deleted.
    /// What the store gives back is checked exactly as what the network gives (`Photo.checked`).
    public func load(_ name: CachedListName, note: String? = nil) -> CachedList? {
        guard var list = try? cache.loadList(name) else { return nil }
        list.photos = list.photos.map { $0.checked() }
        guard policy.isValid(list.timestamp, now: clock.now) else {
            try? cache.deleteList(name)
            return nil
        }
        if let note, list.note?.caseInsensitiveCompare(note) != .orderedSame { return nil }
        return list
    }

    /// The saved list as a first page, for a view model that asked the service for page 1. Its next page
    /// is 2, so scrolling on asks the service again (and says so if it still cannot be reached).
    public static func page(_ list: CachedList, perPage: Int) -> Page<Photo> {
        Page(items: list.photos, number: 1, perPage: perPage, totalItems: nil, nextPage: 2)
    }

    public func saveProfile(_ profile: Profile) {
        try? cache.saveProfile(profile, timestamp: clock.now)
    }

    public func loadProfile() -> Profile? {
        guard let saved = try? cache.loadProfile(), policy.isValid(saved.timestamp, now: clock.now) else { return nil }
        return saved.profile.checked()
    }
}

extension ServiceError {
    /// The service could not be reached at all (as opposed to answering with an error).
    public var isConnectivity: Bool {
        switch self {
        case .noConnection, .timeout: true
        default: false
        }
    }
}
