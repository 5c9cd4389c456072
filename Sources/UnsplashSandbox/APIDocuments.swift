import Foundation

/// The JSON documents of the Unsplash API, in its own shapes (snake_case keys, ISO 8601 dates,
/// absolute URLs), as the sandbox sends them.
enum APIDocuments {
    /// An optional field that is sent as `null` when it has no value, as Unsplash sends it,
    /// rather than left out (what Swift's synthesized encoding does for optionals).
    @propertyWrapper
    struct Null<Value: Encodable>: Encodable {
        var wrappedValue: Value?

        init(wrappedValue: Value?) {
            self.wrappedValue = wrappedValue
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            if let wrappedValue {
                try container.encode(wrappedValue)
            } else {
                try container.encodeNil()
            }
        }
    }

    struct ProfileImage: Encodable {
        @Null var small: String?
        @Null var medium: String?
        @Null var large: String?
    }

    struct UserLinks: Encodable {
        var `self`: String
        var html: String
        var photos: String
        var likes: String
    }

    struct User: Encodable {
        var id: String
        var updatedAt: String
        var username: String
        @Null var name: String?
        @Null var firstName: String?
        @Null var lastName: String?
        @Null var bio: String?
        @Null var location: String?
        @Null var portfolioUrl: String?
        var totalLikes: Int
        var totalPhotos: Int
        var totalCollections: Int
        var profileImage: ProfileImage
        var links: UserLinks
    }

    struct URLs: Encodable {
        var raw: String
        var full: String
        var regular: String
        var small: String
        var thumb: String
    }

    struct PhotoLinks: Encodable {
        var `self`: String
        var html: String
        var download: String
        var downloadLocation: String
    }

    struct Position: Encodable {
        var latitude: Double
        var longitude: Double
    }

    struct Location: Encodable {
        @Null var name: String?
        @Null var city: String?
        @Null var country: String?
        @Null var position: Position?
    }

    struct Exif: Encodable {
        @Null var make: String?
        @Null var model: String?
        @Null var name: String?
        @Null var exposureTime: String?
        @Null var aperture: String?
        @Null var focalLength: String?
        @Null var iso: Int?
    }

    struct Tag: Encodable {
        var type = "search"
        var title: String
    }

    struct Photo: Encodable {
        var id: String
        var slug: String
        var createdAt: String
        var updatedAt: String
        @Null var promotedAt: String?
        var width: Int
        var height: Int
        var color: String
        var blurHash: String
        @Null var description: String?
        @Null var altDescription: String?
        var urls: URLs
        var links: PhotoLinks
        var likes: Int
        var likedByUser: Bool
        /// The caller's collections that hold the photo, as Unsplash names them in a photo.
        var currentUserCollections: [CollectionLink] = []
        var user: User
        /// Only the single-photo endpoint sends these, as Unsplash does.
        var exif: Exif?
        var location: Location?
        var tags: [Tag]?
        var downloads: Int?
        var views: Int?
        var topics: [TopicLink]?
    }

    struct CollectionLink: Encodable {
        var id: String
        var title: String
    }

    struct TopicLink: Encodable {
        var id: String
        var slug: String
        var title: String
    }

    struct CollectionLinks: Encodable {
        var `self`: String
        var html: String
        var photos: String
    }

    struct Collection: Encodable {
        var id: String
        var title: String
        @Null var description: String?
        var publishedAt: String
        var lastCollectedAt: String
        var updatedAt: String
        var totalPhotos: Int
        var `private`: Bool
        var shareKey: String
        @Null var coverPhoto: Photo?
        var user: User
        var links: CollectionLinks
    }

    struct TopicLinks: Encodable {
        var `self`: String
        var html: String
        var photos: String
    }

    struct Topic: Encodable {
        var id: String
        var slug: String
        var title: String
        @Null var description: String?
        var publishedAt: String
        var updatedAt: String
        var featured: Bool
        var totalPhotos: Int
        var status: String
        @Null var coverPhoto: Photo?
        var links: TopicLinks
    }

    struct Results<Item: Encodable>: Encodable {
        var total: Int
        var totalPages: Int
        var results: [Item]
    }

    struct CollectionAnswer: Encodable {
        var photo: Photo
        var collection: Collection
        var user: User
    }

    struct LikeAnswer: Encodable {
        var photo: Photo
        var user: User
    }

    struct Errors: Encodable {
        var errors: [String]
    }

    struct Download: Encodable {
        var url: String
    }

    struct Token: Encodable {
        var accessToken: String
        var tokenType: String
        var refreshToken: String
        var scope: String
        var createdAt: Int
        var userId: String
        var username: String
    }

    struct TokenError: Encodable {
        var error: String
        var errorDescription: String
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every document here is made of strings and numbers: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    static func timestamp(_ date: Date) -> String {
        // Unsplash writes dates with an offset: "2025-11-21T07:00:00-05:00". UTC offsets are used here.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        return formatter.string(from: date)
    }
}
