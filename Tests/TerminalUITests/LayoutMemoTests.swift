import ImageFeedCore
@testable import TerminalUI
import XCTest

/// A long list's layout is kept and given again while its sizes and area are the same: it is always the layout the
/// photos make.
final class LayoutMemoTests: XCTestCase {
    func photos(_ count: Int, from first: Int = 0) -> [Photo] {
        (first..<(first + count)).map { Photo(id: "p\($0)", width: 300 + ($0 * 37) % 900, height: 200 + ($0 * 53) % 700) }
    }

    func test_aKeptLayout_isTheOneThePhotosMake_afterEveryChangeOfSizesOrArea() {
        var array = photos(95)
        var list = PhotoList(array)
        list.hold(around: 94, radius: 0)
        func check(_ width: Int, _ height: Int, _ why: String) {
            XCTAssertEqual(CardLayout(photos: list, width: width, viewportHeight: height),
                           CardLayout(photos: array, width: width, viewportHeight: height), why)
            XCTAssertEqual(TileLayout(photos: list, width: width, viewportHeight: height, layout: .grid),
                           TileLayout(photos: array, width: width, viewportHeight: height, layout: .grid), why)
        }
        check(120, 40, "first")
        check(120, 40, "again, kept")
        check(200, 60, "another area")
        check(120, 40, "the first area again")
        array += photos(30, from: 95)
        list += photos(30, from: 95)
        check(120, 40, "a page more")
        array[3].width = 5_000
        list[3].width = 5_000
        check(120, 40, "a packed photo's size changed")
        array.remove(at: 100)
        list.remove(at: 100)
        check(120, 40, "a photo fewer")
        for width in [80, 150, 200, 300, 120] { check(width, 30, "width \(width)") }
    }

    /// The feed read page by page through an afternoon: what is kept is its last layout (and the other lists'), not one
    /// for each length it had.
    func test_aListThatGrows_keepsOneLayout_notOneForEachPage() {
        let memo = LayoutMemo<Int, Int>(capacity: 4)
        let area = LayoutMemo<Int, Int>.Area(width: 120, viewportHeight: 40, cellAspect: 2, extra: 0)
        var made = 0
        let other = PhotoList(photos(20, from: 5_000))
        _ = memo.layout(of: other, for: area) { _ in made += 1; return 0 }
        var feed = PhotoList([])
        for page in 0..<40 {
            feed += photos(30, from: page * 30)
            XCTAssertEqual(memo.layout(of: feed, for: area) { sizes in made += 1; return sizes.count }, feed.count)
            XCTAssertEqual(memo.layout(of: feed, for: area) { _ in made += 1; return -1 }, feed.count, "kept")
            XCTAssertEqual(memo.layout(of: other, for: area) { _ in made += 1; return -1 }, 0, "another list's, kept")
        }
        XCTAssertEqual(made, 41)
        XCTAssertEqual(memo.keptSizes, 1_200 + 20)
        // A photo fewer is another list as far as the memo knows: both kept, up to its capacity.
        feed.remove(at: 7)
        _ = memo.layout(of: feed, for: area) { $0.count }
        XCTAssertEqual(memo.keptSizes, 1_200 + 20 + 1_199)
    }
}
