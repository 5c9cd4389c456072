import Foundation

/// Exploring as on the site: a photographer's page (their photos, sortable; their likes; their collections), a
/// collection's photos, and the topics the feed can show instead of the editorial feed. Pages open over the pane
/// they were opened from and go back one at a time; their photo lists page, like and fail as every list does.
public enum BrowseViewModel {
    public enum Event: Equatable, Sendable {
        /// `u` on any photo: its photographer's page (what the photo says of them shows at once).
        case openPhotographer(username: String, user: User?)
        /// `t` in the feed: the topics, to choose what the feed shows.
        case openTopics
        case openCollection(PhotoCollection)
        /// Esc or q on a page: the page under it, or the pane.
        case back
        /// ← → on a photographer's page: photos, likes, collections.
        case stepSection(Int)
        /// `s` on a photographer's photos: latest, oldest, popular.
        case cycleOrder
        /// The selection in the page's list of collections or topics.
        case select(index: Int)
        /// Enter on a topic (nil: the editorial feed).
        case chooseTopic(Topic?)
        /// `s` in the feed while a topic shows: its photos latest, oldest or popular first.
        case cycleTopicOrder
        /// `r` on a page: what failed, again.
        case retry
        /// `c` on a photo: the user's collections, to add it to one (Enter) or take it out (`x`).
        case openCollectionPicker(Photo)
        case changeCollection(add: Bool, index: Int)
        case collectionChanged(collectionID: String, add: Bool, Result<Bool, ServiceError>)
        /// The user's own actions on the page's photo list (likes, the like dialog, retry).
        case list(PhotoListViewModel.Event)
        // Answers.
        case photosAnswer(PhotoListSource, PhotoListViewModel.Event)
        case userLoaded(username: String, Result<User, ServiceError>)
        case collectionsLoaded(username: String, page: Int, Result<Page<PhotoCollection>, ServiceError>)
        case topicsLoaded(page: Int, Result<Page<Topic>, ServiceError>)
    }

    public enum Effect: Equatable, Sendable {
        /// A photo list's effect (a page, a like), for the list of that source.
        case photos(PhotoListSource, PhotoListViewModel.Effect)
        case loadUser(username: String)
        case loadCollections(username: String, page: Int)
        case loadTopics(page: Int)
        /// Keep the feed's topic for the next run (nil: the editorial feed).
        case saveFeedTopic(Topic?)
        case setInCollection(add: Bool, photoID: String, collectionID: String)
    }
}

extension BrowseViewModel.Event {
    /// The service's error, when this event is an answer that failed.
    public var failure: ServiceError? {
        switch self {
        case let .photosAnswer(_, event): event.failure
        case let .userLoaded(_, .failure(error)), let .collectionsLoaded(_, _, .failure(error)), let .topicsLoaded(_, .failure(error)),
             let .collectionChanged(_, _, .failure(error)): error
        default: nil
        }
    }
}

extension AppState {
    /// The page on top, when the pane it was opened over is shown.
    public var shownPage: BrowsePage? {
        guard let browse, browse.tab == tab else { return nil }
        return browse.pages.last
    }

    /// Where the feed's photos come from when a topic is chosen; nil for the editorial feed.
    public var feedTopicSource: PhotoListSource? {
        feedTopic.map { .topicPhotos(slug: $0.slug, order: feedTopicOrder) }
    }

    /// Changes the page on top.
    mutating func changeTopPage(_ change: (inout BrowsePage) -> Void) {
        guard var browse, var page = browse.pages.last else { return }
        change(&page)
        browse.pages[browse.pages.count - 1] = page
        self.browse = browse
    }
}

