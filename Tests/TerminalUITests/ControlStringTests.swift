import TerminalUI
import XCTest

/// Control strings a terminal sends (DCS, OSC, APC, PM, SOS): its replies, never keys, even when one never ends.
final class ControlStringTests: XCTestCase {
    func events(_ chunks: [String]) -> [InputEvent] {
        // Each chunk arrives, then no more input comes in time (a flush).
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for chunk in chunks {
            for scalar in chunk.unicodeScalars { events += decoder.feed(scalar) }
            events += decoder.flush()
        }
        return events
    }

    func test_repliesInEveryKindOfString_areSwallowedWhole() {
        for reply in ["\u{1B}P1+r524742=38\u{1B}\\", "\u{1B}]11;rgb:0000/0000/0000\u{07}", "\u{1B}]52;c;aGk=\u{1B}\\",
                      "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}^private\u{1B}\\", "\u{1B}Xsos\u{1B}\\", "\u{1B}Pcancelled\u{18}"] {
            XCTAssertEqual(events([reply + "j"]), [.key(.character("j"))], reply.debugDescription)
        }
    }

    func test_aReplyThatNeverEnds_doesNotTurnWhatFollowsIntoKeys() {
        // The reply's text is not typed; after a pause the user's keys are keys again.
        XCTAssertEqual(events(["\u{1B}P>|junk j k q and more", "jq"]), [.key(.character("j")), .key(.character("q"))])
        // Another escape sequence ends it, as terminals' own parsers do.
        XCTAssertEqual(events(["\u{1B}Pnever ends\u{1B}[A"]), [.key(.up)])
    }

    func test_EscThenTheLetterAlone_isStillAltAndTheKey() {
        XCTAssertEqual(events(["\u{1B}P"]), [.key(.escape), .key(.character("P"))])
        XCTAssertEqual(events(["\u{1B}]"]), [.key(.escape), .key(.character("]"))])
    }

    func test_theStartUpProbe_readsTheAnswersAfterAnUnterminatedReply() {
        let abilities = TerminalProbe.parse(Array("\u{1B}P>|never ends\u{1B}[?62;4c".utf8))
        XCTAssertTrue(abilities.answered)
        XCTAssertTrue(abilities.sixel)
        XCTAssertNil(abilities.version)
    }
}
