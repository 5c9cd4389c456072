import Foundation

/// A photograph as the app uses it, whatever service delivered it.
/// Optional fields are the ones a service may leave out; the screens show only what is present.
public struct Photo: Identifiable, Hashable, Codable, Sendable {
    public var id: String
    public var createdAt: Date?
    public var updatedAt: Date?
    public var width: Int
    public var height: Int
    /// The photo's dominant colour, "#RRGGBB", shown while the image loads.
    public var color: String?
    public var blurHash: String?
    public var likes: Int
    public var likedByUser: Bool
    public var description: String?
    public var altDescription: String?
    public var urls: PhotoURLs
    public var links: PhotoLinks
    public var user: User?
    public var exif: Exif?
    public var location: PhotoLocation?
    public var tags: [String]
    /// An animation (an Imgur GIF, WebP or MP4): its still picture shows until the viewer plays `links.download`, the
    /// animation itself.
    /// nil: a still photo.
    public var isAnimated: Bool?
    /// How often the photo was seen and downloaded, where the service says (a photo's own answer has them).
    public var views: Int?
    public var downloads: Int?
    /// The topics the photo is featured in, by title and slug.
    public var topics: [TopicLink]?
    /// The ids of the logged-in user's collections that hold the photo, where the service says
    /// (Unsplash's `current_user_collections`); nil: not known.
    public var inCollections: [String]?

    public init(
        id: String, createdAt: Date? = nil, updatedAt: Date? = nil, width: Int = 0, height: Int = 0,
        color: String? = nil, blurHash: String? = nil, likes: Int = 0, likedByUser: Bool = false,
        description: String? = nil, altDescription: String? = nil, urls: PhotoURLs = PhotoURLs(),
        links: PhotoLinks = PhotoLinks(), user: User? = nil, exif: Exif? = nil, location: PhotoLocation? = nil,
        tags: [String] = []
    ) {
        self.id = id
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.width = width
        self.height = height
        self.color = color
        self.blurHash = blurHash
        self.likes = likes
        self.likedByUser = likedByUser
        self.description = description
        self.altDescription = altDescription
        self.urls = urls
        self.links = links
        self.user = user
        self.exif = exif
        self.location = location
        self.tags = tags
    }

    /// Whether the user's collection `id` holds the photo; nil when the service did not say.
    public func isIn(collection id: String) -> Bool? {
        inCollections.map { $0.contains(id) }
    }

    /// The photo went into the user's collection `id` (or out of it): from now on that is known.
    public mutating func collect(_ id: String, added: Bool) {
        var ids = (inCollections ?? []).filter { $0 != id }
        if added { ids.append(id) }
        inCollections = ids
    }

    /// Width over height; 1 when the size is unknown.
    public var aspectRatio: Double {
        width > 0 && height > 0 ? Double(width) / Double(height) : 1
    }

    /// The text to show under a photo: its description, else the generated alt description.
    public var caption: String? {
        description ?? altDescription
    }
}

/// A topic a photo is featured in: enough to name it and open it.
public struct TopicLink: Hashable, Codable, Sendable {
    public var id: String
    public var slug: String
    public var title: String

    public init(id: String, slug: String, title: String) {
        self.id = id
        self.slug = slug
        self.title = title
    }
}

public struct PhotoURLs: Hashable, Codable, Sendable {
    @StoredAsText public var raw: URL?
    @StoredAsText public var full: URL?
    @StoredAsText public var regular: URL?
    @StoredAsText public var small: URL?
    @StoredAsText public var thumb: URL?

    public init(raw: URL? = nil, full: URL? = nil, regular: URL? = nil, small: URL? = nil, thumb: URL? = nil) {
        self.raw = raw
        self.full = full
        self.regular = regular
        self.small = small
        self.thumb = thumb
    }
}

public struct PhotoLinks: Hashable, Codable, Sendable {
    /// The photo's page, for people: what "share" copies.
    @StoredAsText public var html: URL?
    @StoredAsText public var download: URL?
    /// The API endpoint to call when the user downloads the photo, as the API guidelines require.
    @StoredAsText public var downloadLocation: URL?

    public init(html: URL? = nil, download: URL? = nil, downloadLocation: URL? = nil) {
        self.html = html
        self.download = download
        self.downloadLocation = downloadLocation
    }
}

/// Camera details; every field is optional because cameras and uploads omit them freely.
public struct Exif: Hashable, Codable, Sendable {
    public var make: String?
    public var model: String?
    public var name: String?
    public var exposureTime: String?
    public var aperture: String?
    public var focalLength: String?
    public var iso: Int?

    public init(make: String? = nil, model: String? = nil, name: String? = nil, exposureTime: String? = nil,
                aperture: String? = nil, focalLength: String? = nil, iso: Int? = nil) {
        self.make = make
        self.model = model
        self.name = name
        self.exposureTime = exposureTime
        self.aperture = aperture
        self.focalLength = focalLength
        self.iso = iso
    }

    public var isEmpty: Bool {
        make == nil && model == nil && name == nil && exposureTime == nil && aperture == nil && focalLength == nil && iso == nil
    }
}

public struct PhotoLocation: Hashable, Codable, Sendable {
    public var name: String?
    public var city: String?
    public var country: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(name: String? = nil, city: String? = nil, country: String? = nil, latitude: Double? = nil, longitude: Double? = nil) {
        self.name = name
        self.city = city
        self.country = country
        self.latitude = latitude
        self.longitude = longitude
    }

    /// "Name", else "City, Country", else whichever of the two is known.
    public var displayName: String? {
        if let name { return name }
        let parts = [city, country].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

extension PhotoURLs {
    /// The step sized widths are rounded up to, so that a few pixels more or less (a resize) ask for the same
    /// file, which the caches then hold once.
    public static let widthStep = 100

    /// An address for the photo `width` pixels wide (no wider than the photo): Unsplash's image service sizes
    /// `raw` to order (`w`, `fit=max`, `q`, `fm=jpg`, keeping `ixid`, which Unsplash uses to count the view), so
    /// a card gets the pixels its cells need rather than a preset's. Without such a `raw` (Imgur), the smallest
    /// preset at least as wide: `thumb` (200), `small` (400), `regular` (1080), else `full`.
    public func sized(width: Int) -> URL? {
        let wanted = max(Self.widthStep, (width + Self.widthStep - 1) / Self.widthStep * Self.widthStep)
        if let raw, var components = URLComponents(url: raw, resolvingAgainstBaseURL: false),
           let items = components.queryItems, items.contains(where: { $0.name == "ixid" }) {
            let sizing: Set<String> = ["w", "h", "fit", "q", "fm", "dpr", "crop", "auto", "cs"]
            components.queryItems = items.filter { !sizing.contains($0.name) } + [
                URLQueryItem(name: "w", value: String(wanted)), URLQueryItem(name: "fit", value: "max"),
                URLQueryItem(name: "q", value: "80"), URLQueryItem(name: "fm", value: "jpg"),
            ]
            if let url = components.url { return url }
        }
        switch wanted {
        case ...200: return thumb ?? small ?? regular ?? full
        case ...400: return small ?? regular ?? full ?? thumb
        case ...1080: return regular ?? full ?? small
        default: return full ?? regular ?? small
        }
    }
}
