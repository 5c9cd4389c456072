import Foundation

/// A person on the photo service: a photo's author, or the logged-in user (see `Profile`).
public struct User: Identifiable, Hashable, Codable, Sendable {
    public var id: String
    public var username: String
    public var name: String?
    public var firstName: String?
    public var lastName: String?
    public var bio: String?
    public var location: String?
    @StoredAsText public var portfolioURL: URL?
    public var profileImage: ProfileImage
    public var totalLikes: Int?
    public var totalPhotos: Int?
    public var totalCollections: Int?
    /// The person's page, for attribution links.
    @StoredAsText public var htmlLink: URL?

    public init(
        id: String, username: String, name: String? = nil, firstName: String? = nil, lastName: String? = nil,
        bio: String? = nil, location: String? = nil, portfolioURL: URL? = nil, profileImage: ProfileImage = ProfileImage(),
        totalLikes: Int? = nil, totalPhotos: Int? = nil, htmlLink: URL? = nil, totalCollections: Int? = nil
    ) {
        self.totalCollections = totalCollections
        self.id = id
        self.username = username
        self.name = name
        self.firstName = firstName
        self.lastName = lastName
        self.bio = bio
        self.location = location
        self.portfolioURL = portfolioURL
        self.profileImage = profileImage
        self.totalLikes = totalLikes
        self.totalPhotos = totalPhotos
        self.htmlLink = htmlLink
    }

    /// The name to show: the full name, else first and last name, else the username.
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        let parts = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? username : parts.joined(separator: " ")
    }
}

public struct ProfileImage: Hashable, Codable, Sendable {
    @StoredAsText public var small: URL?
    @StoredAsText public var medium: URL?
    @StoredAsText public var large: URL?

    public init(small: URL? = nil, medium: URL? = nil, large: URL? = nil) {
        self.small = small
        self.medium = medium
        self.large = large
    }
}

/// The logged-in user, as `GET /me` describes them.
public typealias Profile = User
