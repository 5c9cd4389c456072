/// Performs the feed's effects against a photo service and turns each outcome into an event.
public struct PhotoListEffectRunner: Sendable {
    private let service: any PhotoService

    public init(service: any PhotoService) {
        self.service = service
    }

    public func perform(_ effect: PhotoListViewModel.Effect) async -> PhotoListViewModel.Event {
        switch effect {
        case let .loadPage(page, perPage):
            do {
                return .pageLoaded(page: page, .success(try await service.feed(page: page, perPage: perPage)))
            } catch {
                return .pageLoaded(page: page, .failure(error))
            }
        case let .setLike(photoID, liked):
            do {
                return .likeFinished(photoID: photoID, liked: liked,
                                     .success(try await service.setLike(liked, photoID: photoID)))
            } catch {
                return .likeFinished(photoID: photoID, liked: liked, .failure(error))
            }
        }
    }
}