extension AppViewModel {
    /// The pages' rules.
    static func browse(_ state: inout AppState, _ event: BrowseViewModel.Event) -> [Effect] {
        switch event {
        case let .openPhotographer(username, user):
            var page = PhotographerPage(username: username, user: user)
            let effects = PhotoListViewModel.update(&page.photos, .load).map { Effect.browse(.photos(page.photosSource, $0)) }
            push(.photographer(page), in: &state)
            return [.browse(.loadUser(username: username))] + effects

        case .openTopics:
            push(.topics(TopicsPage()), in: &state)
            return [.browse(.loadTopics(page: 1))]

        case let .openCollection(collection):
            var page = CollectionPage(collection: collection)
            let effects = PhotoListViewModel.update(&page.photos, .load).map { Effect.browse(.photos(page.source, $0)) }
            push(.collection(page), in: &state)
            return effects

        case .back:
            guard var browse = state.browse, browse.tab == state.tab else { return [] }
            browse.pages.removeLast()
            state.browse = browse.pages.isEmpty ? nil : browse
            // A detail opened from the page's photos goes with it.
            if state.detail?.source == .page { state.detail = nil }
            return []

        case let .stepSection(step):
            var effects: [Effect] = []
            state.changeTopPage { page in
                guard case var .photographer(photographer) = page else { return }
                let sections = PhotographerPage.Section.allCases
                let index = (photographer.section.rawValue + step + sections.count) % sections.count
                photographer.section = sections[index]
                effects = showSection(&photographer)
                page = .photographer(photographer)
            }
            return effects

        case .cycleOrder:
            var effects: [Effect] = []
            state.changeTopPage { page in
                guard case var .photographer(photographer) = page, photographer.section == .photos else { return }
                photographer.order = photographer.order.next
                photographer.photos = PhotoListState()
                effects = PhotoListViewModel.update(&photographer.photos, .load).map { Effect.browse(.photos(photographer.photosSource, $0)) }
                page = .photographer(photographer)
            }
            return effects

        case let .select(index):
            state.changeTopPage { $0.selectItem(index) }
            return []

        case let .chooseTopic(topic):
            state.browse = nil
            state.tab = .feed
            guard topic?.slug != state.feedTopic?.slug else { return [] }
            state.feedTopic = topic
            state.feedTopicOrder = .latest
            _ = PhotoListViewModel.update(&state.feed, .reset)
            return [.browse(.saveFeedTopic(topic))] + feedEffects(PhotoListViewModel.update(&state.feed, .load), state)

        case .cycleTopicOrder:
            guard state.feedTopic != nil else { return [] }
            state.feedTopicOrder = state.feedTopicOrder.next
            _ = PhotoListViewModel.update(&state.feed, .reset)
            return feedEffects(PhotoListViewModel.update(&state.feed, .load), state)

        case .retry:
            guard let page = state.shownPage else { return [] }
            // A photographer's profile first, then what the page lists: its photos, or its grid.
            if case let .photographer(photographer) = page, photographer.userFailed != nil {
                state.changeTopPage { if case var .photographer(p) = $0 { p.userFailed = nil; $0 = .photographer(p) } }
                return [.browse(.loadUser(username: photographer.username))]
            }
            if page.photoList != nil { return browse(&state, .list(.retry)) }
            var effect: BrowseViewModel.Effect?
            state.changeTopPage { effect = $0.retryItems() }
            return effect.map { [.browse($0)] } ?? []

        case let .list(listEvent):
            guard let (source, _) = state.shownPage?.photoList else { return [] }
            var effects: [PhotoListViewModel.Effect] = []
            state.changeTopPage { page in
                page.changeLists(source) { effects = PhotoListViewModel.update(&$0, listEvent) }
            }
            return effects.map { .browse(.photos(source, $0)) }

        case let .photosAnswer(source, listEvent):
            // The feed, when it shows that topic, takes the answer as its own (notices, likes everywhere).
            if source == state.feedTopicSource { return route(&state, .feed(listEvent)) }
            var effects: [PhotoListViewModel.Effect] = []
            var liked: Photo?
            if var browse = state.browse {
                for index in browse.pages.indices {
                    browse.pages[index].changeLists(source) { list in
                        let before = list.photo(id: likedID(listEvent) ?? "")
                        effects += PhotoListViewModel.update(&list, listEvent)
                        if case let .likeFinished(photoID, _, .success(answer)) = listEvent {
                            liked = list.photo(id: photoID) ?? before ?? answer
                        }
                    }
                }
                state.browse = browse
            }
            noteConnection(listEvent, in: &state)
            var all = effects.map { Effect.browse(.photos(source, $0)) }
            if let liked, case let .likeFinished(_, isLiked, .success(answer)) = listEvent {
                all += likeChanged(liked, liked: isLiked, likes: answer.likes, in: &state)
            }
            return all

        case let .userLoaded(username, result):
            changePhotographers(username, in: &state) { page in
                switch result {
                case let .success(user):
                    page.user = user
                    page.userLoaded = true
                    page.userFailed = nil
                case let .failure(error):
                    page.userFailed = error
                }
            }
            return []

        case let .collectionsLoaded(username, number, result):
            changePhotographers(username, in: &state) { page in page.collections.apply(page: number, result) }
            changePickers(in: &state) { picker in
                if picker.username == username { picker.collections.apply(page: number, result) }
            }
            return []

        case let .openCollectionPicker(photo):
            guard let username = state.profile.profile?.username else {
                return notify("Your collections show once your profile has loaded (the Profile tab).", kind: .error, in: &state)
            }
            push(.collectionPicker(CollectionPicker(photo: photo, username: username)), in: &state)
            return [.browse(.loadCollections(username: username, page: 1))]

        case let .changeCollection(add, index):
            guard case let .collectionPicker(picker) = state.shownPage, picker.changing == nil,
                  picker.collections.items.indices.contains(index) else { return [] }
            let collection = picker.collections.items[index]
            state.changeTopPage { if case var .collectionPicker(p) = $0 { p.changing = collection.id; $0 = .collectionPicker(p) } }
            return [.browse(.setInCollection(add: add, photoID: picker.photo.id, collectionID: collection.id))]

        case let .collectionChanged(collectionID, add, result):
            var title = "the collection"
            changePickers(in: &state) { picker in
                guard picker.changing == collectionID else { return }
                picker.changing = nil
                if let index = picker.collections.items.firstIndex(where: { $0.id == collectionID }) {
                    title = picker.collections.items[index].title
                    if case .success = result, let total = picker.collections.items[index].totalPhotos {
                        picker.collections.items[index].totalPhotos = max(0, total + (add ? 1 : -1))
                    }
                }
            }
            let quoted = "“\(UntrustedText.sanitize(title))”"
            switch result {
            case .success:
                return notify(add ? "Added to \(quoted)." : "Taken out of \(quoted).", kind: .info, in: &state)
            case .failure(.forbidden):
                return notify("Changing collections needs the write_collections scope: set write_collections = true in the config "
                              + "file, then log out and in again.", kind: .error, in: &state)
            case .failure(.sessionExpired):
                return []
            case let .failure(error):
                return notify("Couldn't change \(quoted) (\(error.summary)).", kind: .error, in: &state)
            }

        case let .topicsLoaded(number, result):
            guard var browse = state.browse else { return [] }
            for index in browse.pages.indices {
                if case var .topics(topics) = browse.pages[index] {
                    topics.topics.apply(page: number, result)
                    browse.pages[index] = .topics(topics)
                }
            }
            state.browse = browse
            return []
        }
    }

