import ImageFeedCore
import XCTest

/// The line-editing keys of the search and username fields.
final class TextEditTests: XCTestCase {
    func edited(_ text: String, cursor: Int, selected: Bool = false, _ edits: TextEdit...) -> (String, Int, Bool) {
        var text = text
        var cursor = cursor
        var selected = selected
        for edit in edits { edit.apply(to: &text, cursor: &cursor, selected: &selected, maximumLength: 10) }
        return (text, cursor, selected)
    }

    func test_cursorMovesAndInsertsWhereItIs() {
        XCTAssertTrue(edited("cat", cursor: 3, .left, .left, .insert("o")) == ("coat", 2, false))
        XCTAssertTrue(edited("cat", cursor: 3, .home, .insert("a "), .end, .insert("s")) == ("a cats", 6, false))
        XCTAssertTrue(edited("cat", cursor: 1, .deleteForward) == ("ct", 1, false))
        XCTAssertTrue(edited("cat", cursor: 0, .deleteBackward, .left) == ("cat", 0, false))
        XCTAssertTrue(edited("cat", cursor: 9, .right) == ("cat", 3, false), "a cursor past the end is clamped")
    }

    func test_ctrlUAndCtrlW() {
        XCTAssertTrue(edited("red fox", cursor: 4, .deleteToStart) == ("fox", 0, false))
        XCTAssertTrue(edited("red fox  ", cursor: 9, .deleteWordBackward) == ("red ", 4, false))
        XCTAssertTrue(edited("red fox", cursor: 7, .deleteWordBackward, .deleteWordBackward) == ("", 0, false))
    }

    func test_aSelectedTextIsReplacedByTyping_clearedByDeleting_keptByMoving() {
        XCTAssertTrue(edited("labs", cursor: 4, selected: true, .insert("n")) == ("n", 1, false))
        XCTAssertTrue(edited("labs", cursor: 4, selected: true, .deleteBackward) == ("", 0, false))
        XCTAssertTrue(edited("labs", cursor: 4, selected: true, .left, .insert("x")) == ("labxs", 4, false))
    }

    func test_controlCharactersAreNotTyped_andTheLengthIsKept() {
        XCTAssertTrue(edited("", cursor: 0, .insert("a\u{1B}[2Jb\u{7}\n")) == ("a[2Jb", 5, false))
        XCTAssertTrue(edited("12345678", cursor: 8, .insert("猫🐱xyz")) == ("12345678猫🐱", 10, false))
    }
}
