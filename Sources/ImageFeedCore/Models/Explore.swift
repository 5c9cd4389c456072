import Foundation

/// A collection of photos a user put together on Unsplash.
public struct PhotoCollection: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var title: String
    public var description: String?
    public var totalPhotos: Int?
    public var isPrivate: Bool
    public var publishedAt: Date?
    /// The photo that stands for the collection (its first, unless its owner chose).
    public var coverPhoto: Photo?
    /// Its owner.
    public var user: User?
    /// The collection's page, for people.
    @StoredAsText public var htmlLink: URL?

    public init(id: String, title: String, description: String? = nil, totalPhotos: Int? = nil, isPrivate: Bool = false,
                publishedAt: Date? = nil, coverPhoto: Photo? = nil, user: User? = nil, htmlLink: URL? = nil) {
        self.id = id
        self.title = title
        self.description = description
        self.totalPhotos = totalPhotos
        self.isPrivate = isPrivate
        self.publishedAt = publishedAt
        self.coverPhoto = coverPhoto
        self.user = user
        self.htmlLink = htmlLink
    }
}

/// One of Unsplash's topics (Nature, Film, Wallpapers, …): a curated stream of photos.
public struct Topic: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var slug: String
    public var title: String
    public var description: String?
    public var totalPhotos: Int?
    public var coverPhoto: Photo?
    @StoredAsText public var htmlLink: URL?

    public init(id: String, slug: String, title: String, description: String? = nil, totalPhotos: Int? = nil,
                coverPhoto: Photo? = nil, htmlLink: URL? = nil) {
        self.id = id
        self.slug = slug
        self.title = title
        self.description = description
        self.totalPhotos = totalPhotos
        self.coverPhoto = coverPhoto
        self.htmlLink = htmlLink
    }
}

/// How a user's or a topic's photos are ordered (Unsplash's `order_by`).
public enum PhotoOrder: String, Sendable, Codable, CaseIterable {
    case latest
    case oldest
    case popular

    /// The next order, for a key that cycles them.
    public var next: PhotoOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// Unsplash's search filters: orientation, colour and content safety.
public struct SearchFilters: Hashable, Codable, Sendable {
    public enum Orientation: String, Sendable, Codable, CaseIterable {
        case landscape, portrait, squarish
    }

    /// The colours Unsplash's search narrows to.
    public enum Color: String, Sendable, Codable, CaseIterable {
        case blackAndWhite = "black_and_white"
        case black, white, yellow, orange, red, purple, magenta, green, teal, blue

        /// As the header and the help say it.
        public var title: String { self == .blackAndWhite ? "black and white" : rawValue }
    }

    /// `low` (the default) leaves out less; `high` leaves out anything that may not be safe for work.
    public enum ContentFilter: String, Sendable, Codable, CaseIterable {
        case low, high
    }

    public var orientation: Orientation?
    public var color: Color?
    public var contentFilter: ContentFilter

    public init(orientation: Orientation? = nil, color: Color? = nil, contentFilter: ContentFilter = .low) {
        self.orientation = orientation
        self.color = color
        self.contentFilter = contentFilter
    }

    public var isEmpty: Bool { orientation == nil && color == nil && contentFilter == .low }

    /// "portrait, red, safe": what the header shows; empty without filters.
    public var summary: String {
        [orientation?.rawValue, color?.title, contentFilter == .high ? "safe" : nil].compactMap { $0 }.joined(separator: ", ")
    }

    /// The next choice of a list of options, then none (a key cycles through them).
    static func cycle<Option: CaseIterable & Equatable>(_ current: Option?) -> Option? {
        let all = Array(Option.allCases)
        guard let current, let index = all.firstIndex(of: current) else { return all.first }
        return index + 1 < all.count ? all[index + 1] : nil
    }

    /// The option before the current one, then none (a key that cycles backwards).
    static func cycleBack<Option: CaseIterable & Equatable>(_ current: Option?) -> Option? {
        let all = Array(Option.allCases)
        guard let current, let index = all.firstIndex(of: current) else { return all.last }
        return index > 0 ? all[index - 1] : nil
    }

    /// The next orientation (or colour), or the one before with `backwards`.
    public mutating func cycleOrientation(backwards: Bool) {
        orientation = backwards ? Self.cycleBack(orientation) : Self.cycle(orientation)
    }
    public mutating func cycleColor(backwards: Bool) { color = backwards ? Self.cycleBack(color) : Self.cycle(color) }
    public mutating func cycleOrientation() { orientation = Self.cycle(orientation) }
    public mutating func cycleColor() { color = Self.cycle(color) }
    public mutating func toggleContentFilter() { contentFilter = contentFilter == .low ? .high : .low }
}

/// A list of photos a page of the app shows besides the feed, the favorites and search: where its pages come from.
public enum PhotoListSource: Hashable, Sendable {
    /// A photographer's photos.
    case userPhotos(username: String, order: PhotoOrder)
    /// The photos a photographer liked.
    case userLikes(username: String)
    /// A topic's photos (the feed pane shows them when a topic is chosen).
    case topicPhotos(slug: String, order: PhotoOrder)
    case collectionPhotos(id: String)

    /// A key that names the list (the offline store keeps the last one browsed under it).
    public var key: String {
        switch self {
        case let .userPhotos(username, order): "user/\(username.lowercased())/photos/\(order.rawValue)"
        case let .userLikes(username): "user/\(username.lowercased())/likes"
        case let .topicPhotos(slug, order): "topic/\(slug)/\(order.rawValue)"
        case let .collectionPhotos(id): "collection/\(id)"
        }
    }
}

/// What a photographer's page, the topics, a collection and the search for people and collections ask of the
/// photo service: Unsplash's routes beyond the feed (see `PhotoService`).
public protocol ExploreService: Sendable {
    /// A list of photos by its source, a page at a time.
    func photos(from source: PhotoListSource, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo>
    func userCollections(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<PhotoCollection>
    func collection(id: String) async throws(ServiceError) -> PhotoCollection
    func topics(page: Int, perPage: Int) async throws(ServiceError) -> Page<Topic>
    func topic(slug: String) async throws(ServiceError) -> Topic
    func searchUsers(query: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<User>
    func searchCollections(query: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<PhotoCollection>
    /// Adds a photo to one of the user's collections (`add`) or takes it out; needs the `write_collections` scope.
    func setInCollection(_ add: Bool, photoID: String, collectionID: String) async throws(ServiceError)
}
