import Foundation

/// The feed pane's rules, as a state machine: `update` decides, and returns the effects for the
/// shell to perform; their results come back as events. No I/O, no clock, no terminal here.
public enum PhotoListViewModel {
    public enum Event: Equatable, Sendable {
        /// The pane is shown for the first time, or the user asked to reload it.
        case load
        /// The user asked to retry after an error (the first page's, or the next page's).
        case retry
        /// The list shows the item at this index: near the end, the next page is asked for.
        case showedItem(index: Int)
        case pageLoaded(page: Int, Result<Page<Photo>, ServiceError>)
        /// The user pressed the like button of a photo.
        case toggleLike(photoID: String)
        case likeFinished(photoID: String, liked: Bool, Result<Photo, ServiceError>)
        case modalTryAgain
        case modalCancel
        /// A photo's like state changed elsewhere (another pane): keep the heart in step.
        case likeChangedElsewhere(photoID: String, liked: Bool, likes: Int)
        /// The photo went into one of the user's collections, or out of it, elsewhere (the collection picker).
        case collectedElsewhere(photoID: String, collectionID: String, added: Bool)
        /// A photo joins the list at the top (a like elsewhere adds it to favorites).
        case insertedElsewhere(Photo)
        /// A photo leaves the list (an unlike elsewhere removes it from favorites).
        case removedElsewhere(photoID: String)
        /// A photo unliked in this list stays where it is, its heart empty, and no longer counts (`keptUnliked`).
        case unlikedHere(photoID: String)
        /// The photos unliked here leave the list (the list is left).
        case pruneUnliked
        /// Forget everything (logging out).
        case reset
        /// At launch: the saved list, shown at once while page 1 is asked for.
        case showSaved(photos: [Photo], savedAt: Date)
        /// The page just delivered came from the offline store, saved at that time (the service could not
        /// be reached).
        case servedFromSaved(Date)
    }

    public enum Effect: Equatable, Sendable {
        case loadPage(page: Int, perPage: Int)
        case setLike(photoID: String, liked: Bool)
    }

