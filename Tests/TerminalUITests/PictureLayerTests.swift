import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Where pictures in pixels go, frame after frame: what is uploaded, placed, taken away and drawn again.
final class PictureLayerTests: XCTestCase {
    func picture(columns: Int = 10, rows: Int = 5) -> CellPicture { pixelPicture(columns: columns, rows: rows) }

    func test_aPictureInPixels_leavesItsCellsToTheTerminal_andIsPlacedOnce() {
        var buffer = CellBuffer(width: 40, height: 12)
        let card = picture()
        buffer.draw(card, x: 2, y: 1)
        XCTAssertEqual(buffer[2, 1], .picture)
        XCTAssertEqual(buffer.lines[1], "", "blank to curses")
        XCTAssertEqual(buffer.placements.count, 1)

        let layer = KittyPictureLayer()
        let first = KittyGraphics.commands(in: layer.frame(buffer, repainted: true))
        XCTAssertEqual(first.map { $0["a"] }, ["t", "p"], "uploaded once, then placed")
        XCTAssertEqual(first[1].int("c"), 10)
        XCTAssertEqual(first[1].int("r"), 5)
        XCTAssertTrue(layer.frame(buffer, repainted: false).isEmpty, "the same frame again costs nothing")
        // After the screen was cleared (a resize, Ctrl-L), kitty no longer has it: sent again.
        XCTAssertEqual(KittyGraphics.commands(in: layer.frame(buffer, repainted: true)).map { $0["a"] }, ["d", "t", "p"])
    }

    func test_aMovedCard_costsAPlacement_notAnUpload() {
        let card = picture()
        var before = CellBuffer(width: 40, height: 12)
        before.draw(card, x: 2, y: 4)
        var after = CellBuffer(width: 40, height: 12)
        after.draw(card, x: 2, y: 1)
        let layer = KittyPictureLayer()
        _ = layer.frame(before, repainted: true)
        let step = layer.frame(after, repainted: false)
        let commands = KittyGraphics.commands(in: step)
        XCTAssertEqual(commands.map { $0["a"] }, ["d", "p"], "the old placement goes, the new one comes")
        XCTAssertLessThan(step.count, 200)
        XCTAssertTrue(String(decoding: step, as: UTF8.self).contains("\u{1B}[2;3H"), "placed at its new cell")
    }

    func test_aCardPartlyOffScreen_showsItsVisibleRows_cropped() {
        let card = picture()
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.draw(card, x: 0, y: -2, clip: Rect(x: 0, y: 0, width: 40, height: 12))
        let commands = KittyGraphics.commands(in: KittyPictureLayer().frame(buffer, repainted: true))
        let placement = commands[1]
        XCTAssertEqual(placement.int("y"), 32, "two rows of 16 pixels cut off the top")
        XCTAssertEqual(placement.int("h"), 48)
        XCTAssertEqual(placement.int("r"), 3)
    }

    func test_textOverAPicture_splitsItsPlacementAroundTheText() {
        let card = picture(columns: 10, rows: 6)
        var buffer = CellBuffer(width: 30, height: 10)
        buffer.draw(card, x: 0, y: 0)
        buffer.write("dialog", x: 3, y: 2) // columns 3–8 of row 2
        let tiles = KittyPictureLayer.tiles(buffer, bottomRow: true).map(\.1.rect)
        XCTAssertEqual(Set(tiles), [Rect(x: 0, y: 0, width: 10, height: 2), Rect(x: 0, y: 2, width: 3, height: 1),
                                    Rect(x: 9, y: 2, width: 1, height: 1), Rect(x: 0, y: 3, width: 10, height: 3)])
        // Each cell of the picture is in exactly one tile, and the text's cells in none.
        let covered = tiles.reduce(0) { $0 + $1.width * $1.height }
        XCTAssertEqual(covered, 60 - 6)
    }

    /// A 4x3-cell picture from row 1 of a 4-row screen: its last row would be the screen's last.
    func cardReachingTheLastRow(x: Int) -> CellBuffer {
        var buffer = CellBuffer(width: 20, height: 4)
        buffer.draw(picture(columns: 4, rows: 3), x: x, y: 1)
        return buffer
    }

