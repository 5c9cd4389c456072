import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Pictures as Kitty's Unicode placeholders (inside tmux): uploaded once through tmux's passthrough, then shown
/// by text cells that name the picture and the cell of it each one is.
final class KittyPlaceholderTests: XCTestCase {
    func picture(columns: Int = 10, rows: Int = 5) -> CellPicture { pixelPicture(columns: columns, rows: rows) }

    /// The picture cell each screen cell names (nil: not a placeholder), and the image id.
    func named(_ buffer: CellBuffer, _ x: Int, _ y: Int) -> (id: UInt32, row: Int, column: Int)? {
        let cell = buffer[x, y]
        guard let decoded = KittyPlaceholders.decode(cell.text), case let .indexed(low) = cell.style.foreground else { return nil }
        return (KittyPlaceholders.imageID(low: low, high: decoded.high), decoded.row, decoded.column)
    }

    func test_theTable_isKittys_andEveryCellDecodesBack() {
        XCTAssertEqual(KittyPlaceholders.diacritics.count, 297)
        XCTAssertEqual(KittyPlaceholders.diacritics.prefix(3), [0x0305, 0x030D, 0x030E], "0, 1, 2 as in kitty's own example")
        XCTAssertEqual(Set(KittyPlaceholders.diacritics).count, 297)
        for number in KittyPlaceholders.diacritics {
            XCTAssertEqual(DisplayWidth.of(Unicode.Scalar(number)!), 0, "a combining mark, no width: \(String(number, radix: 16))")
        }
        // kitty's example: image 42 + (2 << 24), cell (1, 0).
        let cell = KittyPlaceholders.cell(row: 1, column: 0, high: 2)
        XCTAssertEqual(cell, "\u{10EEEE}\u{030D}\u{0305}\u{030E}")
        XCTAssertEqual(cell.map { DisplayWidth.of($0) }, 1, "one cell wide")
        XCTAssertEqual(cell?.count, 1, "one grapheme")
        XCTAssertEqual(KittyPlaceholders.imageID(low: 42, high: 2), 33_554_474)
        for (row, column, high) in [(0, 0, 0), (296, 5, 255), (17, 296, 1)] {
            let decoded = KittyPlaceholders.decode(KittyPlaceholders.cell(row: row, column: column, high: UInt8(high))!)
            XCTAssertEqual(decoded?.row, row)
            XCTAssertEqual(decoded?.column, column)
            XCTAssertEqual(decoded?.high, UInt8(high))
        }
        XCTAssertNil(KittyPlaceholders.cell(row: 297, column: 0, high: 0), "past the table")
        XCTAssertNil(KittyPlaceholders.decode("x"))
        XCTAssertNil(KittyPlaceholders.decode("\u{10EEEE}\u{0301}"), "not one of the table's")
    }

