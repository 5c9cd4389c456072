import ImageFeedApp
import XCTest

/// What `render` reads without the command-line library, and what it leaves to it.
final class RenderArgumentsTests: XCTestCase {
    func test_wellFormedArguments_areRead() {
        XCTAssertEqual(RenderArguments.quick(["photo.jpg"]), RenderArguments(source: "photo.jpg"))
        XCTAssertEqual(
            RenderArguments.quick(["--cols", "40", "photo.jpg", "--rows=20", "--colors", "256", "--graphics", "Kitty",
                                   "--cell-size", "9x18", "--blitter", "sextant", "--animate", "off", "--loops", "0",
                                   "--duration", "2.5"]),
            RenderArguments(source: "photo.jpg", cols: 40, rows: 20, colors: "256", graphics: "Kitty", cellSize: "9x18",
                            blitter: "sextant", animate: "off", loops: 0, duration: 2.5))
        XCTAssertEqual(RenderArguments.quick(["https://example.com/a.jpg", "--cols=1"])?.cols, 1)
    }

    /// Anything else goes to the library, which says what is wrong (or prints help) as for every command.
    func test_everythingElse_isLeftToTheLibrary() {
        let declined: [[String]] = [
            [], ["--cols", "40"], ["a.jpg", "b.jpg"], ["a.jpg", "--help"], ["a.jpg", "-h"], ["-"],
            ["a.jpg", "--cols"], ["a.jpg", "--cols", "40", "--cols", "40"], ["a.jpg", "--cols", "-4"], ["a.jpg", "--cols", "x"],
            ["a.jpg", "--cols="], ["a.jpg", "--colour", "256"], ["--", "a.jpg"], ["a.jpg", "--cols", "0"],
            ["a.jpg", "--colors", "4096"], ["a.jpg", "--graphics", "vt100"], ["a.jpg", "--cell-size", "9"],
            ["a.jpg", "--animate", "sideways"], ["a.jpg", "--loops", "1000001"], ["a.jpg", "--duration", "0"],
            ["a.jpg", "--duration", "nan"], ["a.jpg", "--blitter", "braille"], [""], ["a.jpg", "--version"],
        ]
        for arguments in declined {
            XCTAssertNil(RenderArguments.quick(arguments), "\(arguments)")
        }
    }

    func test_problems_areSaidInTheCommandsWords() {
        XCTAssertNil(RenderArguments(source: "a.jpg", cols: 2_000, rows: 1, graphics: "auto").problem)
        XCTAssertEqual(RenderArguments(source: "a.jpg", rows: 2_001).problem, "--rows must be 1 to 2000.")
        XCTAssertEqual(RenderArguments(source: "a.jpg", cellSize: "2x2").problem, "--cell-size is WxH in pixels, for example 9x18.")
        XCTAssertEqual(RenderArguments.cellSize("9X18")?.width, 9)
    }
}
