import Foundation
import ImageFeedCore
import XCTest

final class SearchViewModelTests: XCTestCase {
    private func submitted(_ query: String, history: [String] = []) -> SearchState {
        var state = SearchState()
        _ = SearchViewModel.update(&state, .historyLoaded(history))
        _ = SearchViewModel.update(&state, .focus)
        _ = SearchViewModel.update(&state, .typed(query))
        _ = SearchViewModel.update(&state, .submit)
        return state
    }

    private func withResults(_ ids: [String], total: Int = 40, next: Int? = 2) -> SearchState {
        var state = submitted("cats")
        var page = makePage(ids, number: 1, next: next)
        page.totalItems = total
        _ = SearchViewModel.update(&state, .answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(page))))
        return state
    }

    // MARK: History and suggestions

    func test_history_keepsFiveNewestFirst_withoutDuplicatesOfAnyCase() {
        var history: [String] = []
        for query in ["one", "two", "three", "Two", "four", "five", "six"] {
            history = SearchViewModel.remember(query, in: history)
        }
        XCTAssertEqual(history, ["six", "five", "four", "Two", "three"])
        XCTAssertEqual(SearchViewModel.remember("  ", in: history), history, "blank queries are not kept")
    }

    func test_historyLoaded_isCleanedUp() {
        var state = SearchState()
        _ = SearchViewModel.update(&state, .historyLoaded(["a", "A", "", "b", "c", "d", "e", "f"]))
        XCTAssertEqual(state.history, ["a", "b", "c", "d", "e"])
    }

    func test_suggestions_areCaseInsensitiveSubstrings() {
        let history = ["The Score", "Scorpions", "underscore", "cats"]
        XCTAssertEqual(SearchViewModel.suggestions(history: history, for: "scor"), ["The Score", "Scorpions", "underscore"])
        XCTAssertEqual(SearchViewModel.suggestions(history: history, for: "CAT"), ["cats"])
        XCTAssertEqual(SearchViewModel.suggestions(history: history, for: ""), history, "an empty field offers them all")
        XCTAssertEqual(SearchViewModel.suggestions(history: history, for: "dogs"), [])
    }

    func test_submit_remembersTheQuery_savesIt_andLoadsPageOne() {
        var state = SearchState()
        _ = SearchViewModel.update(&state, .historyLoaded(["dogs"]))
        _ = SearchViewModel.update(&state, .focus)
        _ = SearchViewModel.update(&state, .typed(" cats "))
        let effects = SearchViewModel.update(&state, .submit)
        XCTAssertEqual(effects, [.saveHistory(["cats", "dogs"]),
                                 .results(query: "cats", order: .relevant, .loadPage(page: 1, perPage: 30))])
        XCTAssertEqual(state.submitted, "cats")
        XCTAssertFalse(state.editing)
        XCTAssertEqual(state.results.phase, .loading)
    }

    func test_arrowsPickASuggestion_andEnterSearchesIt() {
        var state = SearchState()
        _ = SearchViewModel.update(&state, .historyLoaded(["The Score", "Scorpions", "cats"]))
        _ = SearchViewModel.update(&state, .focus)
        _ = SearchViewModel.update(&state, .typed("scor"))
        _ = SearchViewModel.update(&state, .moveSuggestion(1))
        _ = SearchViewModel.update(&state, .moveSuggestion(1))
        _ = SearchViewModel.update(&state, .moveSuggestion(1))
        XCTAssertEqual(state.suggestion, 1, "stops at the last")
        _ = SearchViewModel.update(&state, .submit)
        XCTAssertEqual(state.submitted, "Scorpions")
        XCTAssertEqual(state.history, ["Scorpions", "The Score", "cats"])
    }

    func test_typing_doesNothingOutsideTheField_andKeepsControlCharactersOut() {
        var state = SearchState()
        _ = SearchViewModel.update(&state, .typed("x"))
        XCTAssertEqual(state.query, "")
        _ = SearchViewModel.update(&state, .focus)
        _ = SearchViewModel.update(&state, .typed("a\u{1B}[2Jb\u{7}"))
        XCTAssertEqual(state.query, "a[2Jb")
        XCTAssertEqual(SearchViewModel.update(&state, .submit).count, 2)
        var empty = SearchState()
        _ = SearchViewModel.update(&empty, .focus)
        XCTAssertEqual(SearchViewModel.update(&empty, .submit), [], "an empty query searches nothing")
    }

    // MARK: Results

    func test_results_threeStates_andEmpty() {
        var state = submitted("cats")
        XCTAssertEqual(state.results.phase, .loading)
        _ = SearchViewModel.update(&state, .answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .failure(.server(status: 503)))))
        XCTAssertEqual(state.results.phase, .failed(.server(status: 503)))
        XCTAssertEqual(SearchViewModel.update(&state, .results(.retry)), [.results(query: "cats", order: .relevant, .loadPage(page: 1, perPage: 30))])
        _ = SearchViewModel.update(&state, .answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(makePage([], number: 1, next: nil)))))
        XCTAssertEqual(state.results.phase, .content)
        XCTAssertTrue(state.results.photos.isEmpty)
    }

    func test_paging_asksForTheNextPageNearTheEnd() {
        var state = withResults(["a", "b", "c"])
        XCTAssertEqual(state.results.totalItems, 40)
        let effects = SearchViewModel.update(&state, .results(.showedItem(index: 2)))
        XCTAssertEqual(effects, [.results(query: "cats", order: .relevant, .loadPage(page: 2, perPage: 30))])
    }

    func test_answersForAnEarlierSearch_areDropped() {
        var state = submitted("cats")
        _ = SearchViewModel.update(&state, .focus)
        XCTAssertTrue(state.querySelected, "/ selects the old query")
        _ = SearchViewModel.update(&state, .edit(.end)) // a move keeps it, to add to it
        _ = SearchViewModel.update(&state, .typed("s"))
        _ = SearchViewModel.update(&state, .submit)
        XCTAssertEqual(state.submitted, "catss")
        _ = SearchViewModel.update(&state, .answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(makePage(["old"], number: 1, next: nil)))))
        XCTAssertEqual(state.results.phase, .loading)
        XCTAssertTrue(state.results.photos.isEmpty)
    }

    func test_order_togglesAndSearchesAgain_layoutOnlyRedraws() {
        var state = withResults(["a", "b"])
        XCTAssertEqual(SearchViewModel.update(&state, .toggleOrder), [.saveOrder(.latest), .results(query: "cats", order: .latest, .loadPage(page: 1, perPage: 30))])
        XCTAssertEqual(state.order, .latest)
        XCTAssertTrue(state.results.photos.isEmpty)
        // The relevance answer that was on its way no longer counts.
        _ = SearchViewModel.update(&state, .answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(makePage(["x"], number: 1, next: nil)))))
        XCTAssertTrue(state.results.photos.isEmpty)
        XCTAssertEqual(SearchViewModel.update(&state, .toggleLayout), [])
        XCTAssertEqual(state.layout, .single)
        _ = SearchViewModel.update(&state, .toggleLayout)
        XCTAssertEqual(state.layout, .grid)
    }

    func test_theSortOrder_isKeptForTheNextRun() {
        var state = SearchState()
        XCTAssertEqual(SearchViewModel.update(&state, .toggleOrder), [.saveOrder(.latest)])
        var next = SearchState()
        _ = SearchViewModel.update(&next, .orderLoaded(.latest))
        XCTAssertEqual(next.order, .latest)
        var searched = submitted("cats")
        _ = SearchViewModel.update(&searched, .orderLoaded(.latest))
        XCTAssertEqual(searched.order, .relevant, "a choice made in this run wins")
    }

    // MARK: Detail

    /// A search result's detail (the app's detail screen, as for the feed and the favorites).
    func searchApp(_ ids: [String]) -> AppState {
        var app = AppState()
        app.search = withResults(ids)
        app.tab = .search
        return app
    }

    func test_detail_showsTheResultAtOnce_andLoadsTheRest() {
        var app = searchApp(["a", "b"])
        XCTAssertEqual(AppViewModel.update(&app, .openDetail(photoID: "b")), [.detail(.load(photoID: "b"))])
        XCTAssertEqual(app.detail?.photo.id, "b")
        XCTAssertEqual(app.detail?.source, .search)
        XCTAssertEqual(app.detail?.extra, .loading)
        var full = makePhoto("b", liked: true, likes: 99)
        full.exif = Exif(make: "Canon", model: "EOS", iso: 100)
        _ = AppViewModel.update(&app, .detail(.loaded(.success(full))))
        XCTAssertEqual(app.detail?.extra, .loaded)
        XCTAssertEqual(app.detail?.photo.exif?.make, "Canon")
        XCTAssertEqual(app.detail?.photo.likedByUser, false, "the app's own like state stays")
        _ = AppViewModel.update(&app, .closeDetail)
        XCTAssertNil(app.detail)
    }

    func test_detailFailure_offersRetry() {
        var app = searchApp(["a"])
        _ = AppViewModel.update(&app, .openDetail(photoID: "a"))
        _ = AppViewModel.update(&app, .detail(.loaded(.failure(.notFound))))
        XCTAssertEqual(app.detail?.extra, .failed(.notFound))
        XCTAssertEqual(AppViewModel.update(&app, .detail(.retry)), [.detail(.load(photoID: "a"))])
    }

    func test_feedAndFavoritesPhotos_haveTheDetailToo() {
        var app = AppState()
        _ = AppViewModel.update(&app, .start)
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(makePage(["a"], number: 1, next: nil)))))
        XCTAssertEqual(AppViewModel.update(&app, .openDetail(photoID: "a")), [.detail(.load(photoID: "a"))])
        XCTAssertEqual(app.detail?.source, .feed)
        app.albumsEnabled = true
        _ = AppViewModel.update(&app, .selectTab(.albums))
        XCTAssertEqual(AppViewModel.update(&app, .openDetail(photoID: "a")), [], "album photos have none")
    }

    func test_likeInTheDetail_reachesTheResultsTheFeedAndFavorites() {
        var app = AppState()
        _ = AppViewModel.update(&app, .start)
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(makePage(["a"], number: 1, next: nil)))))
        app.search = withResults(["a", "b"])
        app.tab = .search
        _ = AppViewModel.update(&app, .openDetail(photoID: "a"))
        XCTAssertEqual(AppViewModel.update(&app, .detail(.viewer(.toggleLike))), [.detail(.viewer(.setLike(photoID: "a", liked: true)))])
        _ = AppViewModel.update(&app, .detail(.viewer(.likeFinished(liked: true, .success(makePhoto("a", liked: true, likes: 4))))))
        XCTAssertEqual(app.detail?.photo.likedByUser, true)
        XCTAssertEqual(app.search.results.photo(id: "a")?.likedByUser, true)
        XCTAssertEqual(app.feed.photo(id: "a")?.likedByUser, true)
    }

    func test_likeInTheResults_reachesTheFeed_andAFailureChangesNothing() {
        var app = AppState()
        _ = AppViewModel.update(&app, .start)
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(makePage(["b"], number: 1, next: nil)))))
        app.search = withResults(["a", "b"])
        XCTAssertEqual(AppViewModel.update(&app, .search(.results(.toggleLike(photoID: "b")))),
                       [.search(.results(query: "cats", order: .relevant, .setLike(photoID: "b", liked: true)))])
        _ = AppViewModel.update(&app, .search(.answer(query: "cats", order: .relevant,
                                                      .likeFinished(photoID: "b", liked: true, .success(makePhoto("b", liked: true, likes: 4))))))
        XCTAssertEqual(app.feed.photo(id: "b")?.likedByUser, true)
        _ = AppViewModel.update(&app, .search(.results(.toggleLike(photoID: "a"))))
        _ = AppViewModel.update(&app, .search(.answer(query: "cats", order: .relevant,
                                                      .likeFinished(photoID: "a", liked: true, .failure(.server(status: 500))))))
        XCTAssertEqual(app.search.results.photo(id: "a")?.likedByUser, false)
        XCTAssertNotNil(app.search.results.modal)
    }

    func test_slashFromAnywhere_focusesTheField() {
        var app = AppState()
        _ = AppViewModel.update(&app, .focusSearch)
        XCTAssertEqual(app.tab, .search)
        XCTAssertTrue(app.search.editing)
    }
}
