import Foundation

/// The last feed shown, kept for offline use.
public struct CachedFeed: Sendable, Equatable {
    public var photos: [Photo]
    public var timestamp: Date

    public init(photos: [Photo], timestamp: Date) {
        self.photos = photos
        self.timestamp = timestamp
    }
}

/// Stores the feed: saving replaces what was there, as one transaction.
public protocol FeedCache: Sendable {
    func saveFeed(_ photos: [Photo], timestamp: Date) async throws
    func loadFeed() async throws -> CachedFeed?
    func deleteFeed() async throws
}
