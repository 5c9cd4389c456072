import Foundation
@testable import ImageFeedCore
import XCTest

/// The Albums tab in the app: shown only with a source, in the tab cycle, and its photos in the viewer.
final class AlbumsPaneTests: XCTestCase {
    func test_theTabCycle_includesAlbumsOnlyWhenEnabled() {
        var state = AppState()
        XCTAssertEqual(state.tabs, [.feed, .search, .profile])
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .nextTab)
        XCTAssertEqual(state.tab, .feed)
        state.albumsEnabled = true
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .nextTab)
        XCTAssertEqual(state.tab, .albums)
        _ = AppViewModel.update(&state, .nextTab)
        XCTAssertEqual(state.tab, .feed)
        _ = AppViewModel.update(&state, .previousTab)
        XCTAssertEqual(state.tab, .albums)
    }

    func test_anAlbumPhoto_opensInTheViewerWithoutLikes() {
        var state = AppState()
        state.albumsEnabled = true
        _ = AppViewModel.update(&state, .selectTab(.albums))
        _ = AppViewModel.update(&state, .albums(.edit("u")))
        XCTAssertEqual(AppViewModel.update(&state, .albums(.submit)), [.albums(.loadAlbums(username: "u", page: 1)), .albums(.saveRecent(["u"]))])
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: "u", page: 1,
                                                               .success(Page(items: [Album(id: "a", photoCount: 1)], number: 1, perPage: 50, nextPage: nil)))))
        XCTAssertEqual(AppViewModel.update(&state, .albums(.openAlbum(index: 0))), [.albums(.loadPhotos(albumID: "a"))])
        let photo = Photo(id: "p", urls: PhotoURLs(full: URL(string: "https://i.test/p.jpg")))
        _ = AppViewModel.update(&state, .albums(.photosLoaded(albumID: "a", .success([photo]))))
        _ = AppViewModel.update(&state, .openViewer(photoID: "p"))
        XCTAssertEqual(state.viewer?.photo.id, "p")
        XCTAssertEqual(state.viewer?.isFromAlbum, true)
        XCTAssertEqual(AppViewModel.update(&state, .viewer(.toggleLike)), [.expireNotice(serial: 1, after: StatusNotice.lifetime)],
                       "no like for an album photo: a notice that fades")
        XCTAssertEqual(state.viewer?.notice, "Album photos cannot be liked here.")
        XCTAssertEqual(AppViewModel.update(&state, .viewer(.download)), [.viewer(.download(photo, tracked: false))])
    }

    func test_z_togglesBetweenTheWholePhotoAndTheLargestZoom() {
        var viewer = ViewerState(photo: Photo(id: "p"))
        _ = ViewerViewModel.update(&viewer, .toggleZoom)
        XCTAssertEqual(viewer.zoom, ViewerState.maximumZoom)
        _ = ViewerViewModel.update(&viewer, .pan(dx: 1, dy: 1))
        _ = ViewerViewModel.update(&viewer, .toggleZoom)
        XCTAssertEqual(viewer.zoom, 1)
        XCTAssertEqual(viewer.panX, 0)
        XCTAssertEqual(viewer.panY, 0)
    }

    func test_theUsernamesLookedUp_areReadAtStart_andForgottenOnLogOut() {
        var state = AppState(session: .loggedIn)
        XCTAssertFalse(AppViewModel.update(&state, .start).contains(.loadAlbumsRecent), "no Albums tab, no names")
        state = AppState(session: .loggedIn)
        state.albumsEnabled = true
        XCTAssertTrue(AppViewModel.update(&state, .start).contains(.loadAlbumsRecent))
        _ = AppViewModel.update(&state, .albums(.recentLoaded(["labs", "nasa"])))
        XCTAssertEqual(state.albums.field, "labs")
        _ = AppViewModel.update(&state, .albums(.submit))
        XCTAssertEqual(state.albums.username, "labs")
        _ = AppViewModel.update(&state, .profile(.logOutPressed))
        let effects = AppViewModel.update(&state, .profile(.logOutAnswered(true)))
        XCTAssertTrue(effects.contains(.albums(.saveRecent([]))), "\(effects)")
        XCTAssertEqual(state.albums, AlbumsState(), "nothing of it is kept")
    }
}
