import Foundation

/// A photograph as the app uses it, whatever service delivered it.
/// Optional fields are the ones a service may leave out; the screens show only what is present.
public struct Photo: Identifiable, Hashable, Sendable {
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
    public var tags: [String]
    /// An animation (an Imgur GIF, WebP or MP4): its still picture shows until the viewer plays `links.download`, the
    /// animation itself.
    /// nil: a still photo.
    public var isAnimated: Bool?
    /// The ids of the logged-in user's collections that hold the photo, where the service says
    /// (Unsplash's `current_user_collections`); nil: not known.
    public var inCollections: [String]?

    /// The author, shared with the other photos of the same author (see `Interned`).
    private(set) var author: Shared<User>?
    /// What only a photo's own answer says, kept apart: a list's photos leave it out (nil).
    private(set) var details: Shared<Details>?

    /// What a photo's own answer adds to a list's photo.
    struct Details: Hashable, Sendable {
        var exif: Exif?
        var location: PhotoLocation?
        var views: Int?
        var downloads: Int?
        var topics: [TopicLink]?

        var isEmpty: Bool { self == Details() }
    }

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
        self.tags = tags
        author = user.map(Interned.user)
        let details = Details(exif: exif, location: location)
        self.details = details.isEmpty ? nil : Shared(details)
    }

    public var user: User? {
        get { author?.value }
        set { author = newValue.map(Interned.user) }
    }

    public var exif: Exif? {
        get { details?.value.exif }
        set { changeDetails { $0.exif = newValue } }
    }

    public var location: PhotoLocation? {
        get { details?.value.location }
        set { changeDetails { $0.location = newValue } }
    }

    /// How often the photo was seen and downloaded, where the service says (a photo's own answer has them).
    public var views: Int? {
        get { details?.value.views }
        set { changeDetails { $0.views = newValue } }
    }

    public var downloads: Int? {
        get { details?.value.downloads }
        set { changeDetails { $0.downloads = newValue } }
    }

    /// The topics the photo is featured in, by title and slug.
    public var topics: [TopicLink]? {
        get { details?.value.topics }
        set { changeDetails { $0.topics = newValue } }
    }

    private mutating func changeDetails(_ change: (inout Details) -> Void) {
        var changed = details?.value ?? Details()
        change(&changed)
        details = changed.isEmpty ? nil : Shared(changed)
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

/// The JSON is the one the properties as stored fields gave (photos saved before still load): optional
/// fields left out when nil, and a missing one read as nil.
extension Photo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, createdAt, updatedAt, width, height, color, blurHash, likes, likedByUser, description, altDescription
        case urls, links, user, exif, location, tags, isAnimated, views, downloads, topics, inCollections
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            createdAt: try container.decodeIfPresent(Date.self, forKey: .createdAt),
            updatedAt: try container.decodeIfPresent(Date.self, forKey: .updatedAt),
            width: try container.decode(Int.self, forKey: .width),
            height: try container.decode(Int.self, forKey: .height),
            color: try container.decodeIfPresent(String.self, forKey: .color),
            blurHash: try container.decodeIfPresent(String.self, forKey: .blurHash),
            likes: try container.decode(Int.self, forKey: .likes),
            likedByUser: try container.decode(Bool.self, forKey: .likedByUser),
            description: try container.decodeIfPresent(String.self, forKey: .description),
            altDescription: try container.decodeIfPresent(String.self, forKey: .altDescription),
            urls: try container.decode(PhotoURLs.self, forKey: .urls),
            links: try container.decode(PhotoLinks.self, forKey: .links),
            user: try container.decodeIfPresent(User.self, forKey: .user),
            exif: try container.decodeIfPresent(Exif.self, forKey: .exif),
            location: try container.decodeIfPresent(PhotoLocation.self, forKey: .location),
            tags: try container.decode([String].self, forKey: .tags)
        )
        isAnimated = try container.decodeIfPresent(Bool.self, forKey: .isAnimated)
        views = try container.decodeIfPresent(Int.self, forKey: .views)
        downloads = try container.decodeIfPresent(Int.self, forKey: .downloads)
        topics = try container.decodeIfPresent([TopicLink].self, forKey: .topics)
        inCollections = try container.decodeIfPresent([String].self, forKey: .inCollections)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(updatedAt, forKey: .updatedAt)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encodeIfPresent(color, forKey: .color)
        try container.encodeIfPresent(blurHash, forKey: .blurHash)
        try container.encode(likes, forKey: .likes)
        try container.encode(likedByUser, forKey: .likedByUser)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(altDescription, forKey: .altDescription)
        try container.encode(urls, forKey: .urls)
        try container.encode(links, forKey: .links)
        try container.encodeIfPresent(user, forKey: .user)
        try container.encodeIfPresent(exif, forKey: .exif)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(isAnimated, forKey: .isAnimated)
        try container.encodeIfPresent(views, forKey: .views)
        try container.encodeIfPresent(downloads, forKey: .downloads)
        try container.encodeIfPresent(topics, forKey: .topics)
        try container.encodeIfPresent(inCollections, forKey: .inCollections)
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

