import ImageFeedCore
import XCTest

final class AppViewModelTests: XCTestCase {
    private func loadedApp() -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .start)
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(makePage(["a", "b"], number: 1, next: 2)))))
        return state
    }

    func test_start_loadsTheFeed() {
        var state = AppState()
        XCTAssertEqual(AppViewModel.update(&state, .start), [.feed(.loadPage(page: 1, perPage: 30)), .loadSearchHistory])
    }

    func test_tabs_cycleBothWays() {
        var state = AppState()
        _ = AppViewModel.update(&state, .nextTab)
        XCTAssertEqual(state.tab, .search)
        _ = AppViewModel.update(&state, .previousTab)
        _ = AppViewModel.update(&state, .previousTab)
        XCTAssertEqual(state.tab, .profile)
        _ = AppViewModel.update(&state, .selectTab(.feed))
        XCTAssertEqual(state.tab, .feed)
    }

    func test_openViewer_showsThePhoto_andCloseReturns() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .openViewer(photoID: "b"))
        XCTAssertEqual(state.viewer?.photo.id, "b")
        _ = AppViewModel.update(&state, .closeViewer)
        XCTAssertNil(state.viewer)
        _ = AppViewModel.update(&state, .openViewer(photoID: "unknown"))
        XCTAssertNil(state.viewer)
    }

    func test_likeInViewer_updatesTheFeedToo() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .openViewer(photoID: "b"))
        XCTAssertEqual(AppViewModel.update(&state, .viewer(.toggleLike)), [.viewer(.setLike(photoID: "b", liked: true))])
        _ = AppViewModel.update(&state, .viewer(.likeFinished(liked: true, .success(makePhoto("b", liked: true, likes: 4)))))
        XCTAssertTrue(state.viewer?.photo.likedByUser == true)
        XCTAssertTrue(state.feed.photos[1].likedByUser, "the feed shows the same heart")
        XCTAssertEqual(state.feed.photos[1].likes, 4)
    }

    func test_likeInFeed_updatesAnOpenViewer() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "a")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "a", liked: true, .success(makePhoto("a", liked: true, likes: 9)))))
        XCTAssertEqual(state.viewer?.photo.likedByUser, true)
        XCTAssertEqual(state.viewer?.photo.likes, 9)
    }

    func test_connection_followsTheLastAnswer() {
        var state = loadedApp()
        XCTAssertEqual(state.connection, .online)
        _ = AppViewModel.update(&state, .feed(.showedItem(index: 1)))
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 2, .failure(.noConnection("down")))))
        guard case .offline = state.connection else { return XCTFail("expected offline") }
    }

    func test_sessionExpiredAnywhere_endsTheSession() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        _ = AppViewModel.update(&state, .viewer(.toggleLike))
        let effects = AppViewModel.update(&state, .viewer(.likeFinished(liked: true, .failure(.sessionExpired))))
        XCTAssertEqual(state.session, .loggedOut)
        XCTAssertTrue(state.sessionExpiredNotice)
        XCTAssertNil(state.viewer)
        XCTAssertEqual(effects, [.forgetSession])
        XCTAssertFalse(state.feed.photos.isEmpty, "nothing else is lost")
    }

    func test_helpAndQuit() {
        var state = AppState()
        _ = AppViewModel.update(&state, .toggleHelp)
        XCTAssertTrue(state.helpVisible)
        _ = AppViewModel.update(&state, .toggleHelp)
        XCTAssertFalse(state.helpVisible)
        _ = AppViewModel.update(&state, .quit)
        XCTAssertTrue(state.quitting)
    }

    /// A list's news shows on its own pane only; a failure said a moment ago is not overwritten by news; any list's
    /// answer brings the connection back.
    func test_notices_belongToTheirPane_andNewsDoesNotHideAFailure() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .feed(.load))
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(makePage(["a", "b"], number: 1, next: 2)))))
        XCTAssertEqual(state.notice?.text, "The feed reloaded.")
        XCTAssertEqual(state.notice?.tab, .feed, "shown on the feed only")

        state.notice = StatusNotice("Couldn't refresh the profile (service failing).", kind: .error, serial: 99)
        _ = AppViewModel.update(&state, .feed(.load))
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(makePage(["a", "b"], number: 1, next: 2)))))
        XCTAssertEqual(state.notice?.serial, 99, "the failure stays")

        state.connection = .offline("no connection")
        _ = AppViewModel.update(&state, .search(.results(.pageLoaded(page: 1, .success(makePage(["c"], number: 1, next: nil))))))
        XCTAssertEqual(state.connection, .online)
    }

    /// A tag picked in a detail searches; going back (Esc in the results) finds the detail where it was.
    func test_aTagSearch_goesBackToTheDetail() {
        var state = loadedApp()
        _ = AppViewModel.update(&state, .openDetail(photoID: "a"))
        XCTAssertNotNil(state.detail)
        _ = AppViewModel.update(&state, .searchFor("space"))
        XCTAssertEqual(state.tab, .search)
        XCTAssertEqual(state.searchCameFrom, .feed)
        _ = AppViewModel.update(&state, .selectTab(.feed))
        XCTAssertEqual(state.shownDetail?.photo.id, "a")
        XCTAssertNil(state.searchCameFrom)
    }
}
