import Foundation

/// A paged list of things that are not photos (Imgur albums, collections, topics, people): its items, how far it has
/// loaded, and which one is selected. One set of rules for all of them: page 1 replaces the items, a later page adds
/// those not shown yet and only when it was asked for, the next page is asked for near the end.
public struct ItemList<Item: Equatable & Sendable & Identifiable>: Equatable, Sendable {
    public var items: [Item] = []
    public var phase: PhotoListState.Phase
    /// The next page to ask for; nil at the end.
    public var nextPage: Int?
    /// The next page is on its way: the row at the end of the tiles.
    public var loadingMore = false
    public var moreFailed: ServiceError?
    /// The last page added nothing new: the next is asked for only when the user asks (`r`).
    public var waitsForAsk = false
    public var selected = 0

    /// How close to the end the next page is asked for: the same as for photos.
    public static var prefetchDistance: Int { Paging.prefetchDistance }

    /// `phase`: `.loading` for a list asked for as it opens, `.content` for one that waits for a question.
    public init(phase: PhotoListState.Phase = .loading) {
        self.phase = phase
    }

    /// Takes a page in: page 1 replaces the items; a later page (dropped when nobody asked for it, say after a
    /// reload) adds the items not shown yet.
    public mutating func apply(page: Int, _ result: Result<Page<Item>, ServiceError>) {
        switch result {
        case let .success(loaded):
            if page == 1 {
                items = loaded.items
                phase = .content
                waitsForAsk = false
            } else {
                guard loadingMore else { return }
                let known = Set(items.map(\.id))
                let new = loaded.items.filter { !known.contains($0.id) }
                items += new
                // A page that added nothing is not followed by another until the user asks.
                waitsForAsk = new.isEmpty && loaded.nextPage != nil
            }
            loadingMore = false
            moreFailed = nil
            nextPage = loaded.nextPage
        case let .failure(error):
            if page == 1 {
                phase = .failed(error)
            } else {
                loadingMore = false
                moreFailed = error
            }
        }
    }

    /// The next page when the list shows `index` near its end and nothing is on its way.
    public mutating func pageDue(showing index: Int) -> Int? {
        guard phase == .content, !loadingMore, moreFailed == nil, !waitsForAsk, let next = nextPage,
              index >= items.count - Self.prefetchDistance else { return nil }
        loadingMore = true
        return next
    }

    /// The page `r` asks for again: the first after it failed, or the next that failed; nil when nothing failed.
    public mutating func retryPage() -> Int? {
        if case .failed = phase {
            phase = .loading
            return 1
        }
        guard moreFailed != nil || waitsForAsk, let next = nextPage else { return nil }
        moreFailed = nil
        waitsForAsk = false
        loadingMore = true
        return next
    }

    /// Listed again from the first page: what was shown goes, and a next page still on its way is dropped when it
    /// comes.
    public mutating func restart() {
        self = ItemList(phase: .loading)
    }

    /// Selects the item `index`, kept within the items.
    public mutating func select(_ index: Int) {
        guard !items.isEmpty else { return }
        selected = min(max(0, index), items.count - 1)
    }
}

/// A photographer's page: who they are, then their photos, their likes and their collections.
public struct PhotographerSheet: Equatable, Sendable {
    public enum Section: Int, CaseIterable, Sendable {
        case photos, likes, collections

        public var title: String {
            switch self {
            case .photos: "Photos"
            case .likes: "Likes"
            case .collections: "Collections"
            }
        }
    }

    public var username: String
    /// What the photo said of its author, then the service's own answer.
    public var user: User?
    public var userLoaded = false
    public var userFailed: ServiceError?
    public var section: Section = .photos
    public var order: PhotoOrder = .latest
    public var photos = PhotoListState()
    public var likes = PhotoListState()
    public var collections = ItemList<PhotoCollection>()
    /// The collections were asked for (they load when their section is first shown).
    public var collectionsAsked = false

    public init(username: String, user: User? = nil) {
        self.username = username
        self.user = user
    }

    public var photosSource: PhotoListSource { .userPhotos(username: username, order: order) }
    public var likesSource: PhotoListSource { .userLikes(username: username) }
}

/// A collection's page: its title, owner and description, then its photos.
public struct CollectionSheet: Equatable, Sendable {
    public var collection: PhotoCollection
    public var photos = PhotoListState()
    /// The photo on its way out of the collection (the user's own), when one is.
    public var takingOut: String?

    public init(collection: PhotoCollection) {
        self.collection = collection
    }

    public var source: PhotoListSource { .collectionPhotos(id: collection.id) }
}