/// A photo's addresses: `raw`, and its sizes.
///
/// Unsplash's sizes are `raw` with more query after it (`&q=80&fm=jpg&w=1080&fit=max`), the same few tails on
/// every photo: such a size is kept as its tail alone, one string shared by all the photos that have it, so a
/// photo costs one address and not five. Read, every size is the whole URL; encoded, the JSON is what five
/// URL properties gave.
public struct PhotoURLs: Hashable, Sendable {
    private var rawText: String?
    /// Each size as its whole text, or as `tailMark` and what follows `raw`.
    private var fullText: String?
    private var regularText: String?
    private var smallText: String?
    private var thumbText: String?

    /// Marks a size kept as its tail after `raw` (a URL's text never holds a control character).
    private static let tailMark = "\u{1}"

    public init(raw: URL? = nil, full: URL? = nil, regular: URL? = nil, small: URL? = nil, thumb: URL? = nil) {
        rawText = raw?.absoluteString
        fullText = Self.kept(full?.absoluteString, after: rawText)
        regularText = Self.kept(regular?.absoluteString, after: rawText)
        smallText = Self.kept(small?.absoluteString, after: rawText)
        thumbText = Self.kept(thumb?.absoluteString, after: rawText)
    }

    public var raw: URL? {
        get { rawText.flatMap { URL(string: $0) } }
        set {
            let sizes = [fullText, regularText, smallText, thumbText].map { Self.whole($0, after: rawText) }
            rawText = newValue?.absoluteString
            fullText = Self.kept(sizes[0], after: rawText)
            regularText = Self.kept(sizes[1], after: rawText)
            smallText = Self.kept(sizes[2], after: rawText)
            thumbText = Self.kept(sizes[3], after: rawText)
        }
    }

    public var full: URL? {
        get { url(fullText) }
        set { fullText = Self.kept(newValue?.absoluteString, after: rawText) }
    }

    public var regular: URL? {
        get { url(regularText) }
        set { regularText = Self.kept(newValue?.absoluteString, after: rawText) }
    }

    public var small: URL? {
        get { url(smallText) }
        set { smallText = Self.kept(newValue?.absoluteString, after: rawText) }
    }

    public var thumb: URL? {
        get { url(thumbText) }
        set { thumbText = Self.kept(newValue?.absoluteString, after: rawText) }
    }

    private func url(_ text: String?) -> URL? {
        Self.whole(text, after: rawText).flatMap { URL(string: $0) }
    }

    /// A size's text as kept: its tail after `raw` where it is `raw` and more, else all of it.
    private static func kept(_ text: String?, after raw: String?) -> String? {
        guard let text, let raw, !raw.isEmpty, text.utf8.count > raw.utf8.count, text.utf8.starts(with: raw.utf8)
        else { return text }
        // The mark and the tail as one string, the one held for every photo with this tail.
        return Interned.tail(tailMark + String(decoding: text.utf8.dropFirst(raw.utf8.count), as: UTF8.self))
    }

    /// A size's whole text, from what is kept.
    private static func whole(_ kept: String?, after raw: String?) -> String? {
        guard let kept, kept.utf8.first == 1 else { return kept }
        return (raw ?? "") + String(decoding: kept.utf8.dropFirst(), as: UTF8.self)
    }
}

extension PhotoURLs: Codable {
    private enum CodingKeys: String, CodingKey {
        case raw, full, regular, small, thumb
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Each address read as every model's URL field is (a missing key is nil; what URL(string:) refuses, refused).
        func url(_ key: CodingKeys) throws -> URL? { try container.decode(StoredAsText.self, forKey: key).wrappedValue }
        self.init(raw: try url(.raw), full: try url(.full), regular: try url(.regular), small: try url(.small),
                  thumb: try url(.thumb))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(rawText, forKey: .raw)
        try container.encodeIfPresent(Self.whole(fullText, after: rawText), forKey: .full)
        try container.encodeIfPresent(Self.whole(regularText, after: rawText), forKey: .regular)
        try container.encodeIfPresent(Self.whole(smallText, after: rawText), forKey: .small)
        try container.encodeIfPresent(Self.whole(thumbText, after: rawText), forKey: .thumb)
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