    func test_sixel_neverDrawsOnTheLastRow_andDrawsAPieceAgainOnlyWhenItChanged() throws {
        let buffer = cardReachingTheLastRow(x: 0)
        let layer = InlinePictureLayer(format: .sixel)
        let first = layer.frame(buffer, repainted: true)
        let text = String(decoding: first, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}7\u{1B}[2;1H\u{1B}P"), "saved cursor, moved, then the Sixel")
        let start = try XCTUnwrap(first.firstIndex(of: 0x50)) - 1
        let end = try XCTUnwrap(first.lastIndex(of: 0x5C)) + 1
        let decoded = try XCTUnwrap(SixelEncoder.decode(Array(first[start..<end])))
        XCTAssertEqual(decoded.height, 2 * 16, "rows 1 and 2 only: row 3 is the screen's last")
        XCTAssertEqual(decoded.width, 4 * 8)
        XCTAssertTrue(layer.frame(buffer, repainted: false).isEmpty)
        XCTAssertFalse(layer.frame(buffer, repainted: true).isEmpty, "after a clear it is drawn again")
    }

    func test_iTerm2_drawsAJPEGOverTheCells_neverOnTheLastRow() throws {
        let buffer = cardReachingTheLastRow(x: 2)
        let layer = InlinePictureLayer(format: .iterm2)
        let bytes = layer.frame(buffer, repainted: true)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("\u{1B}7\u{1B}[2;3H\u{1B}]1337;File=inline=1;"))
        let files = ITerm2Images.files(in: bytes)
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(files.first?.arguments["width"], "4")
        XCTAssertEqual(files.first?.arguments["height"], "2", "rows 1 and 2: row 3 is the screen's last")
        XCTAssertEqual(files.first?.arguments["preserveAspectRatio"], "0")
        let image = try ImageCodec.decode(try XCTUnwrap(files.first?.file)).image
        XCTAssertEqual(image.width, 4 * 8)
        XCTAssertEqual(image.height, 2 * 16)
        XCTAssertTrue(layer.frame(buffer, repainted: false).isEmpty)
    }

