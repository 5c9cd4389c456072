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
}
