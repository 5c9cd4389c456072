/// Performs the feed's effects against a photo service and turns each outcome into an event.
public struct FeedEffectRunner: Sendable {
    private let service: any PhotoService

    public init(service: any PhotoService) {
        self.service = service
    }

    public func perform(_ effect: FeedViewModel.Effect) async -> FeedViewModel.Event {
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
