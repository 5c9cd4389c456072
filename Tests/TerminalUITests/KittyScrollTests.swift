import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// curses scrolls the terminal's rows where it finds lines moved (`change_scroll_region` with index or reverse
/// index), whatever `idlok` says, and kitty moves its placements with the rows it scrolls. A picture that stayed
/// where it was while rows around and across it moved must still be shown where it is.
final class KittyScrollTests: XCTestCase {
    /// Kitty's placements as the terminal holds them: each put at the cursor's row, moved with the rows the text
    /// scrolls (taken away when scrolled off its region), deleted by id.
    struct PlacementModel {
        let height: Int
        /// "image/placement" → the row of its top.
        var rows: [String: Int] = [:]

        mutating func read(_ bytes: [UInt8]) {
            var index = 0
            var segmentStart = 0
            var cursorRow = 0
            while index + 2 < bytes.count {
                guard bytes[index] == 0x1B, bytes[index + 1] == 0x5F, bytes[index + 2] == 0x47 else {
                    index += 1
                    continue
                }
                let segment = Array(bytes[segmentStart..<index])
                move(by: segment)
                if let row = Self.lastCursorRow(in: segment) { cursorRow = row }
                var end = index + 3
                while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
                let command = KittyGraphics.commands(in: Array(bytes[index...min(end + 1, bytes.count - 1)])).first
                index = end + 2
                segmentStart = index
                guard let keys = command?.keys else { continue }
                switch (keys["a"], keys["d"]) {
                case ("p", _):
                    rows["\(keys["i"] ?? "")/\(keys["p"] ?? "")"] = cursorRow
                case ("d", "i"):
                    rows["\(keys["i"] ?? "")/\(keys["p"] ?? "")"] = nil
                case ("d", "I"):
                    rows = rows.filter { !$0.key.hasPrefix("\(keys["i"] ?? "")/") }
                case ("d", "A"), ("d", "a"):
                    rows.removeAll()
                default:
                    break
                }
            }
            if segmentStart < bytes.count { move(by: Array(bytes[segmentStart...])) }
        }

        private mutating func move(by text: [UInt8]) {
            var moves = RowMoves(height: height)
            moves.read(text)
            guard !moves.isIdentity else { return }
            rows = rows.compactMapValues { moves.destination(of: $0) }
        }

        /// The row of the last cursor position (`ESC [ row ; column H`) in `bytes`.
        static func lastCursorRow(in bytes: [UInt8]) -> Int? {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let match = text.matches(of: /\u{1B}\[(\d+);(\d+)H/).last, let row = Int(match.1) else { return nil }
            return row - 1
        }
    }

    func picture(columns: Int = 20, rows: Int = 10) -> CellPicture { pixelPicture(columns: columns, rows: rows) }

    /// Lines of text beside a picture move up a row (a list scrolled beside a photo) while the photo stays: curses
    /// scrolls the rows, the picture's among them, and kitty moves the placement with them; the layer puts it back.
    func test_aPictureThatStayed_isShownWhereItIs_afterCursesScrolledItsRows() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let width = 60, height = 24
        let terminal = try PseudoTerminal(width: width, height: height, keepsOutput: true)
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                         graphics: .kitty, link: .fast)
        defer {
            backend.restore()
            terminal.close()
        }
        let card = picture()
        func frame(first: Int) -> CellBuffer {
            var buffer = CellBuffer(width: width, height: height)
            buffer.draw(card, x: 0, y: 10)
            for y in 0..<22 { buffer.write("line \(first + y) of a list that moves", x: 24, y: y) }
            return buffer
        }
        var model = PlacementModel(height: height)
        backend.draw(frame(first: 0))
        _ = terminal.endFrame(flushing: backend)
        model.read(terminal.takeOutput())
        XCTAssertEqual(Set(model.rows.values), [10], "the picture placed at its row")
        var scrolled = false
        for first in 1...6 {
            backend.draw(frame(first: first))
            _ = terminal.endFrame(flushing: backend)
            let output = terminal.takeOutput()
            var moves = RowMoves(height: height)
            moves.read(output)
            scrolled = scrolled || !moves.isIdentity
            model.read(output)
            XCTAssertFalse(model.rows.isEmpty, "a picture is shown after step \(first)")
            XCTAssertEqual(Set(model.rows.values), [10], "after step \(first), the picture is where the frame has it")
        }
        XCTAssertTrue(scrolled, "curses scrolled the terminal's rows (else this test shows nothing)")
    }
}
