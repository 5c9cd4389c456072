import TerminalUI
import XCTest

/// Escape sequences from the terminals people use, read whole: the known ones as keys, the rest dropped.
final class InputDecoderTests: XCTestCase {
    func keys(_ text: String) -> [InputEvent] {
        InputDecoder.decode(text.unicodeScalars)
    }

    func test_homeAndEnd_inEveryTerminalsForm() {
        // xterm (normal and application mode), VT220/Linux console/PuTTY, rxvt, with modifiers.
        for home in ["\u{1B}[H", "\u{1B}OH", "\u{1B}[1~", "\u{1B}[7~", "\u{1B}[1;5H", "\u{1B}[7^", "\u{1B}[7$", "\u{1B}[7@"] {
            XCTAssertEqual(keys(home), [.key(.home)], home.debugDescription)
        }
        for end in ["\u{1B}[F", "\u{1B}OF", "\u{1B}[4~", "\u{1B}[8~", "\u{1B}[1;2F", "\u{1B}[8^", "\u{1B}[8$"] {
            XCTAssertEqual(keys(end), [.key(.end)], end.debugDescription)
        }
    }

    /// What the decoder makes of `text`, fed a scalar at a time as the terminal's bytes come.
    @discardableResult
    func feed(_ text: String, to decoder: inout InputDecoder) -> [InputEvent] {
        text.unicodeScalars.flatMap { decoder.feed($0) }
    }

    /// Visibility reports (mode 2033: kitty, Ghostty) are no keys: the decoder keeps the last one for the loop.
    func test_visibilityReports_areNoKeys_andTheLastIsKept() {
        var decoder = InputDecoder()
        XCTAssertEqual(feed("\u{1B}[?999;2nq", to: &decoder), [.key(.character("q"))])
        XCTAssertEqual(decoder.takeVisibility(), false, "hidden")
        XCTAssertNil(decoder.takeVisibility(), "taken once")
        feed("\u{1B}[?999;1n", to: &decoder)
        XCTAssertEqual(decoder.takeVisibility(), true, "seen again")
        feed("\u{1B}[?999;7n\u{1B}[?998;2n", to: &decoder)
        XCTAssertNil(decoder.takeVisibility(), "another state or another report says nothing of it")
    }

    /// Colour-scheme reports (mode 2031: kitty, Ghostty, Contour) are no keys either: the last is kept (true: light).
    func test_schemeReports_areNoKeys_andTheLastIsKept() {
        var decoder = InputDecoder()
        XCTAssertEqual(feed("\u{1B}[?997;2nq", to: &decoder), [.key(.character("q"))])
        XCTAssertEqual(decoder.takeScheme(), true, "light")
        XCTAssertNil(decoder.takeScheme(), "taken once")
        feed("\u{1B}[?997;1n", to: &decoder)
        XCTAssertEqual(decoder.takeScheme(), false, "dark")
        feed("\u{1B}[?997;5n\u{1B}[?996;2n", to: &decoder)
        XCTAssertNil(decoder.takeScheme(), "another value or another report says nothing of it")
    }

    func test_endFromPuTTY_isNotTheDigitFour() {
        XCTAssertEqual(keys("\u{1B}[4~q"), [.key(.end), .key(.character("q"))])
        XCTAssertEqual(keys("\u{1B}[1~"), [.key(.home)], "not 1 (the feed) and ~")
    }

    func test_editingKeysArrowsAndFunctionKeys() {
        XCTAssertEqual(keys("\u{1B}[2~\u{1B}[3~\u{1B}[5~\u{1B}[6~"), [.key(.insert), .key(.delete), .key(.pageUp), .key(.pageDown)])
        XCTAssertEqual(keys("\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}[d\u{1B}Oa"), [.key(.up), .key(.down), .key(.right), .key(.left), .key(.up)])
        XCTAssertEqual(keys("\u{1B}OP\u{1B}[11~\u{1B}[[A\u{1B}[1;2Q\u{1B}[24~\u{1B}[34~"),
                       [.key(.function(1)), .key(.function(1)), .key(.function(1)), .key(.function(2)), .key(.function(12)), .key(.function(20))])
        XCTAssertEqual(keys("\u{1B}[Z"), [.key(.backTab)])
        XCTAssertEqual(keys("\u{1B}OM\u{1B}Op\u{1B}Ok"), [.key(.enter), .key(.character("0")), .key(.character("+"))], "the keypad")
    }

