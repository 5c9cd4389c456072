import Foundation
import ImageFeedApp
import ImageFeedCore
import TestSupport
import XCTest

/// The one performer of the app's effects: each effect has one path, whichever pane asked for it.
final class EffectPerformerTests: XCTestCase {
    private func performer(_ service: StubPhotoService, albums: (any AlbumService)? = nil) throws -> (LiveEffectPerformer, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let performer = LiveEffectPerformer(client: service, downloader: PhotoDownloader(folder: folder.url, client: service),
                                           opener: DesktopURLOpener(environment: [:]), albums: albums)
        return (performer, folder)
    }

    private func photo(_ id: String, liked: Bool = false, likes: Int = 3) -> Photo {
        var photo = Photo(id: id, width: 3, height: 2)
        photo.likedByUser = liked
        photo.likes = likes
        return photo
    }

    func test_aPage_comesBackAsTheListsEvent() async throws {
        let page = Page(items: [photo("a")], number: 2, perPage: 30, nextPage: 3)
        let service = StubPhotoService(feedResult: .success(page))
        let (performer, _) = try self.performer(service)
        let events = await performer.perform(.feed(.loadPage(page: 2, perPage: 30))) { _ in }
        XCTAssertEqual(events.first, .feed(.pageLoaded(page: 2, .success(page))))
        XCTAssertEqual(service.requests, ["feed 2 30"])
        let failed = await performer.perform(.favorites(username: "u", .loadPage(page: 1, perPage: 30))) { _ in }
        XCTAssertEqual(failed.first, .favorites(.pageLoaded(page: 1, .failure(.notFound))))
    }

    /// The feed, the favorites, search results, the viewer and the detail screen like through one path: the same
    /// request, the answer in each one's own event.
    func test_everyLike_takesTheOnePath() async throws {
        let service = StubPhotoService(likeResult: .success(photo("a", liked: true, likes: 4)))
        let (performer, _) = try self.performer(service)
        let liked = Result<Photo, ServiceError>.success(photo("a", liked: true, likes: 4))
        let feed = await performer.perform(.feed(.setLike(photoID: "a", liked: true))) { _ in }
        let favorites = await performer.perform(.favorites(username: "u", .setLike(photoID: "a", liked: true))) { _ in }
        let search = await performer.perform(.search(.results(query: "q", order: .relevant, .setLike(photoID: "a", liked: true)))) { _ in }
        let viewer = await performer.perform(.viewer(.setLike(photoID: "a", liked: true))) { _ in }
        let detail = await performer.perform(.detail(.viewer(.setLike(photoID: "a", liked: true)))) { _ in }
        XCTAssertEqual(feed.first, .feed(.likeFinished(photoID: "a", liked: true, liked)))
        XCTAssertEqual(favorites.first, .favorites(.likeFinished(photoID: "a", liked: true, liked)))
        XCTAssertEqual(search.first, .search(.answer(query: "q", order: .relevant, .likeFinished(photoID: "a", liked: true, liked))))
        XCTAssertEqual(viewer.first, .viewer(.likeFinished(liked: true, liked)))
        XCTAssertEqual(detail.first, .detail(.viewer(.likeFinished(liked: true, liked))))
        XCTAssertEqual(service.requests, Array(repeating: "like a true", count: 5))
    }

    /// A like whose answer was lost (a timeout) is not called failed when the photo, read again, says it was applied.
    func test_aLikeWhoseAnswerWasLost_isDecidedByThePhotosOwnState() async throws {
        let service = StubPhotoService(likeResult: .failure(.timeout), photoResult: .success(photo("a", liked: true, likes: 4)))
        let (performer, _) = try self.performer(service)
        let events = await performer.perform(.feed(.setLike(photoID: "a", liked: true))) { _ in }
        XCTAssertEqual(events.first, .feed(.likeFinished(photoID: "a", liked: true, .success(photo("a", liked: true, likes: 4)))))
        XCTAssertEqual(service.requests, ["like a true", "photo a"])
        let refused = StubPhotoService(likeResult: .failure(.server(status: 500)), photoResult: .success(photo("a", liked: true)))
        let (other, _) = try self.performer(refused)
        let failed = await other.perform(.feed(.setLike(photoID: "a", liked: true))) { _ in }
        XCTAssertEqual(failed.first, .feed(.likeFinished(photoID: "a", liked: true, .failure(.server(status: 500)))), "a refusal is not re-read")
    }

