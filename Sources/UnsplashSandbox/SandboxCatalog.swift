import Foundation

/// The demo catalog: the users and photos of `Assets/catalog.json`, and a feed of several hundred
/// items made from them, each with its own id, date, likes and wording.
public struct SandboxCatalog: Sendable {
    public struct UserEntry: Codable, Sendable, Equatable {
        public var username: String
        public var name: String?
        public var firstName: String?
        public var lastName: String?
        public var bio: String?
        public var location: String?
        /// A file in `Assets/avatars`.
        public var avatar: String?
        public var portfolioURL: String?

        enum CodingKeys: String, CodingKey {
            case username, name, bio, location, avatar
            case firstName = "first_name"
            case lastName = "last_name"
            case portfolioURL = "portfolio_url"
        }

        /// A stable id derived from the username.
        public var id: String { SandboxCatalog.identifier(seed: "user-" + username) }
    }

    public struct Position: Codable, Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
    }

    public struct LocationEntry: Codable, Sendable, Equatable {
        public var name: String?
        public var city: String?
        public var country: String?
        public var position: Position?
    }

    public struct ExifEntry: Codable, Sendable, Equatable {
        public var make: String?
        public var model: String?
        public var exposureTime: String?
        public var aperture: String?
        public var focalLength: String?
        public var iso: Int?

        enum CodingKeys: String, CodingKey {
            case make, model, aperture, iso
            case exposureTime = "exposure_time"
            case focalLength = "focal_length"
        }
    }

    public struct PhotoEntry: Codable, Sendable, Equatable {
        /// A file in `Assets/photos`.
        public var file: String
        public var author: String
        public var width: Int
        public var height: Int
        public var color: String
        public var blurHash: String
        public var description: String?
        public var altDescription: String?
        public var tags: [String]
        public var exif: ExifEntry?
        public var location: LocationEntry?

        enum CodingKeys: String, CodingKey {
            case file, author, width, height, color, description, tags, exif, location
            case blurHash = "blur_hash"
            case altDescription = "alt_description"
        }
    }

    /// One item of the feed: a catalog photo under its own id and metadata.
    public struct FeedItem: Sendable, Equatable {
        public var id: String
        public var entry: PhotoEntry
        public var createdAt: Date
        public var description: String?
        public var baseLikes: Int
    }

    /// A topic: the feed's items whose photo has one of its tags.
    public struct TopicEntry: Codable, Sendable, Equatable {
        public var slug: String
        public var title: String
        public var description: String?
        public var tags: [String]

        public var id: String { SandboxCatalog.identifier(seed: "topic-" + slug) }
    }

    /// A user's collection: the catalog's photos (each once) that have one of its tags.
    public struct CollectionEntry: Codable, Sendable, Equatable {
        public var id: String
        public var title: String
        public var owner: String
        public var description: String?
        public var tags: [String]
    }

    struct File: Codable {
        var demoUsername: String
        var users: [UserEntry]
        var photos: [PhotoEntry]
        var topics: [TopicEntry]?
        var collections: [CollectionEntry]?

        enum CodingKeys: String, CodingKey {
            case users, photos, topics, collections
            case demoUsername = "demo_username"
        }
    }

    public let assets: URL
    public let demoUsername: String
    public let users: [UserEntry]
    public let topics: [TopicEntry]
    public let collections: [CollectionEntry]
    /// Newest first, as the editorial feed is.
    public let feed: [FeedItem]
    private let feedIndex: [String: Int]

    /// Loads `catalog.json` from the assets folder and builds a feed of `feedSize` items.
    public init(assets: URL, feedSize: Int = 330) throws {
        let data = try Data(contentsOf: assets.appendingPathComponent("catalog.json"))
        let file = try JSONDecoder().decode(File.self, from: data)
        guard !file.photos.isEmpty else { throw SandboxError.catalog("the catalog has no photos") }
        guard file.users.contains(where: { $0.username == file.demoUsername }) else {
            throw SandboxError.catalog("the demo account \(file.demoUsername) is not among the users")
        }
        for photo in file.photos where !file.users.contains(where: { $0.username == photo.author }) {
            throw SandboxError.catalog("\(photo.file) names an unknown author \(photo.author)")
        }
        for collection in file.collections ?? [] where !file.users.contains(where: { $0.username == collection.owner }) {
            throw SandboxError.catalog("the collection \(collection.id) names an unknown owner \(collection.owner)")
        }
        self.assets = assets
        demoUsername = file.demoUsername
        users = file.users
        topics = file.topics ?? []
        collections = file.collections ?? []
        // The newest photo is a fixed day, so every run (and every test) sees the same feed.
        let newest = Date(timeIntervalSince1970: 1_763_726_400) // 2025-11-21T12:00:00Z
        var items: [FeedItem] = []
        for index in 0..<max(feedSize, file.photos.count) {
            let entry = file.photos[index % file.photos.count]
            let round = index / file.photos.count
            let description: String? = round == 0 ? entry.description : entry.description.map {
                "\($0) (\(Self.variants[(round - 1) % Self.variants.count]))"
            }
            items.append(FeedItem(
                id: Self.identifier(seed: "photo-\(index)"),
                entry: entry,
                createdAt: newest.addingTimeInterval(-Double(index) * 11_731),
                description: description,
                baseLikes: (index * 7_919 + 13) % 480
            ))
        }
        feed = items
        feedIndex = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, $0) })
    }

    private static let variants = [
        "second look", "another day", "in the archive", "revisited", "from the collection",
        "once more", "an older print", "a new scan", "the morning edition", "late edition",
        "encore", "the long view", "a quiet one", "re-edit", "from the vault", "extended", "b-side",
        "director's cut", "reprint", "found again", "yet again", "last call",
    ]

    /// A user's photos: the feed's items by them.
    public func photos(by username: String) -> [FeedItem] {
        feed.filter { $0.entry.author.lowercased() == username.lowercased() }
    }

    public func topic(slug: String) -> TopicEntry? {
        topics.first { $0.slug == slug || $0.id == slug }
    }

    /// A topic's photos: every item of the feed whose photo has one of the topic's tags.
    public func photos(in topic: TopicEntry) -> [FeedItem] {
        feed.filter { !Set($0.entry.tags).isDisjoint(with: topic.tags) }
    }

    public func collection(id: String) -> CollectionEntry? {
        collections.first { $0.id == id }
    }

    public func collections(of username: String) -> [CollectionEntry] {
        collections.filter { $0.owner.lowercased() == username.lowercased() }
    }

    /// A collection's photos as the catalog makes it: each catalog photo with one of its tags, once (its first
    /// item in the feed).
    public func photos(in collection: CollectionEntry) -> [FeedItem] {
        feed.prefix(feedPhotoCount).filter { !Set($0.entry.tags).isDisjoint(with: collection.tags) }
    }

    /// The topics whose tags a photo has.
    public func topics(of entry: PhotoEntry) -> [TopicEntry] {
        topics.filter { !Set(entry.tags).isDisjoint(with: $0.tags) }
    }

    /// How many distinct photos the catalog has (the feed's first round).
    var feedPhotoCount: Int {
        Set(feed.map(\.entry.file)).count
    }

    public func item(id: String) -> FeedItem? {
        feedIndex[id].map { feed[$0] }
    }

    public func user(username: String) -> UserEntry? {
        users.first { $0.username.lowercased() == username.lowercased() }
    }

    public func photoURL(file: String) -> URL {
        assets.appendingPathComponent("photos").appendingPathComponent(file)
    }

    public func avatarURL(file: String) -> URL {
        assets.appendingPathComponent("avatars").appendingPathComponent(file)
    }

    /// An 11-character id in Unsplash's alphabet, the same for the same seed on every run.
    static func identifier(seed: String) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_")
        // FNV-1a, then a 64-bit mix: stable across runs, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in seed.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        var characters: [Character] = []
        for _ in 0..<11 {
            hash ^= hash >> 33
            hash = hash &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 33
            characters.append(alphabet[Int(hash % UInt64(alphabet.count))])
        }
        return String(characters)
    }

    /// Finds `Assets/`: `$IMAGE_FEED_ASSETS`, then beside the current directory, then where `make install`
    /// puts it (`PREFIX/share/image-feed/Assets` beside `PREFIX/bin`), then in the source tree this was built from.
    public static func locateAssets(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        var candidates: [URL] = []
        if let configured = environment["IMAGE_FEED_ASSETS"], !configured.isEmpty {
            candidates.append(URL(fileURLWithPath: configured))
        }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Assets"))
        if let program = Bundle.main.executableURL?.resolvingSymlinksInPath() { // PREFIX/bin/image-feed
            candidates.append(program.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/image-feed/Assets"))
        }
        // A build in a checkout (CHECKOUT/.build/…/image-feed, or a test bundle there): the checkout's Assets. (Not
        // the source file's path: the release build writes the checkout as ".", so the program is the same wherever
        // it was built.)
        for program in [Bundle.main.executableURL, Bundle.main.bundleURL].compactMap({ $0?.resolvingSymlinksInPath().path }) {
            if let build = program.range(of: "/.build/") {
                candidates.append(URL(fileURLWithPath: String(program[..<build.lowerBound])).appendingPathComponent("Assets"))
            }
        }
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("catalog.json").path)
        }
    }
}

public enum SandboxError: Error, CustomStringConvertible, Equatable {
    case catalog(String)
    case assetsNotFound
    case badFault(String)

    public var description: String {
        switch self {
        case let .catalog(detail): "The demo catalog cannot be used: \(detail)."
        case .assetsNotFound: "The demo catalog (Assets/catalog.json) was not found; set IMAGE_FEED_ASSETS to the Assets folder."
        case let .badFault(detail): "Bad fault rule: \(detail)"
        }
    }
}
