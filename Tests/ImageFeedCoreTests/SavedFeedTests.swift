import ImageFeedCore
import XCTest

final class SavedFeedTests: XCTestCase {
    let savedAt = Date(timeIntervalSince1970: 1_800_000_000)

    func test_launch_showsTheSavedFeedAtOnce_andTheServiceReplacesIt() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .showSaved(photos: [makePhoto("old")], savedAt: savedAt))
        XCTAssertEqual(state.phase, .content)
        XCTAssertEqual(state.photos.map(\.id), ["old"])
        XCTAssertEqual(state.savedAt, savedAt)
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .success(makePage(["new"], number: 1, next: 2))))
        XCTAssertEqual(state.photos.map(\.id), ["new"])
        XCTAssertNil(state.savedAt)
    }

    func test_savedFeedArrivingLate_doesNotReplaceFreshPhotos() {
        var state = loadedFeed(["a"])
        _ = PhotoListViewModel.update(&state, .showSaved(photos: [makePhoto("old")], savedAt: savedAt))
        XCTAssertEqual(state.photos.map(\.id), ["a"])
        XCTAssertNil(state.savedAt)
    }

    func test_offlineWhileShowingTheSavedFeed_keepsIt_andOffersRetry() {
        var state = PhotoListState()
        _ = PhotoListViewModel.update(&state, .load)
        _ = PhotoListViewModel.update(&state, .showSaved(photos: [makePhoto("old")], savedAt: savedAt))
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 1, .failure(.noConnection("down"))))
        XCTAssertEqual(state.photos.map(\.id), ["old"])
        XCTAssertEqual(state.nextPage, .idle)
        XCTAssertEqual(PhotoListViewModel.update(&state, .load), [.loadPage(page: 1, perPage: 30)], "r tries again")
    }

    func test_servedFromSaved_marksTheFeed_andTheAppGoesOffline() {
        var app = AppState()
        _ = AppViewModel.update(&app, .start)
        _ = AppViewModel.update(&app, .feed(.pageLoaded(page: 1, .success(makePage(["a"], number: 1, next: 2)))))
        _ = AppViewModel.update(&app, .feed(.servedFromSaved(savedAt)))
        XCTAssertEqual(app.feed.savedAt, savedAt)
        guard case .offline = app.connection else { return XCTFail("expected offline") }
    }

    func test_aStoredToken_opensTheAppAtOnce_withTheSavedFeed() {
        var app = AppState(session: .splash)
        _ = AppViewModel.update(&app, .start)
        let effects = AppViewModel.update(&app, .sessionStored)
        XCTAssertEqual(app.session, .loggedIn)
        XCTAssertEqual(effects.first, .loadSavedFeed)
        XCTAssertTrue(effects.contains(.profile(.loadProfile)), "the profile request checks the token")
        XCTAssertTrue(effects.contains(.feed(.loadPage(page: 1, perPage: 30))))
    }
}
