import TerminalUI
import XCTest

/// Cell widths, as glibc's wcwidth gives them for what the app shows.
final class DisplayWidthTests: XCTestCase {
    func test_widths() {
        XCTAssertEqual(DisplayWidth.of("a"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{7}"), 0, "control characters take no cell")
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1, "a combining accent adds nothing")
        XCTAssertEqual(DisplayWidth.of("日本"), 4)
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("❤\u{FE0F}"), 2, "the emoji presentation selector makes a heart wide")
        XCTAssertEqual(DisplayWidth.of("♥"), 1)
        XCTAssertEqual(DisplayWidth.of("\u{200B}"), 0)
    }

    func test_boxDrawingAndBlockElements_areNarrow() {
        // The pictures' half blocks and the frames' lines: every scalar from U+2500 to U+259F.
        for value in UInt32(0x2500)...0x259F {
            XCTAssertEqual(DisplayWidth.of(Unicode.Scalar(value)!), 1, String(value, radix: 16))
        }
        XCTAssertEqual(DisplayWidth.of("▀▄█│─┌"), 6)
    }
}