/// The topics, to choose what the feed shows: the editorial feed first, then each topic.
public struct TopicsSheet: Equatable, Sendable {
    public var topics = ItemList<Topic>()

    public init() {}
}

/// The user's collections, to add a photo to one or take it out (with the `write_collections` scope).
public struct CollectionPicker: Equatable, Sendable {
    public var photo: Photo
    public var username: String
    public var collections = ItemList<PhotoCollection>()
    /// The collection whose change is on its way.
    public var changing: String?

    public init(photo: Photo, username: String) {
        self.photo = photo
        self.username = username
    }

    /// Whether the collection holds the photo: true or false where the service said (and after each change made
    /// here), nil where it is not known (a photo from the offline store of an older version).
    public func holds(_ collection: PhotoCollection) -> Bool? {
        photo.isIn(collection: collection.id)
    }
}

/// A page opened over a pane.
public enum ExploreSheet: Equatable, Sendable {
    case photographer(PhotographerSheet)
    case collection(CollectionSheet)
    case topics(TopicsSheet)
    case collectionPicker(CollectionPicker)

    /// The photo list the page shows now, with where its pages come from; nil when it shows none.
    public var photoList: (source: PhotoListSource, list: PhotoListState)? {
        switch self {
        case let .photographer(page):
            switch page.section {
            case .photos: (page.photosSource, page.photos)
            case .likes: (page.likesSource, page.likes)
            case .collections: nil
            }
        case let .collection(page): (page.source, page.photos)
        case .topics, .collectionPicker: nil
        }
    }

    /// Changes every photo list of the page whose source is `source` (answers find their list this way).
    mutating func changeLists(_ source: PhotoListSource?, _ change: (inout PhotoListState) -> Void) {
        switch self {
        case var .photographer(page):
            if source == nil || source == page.photosSource { change(&page.photos) }
            if source == nil || source == page.likesSource { change(&page.likes) }
            self = .photographer(page)
        case var .collection(page):
            if source == nil || source == page.source { change(&page.photos) }
            self = .collection(page)
        case .topics, .collectionPicker:
            break
        }
    }
}

/// The sheets opened over a pane (a photographer's page, a collection, the topics, your collections), the last one
/// on top; they show while that pane is shown.
public struct ExploreStack: Equatable, Sendable {
    public var tab: Tab
    public var sheets: [ExploreSheet]

    public init(tab: Tab, sheets: [ExploreSheet]) {
        self.tab = tab
        self.sheets = sheets
    }
}

extension ExploreSheet {
    /// The selection in the page's grid (a photographer's collections, the topics after the editorial feed, your
    /// collections), kept within it.
    mutating func selectItem(_ index: Int) {
        func clamp(_ count: Int) -> Int { max(0, min(index, count - 1)) }
        switch self {
        case var .photographer(page):
            page.collections.selected = clamp(page.collections.items.count)
            self = .photographer(page)
        case var .topics(page):
            page.topics.selected = clamp(page.topics.items.count + 1)
            self = .topics(page)
        case var .collectionPicker(page):
            page.collections.selected = clamp(page.collections.items.count)
            self = .collectionPicker(page)
        case .collection:
            break
        }
    }

    /// The grid's next page when the frame shows it up to `index` near its end and nothing is on its way.
    mutating func itemsDue(showing index: Int) -> ExploreViewModel.Effect? {
        changeItems { $0.pageDue(showing: index) } ?? changeTopics { $0.pageDue(showing: index - 1) }
    }

    /// The grid's page `r` asks for again: the first after it failed, or the next that failed.
    mutating func retryItems() -> ExploreViewModel.Effect? {
        changeItems { $0.retryPage() } ?? changeTopics { $0.retryPage() }
    }

    /// A change to a list of collections on the page (a photographer's, yours), with the load of the page it asks for.
    private mutating func changeItems(_ change: (inout ItemList<PhotoCollection>) -> Int?) -> ExploreViewModel.Effect? {
        switch self {
        case var .photographer(page) where page.section == .collections:
            let next = change(&page.collections)
            self = .photographer(page)
            return next.map { .loadCollections(username: page.username, page: $0) }
        case var .collectionPicker(page):
            let next = change(&page.collections)
            self = .collectionPicker(page)
            return next.map { .loadCollections(username: page.username, page: $0) }
        default:
            return nil
        }
    }

    private mutating func changeTopics(_ change: (inout ItemList<Topic>) -> Int?) -> ExploreViewModel.Effect? {
        guard case var .topics(page) = self else { return nil }
        let next = change(&page.topics)
        self = .topics(page)
        return next.map { .loadTopics(page: $0) }
    }
}