    func test_unknownSequencesAndReportsAreDroppedWhole() {
        let unknown = ["\u{1B}[99~", "\u{1B}[25;3$x", "\u{1B}[15;5x", "\u{1B}[I", "\u{1B}[O", "\u{1B}[?1;2c", "\u{1B}[12;40R",
                       "\u{1B}[?1$y", "\u{1B}[>0;276;0c", "\u{1B}[27;5;9~", "\u{1B}[200~", "\u{1B}O5Z", "\u{1B}[[Z"]
        for sequence in unknown {
            XCTAssertEqual(keys(sequence + "j"), [.key(.character("j"))], sequence.debugDescription)
        }
        // Far too long for a key: dropped, and what follows it counts.
        XCTAssertEqual(keys("\u{1B}[" + String(repeating: "1;", count: 100) + "~k"), [.key(.character("k"))])
    }

    func test_aBrokenSequenceGivesWayToTheControlCodeThatInterruptsIt() {
        XCTAssertEqual(keys("\u{1B}[1\u{03}"), [.key(.interrupt)], "Ctrl-C still quits")
        XCTAssertEqual(keys("\u{1B}[1\u{1B}[A"), [.key(.up)])
    }

    func test_escapeAlone_twice_andBeforeAKey() {
        XCTAssertEqual(keys("\u{1B}"), [.key(.escape)])
        XCTAssertEqual(keys("\u{1B}\u{1B}"), [.key(.escape), .key(.escape)])
        XCTAssertEqual(keys("\u{1B}3"), [.key(.escape), .key(.character("3"))], "Esc then 3, as typed quickly")
        XCTAssertEqual(keys("\u{1B}O"), [.key(.escape), .key(.character("O"))])
        XCTAssertEqual(keys("\u{1B}["), [.key(.escape), .key(.character("["))])
    }

    func test_aSequenceCutAcrossReads_isPutTogether() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed("\u{1B}"), [])
        XCTAssertTrue(decoder.isPending)
        XCTAssertEqual(decoder.feed("["), [])
        XCTAssertEqual(decoder.feed("4"), [])
        XCTAssertEqual(decoder.feed("~"), [.key(.end)])
        XCTAssertFalse(decoder.isPending)
    }

    func test_mouse_SGRAndX10() {
        XCTAssertEqual(keys("\u{1B}[<0;10;5M"), [.mouse(MouseEvent(x: 9, y: 4, kind: .press))])
        XCTAssertEqual(keys("\u{1B}[<0;10;5m"), [], "a release")
        XCTAssertEqual(keys("\u{1B}[<64;300;2M\u{1B}[<65;1;1M"),
                       [.mouse(MouseEvent(x: 299, y: 1, kind: .wheelUp)), .mouse(MouseEvent(x: 0, y: 0, kind: .wheelDown))])
        XCTAssertEqual(keys("\u{1B}[<35;3;3M"), [], "motion")
        XCTAssertEqual(keys("\u{1B}[M !!"), [.mouse(MouseEvent(x: 0, y: 0, kind: .press))])
        XCTAssertEqual(keys("\u{1B}[M`+,"), [.mouse(MouseEvent(x: 10, y: 11, kind: .wheelUp))])
    }

    func test_eightBitControls_controlKeys_andText() {
        XCTAssertEqual(keys("\u{9B}4~\u{8F}A"), [.key(.end), .key(.up)])
        XCTAssertEqual(keys("^\u{8F}"), [.key(.character("^"))], "an 8-bit SS3 cut short is no Esc key (found by fuzzing)")
        XCTAssertEqual(keys("\u{03}\u{05}\u{19}\u{0C}\t\r\u{7F}\u{01}\u{15}\u{17}\u{00}"),
                       [.key(.interrupt), .key(.lineDown), .key(.lineUp), .key(.redraw), .key(.tab), .key(.enter),
                        .key(.backspace), .key(.control("a")), .key(.control("u")), .key(.control("w"))])
        XCTAssertEqual(keys("café 猫"), "café 猫".map { .key(.character($0)) })
        XCTAssertEqual(keys("\u{1B}[97u\u{1B}[13u\u{1B}[97;5u"), [.key(.character("a")), .key(.enter)], "the kitty keyboard protocol")
    }

    /// The start-up answers left a control string open: the decoder starts inside it, its letters are no keys, and
    /// what comes after its end is.
    func test_startingInsideAStringTheAnswersLeftOpen() {
        var decoder = InputDecoder(insideString: 0x50)
        var events: [InputEvent] = []
        for scalar in "quit q\u{1B}\\q".unicodeScalars { events += decoder.feed(scalar) }
        XCTAssertEqual(events, [.key(.character("q"))])
        var probe = InputDecoder()
        for scalar in "\u{1B}[?62c\u{1B}P>|xterm".unicodeScalars { _ = probe.feed(scalar) }
        XCTAssertEqual(probe.openString, 0x50)
        XCTAssertEqual(InputDecoder.decode("\u{1A}".unicodeScalars), [.key(.suspend)], "Ctrl-Z")
    }
}
