import Foundation
import HTTPTransport
import ImageFeedCore

/// Imgur as an `AlbumService`: calls the API through `ImgurClient` and maps its albums and images to the
/// app's `Album` and `Photo`, so nothing past this type knows Imgur's shapes.
public struct ImgurRepository: AlbumService {
    public let client: ImgurClient
    /// Albums Imgur sends per page of `/account/{username}/albums/{page}`.
    public static let albumsPerPage = 50

    public init(client: ImgurClient) {
        self.client = client
    }

    public var credits: RateLimit? { client.credits.current }

    public init(configuration: ImgurConfiguration, http: any HTTPClient) {
        self.init(client: ImgurClient(configuration: configuration, http: http))
    }

    public func albums(username: String, page: Int) async throws(ServiceError) -> Page<Album> {
        let trimmed = username.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .other("Type a username first.") }
        // Imgur numbers pages from 0; the app from 1.
        let list = try await client.albums(username: trimmed, page: max(1, page) - 1)
        if list.elements.isEmpty, list.failures > 0 { throw .malformedResponse(field: "data[0]") }
        let imageBase = client.configuration.imageBase
        let albums = list.elements.map { Self.album($0, imageBase: imageBase) }
        // Imgur sends no total: a full page means there may be more.
        let full = list.elements.count + list.failures >= Self.albumsPerPage
        return Page(items: albums, number: max(1, page), perPage: Self.albumsPerPage,
                    nextPage: full ? max(1, page) + 1 : nil, skippedItems: list.failures)
    }

    public func photos(inAlbum albumID: String) async throws(ServiceError) -> [Photo] {
        let list = try await client.images(albumID: albumID)
        if list.elements.isEmpty, list.failures > 0 { throw .malformedResponse(field: "data[0]") }
        let configuration = client.configuration
        return list.elements.compactMap { Self.photo($0, imageBase: configuration.imageBase, pageBase: configuration.pageBase) }
    }

    // MARK: Mapping

    static func album(_ dto: AlbumDTO, imageBase: URL) -> Album {
        Album(id: dto.id, title: nonEmpty(dto.title), description: nonEmpty(dto.description),
              createdAt: dto.datetime.map { Date(timeIntervalSince1970: TimeInterval($0)) },
              coverURL: nonEmpty(dto.cover).flatMap { coverURL(imageID: $0, imageBase: imageBase) },
              coverWidth: max(0, dto.coverWidth ?? 0), coverHeight: max(0, dto.coverHeight ?? 0),
              photoCount: dto.imagesCount.map { max(0, $0) }, link: nonEmpty(dto.link).flatMap { URL(string: $0) }).checked()
    }

    /// An image as a `Photo`: the file is `link`; Imgur's smaller sizes are the same name with a size letter
    /// before the extension ("abc.jpg" → "abcm.jpg" 320, "abcl.jpg" 640, "abch.jpg" 1024 pixels), so a tile asks
    /// for the one that fits its cells (`PhotoURLs.sized`). An animation (GIF, WebP, MP4) is shown by the still JPEG
    /// Imgur serves for every image id ("abch.jpg") while its frames load; `links.download` is the animation, which the
    /// viewer plays and `d` saves.
    static func photo(_ dto: ImageDTO, imageBase: URL, pageBase: URL = ImgurConfiguration.defaultPageBase) -> Photo? {
        guard var file = nonEmpty(dto.link).flatMap({ URL(string: $0) }) else { return nil }
        // A `gifv` link is Imgur's page around a video: the video is the `mp4` of the same name.
        if file.pathExtension.lowercased() == "gifv" { file = file.deletingPathExtension().appendingPathExtension("mp4") }
        let animated = dto.animated == true || ["gif", "gifv", "mp4", "webm"].contains(file.pathExtension.lowercased())
        func still(_ letter: String) -> URL? { sized(file, letter: letter, imageBase: imageBase, still: animated) }
        let large = still("h")
        let original = animated ? (large ?? file) : file
        var photo = Photo(id: dto.id, createdAt: dto.datetime.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                          width: max(0, dto.width ?? 0), height: max(0, dto.height ?? 0),
                          description: nonEmpty(dto.description) ?? nonEmpty(dto.title),
                          altDescription: nonEmpty(dto.title),
                          urls: PhotoURLs(raw: original, full: original, regular: large ?? file,
                                          small: still("l") ?? large ?? file, thumb: still("m") ?? large ?? file),
                          links: PhotoLinks(html: pageURL(imageID: dto.id, pageBase: pageBase), download: file))
        if animated { photo.isAnimated = true }
        return photo.checked()
    }

    /// Imgur's ids are letters and digits: anything else is not made into an address.
    static func isImageID(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// An image's page, from its id (when the id is one).
    static func pageURL(imageID: String, pageBase: URL) -> URL? {
        guard isImageID(imageID) else { return nil }
        return pageBase.appendingPathComponent(imageID)
    }

    /// The cover's file from its image id (albums name the cover image, not its file).
    static func coverURL(imageID: String, imageBase: URL) -> URL? {
        guard isImageID(imageID) else { return nil }
        return imageBase.appendingPathComponent("\(imageID)l.jpg")
    }

    /// Imgur's sized variant of an image file; nil for a file elsewhere (which has no such variants).
    /// `still`: the still JPEG of an animation.
    static func sized(_ file: URL, letter: String, imageBase: URL, still: Bool = false) -> URL? {
        let name = file.deletingPathExtension().lastPathComponent
        let ext = still ? "jpg" : file.pathExtension
        func folder(_ path: String) -> String {
            var trimmed = path
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            return trimmed
        }
        guard !name.isEmpty, !ext.isEmpty, file.host == imageBase.host, file.port == imageBase.port,
              folder(file.deletingLastPathComponent().path) == folder(imageBase.path) else { return nil }
        return file.deletingLastPathComponent().appendingPathComponent("\(name)\(letter).\(ext)")
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
