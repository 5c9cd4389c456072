import Foundation
@testable import ImageFeedCore
import XCTest

final class AlbumsViewModelTests: XCTestCase {
    typealias VM = AlbumsViewModel

    func albums(_ count: Int, from start: Int = 0) -> [Album] {
        (start..<(start + count)).map { Album(id: "a\($0)", title: "Album \($0)", photoCount: $0 == 0 ? 0 : 3) }
    }

    func submitted(_ name: String = "someone") -> AlbumsState {
        var state = AlbumsState()
        _ = VM.update(&state, .edit(name))
        _ = VM.update(&state, .submit)
        return state
    }

    func test_submittingAName_loadsItsAlbums() {
        var state = AlbumsState()
        XCTAssertTrue(state.isEditing, "the pane opens on the prompt")
        XCTAssertEqual(VM.update(&state, .submit), [], "nothing to look up yet")
        _ = VM.update(&state, .edit("  drbatookhan \n"))
        XCTAssertEqual(VM.update(&state, .submit), [.loadAlbums(username: "drbatookhan", page: 1), .saveRecent(["drbatookhan"])])
        XCTAssertEqual(state.phase, .loading)
        XCTAssertFalse(state.isEditing)
        _ = VM.update(&state, .albumsLoaded(username: "drbatookhan", page: 1,
                                            .success(Page(items: albums(3), number: 1, perPage: 50, nextPage: nil))))
        XCTAssertEqual(state.phase, .content)
        XCTAssertEqual(state.albums.count, 3)
    }

    func test_anAnswerForAnotherName_isDropped() {
        var state = submitted("first")
        _ = VM.update(&state, .edit("second"))
        _ = VM.update(&state, .submit)
        _ = VM.update(&state, .albumsLoaded(username: "first", page: 1, .success(Page(items: albums(2), number: 1, perPage: 50, nextPage: nil))))
        XCTAssertEqual(state.phase, .loading)
        XCTAssertTrue(state.albums.isEmpty)
    }

