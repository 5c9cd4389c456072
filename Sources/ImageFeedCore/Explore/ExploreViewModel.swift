import Foundation

/// Exploring as on the site: a photographer's page (their photos, sortable; their likes; their collections), a
/// collection's photos, and the topics the feed can show instead of the editorial feed. Pages open over the pane
/// they were opened from and go back one at a time; their photo lists page, like and fail as every list does.
public enum ExploreViewModel {
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
        /// The frame shows the page's list up to `index` (its next page when it is due).
        case showedItem(index: Int)
        /// `c` on a photo: the user's collections, to add it to one (Enter) or take it out (`x`).
        case openCollectionPicker(Photo)
        case changeCollection(add: Bool, index: Int)
        /// `X` on a photo of a collection's page: out of the collection, when it is the user's own.
        case takeOutOfShownCollection(photoIndex: Int)
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
        case saveFeedTopic(Topic?, order: PhotoOrder = .latest)
        case setInCollection(add: Bool, photoID: String, collectionID: String)
    }
}

extension ExploreViewModel.Event {
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
    public var shownSheet: ExploreSheet? {
        guard let explore, explore.tab == tab else { return nil }
        return explore.sheets.last
    }

    /// Where the feed's photos come from when a topic is chosen; nil for the editorial feed.
    public var feedTopicSource: PhotoListSource? {
        feedTopic.map { .topicPhotos(slug: $0.slug, order: feedTopicOrder) }
    }
}

extension ExploreViewModel {
    /// What the pages need to know of the app: the pane in front, the feed's topic, whose collections are "yours".
    public struct Context: Equatable, Sendable {
        public var tab: Tab
        public var feedTopicSource: PhotoListSource?
        public var username: String?
        /// The demo (a refusal names what lifts it there: an environment variable, not a file to edit).
        public var isDemo: Bool

        public init(tab: Tab, feedTopicSource: PhotoListSource? = nil, username: String? = nil, isDemo: Bool = false) {
            self.tab = tab
            self.feedTopicSource = feedTopicSource
            self.username = username
            self.isDemo = isDemo
        }
    }

    /// What the pages tell the app, which owns what they do not (the viewer, the detail, the feed, the status line,
    /// every list a like reaches), as Bubble Tea's children return messages rather than set their parent's flags.
    public enum Outcome: Equatable, Sendable {
        /// A page opened: it goes over whatever covered the pane (the viewer, the help).
        case opened
        /// The page on top went: a detail opened from its photos goes with it.
        case closedPage
        /// A topic (nil: the editorial feed) for the feed, chosen on the topics page (which closed).
        case chooseTopic(Topic?)
        /// The feed's topic in its next order.
        case cycleTopicOrder
        /// An answer for the feed's own topic: the feed takes it.
        case feedAnswer(PhotoListViewModel.Event)
        /// A page's list heard from the service (the status line's connection follows).
        case answered(PhotoListViewModel.Event)
        /// A like that succeeded on a page's photo: every list and shown photo follows.
        case liked(Photo, liked: Bool, likes: Int)
        /// A photo went into one of the user's collections or out of it: every list and shown photo marks it.
        case collected(photoID: String, collectionID: String, added: Bool)
        case notify(String, StatusNotice.Kind)
    }

    /// The pages' rules, over the stack of pages alone.
    public static func update(_ stack: inout ExploreStack?, _ event: Event, _ context: Context) -> (effects: [Effect], outcomes: [Outcome]) {
        var state = Machine(stack: stack, context: context)
        let effects = state.update(event)
        stack = state.stack
        return (effects, state.outcomes)
    }

    private struct Machine {
        var stack: ExploreStack?
        let context: Context
        var outcomes: [Outcome] = []

        init(stack: ExploreStack?, context: Context) {
            self.stack = stack
            self.context = context
        }

        /// The page on top, when the pane it was opened over is shown.
        var shownSheet: ExploreSheet? {
            guard let stack, stack.tab == context.tab else { return nil }
            return stack.sheets.last
        }

        mutating func changeTopPage(_ change: (inout ExploreSheet) -> Void) {
            guard var stack, stack.tab == context.tab, var page = stack.sheets.last else { return }
            change(&page)
            stack.sheets[stack.sheets.count - 1] = page
            self.stack = stack
        }

        mutating func changePages(_ change: (inout ExploreSheet) -> Void) {
            guard var stack else { return }
            for index in stack.sheets.indices { change(&stack.sheets[index]) }
            self.stack = stack
        }

