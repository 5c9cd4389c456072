import Foundation

/// Everything the panes ask of a photo service (Unsplash, or the sandbox that speaks its API).
public protocol PhotoService: Sendable {
    /// The editorial feed, newest first.
    func feed(page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo>
    func photo(id: String) async throws(ServiceError) -> Photo
    /// Likes (`true`) or unlikes (`false`) a photo; returns the photo as the service now sees it.
    func setLike(_ liked: Bool, photoID: String) async throws(ServiceError) -> Photo
    /// The logged-in user.
    func me() async throws(ServiceError) -> Profile
    func user(username: String) async throws(ServiceError) -> User
    /// The photos a user liked: the favorites.
    func likes(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo>
    /// Photos that match `query`, narrowed by Unsplash's filters.
    func search(query: String, page: Int, perPage: Int, order: SearchOrder, filters: SearchFilters) async throws(ServiceError) -> Page<Photo>
    /// Tells the service that the photo is being downloaded and returns the URL of the file to fetch.
    func trackDownload(of photo: Photo) async throws(ServiceError) -> URL
}

extension PhotoService {
    /// Photos that match `query`, without filters.
    public func search(query: String, page: Int, perPage: Int, order: SearchOrder) async throws(ServiceError) -> Page<Photo> {
        try await search(query: query, page: page, perPage: perPage, order: order, filters: SearchFilters())
    }
}

/// The largest page the service accepts.
public let maximumPageSize = 30
