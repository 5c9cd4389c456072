import XCTest
@testable import TerminalUI

final class CellTextTests: XCTestCase {
    func testTextsUpToFifteenBytesAreHeldInTheCellAndComeBackTheSame() {
        let texts = ["", " ", "a", "▀", "猫", "🐱", "é", "e\u{301}", "\u{10EEEE}\u{305}\u{30D}\u{30E}", "123456789012345"]
        for text in texts {
            let held = CellText(text)
            XCTAssertEqual(held.string, text)
            XCTAssertEqual(held.utf8Count, text.utf8.count)
            XCTAssertEqual(held.isEmpty, text.isEmpty)
            XCTAssertEqual(held.isASCII, text.utf8.allSatisfy { $0 < 0x80 })
            XCTAssertEqual(Cell(text).text, text)
        }
        XCTAssertTrue(_isPOD(Cell.self), "a cell holds no reference, so a frame copies as one block")
    }

    func testACodePointsText_isTheSameAsItsStrings() {
        for scalar: Unicode.Scalar in [" ", "a", "▀", "é", "猫", "🬀", "🐱", "\u{10EEEE}", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}"] {
            XCTAssertEqual(CellText(scalar), CellText(String(scalar)), "U+\(String(scalar.value, radix: 16))")
        }
    }

    func testCellsAreEqualExactlyWhenTheirBytesAndStyleAre() {
        XCTAssertEqual(Cell("a"), Cell("a"))
        XCTAssertNotEqual(Cell("a"), Cell("b"))
        XCTAssertNotEqual(Cell("a"), Cell("a", style: CellStyle(bold: true)))
        XCTAssertNotEqual(Cell(""), Cell(" "))
        XCTAssertNotEqual(Cell(" "), Cell("  "))
        // By bytes, not by Unicode's canonical equivalence: a precomposed é and e with its accent are different cells.
        XCTAssertNotEqual(Cell("é"), Cell("e\u{301}"))
        XCTAssertEqual(Set([Cell("x"), Cell("x"), Cell("y")]).count, 2)
        XCTAssertTrue(Cell.picture.isPicture)
        XCTAssertFalse(Cell("\u{10EEEE}\u{305}").isPicture)
    }

    func testLongerGraphemesAreKeptOnceAndCompareByTheirText() {
        let family = "👨‍👩‍👧‍👦" // 25 bytes
        let marks = "a" + String(repeating: "\u{301}", count: 12)
        XCTAssertEqual(CellText(family).string, family)
        XCTAssertEqual(CellText(family).utf8Count, family.utf8.count)
        XCTAssertEqual(CellText(family), CellText(family))
        XCTAssertEqual(CellText(marks).string, marks)
        XCTAssertNotEqual(CellText(family), CellText(marks))
        XCTAssertNotEqual(CellText("1234567890123456"), CellText("123456789012345"))
    }

    func testPastItsLimitTheTableCutsALongTextAtAWholeScalar() {
        let table = LongTexts(limit: 1)
        let first = "👨‍👩‍👧‍👦"
        let text = { (string: String) -> CellText in
            var string = string
            return string.withUTF8 { table.text(for: UnsafeRawBufferPointer($0)) }
        }
        XCTAssertEqual(text(first), text(first), "the same number for the same text")
        let cut = text("🐱🐱🐱🐱🐱") // 20 bytes: no room left in the table
        XCTAssertEqual(cut.string, "🐱🐱🐱", "cut to the whole scalars that fit in 15 bytes")
    }
}