        mutating func push(_ page: ExploreSheet) {
            outcomes.append(.opened)
            if var stack, stack.tab == context.tab {
                stack.sheets.append(page)
                self.stack = stack
            } else {
                stack = ExploreStack(tab: context.tab, sheets: [page])
            }
        }

        mutating func notify(_ text: String, _ kind: StatusNotice.Kind) -> [Effect] {
            outcomes.append(.notify(text, kind))
            return []
        }

        mutating func update(_ event: Event) -> [Effect] {
            switch event {
            case let .openPhotographer(username, user):
                // Their page is the one on top already: another copy would only have to be closed twice.
                if case let .photographer(shown) = shownSheet, shown.username == username {
                    return notify("This is @\(UntrustedText.sanitize(username))'s page.", .info)
                }
                var page = PhotographerSheet(username: username, user: user)
                let effects = PhotoListViewModel.update(&page.photos, .load).map { Effect.photos(page.photosSource, $0) }
                push(.photographer(page))
                return [.loadUser(username: username)] + effects

            case .openTopics:
                push(.topics(TopicsSheet()))
                return [.loadTopics(page: 1)]

            case let .openCollection(collection):
                var page = CollectionSheet(collection: collection)
                let effects = PhotoListViewModel.update(&page.photos, .load).map { Effect.photos(page.source, $0) }
                push(.collection(page))
                return effects

            case .back:
                guard var stack, stack.tab == context.tab else { return [] }
                stack.sheets.removeLast()
                self.stack = stack.sheets.isEmpty ? nil : stack
                outcomes.append(.closedPage)
                return []

            case let .stepSection(step):
                var effects: [Effect] = []
                changeTopPage { page in
                    guard case var .photographer(photographer) = page else { return }
                    let sections = PhotographerSheet.Section.allCases
                    let index = (photographer.section.rawValue + step + sections.count) % sections.count
                    photographer.section = sections[index]
                    effects = Self.showSection(&photographer)
                    page = .photographer(photographer)
                }
                return effects

            case .cycleOrder:
                var effects: [Effect] = []
                changeTopPage { page in
                    guard case var .photographer(photographer) = page, photographer.section == .photos else { return }
                    photographer.order = photographer.order.next
                    photographer.photos = PhotoListState()
                    effects = PhotoListViewModel.update(&photographer.photos, .load).map { Effect.photos(photographer.photosSource, $0) }
                    page = .photographer(photographer)
                }
                return effects

            case let .select(index):
                changeTopPage { $0.selectItem(index) }
                return []

            case let .chooseTopic(topic):
                stack = nil
                outcomes.append(.chooseTopic(topic))
                return []

            case .cycleTopicOrder:
                outcomes.append(.cycleTopicOrder)
                return []

            case .retry:
                guard let page = shownSheet else { return [] }
                // A photographer's profile first, then what the page lists: its photos, or its grid.
                if case let .photographer(photographer) = page, photographer.userFailed != nil {
                    changeTopPage { if case var .photographer(p) = $0 { p.userFailed = nil; $0 = .photographer(p) } }
                    return [.loadUser(username: photographer.username)]
                }
                if page.photoList != nil { return update(.list(.retry)) }
                var effect: Effect?
                changeTopPage { effect = $0.retryItems() }
                return effect.map { [$0] } ?? []

            case let .showedItem(index):
                guard let page = shownSheet else { return [] }
                if let (source, _) = page.photoList {
                    var effects: [PhotoListViewModel.Effect] = []
                    changeTopPage { $0.changeLists(source) { effects = PhotoListViewModel.update(&$0, .showedItem(index: index)) } }
                    return effects.map { .photos(source, $0) }
                }
                var effect: Effect?
                changeTopPage { effect = $0.itemsDue(showing: index) }
                return effect.map { [$0] } ?? []

            case let .list(listEvent):
                guard let (source, _) = shownSheet?.photoList else { return [] }
                var effects: [PhotoListViewModel.Effect] = []
                changeTopPage { page in
                    page.changeLists(source) { effects = PhotoListViewModel.update(&$0, listEvent) }
                }
                return effects.map { .photos(source, $0) }

            case let .photosAnswer(source, listEvent):
                // The feed, when it shows that topic, takes the answer as its own (notices, likes everywhere).
                if source == context.feedTopicSource {
                    outcomes.append(.feedAnswer(listEvent))
                    return []
                }
                var effects: [PhotoListViewModel.Effect] = []
                var liked: Photo?
                changePages { page in
                    page.changeLists(source) { list in
                        let before = list.photo(id: Self.likedID(listEvent) ?? "")
                        effects += PhotoListViewModel.update(&list, listEvent)
                        if case let .likeFinished(photoID, _, .success(answer)) = listEvent {
                            liked = list.photo(id: photoID) ?? before ?? answer
                        }
                    }
                }
                outcomes.append(.answered(listEvent))
                if let liked, case let .likeFinished(_, isLiked, .success(answer)) = listEvent {
                    outcomes.append(.liked(liked, liked: isLiked, likes: answer.likes))
                }
                return effects.map { .photos(source, $0) }

            case let .userLoaded(username, result):
                changePhotographers(username) { page in
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
                changePhotographers(username) { page in page.collections.apply(page: number, result) }
                changePickers { picker in
                    if picker.username == username { picker.collections.apply(page: number, result) }
                }
                return []

            case let .openCollectionPicker(photo):
                guard let username = context.username else {
                    return notify("Your collections show once your profile has loaded (the Profile tab).", .error)
                }
                push(.collectionPicker(CollectionPicker(photo: photo, username: username)))
                return [.loadCollections(username: username, page: 1)]

            case let .changeCollection(add, index):
                guard case let .collectionPicker(picker) = shownSheet, picker.changing == nil,
                      picker.collections.items.indices.contains(index) else { return [] }
                let collection = picker.collections.items[index]
                let quoted = "“\(UntrustedText.sanitize(collection.title))”"
                switch (add, picker.holds(collection)) {
                case (true, true?):
                    return notify("\(quoted) holds this photo already.", .info)
                case (false, false?):
                    return notify("\(quoted) does not hold this photo.", .info)
                default:
                    break
                }
                changeTopPage { if case var .collectionPicker(p) = $0 { p.changing = collection.id; $0 = .collectionPicker(p) } }
                return [.setInCollection(add: add, photoID: picker.photo.id, collectionID: collection.id)]

            case let .takeOutOfShownCollection(photoIndex):
                guard case let .collection(sheet) = shownSheet, sheet.takingOut == nil,
                      sheet.photos.photos.indices.contains(photoIndex) else { return [] }
                let photo = sheet.photos.photos[photoIndex]
                let owner = sheet.collection.user?.username
                guard let username = context.username, owner?.lowercased() == username.lowercased() else {
                    return notify(owner.map { "Only your own collections can be changed; this one is @\(UntrustedText.sanitize($0))'s." }
                        ?? "Only your own collections can be changed.", .info)
                }
                changeTopPage { if case var .collection(s) = $0 { s.takingOut = photo.id; $0 = .collection(s) } }
                return [.setInCollection(add: false, photoID: photo.id, collectionID: sheet.collection.id)]

            case let .collectionChanged(collectionID, add, result):
                var title = "the collection"
                var photoID: String?
                changePickers { picker in
                    guard picker.changing == collectionID else { return }
                    picker.changing = nil
                    photoID = picker.photo.id
                    if let index = picker.collections.items.firstIndex(where: { $0.id == collectionID }) {
                        title = picker.collections.items[index].title
                        if case .success = result {
                            // The count moves only when the photo really went in or out.
                            if picker.photo.isIn(collection: collectionID) != add, let total = picker.collections.items[index].totalPhotos {
                                picker.collections.items[index].totalPhotos = max(0, total + (add ? 1 : -1))
                            }
                            picker.photo.collect(collectionID, added: add)
                        }
                    }
                }
                // The collection's open pages: the one that asked is answered, and out of the collection, the photo (the
                // picker's or the page's) is no longer listed.
                changeCollectionSheets(collectionID) { sheet in
                    title = sheet.collection.title
                    if photoID == nil { photoID = sheet.takingOut }
                    sheet.takingOut = nil
                    guard case .success = result, let photoID, !add, sheet.photos.photo(id: photoID) != nil else { return }
                    _ = PhotoListViewModel.update(&sheet.photos, .removedElsewhere(photoID: photoID))
                    sheet.collection.totalPhotos = sheet.collection.totalPhotos.map { max(0, $0 - 1) }
                }
                let quoted = "“\(UntrustedText.sanitize(title))”"
                switch result {
                case .success:
                    if let photoID { outcomes.append(.collected(photoID: photoID, collectionID: collectionID, added: add)) }
                    return notify(add ? "Added to \(quoted)." : "Taken out of \(quoted).", .info)
                case .failure(.forbidden):
                    return notify(context.isDemo
                        ? "Changing collections needs the write_collections scope: quit, run IMAGE_FEED_WRITE_COLLECTIONS=1 "
                            + "image-feed --demo, then log out and in again."
                        : "Changing collections needs the write_collections scope: set write_collections = true in the config "
                            + "file (or IMAGE_FEED_WRITE_COLLECTIONS=1), then log out and in again.", .error)
                case .failure(.sessionExpired):
                    return []
                case let .failure(error):
                    return notify(error.couldNot("change \(quoted)"), .error)
                }

            case let .topicsLoaded(number, result):
                changePages { page in
                    if case var .topics(topics) = page {
                        topics.topics.apply(page: number, result)
                        page = .topics(topics)
                    }
                }
                return []
            }
        }

        /// A photographer's section shown for the first time asks for what it lists.
        static func showSection(_ page: inout PhotographerSheet) -> [Effect] {
            switch page.section {
            case .photos:
                return []
            case .likes:
                guard page.likes.photos.isEmpty, page.likes.nextPage == .idle, page.likes.phase == .loading else { return [] }
                let source = page.likesSource
                return PhotoListViewModel.update(&page.likes, .load).map { .photos(source, $0) }
            case .collections:
                guard !page.collectionsAsked else { return [] }
                page.collectionsAsked = true
                return [.loadCollections(username: page.username, page: 1)]
            }
        }

        mutating func changePhotographers(_ username: String, _ change: (inout PhotographerSheet) -> Void) {
            changePages { page in
                if case var .photographer(photographer) = page, photographer.username == username {
                    change(&photographer)
                    page = .photographer(photographer)
                }
            }
        }

        mutating func changeCollectionSheets(_ id: String, _ change: (inout CollectionSheet) -> Void) {
            changePages { page in
                if case var .collection(sheet) = page, sheet.collection.id == id {
                    change(&sheet)
                    page = .collection(sheet)
                }
            }
        }

        mutating func changePickers(_ change: (inout CollectionPicker) -> Void) {
            changePages { page in
                if case var .collectionPicker(picker) = page {
                    change(&picker)
                    page = .collectionPicker(picker)
                }
            }
        }

        static func likedID(_ event: PhotoListViewModel.Event) -> String? {
            if case let .likeFinished(photoID, _, _) = event { return photoID }
            return nil
        }
    }
}

extension AppViewModel {
    /// The pages' events: their own machine runs over the stack of pages, and what it tells the app is done here.
    static func explore(_ state: inout AppState, _ event: ExploreViewModel.Event) -> [Effect] {
        let context = ExploreViewModel.Context(tab: state.tab, feedTopicSource: state.feedTopicSource,
                                              username: state.profile.profile?.username, isDemo: state.isDemo)
        let (pageEffects, outcomes) = ExploreViewModel.update(&state.explore, event, context)
        var effects = pageEffects.map(Effect.explore)
        for outcome in outcomes {
            switch outcome {
            case .opened:
                // A page opened from the viewer shows over the pane the viewer was opened from.
                state.viewer = nil
                state.helpVisible = false
            case .closedPage:
                if state.detail?.source == .sheet { state.detail = nil }
            case let .chooseTopic(topic):
                state.tab = .feed
                guard topic?.slug != state.feedTopic?.slug else { continue }
                state.feedTopic = topic
                state.feedTopicOrder = .latest
                _ = PhotoListViewModel.update(&state.feed, .reset)
                effects += [.explore(.saveFeedTopic(topic))] + feedEffects(PhotoListViewModel.update(&state.feed, .load), state)
            case .cycleTopicOrder:
                guard state.feedTopic != nil else { continue }
                state.feedTopicOrder = state.feedTopicOrder.next
                _ = PhotoListViewModel.update(&state.feed, .reset)
                // The order is kept with the topic for the next run.
                effects += [.explore(.saveFeedTopic(state.feedTopic, order: state.feedTopicOrder))]
                    + feedEffects(PhotoListViewModel.update(&state.feed, .load), state)
            case let .feedAnswer(listEvent):
                effects += route(&state, .feed(listEvent))
            case let .answered(listEvent):
                noteConnection(listEvent, in: &state) // its timer is asked for in `update`
            case let .liked(photo, liked, likes):
                effects += likeChanged(photo, liked: liked, likes: likes, in: &state)
            case let .collected(photoID, collectionID, added):
                collected(photoID: photoID, collectionID: collectionID, added: added, in: &state)
            case let .notify(text, kind):
                effects += notify(text, kind: kind, in: &state)
            }
        }
        return effects
    }

    /// The feed's effects, for the editorial feed or the topic it shows.
    static func feedEffects(_ effects: [PhotoListViewModel.Effect], _ state: AppState) -> [Effect] {
        guard let source = state.feedTopicSource else { return effects.map(Effect.feed) }
        return effects.map { .explore(.photos(source, $0)) }
    }
}
