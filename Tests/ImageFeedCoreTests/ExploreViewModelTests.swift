import Foundation
import ImageFeedCore
import XCTest

/// Photographers' pages, collections and topics: their three states, paging, likes that stay one state across
/// panes, and going back.
final class ExploreViewModelTests: XCTestCase {
    private func loadedApp() -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .start)
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(makePage(["a", "b"], number: 1, next: 2)))))
        return state
    }

    private let stefan = PhotoListSource.userPhotos(username: "stefan", order: .latest)

    private func photographerSheet(_ state: AppState) -> PhotographerSheet? {
        if case let .photographer(page) = state.shownSheet { return page }
        return nil
    }

    func test_openingAPhotographer_showsWhatThePhotoSaid_andAsksForTheRest() {
        var state = loadedApp()
        let author = User(id: "u1", username: "stefan", name: "Stefan")
        let effects = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: author)))
        XCTAssertEqual(effects, [.explore(.loadUser(username: "stefan")), .explore(.photos(stefan, .loadPage(page: 1, perPage: 30)))])
        XCTAssertEqual(photographerSheet(state)?.user?.name, "Stefan", "the header shows at once")
        XCTAssertEqual(photographerSheet(state)?.photos.phase, .loading)
        _ = AppViewModel.update(&state, .explore(.userLoaded(username: "stefan", .success(User(id: "u1", username: "stefan", totalCollections: 2)))))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .success(makePage(["s1", "s2"], number: 1, next: 2))))))
        XCTAssertEqual(photographerSheet(state)?.user?.totalCollections, 2)
        XCTAssertEqual(photographerSheet(state)?.photos.photos.map(\.id), ["s1", "s2"])
        XCTAssertEqual(state.feed.photos.map(\.id), ["a", "b"], "the feed under the page is untouched")
    }

    /// `u` on a photographer's own page does not push another copy of it: it says whose page this is.
    func test_thePhotographerOfAPhotoOnTheirOwnPage_isNotOpenedAgain() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        let effects = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        XCTAssertEqual(state.explore?.sheets.count, 1)
        XCTAssertEqual(state.notice?.text, "This is @stefan's page.")
        XCTAssertFalse(effects.contains { if case .explore = $0 { true } else { false } }, "nothing asked again: \(effects)")
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "nasa", user: nil)))
        XCTAssertEqual(state.explore?.sheets.count, 2, "another photographer's page goes over it")
    }

    func test_sections_loadWhenFirstShown_andTheOrderReloadsThePhotos() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.stepSection(1))),
                       [.explore(.photos(.userLikes(username: "stefan"), .loadPage(page: 1, perPage: 30)))])
        XCTAssertEqual(AppViewModel.update(&state, .explore(.stepSection(1))), [.explore(.loadCollections(username: "stefan", page: 1))])
        XCTAssertEqual(AppViewModel.update(&state, .explore(.stepSection(1))), [], "photos again: already asked for")
        XCTAssertEqual(AppViewModel.update(&state, .explore(.stepSection(1))), [], "likes again: already asked for")
        _ = AppViewModel.update(&state, .explore(.stepSection(-1)))
        XCTAssertEqual(photographerSheet(state)?.section, .photos)
        XCTAssertEqual(AppViewModel.update(&state, .explore(.cycleOrder)),
                       [.explore(.photos(.userPhotos(username: "stefan", order: .oldest), .loadPage(page: 1, perPage: 30)))])
        // An answer for the order no longer shown finds no list.
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .success(makePage(["late"], number: 1, next: nil))))))
        XCTAssertEqual(photographerSheet(state)?.photos.phase, .loading)
    }

    func test_collections_pageAndOpen_andBackGoesOnePageAtATime() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        _ = AppViewModel.update(&state, .explore(.stepSection(2)))
        let collections = (1...30).map { PhotoCollection(id: "c\($0)", title: "C\($0)") }
        _ = AppViewModel.update(&state, .explore(.collectionsLoaded(username: "stefan", page: 1,
                                                                   .success(Page(items: collections, number: 1, perPage: 30, nextPage: 2)))))
        XCTAssertEqual(AppViewModel.update(&state, .listShown(.sheet, lastIndex: 5)), [], "far from the end")
        XCTAssertEqual(AppViewModel.update(&state, .listShown(.sheet, lastIndex: 27)), [.explore(.loadCollections(username: "stefan", page: 2))])
        XCTAssertEqual(AppViewModel.update(&state, .listShown(.sheet, lastIndex: 29)), [], "already on its way")
        let effects = AppViewModel.update(&state, .explore(.openCollection(collections[0])))
        XCTAssertEqual(effects, [.explore(.photos(.collectionPhotos(id: "c1"), .loadPage(page: 1, perPage: 30)))])
        XCTAssertEqual(state.explore?.sheets.count, 2)
        _ = AppViewModel.update(&state, .explore(.back))
        XCTAssertNotNil(photographerSheet(state))
        _ = AppViewModel.update(&state, .explore(.back))
        XCTAssertNil(state.explore)
        XCTAssertNil(state.shownSheet)
    }

    func test_pagesBelongToTheirPane() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        _ = AppViewModel.update(&state, .selectTab(.search))
        XCTAssertNil(state.shownSheet, "another pane shows its own content")
        _ = AppViewModel.update(&state, .selectTab(.feed))
        XCTAssertNotNil(state.shownSheet, "back on the feed, the page is still there")
    }

    func test_aLikeOnAPage_reachesTheFeed_andOneInTheFeedReachesThePage() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .success(makePage(["a", "s2"], number: 1, next: nil))))))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.list(.toggleLike(photoID: "a")))),
                       [.explore(.photos(stefan, .setLike(photoID: "a", liked: true)))])
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .likeFinished(photoID: "a", liked: true,
                                                                                     .success(makePhoto("a", liked: true, likes: 4))))))
        XCTAssertTrue(state.feed.photo(id: "a")?.likedByUser == true, "the feed's heart too")
        XCTAssertTrue(photographerSheet(state)?.photos.photo(id: "a")?.likedByUser == true)
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "a", liked: false, .success(makePhoto("a", liked: false, likes: 3)))))
        XCTAssertFalse(photographerSheet(state)?.photos.photo(id: "a")?.likedByUser ?? true, "and back")
    }

    func test_a401OnAPage_endsTheSession() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        let effects = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .failure(.sessionExpired)))))
        XCTAssertEqual(state.session, .loggedOut)
        XCTAssertTrue(effects.contains(.forgetSession))
    }

    func test_aFailedPage_showsItsError_andRRetries() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        _ = AppViewModel.update(&state, .explore(.userLoaded(username: "stefan", .failure(.server(status: 503)))))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .failure(.server(status: 503))))))
        XCTAssertEqual(photographerSheet(state)?.photos.phase, .failed(.server(status: 503)))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.retry)), [.explore(.loadUser(username: "stefan"))], "the profile first")
        XCTAssertEqual(AppViewModel.update(&state, .explore(.retry)), [.explore(.photos(stefan, .loadPage(page: 1, perPage: 30)))])
    }

    func test_choosingATopic_reloadsTheFeedFromIt_andIsKept() {
        var state = loadedApp()
        XCTAssertEqual(AppViewModel.update(&state, .explore(.openTopics)), [.explore(.loadTopics(page: 1))])
        let nature = Topic(id: "t1", slug: "nature", title: "Nature")
        _ = AppViewModel.update(&state, .explore(.topicsLoaded(page: 1, .success(Page(items: [nature], number: 1, perPage: 30, nextPage: nil)))))
        let source = PhotoListSource.topicPhotos(slug: "nature", order: .latest)
        let effects = AppViewModel.update(&state, .explore(.chooseTopic(nature)))
        XCTAssertEqual(effects, [.explore(.saveFeedTopic(nature)), .explore(.photos(source, .loadPage(page: 1, perPage: 30)))])
        XCTAssertNil(state.explore)
        XCTAssertEqual(state.feedTopic, nature)
        XCTAssertTrue(state.feed.photos.isEmpty, "the editorial photos go")
        // The topic's answers are the feed's: paging and likes as before.
        _ = AppViewModel.update(&state, .explore(.photosAnswer(source, .pageLoaded(page: 1, .success(makePage(["n1", "n2"], number: 1, next: 2))))))
        XCTAssertEqual(state.feed.photos.map(\.id), ["n1", "n2"])
        XCTAssertEqual(AppViewModel.update(&state, .listShown(.feed, lastIndex: 1)), [.explore(.photos(source, .loadPage(page: 2, perPage: 30)))])
        // Its order: the feed is asked again, oldest first, and the order is kept with the topic.
        XCTAssertEqual(AppViewModel.update(&state, .explore(.cycleTopicOrder)),
                       [.explore(.saveFeedTopic(nature, order: .oldest)),
                        .explore(.photos(.topicPhotos(slug: "nature", order: .oldest), .loadPage(page: 1, perPage: 30)))])
        // Back to the editorial feed.
        XCTAssertEqual(AppViewModel.update(&state, .explore(.chooseTopic(nil))),
                       [.explore(.saveFeedTopic(nil)), .feed(.loadPage(page: 1, perPage: 30))])
        XCTAssertNil(state.feedTopic)
    }

    func test_theViewer_stepsThroughThePagesPhotos() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "stefan", user: nil)))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(stefan, .pageLoaded(page: 1, .success(makePage(["s1", "s2"], number: 1, next: nil))))))
        _ = AppViewModel.update(&state, .openViewer(photoID: "s1"))
        XCTAssertEqual(state.viewer?.source, .sheet)
        _ = AppViewModel.update(&state, .stepViewer(by: 1))
        XCTAssertEqual(state.viewer?.photo.id, "s2")
        _ = AppViewModel.update(&state, .closeViewer)
        _ = AppViewModel.update(&state, .openDetail(photoID: "s2"))
        XCTAssertEqual(state.shownDetail?.photo.id, "s2", "a detail over the page")
        _ = AppViewModel.update(&state, .closeDetail)
        XCTAssertNotNil(state.shownSheet)
    }

    func test_searchFilters_reloadTheSearch_andAnswersForOtherFiltersAreDropped() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .searchFor("cat"))
        XCTAssertEqual(state.tab, .search)
        XCTAssertEqual(state.search.submitted, "cat")
        let effects = AppViewModel.update(&state, .search(.cycleColor))
        let filters = SearchFilters(color: .blackAndWhite)
        XCTAssertEqual(effects, [.search(.results(query: "cat", order: .relevant, filters: filters, .loadPage(page: 1, perPage: 30)))])
        _ = AppViewModel.update(&state, .search(.answer(query: "cat", order: .relevant, .pageLoaded(page: 1, .success(makePage(["old"], number: 1, next: nil))))))
        XCTAssertTrue(state.search.results.photos.isEmpty, "an answer without the filters is dropped")
        _ = AppViewModel.update(&state, .search(.answer(query: "cat", order: .relevant, filters: filters,
                                                        .pageLoaded(page: 1, .success(makePage(["bw"], number: 1, next: nil))))))
        XCTAssertEqual(state.search.results.photos.map(\.id), ["bw"])
        XCTAssertEqual(state.search.history, ["cat"], "the history keeps the query")
    }

    func test_theSearch_findsPeopleAndCollections_andPagesThem() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .searchFor("space"))
        XCTAssertEqual(AppViewModel.update(&state, .search(.cycleKind)), [.search(.findPeople(query: "space", page: 1))])
        let people = (1...30).map { User(id: "u\($0)", username: "user\($0)") }
        _ = AppViewModel.update(&state, .search(.peopleFound(query: "space", page: 1, .success(Page(items: people, number: 1, perPage: 30, nextPage: 2)))))
        XCTAssertEqual(state.search.people.items.count, 30)
        XCTAssertEqual(AppViewModel.update(&state, .listShown(.search, lastIndex: 28)), [.search(.findPeople(query: "space", page: 2))])
        XCTAssertEqual(AppViewModel.update(&state, .search(.cycleKind)), [.search(.findCollections(query: "space", page: 1))])
        // An answer for the kind no longer shown is dropped; a 401 still ends the session.
        _ = AppViewModel.update(&state, .search(.peopleFound(query: "space", page: 2, .success(Page(items: [], number: 2, perPage: 30, nextPage: nil)))))
        XCTAssertEqual(state.search.people.items.count, 30)
        _ = AppViewModel.update(&state, .search(.collectionsFound(query: "space", page: 1, .failure(.sessionExpired))))
        XCTAssertEqual(state.session, .loggedOut)
    }

    func test_theCollectionPicker_addsAndTakesOut_andSaysWhenTheScopeIsMissing() {
        var state = loadedApp()
        let photo = makePhoto("a")
        // Without the profile there is no username to list collections of: the status line says so.
        XCTAssertEqual(AppViewModel.update(&state, .explore(.openCollectionPicker(photo))).count, 1)
        XCTAssertNil(state.explore)
        XCTAssertEqual(state.notice?.kind, .error)
        _ = AppViewModel.update(&state, .profile(.loaded(.success(User(id: "d", username: "demo")))))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.openCollectionPicker(photo))), [.explore(.loadCollections(username: "demo", page: 1))])
        let mine = PhotoCollection(id: "c1", title: "Favourites", totalPhotos: 3)
        _ = AppViewModel.update(&state, .explore(.collectionsLoaded(username: "demo", page: 1,
                                                                   .success(Page(items: [mine], number: 1, perPage: 30, nextPage: nil)))))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.changeCollection(add: true, index: 0))),
                       [.explore(.setInCollection(add: true, photoID: "a", collectionID: "c1"))])
        XCTAssertEqual(AppViewModel.update(&state, .explore(.changeCollection(add: true, index: 0))), [], "one change at a time")
        _ = AppViewModel.update(&state, .explore(.collectionChanged(collectionID: "c1", add: true, .success(true))))
        XCTAssertEqual(state.notice?.text, "Added to “Favourites”.")
        guard case let .collectionPicker(picker) = state.shownSheet else { return XCTFail("the picker") }
        XCTAssertEqual(picker.collections.items.first?.totalPhotos, 4)
        _ = AppViewModel.update(&state, .explore(.changeCollection(add: false, index: 0)))
        _ = AppViewModel.update(&state, .explore(.collectionChanged(collectionID: "c1", add: false, .failure(.forbidden("scope")))))
        XCTAssertTrue(state.notice?.text.contains("write_collections = true") == true, state.notice?.text ?? "")
        XCTAssertEqual(state.notice?.kind, .error)
    }

    func test_theCollectionPicker_knowsWhichCollectionsHoldThePhoto_andCountsOnlyRealChanges() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .profile(.loaded(.success(User(id: "d", username: "demo")))))
        var photo = makePhoto("a")
        photo.inCollections = ["c2"]
        state.feed.photos = [photo]
        _ = AppViewModel.update(&state, .explore(.openCollectionPicker(photo)))
        let first = PhotoCollection(id: "c1", title: "Cats", totalPhotos: 3)
        let second = PhotoCollection(id: "c2", title: "Space", totalPhotos: 5)
        _ = AppViewModel.update(&state, .explore(.collectionsLoaded(username: "demo", page: 1,
                                                                   .success(Page(items: [first, second], number: 1, perPage: 30, nextPage: nil)))))
        guard case let .collectionPicker(picker) = state.shownSheet else { return XCTFail("the picker") }
        XCTAssertEqual(picker.holds(first), false)
        XCTAssertEqual(picker.holds(second), true)
        // Adding to one that holds it, or taking out of one that does not, asks nothing and says why.
        XCTAssertEqual(requests(AppViewModel.update(&state, .explore(.changeCollection(add: true, index: 1)))), [])
        XCTAssertEqual(state.notice?.text, "“Space” holds this photo already.")
        XCTAssertEqual(requests(AppViewModel.update(&state, .explore(.changeCollection(add: false, index: 0)))), [])
        XCTAssertEqual(state.notice?.text, "“Cats” does not hold this photo.")
        // In, then: the picker marks it, the count moves once, and the feed's photo knows for the next picker.
        _ = AppViewModel.update(&state, .explore(.changeCollection(add: true, index: 0)))
        _ = AppViewModel.update(&state, .explore(.collectionChanged(collectionID: "c1", add: true, .success(true))))
        guard case let .collectionPicker(after) = state.shownSheet else { return XCTFail("the picker") }
        XCTAssertEqual(after.holds(first), true)
        XCTAssertEqual(after.collections.items[0].totalPhotos, 4)
        XCTAssertEqual(state.feed.photos[0].inCollections.map(Set.init), ["c1", "c2"])
        XCTAssertEqual(requests(AppViewModel.update(&state, .explore(.changeCollection(add: true, index: 0)))), [], "not twice")
        XCTAssertEqual(after.collections.items[0].totalPhotos, 4)
    }

    func test_takingAPhotoOutOfYourOwnCollectionsPage_removesIt_andAnotherOnesPageSaysWhy() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .profile(.loaded(.success(User(id: "d", username: "demo")))))
        let mine = PhotoCollection(id: "c1", title: "Cats", totalPhotos: 2, user: User(id: "d", username: "demo"))
        _ = AppViewModel.update(&state, .explore(.openCollection(mine)))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(.collectionPhotos(id: "c1"),
            .pageLoaded(page: 1, .success(Page(items: [makePhoto("a"), makePhoto("b")], number: 1, perPage: 30, nextPage: nil))))))
        XCTAssertEqual(AppViewModel.update(&state, .explore(.takeOutOfShownCollection(photoIndex: 1))),
                       [.explore(.setInCollection(add: false, photoID: "b", collectionID: "c1"))])
        _ = AppViewModel.update(&state, .explore(.collectionChanged(collectionID: "c1", add: false, .success(true))))
        guard case let .collection(sheet) = state.shownSheet else { return XCTFail("the collection's page") }
        XCTAssertEqual(sheet.photos.photos.map(\.id), ["a"])
        XCTAssertEqual(sheet.collection.totalPhotos, 1)
        XCTAssertEqual(state.notice?.text, "Taken out of “Cats”.")

        let theirs = PhotoCollection(id: "c9", title: "Moons", totalPhotos: 1, user: User(id: "n", username: "nasa"))
        _ = AppViewModel.update(&state, .explore(.openCollection(theirs)))
        _ = AppViewModel.update(&state, .explore(.photosAnswer(.collectionPhotos(id: "c9"),
            .pageLoaded(page: 1, .success(Page(items: [makePhoto("m")], number: 1, perPage: 30, nextPage: nil))))))
        XCTAssertEqual(requests(AppViewModel.update(&state, .explore(.takeOutOfShownCollection(photoIndex: 0)))), [])
        XCTAssertEqual(state.notice?.text, "Only your own collections can be changed; this one is @nasa's.")
    }

    /// The effects that ask something of the service (a notice's own timer left out).
    private func requests(_ effects: [AppViewModel.Effect]) -> [AppViewModel.Effect] {
        effects.filter { if case .expireNotice = $0 { return false } else { return true } }
    }
}