    func test_passthrough_wrapsEachCommand_withItsEscapesDoubled() {
        let commands = Array((KittyGraphics.deletePicture(id: 7) + KittyGraphics.deletePicture(id: 8)).utf8)
        let wrapped = String(decoding: KittyPlaceholders.tmuxPassthrough(commands), as: UTF8.self)
        XCTAssertEqual(wrapped, "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\u{1B}\\\u{1B}\\"
                       + "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=8,q=2\u{1B}\u{1B}\\\u{1B}\\")
        // What tmux hands the terminal (each ESC ESC back to one ESC, the wrapper gone) is the commands again.
        var unwrapped = wrapped.replacingOccurrences(of: "\u{1B}Ptmux;", with: "")
        unwrapped = unwrapped.replacingOccurrences(of: "\u{1B}\u{1B}\\\u{1B}\\", with: "\u{1B}\u{1B}\\")
        unwrapped = unwrapped.replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}")
        XCTAssertEqual(Array(unwrapped.utf8), commands)
    }

    func test_aPicture_isUploadedOnceWithAVirtualPlacement_andItsCellsNameIt() {
        var buffer = CellBuffer(width: 40, height: 12)
        let card = picture()
        buffer.draw(card, x: 2, y: 1)
        let layer = KittyPlaceholderLayer(tmux: false)
        let (drawn, bytes) = layer.prepare(buffer, repainted: true)
        let commands = KittyGraphics.commands(in: bytes)
        XCTAssertEqual(commands.count, 1)
        XCTAssertEqual(commands[0]["a"], "T")
        XCTAssertEqual(commands[0]["U"], "1", "a virtual placement, shown by placeholders only")
        XCTAssertEqual(commands[0].int("c"), 10)
        XCTAssertEqual(commands[0].int("r"), 5)
        XCTAssertEqual(commands[0]["q"], "2", "the terminal answers nothing (an answer would reach the pane as keys)")
        XCTAssertEqual(commands[0].payload, card.pixels?.image.pixels)
        let id = UInt32(commands[0].int("i") ?? 0)
        for y in 1..<6 {
            for x in 2..<12 {
                let cell = named(drawn, x, y)
                XCTAssertEqual(cell?.id, id)
                XCTAssertEqual(cell?.row, y - 1)
                XCTAssertEqual(cell?.column, x - 2)
            }
        }
        XCTAssertNil(named(drawn, 1, 1))
        XCTAssertEqual(drawn[12, 1], .blank)
        // Shown again, moved: no upload, only the text moves.
        var moved = CellBuffer(width: 40, height: 12)
        moved.draw(card, x: 2, y: 0)
        let (again, none) = layer.prepare(moved, repainted: false)
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(named(again, 2, 0)?.row, 0)
        XCTAssertEqual(again[5, 0], drawn[5, 1], "the same row of the picture is the same text wherever it is")
    }

    func test_aCardPartlyOffScreen_andTextOverIt_leaveTheRestRight() {
        var buffer = CellBuffer(width: 40, height: 12)
        let card = picture()
        buffer.draw(card, x: 0, y: -2, clip: buffer.bounds)
        buffer.write("dialog", x: 3, y: 1)
        let (drawn, _) = KittyPlaceholderLayer(tmux: false).prepare(buffer, repainted: true)
        XCTAssertEqual(named(drawn, 0, 0)?.row, 2, "the rows cut off the top are not shown")
        XCTAssertEqual(named(drawn, 9, 2)?.row, 4)
        XCTAssertEqual(named(drawn, 9, 2)?.column, 9)
        XCTAssertEqual(drawn[3, 1].text, "d", "text over the picture stays text")
        XCTAssertEqual(named(drawn, 9, 1)?.column, 9, "the cells beside the text still name their own cell")
        XCTAssertNil(named(drawn, 0, 3))
    }

    func test_insideTmux_everythingGoesThroughThePassthrough_andIdsFitTheColours() {
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(picture(), x: 0, y: 0)
        let layer = KittyPlaceholderLayer(tmux: true)
        let (_, bytes) = layer.prepare(buffer, repainted: true)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_G"))
        XCTAssertFalse(text.replacingOccurrences(of: "\u{1B}\u{1B}", with: "").replacingOccurrences(of: "\u{1B}Ptmux;", with: "")
            .replacingOccurrences(of: "\u{1B}\\", with: "").contains("\u{1B}"), "no escape outside a wrapper")
        let finish = String(decoding: layer.finish(), as: UTF8.self)
        XCTAssertTrue(finish.contains("a=d,d=I"), "virtual placements go only by deleting the picture by id")
        XCTAssertTrue(finish.hasPrefix("\u{1B}Ptmux;"))
        // Ids: low byte 16…255 (a palette colour past the 16 that have older SGR forms), then the high byte.
        XCTAssertEqual(KittyPlaceholderLayer.imageID(0), 16)
        XCTAssertEqual(KittyPlaceholderLayer.imageID(239), 255)
        XCTAssertEqual(KittyPlaceholderLayer.imageID(240), 16 | 1 << 24)
        let ids = (0..<(240 * 256)).map(KittyPlaceholderLayer.imageID)
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertFalse(ids.contains { $0 & 0xFF < 16 || $0 & 0x00FF_FF00 != 0 })
    }

    func test_tmuxsAnswer_andWhoDrawsPlaceholders() {
        let kitty = TmuxClient.parse("1|xterm-kitty|kitty(0.35.2)\n")
        XCTAssertEqual(kitty, TmuxClient(passthrough: true, terminalName: "xterm-kitty", terminalType: "kitty(0.35.2)"))
        XCTAssertEqual(kitty?.drawsPlaceholders, true)
        XCTAssertEqual(TmuxClient.parse("0|xterm-kitty|kitty(0.26.5)")?.drawsPlaceholders, false, "placeholders came in 0.28")
        XCTAssertEqual(TmuxClient.parse("0|xterm-kitty|kitty(0.28.0)")?.passthrough, false)
        XCTAssertEqual(TmuxClient.parse("all|xterm-ghostty|")?.drawsPlaceholders, true)
        XCTAssertEqual(TmuxClient.parse("1|xterm-256color|XTerm(379)")?.drawsPlaceholders, false)
        // tmux 3.2+ says which features it uses in the client's terminal: RGB means 24-bit colour reaches it.
        XCTAssertEqual(TmuxClient.parse("0|xterm-kitty|kitty(0.26.5)|9|18|256,RGB,bpaste,clipboard,title")?.hasRGB, true)
        XCTAssertEqual(TmuxClient.parse("0|xterm-kitty|kitty(0.26.5)|9|18|256,bpaste")?.hasRGB, false)
        XCTAssertEqual(TmuxClient.parse("0|xterm-kitty|kitty(0.26.5)|9|18|256,bpaste")?.cellWidth, 9)
        XCTAssertNil(TmuxClient.parse("tmux: no server"))
        let sized = TmuxClient.parse("1|xterm-kitty|kitty(0.35.2)|9|18")
        XCTAssertEqual(sized?.cellWidth, 9)
        XCTAssertEqual(sized?.cellHeight, 18)
        XCTAssertNil(TmuxClient.parse("1|xterm-kitty|kitty(0.35.2)|0|0")?.cellWidth, "not known")
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: ["TMUX": "/tmp/t", "TERM": "tmux-256color"], abilities: nil,
                                             tmux: sized).cellHeight, 18, "the client's cell, not the pane's")
        XCTAssertNil(TmuxClient.ask(environment: [:]), "outside tmux nothing is asked")
    }

    func test_insideTmux_placeholdersWhenThePassthroughIsOn_andTheTerminalDrawsThem() {
        let environment = ["TMUX": "/tmp/tmux-1/default,1,0", "TERM": "tmux-256color"]
        let ready = TmuxClient(passthrough: true, terminalName: "xterm-kitty", terminalType: "kitty(0.35.2)")
        let choose = { (setting: GraphicsMode?, tmux: TmuxClient?, environment: [String: String]) in
            GraphicsChoice.choose(setting: setting, environment: environment, abilities: nil, tmux: tmux)
        }
        XCTAssertEqual(choose(nil, ready, environment).mode, .kittyPlaceholders)
        XCTAssertTrue(choose(nil, ready, environment).reason.contains("kitty(0.35.2)"))
        var closed = ready
        closed.passthrough = false
        XCTAssertEqual(choose(nil, closed, environment).mode, .cells)
        XCTAssertTrue(choose(nil, closed, environment).reason.contains("set -g allow-passthrough on"), "the fix, in one line")
        let old = TmuxClient(passthrough: true, terminalName: "xterm-kitty", terminalType: "kitty(0.26.5)")
        XCTAssertEqual(choose(nil, old, environment).mode, .cells)
        XCTAssertEqual(choose(nil, nil, environment).mode, .cells, "tmux did not answer")
        XCTAssertEqual(choose(nil, ready, ["TMUX": "/tmp/x", "TERM": "screen"]).mode, .cells, "8 colours cannot name pictures")
        // The setting: kitty inside tmux means placeholders, as long as they can pass.
        XCTAssertEqual(choose(.kitty, old, environment).mode, .kittyPlaceholders)
        XCTAssertEqual(choose(.kitty, closed, environment).mode, .cells)
        XCTAssertEqual(choose(.kittyPlaceholders, nil, environment).mode, .kittyPlaceholders)
        XCTAssertEqual(choose(.kittyPlaceholders, nil, [:]).mode, .kittyPlaceholders, "outside tmux too, when asked for")
        XCTAssertEqual(choose(.kitty, nil, [:]).mode, .kitty)
    }
}
