import Foundation
import ImageFeedCore
import XCTest

final class ViewerViewModelTests: XCTestCase {
    private func viewer(liked: Bool = false) -> ViewerState {
        var photo = makePhoto("v", liked: liked, likes: 5)
        photo.links.html = URL(string: "https://unsplash.com/photos/v")
        return ViewerState(photo: photo)
    }

    func test_zoom_stepsAndStaysWithinLimits() {
        var state = viewer()
        _ = ViewerViewModel.update(&state, .zoomOut)
        XCTAssertEqual(state.zoom, 1, "never smaller than the fitted photo")
        for _ in 0..<20 { _ = ViewerViewModel.update(&state, .zoomIn) }
        XCTAssertEqual(state.zoom, ViewerState.maximumZoom)
        for _ in 0..<20 { _ = ViewerViewModel.update(&state, .zoomOut) }
        XCTAssertEqual(state.zoom, 1)
    }

    func test_pan_onlyWhenZoomed_andNeverOutsideThePhoto() {
        var state = viewer()
        _ = ViewerViewModel.update(&state, .pan(dx: 1, dy: 0))
        XCTAssertEqual(state.panX, 0, "nothing to pan at fit")
        _ = ViewerViewModel.update(&state, .zoomIn)
        _ = ViewerViewModel.update(&state, .zoomIn) // 2.25x: the centre may move (1 - 1/2.25)/2 each way
        for _ in 0..<10 { _ = ViewerViewModel.update(&state, .pan(dx: 0.25, dy: -0.25)) }
        XCTAssertEqual(state.panX, (1 - 1 / 2.25) / 2, accuracy: 1e-9)
        XCTAssertEqual(state.panY, -(1 - 1 / 2.25) / 2, accuracy: 1e-9)
        for _ in 0..<5 { _ = ViewerViewModel.update(&state, .zoomOut) }
        XCTAssertEqual(state.panX, 0, "zooming out pulls the view back inside")
    }

    func test_rotate_turnsByQuarters_andResetUndoesEverything() {
        var state = viewer()
        for _ in 0..<5 { _ = ViewerViewModel.update(&state, .rotate) }
        XCTAssertEqual(state.quarterTurns, 1)
        _ = ViewerViewModel.update(&state, .zoomIn)
        _ = ViewerViewModel.update(&state, .pan(dx: 0.2, dy: 0.2))
        _ = ViewerViewModel.update(&state, .reset)
        XCTAssertEqual(state.zoom, 1)
        XCTAssertEqual(state.panX, 0)
        XCTAssertEqual(state.quarterTurns, 0)
    }

    func test_like_success_turnsHeartRed() {
        var state = viewer()
        XCTAssertEqual(ViewerViewModel.update(&state, .toggleLike), [.setLike(photoID: "v", liked: true)])
        XCTAssertEqual(ViewerViewModel.update(&state, .toggleLike), [], "a second press while in flight sends nothing")
        _ = ViewerViewModel.update(&state, .likeFinished(liked: true, .success(makePhoto("v", liked: true, likes: 6))))
        XCTAssertTrue(state.photo.likedByUser)
        XCTAssertEqual(state.photo.likes, 6)
        XCTAssertFalse(state.likeInFlight)
    }

    func test_like_failure_showsTryAgainThatRepeatsIt() {
        var state = viewer(liked: true)
        _ = ViewerViewModel.update(&state, .toggleLike)
        _ = ViewerViewModel.update(&state, .likeFinished(liked: false, .failure(.timeout)))
        XCTAssertEqual(state.modal, .likeFailed(liked: false, .timeout))
        XCTAssertTrue(state.photo.likedByUser, "nothing changes on failure")
        XCTAssertEqual(ViewerViewModel.update(&state, .modalTryAgain), [.setLike(photoID: "v", liked: false)])
        XCTAssertNil(state.modal)
    }

    func test_share_copiesThePageLinkWithTheReferralAndSaysSo() {
        var state = viewer()
        let link = "https://unsplash.com/photos/v?utm_source=image_feed&utm_medium=referral"
        XCTAssertEqual(ViewerViewModel.update(&state, .share), [.share(URL(string: link)!)])
        _ = ViewerViewModel.update(&state, .copied(CopyOutcome(said: "Copied to tmux's buffer (prefix ]) and your clipboard", reached: true)))
        _ = ViewerViewModel.update(&state, .shared(opened: false))
        XCTAssertEqual(state.notice, "Copied to tmux's buffer (prefix ]) and your clipboard: \(link)")
        _ = ViewerViewModel.update(&state, .shared(opened: true))
        XCTAssertEqual(state.notice, "Opened in the browser. Copied to tmux's buffer (prefix ]) and your clipboard: \(link)")
    }

