import ImageFeedCore
import XCTest

final class PhotoListViewModelTests: XCTestCase {
    // MARK: First page

    func test_initialState_isLoadingWithNothingShown() {
        let state = PhotoListState()
        XCTAssertEqual(state.phase, .loading)
        XCTAssertTrue(state.photos.isEmpty)
    }

    func test_load_requestsFirstPageWithThirtyPerPage() {
        var state = PhotoListState()
        XCTAssertEqual(PhotoListViewModel.update(&state, .load), [.loadPage(page: 1, perPage: 30)])
        XCTAssertEqual(state.phase, .loading)
        XCTAssertEqual(state.nextPage, .loading(page: 1))
    }

    func test_load_whileFirstPageIsLoading_requestsNothingMore() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        XCTAssertEqual(PhotoListViewModel.update(&state, .load), [])
    }

    func test_firstPageSuccess_showsContent() {
        let state = loadedFeed(["a", "b"], next: 2)
        XCTAssertEqual(state.phase, .content)
        XCTAssertEqual(state.photos.map(\.id), ["a", "b"])
        XCTAssertEqual(state.nextPageNumber, 2)
        XCTAssertEqual(state.nextPage, .idle)
    }

    func test_firstPageFailure_showsErrorState() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .failure(.timeout)))
        XCTAssertEqual(state.phase, .failed(.timeout))
        XCTAssertEqual(state.nextPage, .idle)
    }

    func test_retryAfterFirstPageFailure_loadsFirstPageAgain() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .failure(.server(status: 503))))
        XCTAssertEqual(PhotoListViewModel.update(&state, .retry), [.loadPage(page: 1, perPage: 30)])
        XCTAssertEqual(state.phase, .loading)
    }

    func test_reloadFailure_keepsShownPhotos_andTheStatusLineSaysWhy() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .load)
        XCTAssertEqual(state.phase, .content, "photos stay on screen while reloading")
        XCTAssertTrue(state.reloading)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .failure(.timeout)))
        XCTAssertEqual(state.photos.map(\.id), ["a"])
        XCTAssertEqual(state.nextPage, .idle, "not a \"Couldn't load more\" row under the last card")
        XCTAssertEqual(PhotoListViewModel.update(&state, .load), [.loadPage(page: 1, perPage: 30)], "r asks again")

        // The app: a notice where the user looks, and the status line says the service is failing.
        var app = AppState()
        app.feed = loadedFeed(["a"])
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(Page(items: [makePhoto("a")], number: 1, perPage: 30, nextPage: 2)))))
        XCTAssertEqual(app.connection, .online)
        _ = AppViewModel.update(&app, .feed(.load))
        let effects = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .failure(.server(status: 503)))))
        XCTAssertEqual(app.notice?.kind, .error)
        XCTAssertEqual(app.notice?.text, "Couldn't reload the feed (HTTP 503).")
        XCTAssertEqual(app.notice?.retry, true, "the status line adds the key that tries again")
        XCTAssertEqual(app.connection, .failing("service failing"))
        XCTAssertEqual(effects, [.expireNotice(serial: 1, after: StatusNotice.lifetime)])
        _ = AppViewModel.update(&app, .noticeExpired(serial: 1))
        XCTAssertNil(app.notice)

        // A reload that works says so.
        _ = AppViewModel.update(&app, .feed(.load))
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(Page(items: [makePhoto("b")], number: 1, perPage: 30, nextPage: 2)))))
        XCTAssertEqual(app.notice?.text, "The feed reloaded.")
        XCTAssertEqual(app.connection, .online)

        // A reload whose connection drops gets the saved feed: it does not say it worked.
        _ = AppViewModel.update(&app, .feed(.load))
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(Page(items: [makePhoto("b")], number: 1, perPage: 30, nextPage: 2)))))
        _ = AppViewModel.update(&app, .feed(.servedFromSaved(Date(timeIntervalSince1970: 1_700_000_000))))
        XCTAssertEqual(app.notice?.kind, .error)
        XCTAssertEqual(app.notice?.text, "Couldn't reload the feed (no connection): showing what was saved.")
        XCTAssertEqual(app.notice?.retry, true)
        XCTAssertEqual(app.connection, .offline("The photo service could not be reached."))
    }

    func test_rateLimited_theStatusLineSaysUntilWhen() throws {
        var app = AppState()
        app.feed = loadedFeed(["a"])
        var parts = DateComponents()
        parts.hour = 14
        parts.minute = 5
        let reset = try XCTUnwrap(Calendar.current.date(from: parts))
        _ = AppViewModel.update(&app, .feed(.load))
        app.rateLimit = RateLimit(limit: 50, remaining: 0)
        let effects = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .failure(.rateLimited(limit: 50, resetsAt: reset)))))
        XCTAssertEqual(app.connection, .rateLimited(until: reset))
        // The time first, so that a short line keeps it.
        XCTAssertEqual(app.notice?.text, "Rate limited until 14:05: couldn't reload the feed.")
        // The state ends when its time passes, and the count used up with it.
        XCTAssertTrue(effects.contains(.endRateLimit(at: reset)), "\(effects)")
        XCTAssertTrue(effects.filter(\.isTimer).count == 2, "the notice's timer and the quota's: \(effects)")
        _ = AppViewModel.update(&app, .rateLimitPassed(reset.addingTimeInterval(-60)))
        XCTAssertEqual(app.connection, .rateLimited(until: reset), "an earlier limit's end leaves a later one")
        _ = AppViewModel.update(&app, .rateLimitPassed(reset))
        XCTAssertEqual(app.connection, .unknown)
        XCTAssertNil(app.rateLimit)
    }

    /// A reset at 14:05:30 is "until 14:06": a clock that said 14:05 would be wrong for half a minute.
    func test_rateLimited_theTimeSaidIsTheMinuteAfter() throws {
        var parts = DateComponents()
        parts.hour = 14
        parts.minute = 5
        parts.second = 30
        let reset = try XCTUnwrap(Calendar.current.date(from: parts))
        let error = ServiceError.rateLimited(limit: 50, resetsAt: reset)
        XCTAssertEqual(error.summary, "rate limited until 14:06")
        XCTAssertEqual(error.couldNot("load more of the feed"), "Rate limited until 14:06: couldn't load more of the feed.")
        XCTAssertTrue(error.message.hasPrefix("Rate limited until 14:05:30"), error.message)
    }

    /// An answer that refuses the request (a 4xx) says the service is reached; a 5xx says it is failing.
    func test_connection_aRefusalIsAnAnswer() {
        var app = AppState()
        app.connection = .offline("no connection")
        _ = AppViewModel.update(&app, .feed(.load))
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .failure(.forbidden("access denied")))))
        XCTAssertEqual(app.connection, .online)
        _ = AppViewModel.update(&app, .feed(.load))
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .failure(.http(status: 418, message: "")))))
        XCTAssertEqual(app.connection, .online)
        _ = AppViewModel.update(&app, .feed(.load))
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .failure(.server(status: 503)))))
        XCTAssertEqual(app.connection, .failing("service failing"))
    }

    func test_reloadSuccess_replacesPhotos() {
        var state = loadedFeed(["a", "b"])
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .success(makePage(["z", "a"], number: 1, next: 2))))
        XCTAssertEqual(state.photos.map(\.id), ["z", "a"])
    }

    func test_sessionExpiredOnLoad_isAnAnswerThatFailed() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        let answer = PhotoListViewModel.Event.pageLoaded(page: 1, .failure(.sessionExpired))
        _ = PhotoListViewModel.update(&state, answer)
        XCTAssertEqual(answer.failure, .sessionExpired, "the app ends the session where this answer arrives")
        XCTAssertNil(state.modal)
    }

    // MARK: Next pages

    func test_showingAnItemNearTheEnd_requestsNextPage() {
        var state = loadedFeed(["a", "b", "c"], next: 2, prefetchDistance: 2)
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 0)), [], "far from the end")
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 1)), [.loadPage(page: 2, perPage: 30)])
        XCTAssertEqual(state.nextPage, .loading(page: 2))
    }

    func test_showingItems_whileNextPageIsLoading_neverRequestsAPageTwice() {
        var state = loadedFeed(["a", "b", "c"], next: 2)
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 2)).count, 1)
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 2)), [])
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 1)), [])
    }

    func test_nextPageSuccess_appendsPhotosWithoutDuplicates() {
        var state = loadedFeed(["a", "b"], next: 2)
        _ = PhotoListViewModel.update(&state, .showedItem(index: 1))
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 2, .success(makePage(["b", "c", "c"], number: 2, next: 3))))
        XCTAssertEqual(state.photos.map(\.id), ["a", "b", "c"])
        XCTAssertEqual(state.nextPageNumber, 3)
        XCTAssertEqual(state.nextPage, .idle)
    }

    func test_lastPage_stopsRequestingPages() {
        var state = loadedFeed(["a"], next: nil)
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 0)), [])
    }

    func test_nextPageFailure_keepsPhotosAndOffersRetryForThatPage() {
        var state = loadedFeed(["a", "b"], next: 2)
        _ = PhotoListViewModel.update(&state, .showedItem(index: 1))
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 2, .failure(.noConnection("offline"))))
        XCTAssertEqual(state.phase, .content)
        XCTAssertEqual(state.photos.count, 2)
        XCTAssertEqual(state.nextPage, .failed(page: 2, .noConnection("offline")))
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 1)), [], "no automatic retry into an error")
        XCTAssertEqual(PhotoListViewModel.update(&state, .retry), [.loadPage(page: 2, perPage: 30)])
    }

    func test_answerForAPageNobodyWaitsFor_isIgnored() {
        var state = loadedFeed(["a"], next: 2)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 2, .success(makePage(["x"], number: 2, next: 3))))
        XCTAssertEqual(state.photos.map(\.id), ["a"])
    }

    // MARK: Likes

    func test_toggleLike_marksRequestInFlightAndAsksToLike() {
        var state = loadedFeed(["a"])
        XCTAssertEqual(PhotoListViewModel.update(&state, .toggleLike(photoID: "a")), [.setLike(photoID: "a", liked: true)])
        XCTAssertEqual(state.likesInFlight, ["a"])
        XCTAssertFalse(state.photos[0].likedByUser, "the heart changes only on success")
    }

    func test_toggleLike_onLikedPhoto_asksToUnlike() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .success(
            Page(items: [makePhoto("a", liked: true)], number: 1, perPage: 30, nextPage: nil))))
        XCTAssertEqual(PhotoListViewModel.update(&state, .toggleLike(photoID: "a")), [.setLike(photoID: "a", liked: false)])
    }

    func test_secondPressWhileLikeInFlight_sendsNothing() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        XCTAssertEqual(PhotoListViewModel.update(&state, .toggleLike(photoID: "a")), [])
    }

    func test_likeSuccess_turnsHeartRedAndUpdatesCount() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        _ = PhotoListViewModel.update(&state, .likeFinished(photoID: "a", liked: true, .success(makePhoto("a", liked: true, likes: 4))))
        XCTAssertTrue(state.photos[0].likedByUser)
        XCTAssertEqual(state.photos[0].likes, 4)
        XCTAssertTrue(state.likesInFlight.isEmpty)
        XCTAssertNil(state.modal)
    }

    func test_likeFailure_showsTryAgainModalAndLeavesHeartAsItWas() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        _ = PhotoListViewModel.update(&state, .likeFinished(photoID: "a", liked: true, .failure(.server(status: 500))))
        XCTAssertEqual(state.modal, .likeFailed(photoID: "a", liked: true, .server(status: 500)))
        XCTAssertFalse(state.photos[0].likedByUser)
        XCTAssertTrue(state.likesInFlight.isEmpty)
    }

    func test_likeFailureTryAgain_repeatsTheSameRequest() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        _ = PhotoListViewModel.update(&state, .likeFinished(photoID: "a", liked: true, .failure(.timeout)))
        XCTAssertEqual(PhotoListViewModel.update(&state, .modalTryAgain), [.setLike(photoID: "a", liked: true)])
        XCTAssertNil(state.modal)
        XCTAssertEqual(state.likesInFlight, ["a"])
    }

    func test_likeFailureCancel_closesModalAndChangesNothing() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        _ = PhotoListViewModel.update(&state, .likeFinished(photoID: "a", liked: true, .failure(.timeout)))
        XCTAssertEqual(PhotoListViewModel.update(&state, .modalCancel), [])
        XCTAssertNil(state.modal)
        XCTAssertFalse(state.photos[0].likedByUser)
    }

    func test_unlikeFailure_showsTryAgainModalForTheUnlike() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .success(
            Page(items: [makePhoto("a", liked: true)], number: 1, perPage: 30, nextPage: nil))))
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        _ = PhotoListViewModel.update(&state, .likeFinished(photoID: "a", liked: false, .failure(.timeout)))
        XCTAssertEqual(state.modal, .likeFailed(photoID: "a", liked: false, .timeout))
        XCTAssertTrue(state.photos[0].likedByUser)
    }

    func test_likeSessionExpired_endsTheSessionInsteadOfTryAgain() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .toggleLike(photoID: "a"))
        let answer = PhotoListViewModel.Event.likeFinished(photoID: "a", liked: true, .failure(.sessionExpired))
        _ = PhotoListViewModel.update(&state, answer)
        XCTAssertEqual(answer.failure, .sessionExpired, "the app ends the session where this answer arrives")
        XCTAssertNil(state.modal)
    }

    func test_toggleLike_onUnknownPhoto_sendsNothing() {
        var state = loadedFeed(["a"])
        XCTAssertEqual(PhotoListViewModel.update(&state, .toggleLike(photoID: "nope")), [])
    }

    func test_likeChangedElsewhere_updatesTheHeart() {
        var state = loadedFeed(["a", "b"])
        _ = PhotoListViewModel.update(&state, .likeChangedElsewhere(photoID: "b", liked: true, likes: 9))
        XCTAssertTrue(state.photos[1].likedByUser)
        XCTAssertEqual(state.photos[1].likes, 9)
    }

    func test_modalTryAgain_withoutModal_doesNothing() {
        var state = loadedFeed(["a"])
        XCTAssertEqual(PhotoListViewModel.update(&state, .modalTryAgain), [])
    }
}

