import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

final class ViewerRenderingTests: XCTestCase {
    // 2x1: red, blue.
    let image = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255])

    /// At 40 columns the viewer's status line keeps a way out ("Esc back", beside the credits Unsplash asks for) over
    /// the name of the characters photos are drawn with and the heart, which give way; where there is room, they show.
    func test_theWayOut_outranksTheCharactersName() {
        var state = loadedState([photo("p1"), photo("p2")])
        _ = AppViewModel.update(&state, .openViewer(photoID: "p1"))
        var ui = UIState()
        ui.blitter = .blocks
        let narrow = render(state, ui: ui, width: 40, height: 12, theme: unicodeTheme).last ?? ""
        XCTAssertTrue(narrow.contains("Esc back") || narrow.contains("? help"), narrow)
        XCTAssertFalse(narrow.contains("blocks"), narrow)
        let wide = render(state, ui: ui, width: 160, height: 12, theme: unicodeTheme).last ?? ""
        XCTAssertTrue(wide.contains("blocks") && wide.contains("Esc back"), wide)
    }

    func test_rotate_quarterTurnsClockwise() {
        let once = ViewerRendering.rotate(image, quarterTurns: 1)
        XCTAssertEqual(once.width, 1)
        XCTAssertEqual(once.height, 2)
        XCTAssertTrue(once.pixel(x: 0, y: 0) == (255, 0, 0), "the left end goes to the top")
        let twice = ViewerRendering.rotate(image, quarterTurns: 2)
        XCTAssertTrue(twice.pixel(x: 0, y: 0) == (0, 0, 255))
        let thrice = ViewerRendering.rotate(image, quarterTurns: 3)
        XCTAssertTrue(thrice.pixel(x: 0, y: 0) == (0, 0, 255))
        XCTAssertEqual(ViewerRendering.rotate(image, quarterTurns: 4), image)
    }

    func test_zoom_showsThePartAroundThePanCentre() {
        let blitter = HalfBlockBlitter(mode: .truecolor)
        let wide = RGBImage(width: 4, height: 2, pixels: [
            255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255,
            255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255,
        ])
        let left = ViewerRendering.render(wide, columns: 1, rows: 1, view: ViewTransform(zoom: 2, panX: -0.25), drawer: PictureDrawer(blitter: blitter))
        XCTAssertEqual(left[0, 0].background, .rgb(RGB(255, 0, 0)))
        let right = ViewerRendering.render(wide, columns: 1, rows: 1, view: ViewTransform(zoom: 2, panX: 0.25), drawer: PictureDrawer(blitter: blitter))
        XCTAssertEqual(right[0, 0].background, .rgb(RGB(0, 0, 255)))
    }
}

