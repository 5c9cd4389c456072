import Foundation

/// A named collection of a user's photos (Imgur's albums). The photos inside are `Photo`s, so they open in
/// the same viewer as any other.
public struct Album: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var title: String?
    public var description: String?
    public var createdAt: Date?
    /// The cover picture; nil when the album has none (shown as a gray box).
    @StoredAsText public var coverURL: URL?
    public var coverWidth: Int
    public var coverHeight: Int
    /// How many photos the album holds, when the service says.
    public var photoCount: Int?
    /// The album's page, for people.
    @StoredAsText public var link: URL?

    public init(id: String, title: String? = nil, description: String? = nil, createdAt: Date? = nil,
                coverURL: URL? = nil, coverWidth: Int = 0, coverHeight: Int = 0, photoCount: Int? = nil,
                link: URL? = nil) {
        self.id = id
        self.title = title
        self.description = description
        self.createdAt = createdAt
        self.coverURL = coverURL
        self.coverWidth = coverWidth
        self.coverHeight = coverHeight
        self.photoCount = photoCount
        self.link = link
    }

    /// The title, or a stand-in when the album has none.
    public var displayTitle: String {
        let trimmed = title?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return trimmed.isEmpty ? "Untitled album" : trimmed
    }
}
