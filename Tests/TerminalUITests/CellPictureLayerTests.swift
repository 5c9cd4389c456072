import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Pictures in characters sent by the program itself: placed in the frame, each row written once where it shows.
final class CellPictureLayerTests: XCTestCase {
    /// A picture whose every cell differs: glyph A…, foreground and background by column and row.
    func picture(columns: Int = 6, rows: Int = 3) -> CellPicture {
        var cells: [CellPicture.Cell] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let letter = UInt8(65 + (row * columns + column) % 26)
                let foreground = RGB(UInt8(column * 10 % 256), UInt8(row * 10 % 256), 1)
                let background = UInt8(16 + (column + row) % 240)
                cells.append(CellPicture.Cell(glyph: Character(UnicodeScalar(letter)), foreground: .rgb(foreground),
                                              background: .indexed(background)))
            }
        }
        return CellPicture(columns: columns, rows: rows, cells: cells)
    }

    /// What the layer sends with a frame on a fast link.
    func frame(_ layer: CellPictureLayer, _ buffer: CellBuffer, repainted: Bool) -> [UInt8] {
        layer.plan(buffer, repainted: repainted, link: .fast)
        var bytes: [UInt8] = []
        layer.sendFrameBytes { bytes = $0 }
        return bytes
    }

    func placed(_ picture: CellPicture, x: Int, y: Int, width: Int = 30, height: Int = 10) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        buffer.placesCellPictures = true
        buffer.draw(picture, x: x, y: y)
        return buffer
    }

    /// Writes what the layer sent on a screen of `buffer`'s size (cursor moves, SGR left out): the text each row shows.
    func screen(_ bytes: [UInt8], width: Int, height: Int) -> [String] {
        var rows = [[Character]](repeating: Array(repeating: " ", count: width), count: height)
        var x = 0, y = 0
        let text = String(decoding: bytes, as: UTF8.self)
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}" {
                guard let next = scalars.popFirst() else { break }
                if next == "[" {
                    var parameters = ""
                    while let final = scalars.popFirst() {
                        if final.value >= 0x40 {
                            if final == "H" {
                                let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
                                y = numbers[0] - 1
                                x = numbers[1] - 1
                            }
                            break
                        }
                        parameters.unicodeScalars.append(final)
                    }
                }
                continue
            }
            if y < height, x < width { rows[y][x] = Character(scalar) }
            x += 1
        }
        return rows.map { String($0) }
    }

    func test_aPictureInCharacters_isPlaced_andItsRowsWrittenWhereItShows() {
        let card = picture()
        let buffer = placed(card, x: 2, y: 1)
        XCTAssertEqual(buffer[2, 1], .picture, "curses keeps the cells blank")
        XCTAssertEqual(buffer.cellPlacements.count, 1)
        let layer = CellPictureLayer(colorMode: .truecolor)
        let bytes = frame(layer, buffer, repainted: true)
        let shown = screen(bytes, width: 30, height: 10)
        XCTAssertEqual(shown[1].prefix(8), "  ABCDEF")
        XCTAssertEqual(shown[2].prefix(8), "  GHIJKL")
        XCTAssertEqual(shown[3].prefix(8), "  MNOPQR")
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}7"), "curses' cursor and attributes are saved")
        XCTAssertTrue(text.hasSuffix("\u{1B}8"), "and restored")
        XCTAssertTrue(text.contains("\u{1B}[38;2;10;0;1;48;5;17mB"), "24-bit foreground, palette background, one SGR")
        XCTAssertTrue(frame(layer, buffer, repainted: false).isEmpty, "the same frame again costs nothing")
        XCTAssertFalse(frame(layer, buffer, repainted: true).isEmpty, "after a clear, everything again")
    }

    func test_inThe256ColourPalette_aColourIsItsNearest() {
        let layer = CellPictureLayer(colorMode: .palette256)
        let text = String(decoding: frame(layer, placed(picture(), x: 0, y: 0), repainted: true), as: UTF8.self)
        XCTAssertFalse(text.contains("38;2;"))
        XCTAssertTrue(text.contains("38;5;"))
    }

    func test_aDialogOverThePicture_leavesItsCells_andThePictureComesBackWhole() {
        let card = picture()
        let layer = CellPictureLayer(colorMode: .truecolor)
        _ = frame(layer, placed(card, x: 2, y: 1), repainted: true)
        var covered = placed(card, x: 2, y: 1)
        covered.write("XY", x: 4, y: 2)
        let underDialog = screen(frame(layer, covered, repainted: false), width: 30, height: 10)
        XCTAssertEqual(underDialog[2].prefix(8), "  GH  KL", "the row around the dialog is written again, the dialog's cells left to curses")
        let back = screen(frame(layer, placed(card, x: 2, y: 1), repainted: false), width: 30, height: 10)
        XCTAssertEqual(back[2].prefix(8), "  GHIJKL", "the whole row again once the dialog is gone")
        XCTAssertEqual(back[1].trimmingCharacters(in: .whitespaces), "", "rows not covered stay as they were")
    }

    func test_theScreensLastCell_isLeftToCurses() {
        let card = picture()
        let buffer = placed(card, x: 24, y: 7)
        let layer = CellPictureLayer(colorMode: .truecolor)
        let drawn = layer.prepare(buffer, repainted: true, link: .fast)
        XCTAssertEqual(drawn[29, 9].text, "R", "curses writes the corner, which a terminal may scroll for")
        let shown = screen(frame(layer, drawn, repainted: true), width: 30, height: 10)
        XCTAssertEqual(shown[9].suffix(6), "MNOPQ ")
    }

    func test_onASlowLink_rowsWaitInBands_andABandNoLongerWantedIsWithdrawn() {
        let card = picture(columns: 6, rows: 9)
        let layer = CellPictureLayer(colorMode: .truecolor)
        let slow = LinkState(rate: 10_000, idle: 0, screenCells: 300)
        layer.plan(placed(card, x: 0, y: 0), repainted: true, link: slow)
        var withTheFrame: [UInt8] = []
        layer.sendFrameBytes { withTheFrame = $0 }
        XCTAssertTrue(withTheFrame.isEmpty, "nothing goes with the frame")
        XCTAssertEqual(layer.queue.jobs.count, 3, "9 rows in bands of 4")
        layer.plan(CellBuffer(width: 30, height: 10), repainted: false, link: slow)
        XCTAssertFalse(layer.hasWork, "the picture went: its bands are withdrawn")
    }

    func test_theRowsKept_stayBounded_andARowShownAgainIsNotMadeAgain() {
        let layer = CellPictureLayer(colorMode: .truecolor)
        var made = 0
        for _ in 0..<10 {
            // A picture of 200x50 cells in 24-bit colour is about 350 KB of rows.
            let screen = placed(picture(columns: 200, rows: 50), x: 0, y: 0, width: 200, height: 60)
            made += frame(layer, screen, repainted: true).count
        }
        XCTAssertGreaterThan(made, 3 * CellPictureLayer.maximumKeptBytes)
        XCTAssertLessThanOrEqual(layer.keptBytes, 2 * CellPictureLayer.maximumKeptBytes + 64 << 10)
        let card = picture()
        let screen = placed(card, x: 2, y: 1)
        let first = frame(layer, screen, repainted: true)
        let kept = layer.keptBytes
        XCTAssertEqual(frame(layer, screen, repainted: true), first, "the same rows, from what was kept")
        XCTAssertEqual(layer.keptBytes, kept)
    }
}
