import Foundation
import ImageFeedCore
import XCTest

final class SessionTests: XCTestCase {
    let me = User(id: "u1", username: "demo", name: "Dana Demo", totalLikes: 1)

    private func loggedIn() -> AppState {
        var state = AppState(session: .splash)
        _ = AppViewModel.update(&state, .start)
        _ = AppViewModel.update(&state, .sessionChecked(.success(me)))
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .success(makePage(["a", "b", "c"], number: 1, next: 2)))))
        var likes = makePage(["f"], number: 1, next: nil)
        likes.items[0].likedByUser = true
        likes.totalItems = 1
        _ = AppViewModel.update(&state, .favorites(.pageLoaded(page: 1, .success(likes))))
        return state
    }

    func test_start_onTheSplash_checksTheStoredToken() {
        var state = AppState(session: .splash)
        XCTAssertEqual(AppViewModel.update(&state, .start), [.checkSession, .loadSearchHistory])
        XCTAssertEqual(state.session, .splash)
    }

    func test_noToken_opensTheLoginScreen() {
        var state = AppState(session: .splash)
        _ = AppViewModel.update(&state, .start)
        XCTAssertEqual(AppViewModel.update(&state, .sessionChecked(nil)), [])
        XCTAssertEqual(state.session, .loggedOut)
    }

    func test_goodToken_opensTheFeed_andLoadsTheFavorites() {
        var state = AppState(session: .splash)
        _ = AppViewModel.update(&state, .start)
        let effects = AppViewModel.update(&state, .sessionChecked(.success(me)))
        XCTAssertEqual(state.session, .loggedIn)
        XCTAssertEqual(state.profile.profile, me)
        XCTAssertTrue(effects.contains(.feed(.loadPage(page: 1, perPage: 30))))
        XCTAssertTrue(effects.contains(.favorites(username: "demo", .loadPage(page: 1, perPage: 30))))
    }

    func test_revokedToken_opensTheLoginScreen_andForgetsIt() {
        var state = AppState(session: .splash)
        _ = AppViewModel.update(&state, .start)
        XCTAssertEqual(AppViewModel.update(&state, .sessionChecked(.failure(.sessionExpired))), [.forgetSession])
        XCTAssertEqual(state.session, .loggedOut)
    }

    func test_offlineAtStart_keepsTheSession_profileShowsTheError() {
        var state = AppState(session: .splash)
        _ = AppViewModel.update(&state, .start)
        let effects = AppViewModel.update(&state, .sessionChecked(.failure(.noConnection("down"))))
        XCTAssertEqual(state.session, .loggedIn)
        XCTAssertEqual(state.profile.phase, .failed(.noConnection("down")))
        XCTAssertEqual(effects, [.feed(.loadPage(page: 1, perPage: 30))])
        XCTAssertEqual(AppViewModel.update(&state, .profile(.retry)), [.profile(.loadProfile)])
    }

    func test_successfulLogin_opensTheFeed() {
        var state = AppState(session: .loggedOut)
        _ = AppViewModel.update(&state, .login(.logIn))
        _ = AppViewModel.update(&state, .login(.prepared(.success(LoginRequest(authorizeURL: URL(string: "https://u/a")!, state: "s")))))
        _ = AppViewModel.update(&state, .login(.redirectReceived("http://127.0.0.1/callback?code=c&state=s")))
        let effects = AppViewModel.update(&state, .login(.exchangeFinished(.success(me))))
        XCTAssertEqual(state.session, .loggedIn)
        XCTAssertEqual(state.tab, .feed)
        XCTAssertTrue(effects.contains(.feed(.loadPage(page: 1, perPage: 30))))
    }

    func test_likeInTheFeed_addsToFavorites_andCounts() {
        var state = loggedIn()
        XCTAssertEqual(state.favoritesCount, 1)
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "b")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "b", liked: true, .success(makePhoto("b", liked: true, likes: 4)))))
        XCTAssertEqual(state.favorites.photos.map(\.id), ["b", "f"])
        XCTAssertEqual(state.favorites.photos.first?.likedByUser, true)
        XCTAssertEqual(state.favoritesCount, 2)
    }

    /// An unlike in the favorites keeps the card where it is, its heart empty, and says what was removed: a second `f`
    /// likes the same photo again (it used to remove the card, and the second `f` unliked the next favorite).
    /// Leaving the favorites takes the unliked photos away; so does a reload.
    func test_unlikeInFavorites_keepsTheCardInPlace_untilTheListIsLeft_andTheFeedHeartTurnsGray() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "b")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "b", liked: true, .success(makePhoto("b", liked: true, likes: 4)))))
        XCTAssertEqual(state.feed.photo(id: "b")?.likedByUser, true)
        _ = AppViewModel.update(&state, .selectTab(.profile))
        XCTAssertEqual(AppViewModel.update(&state, .favorites(.toggleLike(photoID: "b"))),
                       [.favorites(username: "demo", .setLike(photoID: "b", liked: false))])
        _ = AppViewModel.update(&state, .favorites(.likeFinished(photoID: "b", liked: false, .success(makePhoto("b", likes: 3)))))
        XCTAssertEqual(state.favorites.photos.map(\.id), ["b", "f"], "the card stays where it was")
        XCTAssertEqual(state.favorites.photo(id: "b")?.likedByUser, false, "its heart empty")
        XCTAssertEqual(state.feed.photo(id: "b")?.likedByUser, false)
        XCTAssertEqual(state.feed.photo(id: "b")?.likes, 3)
        XCTAssertEqual(state.favoritesCount, 1)
        XCTAssertTrue(state.notice?.text.hasPrefix("Removed ") == true && state.notice?.text.hasSuffix("from your favorites; f likes it again.") == true,
                      state.notice?.text ?? "no notice")
        // The second f: the same photo, liked again, in place.
        XCTAssertEqual(AppViewModel.update(&state, .favorites(.toggleLike(photoID: "b"))),
                       [.favorites(username: "demo", .setLike(photoID: "b", liked: true))])
        _ = AppViewModel.update(&state, .favorites(.likeFinished(photoID: "b", liked: true, .success(makePhoto("b", liked: true, likes: 4)))))
        XCTAssertEqual(state.favorites.photos.map(\.id), ["b", "f"])
        XCTAssertEqual(state.favoritesCount, 2)
        // Unliked again, then the favorites left: it goes.
        _ = AppViewModel.update(&state, .favorites(.toggleLike(photoID: "b")))
        _ = AppViewModel.update(&state, .favorites(.likeFinished(photoID: "b", liked: false, .success(makePhoto("b", likes: 3)))))
        _ = AppViewModel.update(&state, .selectTab(.feed))
        XCTAssertEqual(state.favorites.photos.map(\.id), ["f"])
        XCTAssertEqual(state.favoritesCount, 1)
    }

    /// An unlike elsewhere (the feed, the viewer) takes the photo out of the favorites at once: nobody is looking at them.
    func test_unlikeElsewhere_removesItFromFavorites() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "f")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "f", liked: false, .success(makePhoto("f", likes: 1)))))
        XCTAssertNil(state.favorites.photo(id: "f"))
        XCTAssertEqual(state.favoritesCount, 0)
    }

    /// `i` in the viewer opens the detail; Esc there goes back one level, to the viewer (it went to the pane).
    func test_theDetailOpenedFromTheViewer_goesBackToTheViewer() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .openViewer(photoID: "b"))
        XCTAssertEqual(AppViewModel.update(&state, .openDetailFromViewer(photoID: "b")), [.detail(.load(photoID: "b"))])
        XCTAssertNil(state.viewer)
        XCTAssertEqual(state.detail?.photo.id, "b")
        _ = AppViewModel.update(&state, .closeDetail)
        XCTAssertNil(state.detail)
        XCTAssertEqual(state.viewer?.photo.id, "b", "back to the viewer")
        _ = AppViewModel.update(&state, .closeViewer)
        XCTAssertNil(state.viewer)
        XCTAssertNil(state.detail, "and from there to the pane")
    }

    func test_likeInTheViewer_reachesFeedAndFavorites() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .openViewer(photoID: "c"))
        _ = AppViewModel.update(&state, .viewer(.toggleLike))
        _ = AppViewModel.update(&state, .viewer(.likeFinished(liked: true, .success(makePhoto("c", liked: true, likes: 9)))))
        XCTAssertEqual(state.feed.photo(id: "c")?.likedByUser, true)
        XCTAssertEqual(state.favorites.photos.first?.id, "c")
    }

    func test_failedUnlikeInFavorites_changesNothing_andSaysSo() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .favorites(.toggleLike(photoID: "f")))
        _ = AppViewModel.update(&state, .favorites(.likeFinished(photoID: "f", liked: false, .failure(.server(status: 500)))))
        XCTAssertEqual(state.favorites.photo(id: "f")?.likedByUser, true)
        XCTAssertNotNil(state.favorites.modal)
        XCTAssertEqual(state.favoritesCount, 1)
    }

    func test_logOut_asksFirst_noKeepsEverything_yesForgetsTheUser() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .profile(.logOutPressed))
        XCTAssertTrue(state.profile.confirmingLogout)
        _ = AppViewModel.update(&state, .profile(.logOutAnswered(false)))
        XCTAssertFalse(state.profile.confirmingLogout)
        XCTAssertEqual(state.session, .loggedIn)

        _ = AppViewModel.update(&state, .profile(.logOutPressed))
        let effects = AppViewModel.update(&state, .profile(.logOutAnswered(true)))
        XCTAssertEqual(effects, [.logOut, .search(.saveHistory([])), .albums(.saveRecent([]))],
                       "the search history and the Imgur names looked up go too")
        XCTAssertEqual(state.session, .loggedOut)
        XCTAssertNil(state.profile.profile)
        XCTAssertTrue(state.favorites.photos.isEmpty)
        XCTAssertTrue(state.feed.photos.isEmpty, "liked flags go with the user")
        XCTAssertEqual(state.login, LoginState())
    }

    func test_401FromTheFavorites_endsTheSession_withANotice() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .favorites(.showedItem(index: 0)))
        _ = AppViewModel.update(&state, .favorites(.toggleLike(photoID: "f")))
        let effects = AppViewModel.update(&state, .favorites(.likeFinished(photoID: "f", liked: false, .failure(.sessionExpired))))
        XCTAssertEqual(effects, [.forgetSession])
        XCTAssertEqual(state.session, .loggedOut)
        XCTAssertTrue(state.sessionExpiredNotice)
        _ = AppViewModel.update(&state, .dismissSessionExpired)
        XCTAssertFalse(state.sessionExpiredNotice)
    }

    func test_profileTab_loadsTheProfileOnce() {
        var state = AppState()
        XCTAssertEqual(AppViewModel.update(&state, .selectTab(.profile)), [.profile(.loadProfile)])
        XCTAssertEqual(AppViewModel.update(&state, .selectTab(.profile)), [])
        _ = AppViewModel.update(&state, .profile(.loaded(.failure(.server(status: 500)))))
        XCTAssertEqual(state.profile.phase, .failed(.server(status: 500)))
    }

    func test_favoritesOpenInTheViewer() {
        var state = loggedIn()
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .openViewer(photoID: "f"))
        XCTAssertEqual(state.viewer?.photo.id, "f")
    }
}
