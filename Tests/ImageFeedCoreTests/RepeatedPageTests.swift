import Foundation
import ImageFeedCore
import XCTest

/// A page that adds nothing new is not followed by another until the user asks: a listing that repeats itself
/// (Unsplash's do when photos are published between two requests) cannot spend the hourly quota by itself.
final class RepeatedPageTests: XCTestCase {
    func test_aLaterPageWithNothingNew_waitsForTheUser() {
        var state = loadedFeed(["a", "b", "c"], next: 2)
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 2)), [.loadPage(page: 2, perPage: state.perPage)])
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 2, .success(makePage(["a", "b", "c"], number: 2, next: 3))))
        XCTAssertEqual(state.nextPage, .waiting(page: 3))
        // Frames go on showing the end of the list: no request.
        for _ in 0..<5 { XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 2)), []) }
        // r asks for it.
        XCTAssertEqual(PhotoListViewModel.update(&state, .retry), [.loadPage(page: 3, perPage: state.perPage)])
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 3, .success(makePage(["d"], number: 3, next: 4))))
        XCTAssertEqual(state.nextPage, .idle)
        XCTAssertEqual(state.photos.map(\.id), ["a", "b", "c", "d"])
        XCTAssertEqual(PhotoListViewModel.update(&state, .showedItem(index: 3)), [.loadPage(page: 4, perPage: state.perPage)])
    }

    func test_aRepeatedLastPage_isJustTheEnd() {
        var state = loadedFeed(["a"], next: 2)
        _ = PhotoListViewModel.update(&state, .showedItem(index: 0))
        _ = PhotoListViewModel.update(&state, .pageLoaded(page: 2, .success(makePage(["a"], number: 2, next: nil))))
        XCTAssertEqual(state.nextPage, .idle)
        XCTAssertNil(state.nextPageNumber)
    }

    func test_gridsOfThings_waitForTheUserToo() {
        struct Thing: Identifiable, Equatable, Sendable { var id: String }
        var list = ItemList<Thing>()
        list.apply(page: 1, .success(Page(items: [Thing(id: "a")], number: 1, perPage: 1, nextPage: 2)))
        XCTAssertEqual(list.pageDue(showing: 0), 2)
        list.apply(page: 2, .success(Page(items: [Thing(id: "a")], number: 2, perPage: 1, nextPage: 3)))
        XCTAssertTrue(list.waitsForAsk)
        XCTAssertNil(list.pageDue(showing: 0))
        XCTAssertEqual(list.retryPage(), 3)
        XCTAssertFalse(list.waitsForAsk)
    }
}