    /// A copy that stopped short is never said as done: a dialog has why, the fix and the whole link.
    func test_share_aCopyThatStoppedShort_showsTheWholeLinkAndTheFix() {
        var state = viewer()
        let link = "https://unsplash.com/photos/v?utm_source=image_feed&utm_medium=referral"
        _ = ViewerViewModel.update(&state, .share)
        let outcome = CopyOutcome(said: "tmux keeps the link (prefix ] pastes it), but passes no copy to your clipboard (set-clipboard off).",
                                  reached: false, fix: "tmux set -s set-clipboard on")
        _ = ViewerViewModel.update(&state, .copied(outcome))
        XCTAssertNil(state.notice)
        XCTAssertEqual(state.modal, .copyStoppedShort(outcome, text: link))
        XCTAssertEqual(ViewerViewModel.update(&state, .modalTryAgain), [])
        XCTAssertNil(state.modal)
    }

    func test_share_albumPhoto_keepsItsPageAsItIs() {
        var state = viewer()
        state.isFromAlbum = true
        state.photo.links.html = URL(string: "https://imgur.com/abc")
        XCTAssertEqual(ViewerViewModel.update(&state, .share), [.share(URL(string: "https://imgur.com/abc")!)])
    }

    func test_referral_replacesParametersAndKeepsOthers() {
        XCTAssertEqual(Referral.link(URL(string: "https://unsplash.com/@ann?utm_source=x&ref=1")!).absoluteString,
                       "https://unsplash.com/@ann?ref=1&utm_source=image_feed&utm_medium=referral")
        XCTAssertEqual(Referral.unsplash.absoluteString, "https://unsplash.com/?utm_source=image_feed&utm_medium=referral")
        XCTAssertEqual(Referral.profile(User(id: "1", username: "ann_b"))?.absoluteString,
                       "https://unsplash.com/@ann_b?utm_source=image_feed&utm_medium=referral")
        XCTAssertNil(Referral.profile(User(id: "1", username: "a b\u{1B}")))
    }

    func test_share_withoutLink_saysThereIsNone() {
        var state = ViewerState(photo: makePhoto("x"))
        XCTAssertEqual(ViewerViewModel.update(&state, .share), [])
        XCTAssertNotNil(state.notice)
    }

    func test_download_progressThenWhereItWent() {
        var state = viewer()
        XCTAssertEqual(ViewerViewModel.update(&state, .download), [.download(state.photo, tracked: true)])
        XCTAssertEqual(ViewerViewModel.update(&state, .download), [], "one download at a time")
        _ = ViewerViewModel.update(&state, .downloadProgress(photoID: state.photo.id, 0.5))
        XCTAssertEqual(state.download, .running(0.5))
        _ = ViewerViewModel.update(&state, .downloadFinished(photoID: state.photo.id, .success("/tmp/p.jpg")))
        XCTAssertEqual(state.download, .finished(path: "/tmp/p.jpg"))
        XCTAssertEqual(state.notice, "Saved p.jpg in /tmp")
    }

    func test_download_failure_offersTryAgain() {
        var state = viewer()
        _ = ViewerViewModel.update(&state, .download)
        _ = ViewerViewModel.update(&state, .downloadFinished(photoID: state.photo.id, .failure(.server(status: 500))))
        guard case .downloadFailed = state.modal else { return XCTFail("expected the download dialog") }
        XCTAssertEqual(ViewerViewModel.update(&state, .modalTryAgain), [.download(state.photo, tracked: true)])
    }

    func test_imageFailure_showsModalWhoseTryAgainReloads() {
        var state = viewer()
        _ = ViewerViewModel.update(&state, .imageFailed(.notFound))
        XCTAssertEqual(state.modal, .loadFailed(.notFound))
        XCTAssertEqual(ViewerViewModel.update(&state, .modalTryAgain), [.reloadImage])
    }
}
