import Foundation
import ImageFeedCore
import XCTest

final class PhotoListEffectRunnerTests: XCTestCase {
    func test_loadPage_deliversServicePageAsEvent() async {
        let service = StubPhotoService(feedResult: .success(makePage(["a"], number: 2, next: 3)))
        let event = await PhotoListEffectRunner(service: service).perform(.loadPage(page: 2, perPage: 30))
        XCTAssertEqual(event, .pageLoaded(page: 2, .success(makePage(["a"], number: 2, next: 3))))
        XCTAssertEqual(service.requests, ["feed 2 30"])
    }

    func test_loadPage_deliversServiceErrorAsEvent() async {
        let service = StubPhotoService(feedResult: .failure(.notFound))
        let event = await PhotoListEffectRunner(service: service).perform(.loadPage(page: 1, perPage: 30))
        XCTAssertEqual(event, .pageLoaded(page: 1, .failure(.notFound)))
    }

    func test_setLike_deliversOutcomeAsEvent() async {
        let service = StubPhotoService(likeResult: .failure(.timeout))
        let event = await PhotoListEffectRunner(service: service).perform(.setLike(photoID: "a", liked: false))
        XCTAssertEqual(event, .likeFinished(photoID: "a", liked: false, .failure(.timeout)))
        XCTAssertEqual(service.requests, ["like a false"])
    }

    func test_fullCycle_likeThroughRunnerTurnsHeartRed() async {
        let service = StubPhotoService(feedResult: .success(makePage(["a"], number: 1, next: nil)),
                                       likeResult: .success(makePhoto("a", liked: true, likes: 4)))
        let runner = PhotoListEffectRunner(service: service)
        var state = PhotoListState()
        var pending = PhotoListViewModel.update(&state, .load)
        while !pending.isEmpty {
            let event = await runner.perform(pending.removeFirst())
            pending += PhotoListViewModel.update(&state, event)
        }
        pending = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        while !pending.isEmpty {
            let event = await runner.perform(pending.removeFirst())
            pending += PhotoListViewModel.update(&state, event)
        }
        XCTAssertTrue(state.photos[0].likedByUser)
        XCTAssertEqual(service.requests, ["feed 1 30", "like a true"])
    }
}

/// Answers with canned results and records what it was asked.
final class StubPhotoService: PhotoService, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    let feedResult: Result<Page<Photo>, ServiceError>
    let likeResult: Result<Photo, ServiceError>

    init(feedResult: Result<Page<Photo>, ServiceError> = .failure(.notFound),
         likeResult: Result<Photo, ServiceError> = .failure(.notFound)) {
        self.feedResult = feedResult
        self.likeResult = likeResult
    }

    var requests: [String] { lock.withLock { recorded } }
    private func record(_ request: String) { lock.withLock { recorded.append(request) } }

    func feed(page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> {
        record("feed \(page) \(perPage)")
        return try feedResult.get()
    }
    func photo(id: String) async throws(ServiceError) -> Photo { throw .notFound }
    func setLike(_ liked: Bool, photoID: String) async throws(ServiceError) -> Photo {
        record("like \(photoID) \(liked)")
        return try likeResult.get()
    }
    func me() async throws(ServiceError) -> Profile { throw .loginRequired }
    func user(username: String) async throws(ServiceError) -> User { throw .notFound }
    func likes(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> { throw .notFound }
    func search(query: String, page: Int, perPage: Int, order: SearchOrder) async throws(ServiceError) -> Page<Photo> { throw .notFound }
    func trackDownload(of photo: Photo) async throws(ServiceError) -> URL { throw .notFound }
}