    /// The frame shows the page's list up to `index`: its next page when it is due.
    static func pageShown(_ index: Int, in state: inout AppState) -> [Effect] {
        guard let page = state.shownPage else { return [] }
        if let (source, _) = page.photoList {
            var effects: [PhotoListViewModel.Effect] = []
            state.changeTopPage { $0.changeLists(source) { effects = PhotoListViewModel.update(&$0, .showedItem(index: index)) } }
            return effects.map { .browse(.photos(source, $0)) }
        }
        var effect: BrowseViewModel.Effect?
        state.changeTopPage { effect = $0.itemsDue(showing: index) }
        return effect.map { [.browse($0)] } ?? []
    }

    /// The feed's effects, for the editorial feed or the topic it shows.
    static func feedEffects(_ effects: [PhotoListViewModel.Effect], _ state: AppState) -> [Effect] {
        guard let source = state.feedTopicSource else { return effects.map(Effect.feed) }
        return effects.map { .browse(.photos(source, $0)) }
    }

    /// A photographer's section shown for the first time asks for what it lists.
    private static func showSection(_ page: inout PhotographerPage) -> [Effect] {
        switch page.section {
        case .photos:
            return []
        case .likes:
            guard page.likes.photos.isEmpty, page.likes.nextPage == .idle, page.likes.phase == .loading else { return [] }
            let source = page.likesSource
            return PhotoListViewModel.update(&page.likes, .load).map { .browse(.photos(source, $0)) }
        case .collections:
            guard !page.collectionsAsked else { return [] }
            page.collectionsAsked = true
            return [.browse(.loadCollections(username: page.username, page: 1))]
        }
    }

    private static func push(_ page: BrowsePage, in state: inout AppState) {
        // A page opened from the viewer shows over the pane the viewer was opened from.
        state.viewer = nil
        state.helpVisible = false
        if var browse = state.browse, browse.tab == state.tab {
            browse.pages.append(page)
            state.browse = browse
        } else {
            state.browse = Browse(tab: state.tab, pages: [page])
        }
    }

    private static func changePhotographers(_ username: String, in state: inout AppState, _ change: (inout PhotographerPage) -> Void) {
        guard var browse = state.browse else { return }
        for index in browse.pages.indices {
            if case var .photographer(page) = browse.pages[index], page.username == username {
                change(&page)
                browse.pages[index] = .photographer(page)
            }
        }
        state.browse = browse
    }

    private static func changePickers(in state: inout AppState, _ change: (inout CollectionPicker) -> Void) {
        guard var browse = state.browse else { return }
        for index in browse.pages.indices {
            if case var .collectionPicker(picker) = browse.pages[index] {
                change(&picker)
                browse.pages[index] = .collectionPicker(picker)
            }
        }
        state.browse = browse
    }

    private static func likedID(_ event: PhotoListViewModel.Event) -> String? {
        if case let .likeFinished(photoID, _, _) = event { return photoID }
        return nil
    }
}
