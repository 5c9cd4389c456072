import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Sixel pictures that only moved move with the text where the terminal scrolls them (xterm, mlterm): the rows
/// curses scrolled are read from what it wrote, and only the rows a scroll brought into view are drawn.
final class SixelScrollTests: XCTestCase {
    func test_rowMoves_followARegionScrolledUpByLineFeeds_andDownByReverseScroll() {
        var up = RowMoves(height: 24)
        // ncurses for xterm: a region, the cursor to its bottom, a line feed, the whole screen again.
        up.read(Array("\u{1B}[4;21r\u{1B}[21;1H\n\u{1B}[1;24r\u{1B}[11;57Hj".utf8))
        XCTAssertEqual(up.destination(of: 4), 3, "row 4 (0-based) moved up into row 3")
        XCTAssertNil(up.destination(of: 3), "the region's top row scrolled away")
        XCTAssertEqual(up.destination(of: 2), 2, "above the region nothing moved")
        XCTAssertEqual(up.destination(of: 21), 21, "below it neither")
        XCTAssertNil(up.origin[20], "a blank row came in at the region's bottom")

        var down = RowMoves(height: 24)
        down.read(Array("\u{1B}[4;20r\u{1B}[4;1H\u{1B}[2T\u{1B}[1;24r".utf8))
        XCTAssertEqual(down.destination(of: 3), 5)
        XCTAssertEqual(down.destination(of: 17), 19)
        XCTAssertNil(down.destination(of: 18), "pushed out of the region")

        var lines = RowMoves(height: 10)
        lines.read(Array("\u{1B}[3;1H\u{1B}[2M".utf8)) // delete two lines at row 2
        XCTAssertEqual(lines.destination(of: 4), 2)
        XCTAssertNil(lines.origin[9])

        var cleared = RowMoves(height: 10)
        cleared.read(Array("\u{1B}[H\u{1B}[2J".utf8))
        XCTAssertTrue(cleared.origin.allSatisfy { $0 == nil })
        XCTAssertTrue(cleared.cleared, "a clear is told from a scroll: kitty drops the pictures it held unplaced")
        var plain = RowMoves(height: 10)
        plain.read(Array("\u{1B}[5;3Hhello\u{1B}Pq#0;2;0;0;0-\u{1B}\\\u{1B}[31mred".utf8))
        XCTAssertTrue(plain.isIdentity, "text, colours and a DCS string move no row")
    }

    func test_rowMoves_startFromTheRowCursesLeftTheCursorIn() {
        // ncurses for xterm-direct, scrolling rows 4…59 up by one with the cursor left at row 59 by the frame before:
        // the region is set between a save and a restore of the cursor, and a line feed scrolls, with no move before it.
        let bytes = Array("\u{1B}7\u{1B}[4;59r\u{1B}8\r\n\u{1B}[1;60r\u{1B}[59;14H".utf8)
        var moves = RowMoves(height: 60, cursorRow: 58)
        moves.read(bytes)
        XCTAssertEqual(moves.destination(of: 10), 9, "the rows moved up")
        XCTAssertNil(moves.destination(of: 3), "the region's top row scrolled away")
        var fromTheTop = RowMoves(height: 60)
        fromTheTop.read(bytes)
        XCTAssertTrue(fromTheTop.isIdentity, "read from the top row, the line feed is only a move (what was missed before)")
    }

    func picture(columns: Int = 10, rows: Int = 6) -> CellPicture { pixelPicture(columns: columns, rows: rows, cellHeight: 12) }

    func test_aCardMovedUpByOneRow_drawsOnlyTheRowItBringsIntoView() {
        let card = picture()
        let clip = Rect(x: 0, y: 0, width: 40, height: 9)
        var before = CellBuffer(width: 40, height: 10)
        before.draw(card, x: 2, y: 4, clip: clip) // rows 0…4 of the card in view (screen rows 4…8)
        var after = CellBuffer(width: 40, height: 10)
        after.draw(card, x: 2, y: 3, clip: clip) // one row up: rows 0…5 in view
        let layer = InlinePictureLayer(format: .sixel, followsScrolls: true)
        XCTAssertEqual(sixels(in: layer.frame(before, repainted: true)), 1)
        var moves = RowMoves(height: 10)
        moves.read(Array("\u{1B}[1;9r\u{1B}[9;1H\n\u{1B}[1;10r".utf8)) // curses scrolled rows 0…8 up by one
        layer.moved(moves)
        let step = layer.frame(after, repainted: false)
        XCTAssertEqual(sixels(in: step), 1, "one piece: the row that came into view")
        let piece = SixelEncoder.decode(step.sixelBody)
        XCTAssertEqual(piece?.height, 12, "one row of 12 pixels, not the card")
        XCTAssertTrue(String(decoding: step, as: UTF8.self).contains("\u{1B}[9;3H"), "drawn at the card's last row")
    }

    func test_withoutScrolls_aMovedCardIsDrawnAgain() {
        let card = picture()
        let clip = Rect(x: 0, y: 0, width: 40, height: 9)
        var before = CellBuffer(width: 40, height: 10)
        before.draw(card, x: 2, y: 2, clip: clip)
        var after = CellBuffer(width: 40, height: 10)
        after.draw(card, x: 2, y: 1, clip: clip)
        let layer = InlinePictureLayer(format: .sixel)
        _ = layer.frame(before, repainted: true)
        let step = layer.frame(after, repainted: false)
        XCTAssertEqual(SixelEncoder.decode(step.sixelBody)?.height, 72, "the whole card again")
    }

    func sixels(in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}Pq").count - 1
    }
}
