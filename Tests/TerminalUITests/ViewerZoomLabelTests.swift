import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

final class ViewerZoomLabelTests: XCTestCase {
    func test_zoomLabel_wholeNumbersPlain_othersToATenth() {
        XCTAssertEqual(ViewerScreen.zoomLabel(8, unicode: true), "8× zoom")
        XCTAssertEqual(ViewerScreen.zoomLabel(1.5, unicode: false), "1.5x zoom")
        XCTAssertEqual(ViewerScreen.zoomLabel(2.25, unicode: false), "2.3x zoom")
        XCTAssertEqual(ViewerScreen.zoomLabel(1.5 * 1.5 * 1.5, unicode: false), "3.4x zoom")
    }
}
