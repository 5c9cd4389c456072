import Foundation

/// Everything the feed pane shows, as a value. The view renders it; `PhotoListViewModel.update` changes it.
public struct PhotoListState: Equatable, Sendable {
    /// The pane as a whole: the first page is loading, it failed, or there is content.
    public enum Phase: Equatable, Sendable {
        case loading
        case content
        case failed(ServiceError)
    }

    /// Loading the pages after the first, shown as a row at the end of the list.
    public enum NextPage: Equatable, Sendable {
        case idle
        case loading(page: Int)
        case failed(page: Int, ServiceError)
        /// The last page added nothing new (the service repeated photos shown already): this page is asked
        /// for only when the user asks (`r`), never on its own, so a listing that repeats itself cannot
        /// spend the hourly quota page after page.
        case waiting(page: Int)
    }

    /// A modal dialog over the feed.
    public enum Modal: Equatable, Sendable {
        /// A like or unlike failed: "Try again" repeats it, "Cancel" closes the dialog.
        case likeFailed(photoID: String, liked: Bool, ServiceError)
    }

    public var phase: Phase = .loading
    /// Held around what the screen shows, packed elsewhere (`PhotoList`).
    public var photos = PhotoList()
    /// The number of the page to ask for next; nil once the service said there are no more.
    public var nextPageNumber: Int? = 1
    public var nextPage: NextPage = .idle
    /// How many photos the whole listing has, when the service says (favorites show it as their count).
    public var totalItems: Int?
    /// When the photos shown were saved, while they come from the offline store rather than the service.
    public var savedAt: Date?
    /// Photos whose like or unlike request is running: their heart shows a spinner.
    public var likesInFlight: Set<String> = []
    /// Photos unliked in this list (the favorites) that stay in it, their heart empty, until it is reloaded or left:
    /// a second `f` likes them again, and nothing moves under the selection.
    public var keptUnliked: Set<String> = []
    public var modal: Modal?
    /// Page 1 is asked for again over the photos shown (`r`): they stay until it comes.
    public var reloading = false
    public let perPage: Int
    /// How close to the end of the list the next page is asked for.
    public let prefetchDistance: Int

    public init(perPage: Int = maximumPageSize, prefetchDistance: Int = Paging.prefetchDistance) {
        self.perPage = perPage
        self.prefetchDistance = prefetchDistance
    }

    public func photo(id: String) -> Photo? {
        photos.firstIndex(ofID: id).map { photos[$0] }
    }
}

/// The one rule every paged list follows, photos or not: the next page is asked for when the frame shows an item
/// this close to the end of what has loaded.
public enum Paging {
    public static let prefetchDistance = 10
    /// How far from the item shown a long list's photos are held as values; farther ones are packed (`PhotoList`).
    public static let heldRadius = 150
}