    func test_probe_readsEveryAnswer_inAnyOrder() {
        let answers = "\u{1B}_Gi=31;OK\u{1B}\\" + "\u{1B}P1+r524742=382F382F38\u{1B}\\" + "\u{1B}P>|kitty(0.26.5)\u{1B}\\"
            + "\u{1B}[6;18;9t" + "\u{1B}[?62;4;22c"
        let abilities = TerminalProbe.parse(Array(answers.utf8))
        XCTAssertTrue(abilities.kittyGraphics)
        XCTAssertTrue(abilities.trueColor)
        XCTAssertTrue(abilities.sixel)
        XCTAssertTrue(abilities.answered)
        XCTAssertEqual(abilities.version, "kitty(0.26.5)")
        XCTAssertEqual(abilities.cellWidth, 9)
        XCTAssertEqual(abilities.cellHeight, 18)

        let xterm = TerminalProbe.parse(Array("\u{1B}P0+r524742\u{1B}\\\u{1B}[?63;1;2;4;6;9c".utf8))
        XCTAssertFalse(xterm.kittyGraphics)
        XCTAssertFalse(xterm.trueColor, "0+r: no such capability")
        XCTAssertTrue(xterm.sixel)
        let vt100 = TerminalProbe.parse(Array("\u{1B}[?1;2c".utf8))
        XCTAssertFalse(vt100.sixel, "the first value is the terminal's class, not a feature")
        XCTAssertTrue(vt100.answered)
        XCTAssertFalse(TerminalProbe.parse(Array("\u{1B}[?62;4".utf8)).answered, "cut short: still waiting")
        // The background (OSC 11), ended by ST or BEL, 1 to 4 hex digits a channel: mlterm's white is light.
        let white = TerminalProbe.parse(Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?1;2c".utf8))
        XCTAssertEqual(white.background, TerminalAbilities.Colour(red: 255, green: 255, blue: 255))
        XCTAssertEqual(white.hasLightBackground, true)
        XCTAssertTrue(white.answered, "DA1 after the OSC answer is still read")
        let black = TerminalProbe.parse(Array("\u{1B}]11;rgb:00/00/00\u{07}\u{1B}[?1;2c".utf8))
        XCTAssertEqual(black.hasLightBackground, false)
        XCTAssertNil(TerminalProbe.parse(Array("\u{1B}]11;rgb:zz/00\u{07}".utf8)).background, "not a colour")
        XCTAssertNil(vt100.hasLightBackground, "not said")
        // Sextants by default where the terminal draws them itself: by XTVERSION, by tmux's client, by VTE's version.
        var foot = TerminalAbilities()
        foot.version = "foot(1.16.2)"
        XCTAssertTrue(Terminals.drawsSextants(environment: [:], abilities: foot, tmux: nil))
        XCTAssertTrue(Terminals.drawsSextants(environment: ["TMUX": "/tmp/t,1,0"], abilities: nil,
                                                  tmux: TmuxClient(passthrough: false, terminalName: "xterm-kitty", terminalType: "kitty(0.26.5)")))
        XCTAssertTrue(Terminals.drawsSextants(environment: ["VTE_VERSION": "7006"], abilities: nil, tmux: nil))
        XCTAssertFalse(Terminals.drawsSextants(environment: ["VTE_VERSION": "6003"], abilities: nil, tmux: nil), "older VTE")
        XCTAssertFalse(Terminals.drawsSextants(environment: [:], abilities: vt100, tmux: nil), "alacritty, st, xterm, urxvt: boxes")
        XCTAssertFalse(Terminals.drawsSextants(environment: ["STY": "1.s"], abilities: foot, tmux: nil), "screen draws them from its font")
        // Blocks (quadrants and eighths) everywhere but the Linux console (whose fonts lack them).
        XCTAssertTrue(Terminals.drawsBlockElements(environment: ["TERM": "alacritty"]))
        XCTAssertTrue(Terminals.drawsBlockElements(environment: ["TERM": "xterm-256color"]))
        XCTAssertTrue(Terminals.drawsBlockElements(environment: ["TERM": "screen", "STY": "1.s"]))
        XCTAssertFalse(Terminals.drawsBlockElements(environment: ["TERM": "linux"]))
        XCTAssertFalse(Terminals.drawsBlockElements(environment: ["TERM": "vt100"]))
        XCTAssertFalse(Terminals.drawsBlockElements(environment: ["TERM": "con80x25"]))
        XCTAssertFalse(Terminals.drawsBlockElements(environment: ["TERM": "cons25"]))
        XCTAssertTrue(Terminals.drawsBlockElements(environment: ["TERM": "contour"]), "a terminal, not a console")
        // tmux and screen take an APC string for a window title: the Kitty query goes second, and not there.
        XCTAssertFalse(TerminalProbe.queries(environment: ["TERM": "xterm-kitty"]).contains("\u{1B}_"), "not in the first burst")
        XCTAssertTrue(TerminalProbe.kittyQueries.contains("\u{1B}_G"))
        XCTAssertTrue(TerminalProbe.kittyQueries.hasSuffix("\u{1B}[c\u{1B}8\u{1B}[J"), "DA1 behind it, then erased")
        XCTAssertTrue(Terminals.sendsKittyQuery(["TERM": "xterm-kitty"], after: abilities))
        XCTAssertFalse(Terminals.sendsKittyQuery(["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"], after: abilities))
        XCTAssertFalse(Terminals.sendsKittyQuery(["TERM": "screen"], after: abilities))
        XCTAssertFalse(Terminals.sendsKittyQuery(["TERM": "rxvt-unicode-256color"], after: abilities), "urxvt prints APC strings as text")
        // Over SSH from inside a local tmux, TERM can say xterm-256color: tmux's XTVERSION answer says who is there.
        var behindTmux = TerminalAbilities()
        behindTmux.answered = true
        behindTmux.version = "tmux 3.3a"
        XCTAssertFalse(Terminals.sendsKittyQuery(["TERM": "xterm-256color"], after: behindTmux))
        XCTAssertFalse(Terminals.sendsKittyQuery(["TERM": "xterm-256color"], after: TerminalAbilities()), "no answer at all")
        XCTAssertTrue(TerminalProbe.queries(environment: [:]).hasSuffix("\u{1B}[c\u{1B}8\u{1B}[J"),
                      "DA1 last, then the cursor back where it was and what an unknown question printed erased")
        XCTAssertTrue(TerminalProbe.queries(environment: [:]).hasPrefix("\u{1B}7"))
    }

    func test_choice_followsTheSetting_thenTmux_thenTheAnswers() {
        var kitty = TerminalAbilities()
        kitty.kittyGraphics = true
        kitty.answered = true
        var sixel = TerminalAbilities()
        sixel.sixel = true
        sixel.answered = true
        sixel.cellWidth = 9
        sixel.cellHeight = 19
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: kitty).mode, .kitty)
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: sixel).mode, .sixel)
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: sixel).cellHeight, 19)
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: ["TMUX": "/tmp/x"], abilities: kitty).mode, .cells)
        XCTAssertEqual(GraphicsChoice.choose(setting: .cells, environment: [:], abilities: kitty).mode, .cells)
        XCTAssertEqual(GraphicsChoice.choose(setting: .sixel, environment: ["TMUX": "/tmp/x"], abilities: nil).mode, .sixel)
        var unsized = sixel
        unsized.cellWidth = nil
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: unsized).mode, .cells,
                       "Sixel needs the cell's size in pixels")
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: TerminalAbilities()).reason,
                       "the terminal did not answer")
        // Answers too late (a loaded machine): kitty's environment still says what it is.
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"],
                                             abilities: TerminalAbilities()).mode, .kitty)
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/t"],
                                             abilities: TerminalAbilities()).mode, .cells, "not inside tmux")
        // iTerm2 (over SSH its LC_TERMINAL arrives): its own images before its Sixel.
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: ["LC_TERMINAL": "iTerm2"], abilities: sixel).mode, .iterm2)
        var iterm = sixel
        iterm.version = "iTerm2 3.5.0"
        XCTAssertEqual(GraphicsChoice.choose(setting: nil, environment: [:], abilities: iterm).mode, .iterm2)
        XCTAssertEqual(GraphicsChoice.choose(setting: .iterm2, environment: [:], abilities: nil).mode, .iterm2)
    }
}
