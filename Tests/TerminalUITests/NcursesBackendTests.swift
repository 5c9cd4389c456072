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

