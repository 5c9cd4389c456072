import CNcursesw
import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// The ncurses backend on a pseudo-terminal: what reaches the terminal, and what keys mean.
final class NcursesBackendTests: XCTestCase {
    var terminal: PseudoTerminal!
    var backend: NcursesBackend!

    override func setUpWithError() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
        backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"])
    }

    override func tearDown() {
        backend?.restore()
        terminal?.close()
    }

    func drawn(_ buffer: CellBuffer) -> String {
        backend.draw(buffer)
        _ = terminal.endFrame(flushing: backend)
        return String(decoding: terminal.takeOutput(), as: UTF8.self)
    }

    func test_opensAtThePseudoTerminalsSize_with256Colours() {
        XCTAssertEqual(backend.width, 40)
        XCTAssertEqual(backend.height, 12)
        XCTAssertEqual(backend.colorMode, .palette256)
        XCTAssertTrue(backend.unicode)
    }

    func test_draw_sendsTextWideCharactersAndColours_thenOnlyChanges() {
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.write("猫 and cat", x: 2, y: 1, style: .plain)
        let red = CellStyle(foreground: .indexed(196), background: .indexed(21))
        buffer.write("▀▄", x: 0, y: 5, style: red)
        let first = drawn(buffer)
        XCTAssertTrue(first.contains("猫 and cat"), first.debugDescription)
        XCTAssertTrue(first.contains("▀▄"), first.debugDescription)
        XCTAssertTrue(first.contains("38;5;196"), first.debugDescription)
        XCTAssertTrue(first.contains("48;5;21"), first.debugDescription)

        buffer.write("dog", x: 9, y: 1, style: .plain)
        let second = drawn(buffer)
        XCTAssertTrue(second.contains("dog"), second.debugDescription)
        XCTAssertFalse(second.contains("猫"), "unchanged cells are not sent again: \(second.debugDescription)")
        XCTAssertLessThan(second.utf8.count, 40)
    }

    func test_invalidate_paintsEverythingAgain() {
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.write("kept", x: 0, y: 3, style: .plain)
        _ = drawn(buffer)
        backend.invalidate()
        XCTAssertTrue(drawn(buffer).contains("kept"))
    }

    func test_keys_controlKeysForLinesAndRedraw() {
        terminal.type([5, 25, 12, 3, Character("j").asciiValue!])
        var keys: [InputEvent] = []
        while let input = backend.readInput(timeout: 200) {
            keys.append(input)
            if keys.count == 5 { break }
        }
        XCTAssertEqual(keys, [.key(.lineDown), .key(.lineUp), .key(.redraw), .key(.interrupt), .key(.character("j"))])
    }

    /// TERM=xterm and TERM=linux say colors#8: the backend uses eight colours (16 would ask for colours that
    /// do not exist there, and curses would draw them as the default: black on black).
    func test_eightColourTerminals_useEightColours() throws {
        for term in ["xterm", "linux"] {
            let terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
            defer { terminal.close() }
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": term])
            XCTAssertEqual(backend.colorMode, .palette8, term)
            backend.restore()
        }
    }

    /// An escape sequence written to the terminal arrives as one key, whatever TERM says.
    func test_keys_escapeSequencesAreDecodedWhole() {
        terminal.type(Array("\u{1B}[4~\u{1B}[1;5A\u{1B}[99~x".utf8))
        var events: [InputEvent] = []
        while let event = backend.readInput(timeout: 200) { events.append(event) }
        XCTAssertEqual(events, [.key(.end), .key(.up), .key(.character("x"))])
    }

    /// A line with wide characters that moves sideways (a summary that gains a count) is drawn whole: 猫 was
    /// blanked by curses' stale halves of the wide characters the row held before.
    func test_wideCharactersMovingAlongALine_stayDrawn() {
        var buffer = CellBuffer(width: 60, height: 12)
        buffer.write("  Photos for “ab 猫 🐱”, by relevance", x: 0, y: 2, style: .plain)
        _ = drawn(buffer)
        var next = CellBuffer(width: 60, height: 12)
        next.write("  0 photos for “ab 猫 🐱”, by relevance", x: 0, y: 2, style: .plain)
        let output = drawn(next)
        // The bug sent spaces where 猫 stands (curses skips unchanged runs, so the line is not sent whole).
        XCTAssertTrue(output.contains("猫") && output.contains("🐱"), output.debugDescription)
    }

    /// COLORTERM=truecolor (what most desktop terminals set) with a 256-colour TERM: the session uses the
    /// `-direct` sibling of TERM and draws in 24-bit colour; a setting caps or forces it; NO_COLOR wins.
    func test_24BitColour_fromCOLORTERM_orTheSetting() throws {
        func mode(_ environment: [String: String], colors: ColorMode? = nil) throws -> ColorMode {
            let terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
            defer { terminal.close() }
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: environment, colors: colors)
            defer { backend.restore() }
            return backend.colorMode
        }
        XCTAssertEqual(try mode(["TERM": "xterm-256color", "COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(try mode(["TERM": "xterm-kitty", "COLORTERM": "truecolor"]), .truecolor, "kitty-direct")
        XCTAssertEqual(try mode(["TERM": "tmux-256color", "COLORTERM": "24bit"]), .truecolor, "tmux-direct")
        XCTAssertEqual(try mode(["TERM": "xterm-256color"]), .palette256)
        XCTAssertEqual(try mode(["TERM": "xterm-256color"], colors: .truecolor), .truecolor, "asked for")
        XCTAssertEqual(try mode(["TERM": "xterm-256color", "COLORTERM": "truecolor"], colors: .palette256), .palette256)
        XCTAssertEqual(try mode(["TERM": "xterm-direct"], colors: .palette16), .palette16)
        XCTAssertEqual(try mode(["TERM": "xterm-256color", "COLORTERM": "truecolor", "NO_COLOR": "1"]), .none)
        XCTAssertEqual(Terminals.directSiblings(of: "screen-256color", forced: true), ["tmux-direct", "xterm-direct"])
        // Terminals that draw 24-bit colour without COLORTERM (which SSH does not carry): st and mlterm by TERM, xterm
        // by its XTVERSION answer.
        XCTAssertEqual(try mode(["TERM": "st-256color"]), .truecolor, "st-direct")
        XCTAssertEqual(try mode(["TERM": "mlterm"]), .truecolor, "mlterm-direct (mlterm's own entry says 8 colours)")
        var xterm = TerminalAbilities()
        xterm.version = "XTerm(379)"
        XCTAssertEqual(Terminals.terminfoEntries(term: "xterm", environment: ["TERM": "xterm"], abilities: xterm, colors: nil,
                                                      graphics: .cells).first, "xterm-direct")
        // GNU screen, inside tmux or not, has no 24-bit colour whatever COLORTERM the outer terminal left.
        XCTAssertEqual(try mode(["TERM": "screen-256color", "COLORTERM": "truecolor", "STY": "1.test"]), .palette256)
        XCTAssertEqual(try mode(["TERM": "screen-256color", "COLORTERM": "truecolor", "STY": "1.test", "TMUX": "/tmp/t,1,0"]), .palette256)
        // Started with no configuration, screen says TERM=screen (8 colours) and draws 256.
        XCTAssertEqual(try mode(["TERM": "screen", "STY": "1.test"]), .palette256)
        XCTAssertEqual(try mode(["TERM": "screen", "TMUX": "/tmp/t,1,0"]), .palette256, "tmux with its old default")
        XCTAssertEqual(try mode(["TERM": "screen"]), .palette8, "no multiplexer said: what the entry says")
    }

    /// Under mosh (1.4 and later) 24-bit colour crosses in its semicolon form only: mosh drops xterm-direct's
    /// `38:2::R:G:B` (tried: the text came out in the default colour), and passes `38;2;R;G;B`.
    func test_underMosh_24BitColour_goesInTheFormMoshPasses() throws {
        XCTAssertEqual(TerminalProbe.parseMoshVersion("mosh-server (mosh 1.4.0) [build mosh 1.4.0]\nCopyright"), "1.4.0")
        XCTAssertNil(TerminalProbe.parseMoshVersion("mosh-server"))
        XCTAssertTrue(Terminals.moshDrawsDirectColour("1.4.0"))
        XCTAssertTrue(Terminals.moshDrawsDirectColour("2.0"))
        XCTAssertFalse(Terminals.moshDrawsDirectColour("1.3.2"))
        XCTAssertFalse(Terminals.moshDrawsDirectColour(""))
        // The first mosh-server up the process tree counts, unless tmux, screen or sshd come before it.
        XCTAssertEqual(TerminalProbe.moshServer(among: [(10, "bash"), (9, "mosh-server"), (1, "systemd")]), 9)
        XCTAssertNil(TerminalProbe.moshServer(among: [(10, "bash"), (9, "tmux: server"), (8, "mosh-server")]))
        XCTAssertNil(TerminalProbe.moshServer(among: [(10, "bash"), (9, "sshd"), (8, "mosh-server")]))
        XCTAssertNil(TerminalProbe.moshServer(among: [(10, "bash"), (1, "systemd")]))
        XCTAssertFalse(TerminalProbe.ancestors().isEmpty, "this test's own parents")

        var mosh = TerminalAbilities()
        mosh.mosh = "1.4.0"
        mosh.trueColor = true
        let entries = Terminals.terminfoEntries(term: "xterm-256color", environment: ["TERM": "xterm-256color"], abilities: mosh,
                                                     colors: nil, graphics: .cells)
        XCTAssertEqual(entries.first, "alacritty-direct")
        let terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"], abilities: mosh)
        XCTAssertEqual(backend.colorMode, .truecolor)
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.write("red", x: 0, y: 0, style: CellStyle(foreground: .rgb(RGB(250, 10, 20))))
        backend.draw(buffer)
        _ = terminal.endFrame(flushing: backend)
        let output = String(decoding: terminal.takeOutput(), as: UTF8.self)
        backend.restore()
        XCTAssertTrue(output.contains("38;2;250;10;20m"), output.debugDescription)
        XCTAssertFalse(output.contains("38:2"), output.debugDescription)
    }
}

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

/// A long session in 24-bit colour asks curses for more colour pairs than a terminal has (65,536): each colour
/// asked for again still has its own, never a pair curses has since given another colour.
final class ColourPairTests: XCTestCase {
    func test_pastTheLastPair_everyColourStillHasItsOwn() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
        defer { terminal.close() }
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave,
                                         environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        defer { backend.restore() }
        XCTAssertEqual(backend.colorMode, .truecolor)
        func style(_ index: Int) -> CellStyle {
            CellStyle(foreground: .rgb(RGB(UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF), UInt8(index >> 16))),
                      background: .rgb(RGB(9, UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF))))
        }
        func assertOwnColours(_ index: Int, _ when: String) {
            var foreground: Int32 = 0
            var background: Int32 = 0
            extended_pair_content(backend.pairNumber(style(index)), &foreground, &background)
            XCTAssertEqual(foreground, backend.colorNumber(style(index).foreground), "\(when): colour \(index)")
            XCTAssertEqual(background, backend.colorNumber(style(index).background), "\(when): colour \(index)")
        }
        let available = Int(imagefeed_color_pairs())
        XCTAssertGreaterThan(available, 256)
        for round in 0..<3 {
            for index in (round * available)..<((round + 1) * available + 100) {
                _ = backend.pairNumber(style(index))
                // The first colours of the round (a screen's text is drawn first) and the last, asked for again.
                for earlier in [round * available, round * available + 1, index - 1] where earlier >= 0 && earlier < index && index % 4_999 == 0 {
                    assertOwnColours(earlier, "round \(round), after \(index) colours")
                }
            }
        }
        XCTAssertLessThanOrEqual(backend.pairs.count, available, "no more pairs held than there are")
    }
}
