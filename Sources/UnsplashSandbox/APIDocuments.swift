import Foundation

/// The JSON documents of the Unsplash API, in its own shapes (snake_case keys, ISO 8601 dates,
/// absolute URLs), as the sandbox sends them.
enum APIDocuments {
    struct ProfileImage: Encodable {
        var small: String?
        var medium: String?
        var large: String?
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
        var name: String?
        var firstName: String?
        var lastName: String?
        var bio: String?
        var location: String?
        var portfolioUrl: String?
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
        var name: String?
        var city: String?
        var country: String?
        var position: Position?
    }

    struct Exif: Encodable {
        var make: String?
        var model: String?
        var name: String?
        var exposureTime: String?
        var aperture: String?
        var focalLength: String?
        var iso: Int?
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
        var promotedAt: String?
        var width: Int
        var height: Int
        var color: String
        var blurHash: String
        var description: String?
        var altDescription: String?
        var urls: URLs
        var links: PhotoLinks
        var likes: Int
        var likedByUser: Bool
        var currentUserCollections: [String] = []
        var user: User
        /// Only the single-photo endpoint sends these, as Unsplash does.
        var exif: Exif?
        var location: Location?
        var tags: [Tag]?
        var downloads: Int?
    }

    struct LikeAnswer: Encodable {
        var photo: Photo
        var user: User
    }

    struct SearchAnswer: Encodable {
        var total: Int
        var totalPages: Int
        var results: [Photo]
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
