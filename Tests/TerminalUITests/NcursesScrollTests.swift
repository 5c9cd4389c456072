import CNcursesw
import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// The backend scrolls the terminal itself when most rows moved (curses leaves out blocks moved further than
/// they are tall): only the new rows are sent.
final class NcursesScrollTests: XCTestCase {
    func frame(top: Int, width: Int = 40, height: Int = 20) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        buffer.write("tab bar", x: 0, y: 0)
        for y in 1..<(height - 1) {
            let style = CellStyle(foreground: .indexed(UInt8(16 + (top + y) % 200)), background: .indexed(UInt8(17 + (top + y) % 200)))
            buffer.write("row \(top + y) " + String(repeating: "▀", count: width - 12), x: 0, y: y, style: style)
        }
        buffer.write("status", x: 0, y: height - 1)
        return buffer
    }

    func test_scrollMove_findsTheShift_ofTheRowsThatMoved() {
        XCTAssertEqual(ScrollPlan.scrollMove(from: frame(top: 0), to: frame(top: 1)),
                       ScrollPlan.ScrollMove(top: 1, bottom: 18, shift: 1))
        XCTAssertEqual(ScrollPlan.scrollMove(from: frame(top: 0), to: frame(top: 12)),
                       ScrollPlan.ScrollMove(top: 1, bottom: 18, shift: 12), "further than the block that stays is tall")
        XCTAssertEqual(ScrollPlan.scrollMove(from: frame(top: 5), to: frame(top: 2))?.shift, -3)
        XCTAssertNil(ScrollPlan.scrollMove(from: frame(top: 0), to: frame(top: 0)))
        XCTAssertNil(ScrollPlan.scrollMove(from: frame(top: 0), to: frame(top: 40)), "nothing in common")
    }

    func test_shiftRows_movesWholeRows_andBlanksThoseLeftBehind() {
        var up = frame(top: 0)
        up.shiftRows(top: 1, bottom: 18, by: 5)
        var down = frame(top: 0)
        down.shiftRows(top: 1, bottom: 18, by: -5)
        var gone = frame(top: 0)
        gone.shiftRows(top: 1, bottom: 18, by: 30)
        let before = frame(top: 0)
        for y in 0..<20 {
            for x in 0..<40 {
                let outside = y == 0 || y == 19
                XCTAssertEqual(up[x, y], outside ? before[x, y] : y <= 13 ? before[x, y + 5] : .blank, "up \(x),\(y)")
                XCTAssertEqual(down[x, y], outside ? before[x, y] : y >= 6 ? before[x, y - 5] : .blank, "down \(x),\(y)")
                XCTAssertEqual(gone[x, y], outside ? before[x, y] : .blank, "gone \(x),\(y)")
            }
        }
    }

    func test_rowHashes_tellRowsApart_byTextAndColour_andKnowABlankRow() {
        var buffer = CellBuffer(width: 10, height: 5)
        buffer.write("abc", x: 0, y: 1)
        buffer.write("abc", x: 0, y: 2)
        buffer.write("abd", x: 0, y: 3)
        buffer.write("abc", x: 0, y: 4, style: CellStyle(foreground: .rgb(RGB(1, 2, 3))))
        let hashes = ScrollPlan.rowHashes(buffer)
        XCTAssertEqual(hashes[1], hashes[2])
        XCTAssertNotEqual(hashes[1], hashes[3], "text")
        XCTAssertNotEqual(hashes[1], hashes[4], "colour")
        XCTAssertEqual(hashes[0], ScrollPlan.blankRowHash(10))
        XCTAssertTrue(Cell.picture.isPicture)
        XCTAssertFalse(Cell("▀").isPicture)
        XCTAssertFalse(Cell(Cell.picture.text + "\u{0305}").isPicture, "a Kitty placeholder with its diacritic")
    }

    /// The steps of a big move are made in curses' own window: what curses holds afterwards is the frame, cell by cell.
    func test_aMoveMadeInCursesWindow_leavesCursesHoldingTheFrame() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 40, height: 20, keepsOutput: true)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"])
        defer { backend.restore() }
        for top in [0, 12, 13, 10, 40, 27, 0] {
            let buffer = frame(top: top)
            backend.draw(buffer)
            _ = terminal.endFrame(flushing: backend)
            for y in 0..<20 {
                var line = ""
                var expected = ""
                for x in 0..<40 {
                    var character = cchar_t()
                    mvwin_wch(backend.window, Int32(y), Int32(x), &character)
                    let value = withUnsafeBytes(of: &character.chars) { $0.bindMemory(to: wchar_t.self)[0] }
                    line += String(UnicodeScalar(UInt32(bitPattern: value)) ?? " ")
                    expected += buffer[x, y].text
                }
                XCTAssertEqual(line, expected, "row \(y) after the frame of top \(top)")
            }
        }
    }

    func test_aMovedScreen_costsItsNewRows_andLooksAsARepaintWould() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 40, height: 20, keepsOutput: true)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"])
        defer { backend.restore() }
        func drawn(_ buffer: CellBuffer) -> [UInt8] {
            backend.draw(buffer)
            _ = terminal.endFrame(flushing: backend)
            return terminal.takeOutput()
        }
        let repaint = drawn(frame(top: 0)).count
        let moved = drawn(frame(top: 12))
        XCTAssertLessThan(moved.count, repaint * 3 / 4, "12 of 18 rows are new, 6 moved up")
        let line = drawn(frame(top: 13))
        XCTAssertLessThan(line.count, repaint / 6, "one line: one row\n\(String(decoding: line, as: UTF8.self).debugDescription)")
        let back = drawn(frame(top: 10))
        XCTAssertLessThan(back.count, repaint / 3)
    }
}