    public static func update(_ state: inout PhotoListState, _ event: Event) -> [Effect] {
        switch event {
        case .load:
            // Reloading starts again at page 1; what is shown stays until the new page arrives.
            if case .loading(page: 1) = state.nextPage { return [] }
            if state.photos.isEmpty { state.phase = .loading }
            state.reloading = !state.photos.isEmpty && state.phase == .content
            state.nextPage = .loading(page: 1)
            return [.loadPage(page: 1, perPage: state.perPage)]

        case .retry:
            switch (state.phase, state.nextPage) {
            case (.failed, _):
                return update(&state, .load)
            case let (_, .failed(page, _)), let (_, .waiting(page)):
                state.nextPage = .loading(page: page)
                return [.loadPage(page: page, perPage: state.perPage)]
            default:
                return []
            }

        case let .showedItem(index):
            state.photos.hold(around: index, radius: Paging.heldRadius)
            guard state.phase == .content, state.nextPage == .idle, let next = state.nextPageNumber,
                  index >= state.photos.count - state.prefetchDistance else { return [] }
            state.nextPage = .loading(page: next)
            return [.loadPage(page: next, perPage: state.perPage)]

        case let .pageLoaded(page, result):
            // An answer for a page nobody is waiting for (superseded by a reload) is dropped.
            guard state.nextPage == .loading(page: page) else { return [] }
            if page == 1 { state.reloading = false }
            switch result {
            case let .success(loaded):
                var added = 0
                if page == 1 {
                    state.savedAt = nil
                    state.keptUnliked = []
                    state.photos = PhotoList(uniqued(loaded.items))
                } else {
                    let known = Set(state.photos.ids)
                    let new = uniqued(loaded.items).filter { !known.contains($0.id) }
                    added = new.count
                    state.photos += new
                }
                state.nextPageNumber = loaded.nextPage
                state.totalItems = loaded.totalItems ?? state.totalItems
                // A later page that added nothing is not followed by another until the user asks.
                if page > 1, added == 0, let next = loaded.nextPage {
                    state.nextPage = .waiting(page: next)
                } else {
                    state.nextPage = .idle
                }
                state.phase = .content
            case let .failure(error):
                if page == 1 && state.photos.isEmpty {
                    state.phase = .failed(error)
                    state.nextPage = .idle
                } else if page == 1 {
                    // A reload that failed: the photos shown stay, the status line says why (not a
                    // "Couldn't load more" row under the last card), and r asks again.
                    state.nextPage = .idle
                } else {
                    state.nextPage = .failed(page: page, error)
                }
            }
            return []

        case let .toggleLike(photoID):
            guard let photo = state.photo(id: photoID), !state.likesInFlight.contains(photoID) else { return [] }
            state.likesInFlight.insert(photoID)
            return [.setLike(photoID: photoID, liked: !photo.likedByUser)]

        case let .likeFinished(photoID, liked, result):
            state.likesInFlight.remove(photoID)
            switch result {
            case let .success(updated):
                apply(liked: liked, likes: updated.likes, to: photoID, in: &state)
            case let .failure(error):
                // A 401 ends the session (the app's rule, where the answer arrives): no dialog for it.
                if error != .sessionExpired { state.modal = .likeFailed(photoID: photoID, liked: liked, error) }
            }
            return []

        case .modalTryAgain:
            guard case let .likeFailed(photoID, liked, error) = state.modal else { return [] }
            state.modal = nil
            // Where trying again cannot help now (the hour's quota is used up), the dialog's one button only closes it.
            guard error.retryHelpsNow, !state.likesInFlight.contains(photoID) else { return [] }
            state.likesInFlight.insert(photoID)
            return [.setLike(photoID: photoID, liked: liked)]

        case .modalCancel:
            state.modal = nil
            return []

        case let .likeChangedElsewhere(photoID, liked, likes):
            apply(liked: liked, likes: likes, to: photoID, in: &state)
            return []

        case let .collectedElsewhere(photoID, collectionID, added):
            guard let index = state.photos.firstIndex(ofID: photoID) else { return [] }
            state.photos[index].collect(collectionID, added: added)
            return []

        case let .insertedElsewhere(photo):
            // Liked again where it was kept: it counts again, where it is.
            if state.keptUnliked.remove(photo.id) != nil {
                state.totalItems = state.totalItems.map { $0 + 1 }
                return []
            }
            guard state.phase == .content, state.photo(id: photo.id) == nil else { return [] }
            state.photos.insert(photo, at: 0)
            state.totalItems = state.totalItems.map { $0 + 1 }
            return []

        case let .removedElsewhere(photoID):
            guard let index = state.photos.firstIndex(ofID: photoID) else { return [] }
            state.photos.remove(at: index)
            state.likesInFlight.remove(photoID)
            // A photo kept unliked no longer counted.
            if state.keptUnliked.remove(photoID) == nil { state.totalItems = state.totalItems.map { max(0, $0 - 1) } }
            return []

        case let .unlikedHere(photoID):
            guard state.photo(id: photoID) != nil, state.keptUnliked.insert(photoID).inserted else { return [] }
            state.totalItems = state.totalItems.map { max(0, $0 - 1) }
            return []

        case .pruneUnliked:
            for photoID in state.keptUnliked {
                if let index = state.photos.firstIndex(ofID: photoID) { state.photos.remove(at: index) }
            }
            state.keptUnliked = []
            return []

        case .reset:
            state = PhotoListState(perPage: state.perPage, prefetchDistance: state.prefetchDistance)
            return []

        case let .showSaved(photos, savedAt):
            guard state.phase == .loading, state.photos.isEmpty, !photos.isEmpty else { return [] }
            state.photos = PhotoList(uniqued(photos))
            state.phase = .content
            state.savedAt = savedAt
            return []

        case let .servedFromSaved(savedAt):
            state.savedAt = savedAt
            return []
        }
    }

    private static func apply(liked: Bool, likes: Int, to photoID: String, in state: inout PhotoListState) {
        guard let index = state.photos.firstIndex(ofID: photoID) else { return }
        state.photos[index].likedByUser = liked
        state.photos[index].likes = likes
    }

    /// The feed can repeat a photo across pages when new photos arrive while paging; each is shown once.
    private static func uniqued(_ photos: [Photo]) -> [Photo] {
        var seen = Set<String>()
        return photos.filter { seen.insert($0.id).inserted }
    }
}

extension PhotoListViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        switch self {
        case let .pageLoaded(_, .failure(error)), let .likeFinished(_, _, .failure(error)): error
        default: nil
        }
    }
}
