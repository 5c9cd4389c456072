import Foundation

/// What the Albums pane asks of an album source (Imgur, or the sandbox that speaks its API), in the app's
/// own models: the source's response shapes never reach the panes.
public protocol AlbumService: Sendable {
    /// A user's albums, a page at a time (1-based).
    func albums(username: String, page: Int) async throws(ServiceError) -> Page<Album>
    /// The photos in an album, in the album's order.
    func photos(inAlbum albumID: String) async throws(ServiceError) -> [Photo]
    /// What is left of the service's allowance, as its last answer counted it (nil: it does not say).
    var credits: RateLimit? { get }
}

extension AlbumService {
    public var credits: RateLimit? { nil }
}