    func test_aLikeThatFails_carriesTheError() async throws {
        let service = StubPhotoService(likeResult: .failure(.timeout))
        let (performer, _) = try self.performer(service)
        let events = await performer.perform(.feed(.setLike(photoID: "a", liked: false))) { _ in }
        XCTAssertEqual(events.first, .feed(.likeFinished(photoID: "a", liked: false, .failure(.timeout))))
    }

    func test_albums_askTheAlbumService_orSayNoneIsConfigured() async throws {
        struct Albums: AlbumService {
            func albums(username: String, page: Int) async throws(ServiceError) -> Page<Album> {
                guard username == "known" else { throw .notFound }
                return Page(items: [Album(id: "x")], number: page, perPage: 50, nextPage: nil)
            }
            func photos(inAlbum albumID: String) async throws(ServiceError) -> [Photo] { [Photo(id: albumID + "-1")] }
        }
        let (performer, _) = try self.performer(StubPhotoService(), albums: Albums())
        let found = await performer.perform(.albums(.loadAlbums(username: "known", page: 1))) { _ in }
        XCTAssertEqual(found.first, .albums(.albumsLoaded(username: "known", page: 1,
                                                          .success(Page(items: [Album(id: "x")], number: 1, perPage: 50, nextPage: nil)))))
        let missing = await performer.perform(.albums(.loadAlbums(username: "unknown", page: 1))) { _ in }
        XCTAssertEqual(missing.first, .albums(.albumsLoaded(username: "unknown", page: 1, .failure(.notFound))))
        let photos = await performer.perform(.albums(.loadPhotos(albumID: "x"))) { _ in }
        XCTAssertEqual(photos.first, .albums(.photosLoaded(albumID: "x", .success([Photo(id: "x-1")]))))

        let (unconfigured, _) = try self.performer(StubPhotoService())
        let none = await unconfigured.perform(.albums(.loadPhotos(albumID: "x"))) { _ in }
        guard case .albums(.photosLoaded(_, .failure(.notConfigured))) = none.first else { return XCTFail("\(none)") }
    }
}

/// Answers with canned results and records what it was asked.
final class StubPhotoService: PhotoService, ServiceSession, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    let feedResult: Result<Page<Photo>, ServiceError>
    let likeResult: Result<Photo, ServiceError>
    let photoResult: Result<Photo, ServiceError>

    init(feedResult: Result<Page<Photo>, ServiceError> = .failure(.notFound),
         likeResult: Result<Photo, ServiceError> = .failure(.notFound), photoResult: Result<Photo, ServiceError> = .failure(.notFound)) {
        self.feedResult = feedResult
        self.likeResult = likeResult
        self.photoResult = photoResult
    }

    var requests: [String] { lock.withLock { recorded } }
    private func record(_ request: String) { lock.withLock { recorded.append(request) } }

    var isLoggedIn: Bool { true }
    func setToken(_ token: String?) {}
    var rateLimit: RateLimit? { nil }

    func feed(page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> {
        record("feed \(page) \(perPage)")
        return try feedResult.get()
    }
    func photo(id: String) async throws(ServiceError) -> Photo {
        record("photo \(id)")
        return try photoResult.get()
    }
    func setLike(_ liked: Bool, photoID: String) async throws(ServiceError) -> Photo {
        record("like \(photoID) \(liked)")
        return try likeResult.get()
    }
    func me() async throws(ServiceError) -> Profile { throw .loginRequired }
    func user(username: String) async throws(ServiceError) -> User { throw .notFound }
    func likes(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> { throw .notFound }
    func search(query: String, page: Int, perPage: Int, order: SearchOrder, filters: SearchFilters) async throws(ServiceError) -> Page<Photo> { throw .notFound }
    func trackDownload(of photo: Photo) async throws(ServiceError) -> URL { throw .notFound }
}
