import ImageFeedCore
import XCTest

final class UntrustedTextTests: XCTestCase {
    func test_plainText_isUnchanged() {
        XCTAssertEqual(UntrustedText.sanitize("Кофе ☕️ at 東京"), "Кофе ☕️ at 東京")
    }

    func test_controlCharacters_areRemovedAndLineBreaksBecomeSpaces() {
        XCTAssertEqual(UntrustedText.sanitize("a\u{0}b\u{7}c\nd\r\n\te\u{7F}f\u{85}g"), "abc d efg")
    }

    func test_escapeSequences_areRemovedWhole() {
        XCTAssertEqual(UntrustedText.sanitize("red \u{1B}[31mtext\u{1B}[0m"), "red text")
        XCTAssertEqual(UntrustedText.sanitize("x\u{1B}]52;c;ZXZpbA==\u{7}y"), "xy", "OSC 52 clipboard write")
        XCTAssertEqual(UntrustedText.sanitize("x\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\y"), "xlinky")
        XCTAssertEqual(UntrustedText.sanitize("paste\u{1B}[201~ end"), "paste end", "bracketed paste end")
        XCTAssertEqual(UntrustedText.sanitize("a\u{9B}2Jb"), "ab", "8-bit CSI")
        XCTAssertEqual(UntrustedText.sanitize("a\u{1B}Pq#0;2;0;0;0\u{1B}\\b"), "ab", "DCS (sixel)")
        XCTAssertEqual(UntrustedText.sanitize("a\u{1B}cb"), "ab", "reset")
        XCTAssertEqual(UntrustedText.sanitize("dangling\u{1B}"), "dangling")
    }

    func test_bidiOverrides_areRemoved() {
        XCTAssertEqual(UntrustedText.sanitize("abc\u{202E}fdp.exe\u{202C}"), "abcfdp.exe")
        XCTAssertEqual(UntrustedText.sanitize("\u{2066}x\u{2069}\u{200F}"), "x")
    }
}