    func test_errors_andRetry() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .failure(.notFound)))
        XCTAssertEqual(state.phase, .failed(.notFound))
        XCTAssertEqual(VM.update(&state, .retry), [.loadAlbums(username: "someone", page: 1)])
        XCTAssertEqual(state.phase, .loading)
    }

    func test_noAlbums_isContentThatIsEmpty() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: [], number: 1, perPage: 50, nextPage: nil))))
        XCTAssertEqual(state.phase, .content)
        XCTAssertTrue(state.albums.isEmpty)
    }

    func test_paging_nearTheEnd() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: albums(50), number: 1, perPage: 50, nextPage: 2))))
        XCTAssertEqual(VM.update(&state, .showedAlbum(index: 10)), [], "far from the end")
        XCTAssertEqual(VM.update(&state, .showedAlbum(index: 45)), [.loadAlbums(username: "someone", page: 2)])
        XCTAssertEqual(VM.update(&state, .showedAlbum(index: 46)), [], "one request at a time")
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 2, .failure(.server(status: 503))))
        XCTAssertEqual(state.moreFailed, .server(status: 503))
        XCTAssertEqual(state.phase, .content, "the albums already shown stay")
        XCTAssertEqual(VM.update(&state, .retry), [.loadAlbums(username: "someone", page: 2)])
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 2, .success(Page(items: albums(5, from: 49), number: 2, perPage: 50, nextPage: nil))))
        XCTAssertEqual(state.albums.count, 54, "a repeated album is not shown twice")
        XCTAssertNil(state.nextPage)
    }

    func test_aReload_dropsANextPageStillOnItsWay() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: albums(50), number: 1, perPage: 50, nextPage: 2))))
        XCTAssertEqual(VM.update(&state, .showedAlbum(index: 45)), [.loadAlbums(username: "someone", page: 2)])
        XCTAssertEqual(VM.update(&state, .retry), [.loadAlbums(username: "someone", page: 1)], "r on content reloads")
        XCTAssertFalse(state.loadingMore)
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 2, .success(Page(items: albums(5, from: 50), number: 2, perPage: 50, nextPage: nil))))
        XCTAssertTrue(state.albums.isEmpty, "the old next page is not put under nothing")
        XCTAssertEqual(state.phase, .loading)
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: albums(50), number: 1, perPage: 50, nextPage: 2))))
        XCTAssertEqual(state.albums.count, 50)
        XCTAssertEqual(state.nextPage, 2)
    }

    func test_openingAnAlbum_loadsItsPhotos() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: albums(3), number: 1, perPage: 50, nextPage: nil))))
        XCTAssertEqual(VM.update(&state, .openAlbum(index: 2)), [.loadPhotos(albumID: "a2")])
        XCTAssertEqual(state.open?.phase, .loading)
        _ = VM.update(&state, .photosLoaded(albumID: "other", .success([Photo(id: "x")])))
        XCTAssertEqual(state.open?.phase, .loading, "an answer for another album is dropped")
        _ = VM.update(&state, .photosLoaded(albumID: "a2", .success([Photo(id: "p1"), Photo(id: "p2")])))
        XCTAssertEqual(state.open?.phase, .content)
        _ = VM.update(&state, .selectPhoto(index: 9))
        XCTAssertEqual(state.selectedPhoto?.id, "p2")
        _ = VM.update(&state, .closeAlbum)
        XCTAssertNil(state.open)
        XCTAssertEqual(state.selected, 2, "back on the album that was open")
    }

    func test_anEmptyAlbum_needsNoRequest_andAFailedOneRetries() {
        var state = submitted()
        _ = VM.update(&state, .albumsLoaded(username: "someone", page: 1, .success(Page(items: albums(2), number: 1, perPage: 50, nextPage: nil))))
        XCTAssertEqual(VM.update(&state, .openAlbum(index: 0)), [], "Imgur said it has no photos")
        XCTAssertEqual(state.open?.phase, .content)
        XCTAssertEqual(state.open?.photos, [])
        _ = VM.update(&state, .closeAlbum)
        _ = VM.update(&state, .openAlbum(index: 1))
        _ = VM.update(&state, .photosLoaded(albumID: "a1", .failure(.noConnection("down"))))
        XCTAssertEqual(state.open?.phase, .failed(.noConnection("down")))
        XCTAssertEqual(VM.update(&state, .retry), [.loadPhotos(albumID: "a1")])
    }

    func test_theNamesLookedUp_newestFirst_onceEach_atMostFive() {
        var state = AlbumsState()
        for name in ["a", "b", "c", "B", "d", "e", "f"] {
            _ = VM.update(&state, .edit(name))
            let effects = VM.update(&state, .submit)
            XCTAssertEqual(effects.last, .saveRecent(state.recent))
        }
        XCTAssertEqual(state.recent, ["f", "e", "d", "B", "c"], "b and B are one name; the oldest goes")
    }

    func test_theLastName_isOffered_EnterTakesIt_typingReplacesIt() {
        var state = AlbumsState()
        _ = VM.update(&state, .recentLoaded([" labs ", "", "nasa"]))
        XCTAssertEqual(state.recent, ["labs", "nasa"])
        XCTAssertEqual(state.field, "labs")
        XCTAssertTrue(state.fieldIsOffered)
        XCTAssertEqual(VM.update(&state, .submit).first, .loadAlbums(username: "labs", page: 1))
        XCTAssertFalse(state.fieldIsOffered)

        // u offers the name shown again; Esc before any look-up drops an offer.
        _ = VM.update(&state, .editUsername)
        XCTAssertTrue(state.fieldIsOffered)
        _ = VM.update(&state, .edit("n"))
        XCTAssertFalse(state.fieldIsOffered)
        var fresh = AlbumsState()
        _ = VM.update(&fresh, .recentLoaded(["labs"]))
        _ = VM.update(&fresh, .cancelEditing)
        XCTAssertEqual(fresh.field, "labs", "the offer stays for u")
        XCTAssertFalse(fresh.isEditing, "Esc leaves the field even before any look-up")
        var typed = AlbumsState()
        _ = VM.update(&typed, .edit("ab"))
        _ = VM.update(&typed, .cancelEditing)
        XCTAssertEqual(typed.field, "")
        XCTAssertFalse(typed.isEditing)

        // A name already typed is not replaced by the list arriving late.
        var typing = AlbumsState()
        _ = VM.update(&typing, .edit("st"))
        _ = VM.update(&typing, .recentLoaded(["labs"]))
        XCTAssertEqual(typing.field, "st")
        XCTAssertFalse(typing.fieldIsOffered)
    }

    func test_editingTheName_again() {
        var state = submitted()
        _ = VM.update(&state, .editUsername)
        XCTAssertTrue(state.isEditing)
        XCTAssertEqual(state.field, "someone", "the last name stays in the field")
        _ = VM.update(&state, .cancelEditing)
        XCTAssertFalse(state.isEditing)
        _ = VM.update(&state, .edit("a\nb" + String(repeating: "x", count: 100)))
        XCTAssertEqual(state.field.count, 64)
        XCTAssertFalse(state.field.contains("\n"))
    }
}
