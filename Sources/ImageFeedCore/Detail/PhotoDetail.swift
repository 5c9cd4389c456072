import Foundation

/// The detail screen of one photo from any list (the feed, the favorites, search results): the photo,
/// its story and author, and the viewer's actions (like, share, download).
public struct PhotoDetail: Equatable, Sendable {
    /// The full photo (`GET /photos/:id` adds camera details, location, the author's bio).
    public enum Extra: Equatable, Sendable {
        case loading
        case loaded
        case failed(ServiceError)
    }

    /// Like, share, download and their dialogs, as in the viewer.
    public var viewer: ViewerState
    public var extra: Extra = .loading
    /// The list the photo was opened from: the detail shows over that pane.
    public var source: ViewerState.Source

    public init(photo: Photo, source: ViewerState.Source) {
        viewer = ViewerState(photo: photo)
        viewer.source = source
        self.source = source
    }

    public var photo: Photo { viewer.photo }
}

public enum PhotoDetailViewModel {
    public enum Event: Equatable, Sendable {
        case loaded(Result<Photo, ServiceError>)
        /// `r` after the full photo could not be had.
        case retry
        case viewer(ViewerViewModel.Event)
    }

    public enum Effect: Equatable, Sendable {
        case load(photoID: String)
        case viewer(ViewerViewModel.Effect)
    }

    public static func update(_ detail: inout PhotoDetail, _ event: Event) -> [Effect] {
        switch event {
        case let .loaded(.success(full)):
            guard full.id == detail.photo.id else { return [] }
            // The like state shown stays the app's own (a like may have finished meanwhile).
            var merged = full
            merged.likedByUser = detail.photo.likedByUser
            merged.likes = detail.photo.likes
            detail.viewer.photo = merged
            detail.extra = .loaded
            return []
        case let .loaded(.failure(error)):
            detail.extra = .failed(error)
            return []
        case .retry:
            guard case .failed = detail.extra else { return [] }
            detail.extra = .loading
            return [.load(photoID: detail.photo.id)]
        case let .viewer(viewerEvent):
            return ViewerViewModel.update(&detail.viewer, viewerEvent).map(Effect.viewer)
        }
    }
}

extension PhotoDetailViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        switch self {
        case let .loaded(.failure(error)): error
        case let .viewer(event): event.failure
        default: nil
        }
    }
}
