import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// The start-up questions against a terminal on a real pseudo-terminal that answers late.
final class TerminalProbeTests: XCTestCase {
    /// A terminal slow to answer the first questions (1 s of a 1.5 s deadline: a huge window drawn in software)
    /// still has the Kitty query behind them answered in time: each exchange has the whole deadline, not what the
    /// first left of it.
    /// Runs the probe against a terminal on a pseudo-terminal that answers the first questions with `first` after
    /// `firstDelay` seconds and the Kitty queries with `second` after `secondDelay`.
    func probe(first: String, after firstDelay: Double = 0, second: String, after secondDelay: Double = 0,
               environment: [String: String] = ["TERM": "xterm-kitty"]) throws -> TerminalAbilities {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN, as PseudoTerminal opens one.
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw XCTSkip("no pseudo-terminal here")
        }
        let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(slave, 0)
        defer {
            close(slave)
            close(master)
        }
        let far = Thread {
            var seen: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            /// Reads what the program writes until `text` has come (or the descriptor ends).
            func readUntil(_ text: String) -> Bool {
                while !String(decoding: seen, as: UTF8.self).contains(text) {
                    let count = read(master, &chunk, chunk.count)
                    guard count > 0 else { return false }
                    seen += chunk[0..<count]
                }
                seen = []
                return true
            }
            func answer(_ text: String) { _ = text.withCString { write(master, $0, strlen($0)) } }
            guard readUntil("\u{1B}[c") else { return }
            Thread.sleep(forTimeInterval: firstDelay)
            answer(first)
            guard readUntil("\u{1B}[c") else { return }
            Thread.sleep(forTimeInterval: secondDelay)
            answer(second)
        }
        far.start()
        return try XCTUnwrap(TerminalProbe.run(input: slave, output: slave, environment: environment))
    }

    /// A terminal slow to answer the first questions (1 s of a 1.5 s deadline: a huge window drawn in software)
    /// still has the Kitty query behind them answered in time: each exchange has the whole deadline, not what the
    /// first left of it.
    func test_aSlowFirstAnswer_leavesTheKittyQueryItsOwnDeadline() throws {
        let abilities = try probe(first: "\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c", after: 1.0,
                                  second: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c", after: 0.7)
        XCTAssertTrue(abilities.answered)
        XCTAssertEqual(abilities.version, "kitty(0.35.2)")
        XCTAssertTrue(abilities.kittyGraphics, "the Kitty query's answer, 0.7 s after it was asked")
        XCTAssertNil(abilities.unfinishedString)
        XCTAssertEqual(abilities.kittyFrames, .unanswered, "the test frame had no answer before DA1's (as in Ghostty)")
    }

    /// The test frame asked in the Kitty query's round trip: kitty's OK (with the frame's number), Zellij's and
    /// xterm.js's errors; a terminal without Kitty graphics is not asked about frames.
    func test_theTestFrame_isAnsweredInTheSameRoundTrip() throws {
        let version = "\u{1B}P>|kitty(0.42.1)\u{1B}\\\u{1B}[?62;c"
        let kitty = try probe(first: version, second: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32,r=2;OK\u{1B}\\\u{1B}[?62;c")
        XCTAssertEqual(kitty.kittyFrames, .played)
        let zellij = try probe(first: "\u{1B}P>|Zellij(0.45.0)\u{1B}\\\u{1B}[?62;c",
                               second: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;ENOTSUPPORTED\u{1B}\\\u{1B}[?62;c",
                               environment: ["TERM": "xterm-256color", "ZELLIJ": "0"])
        XCTAssertEqual(zellij.kittyFrames, .refused("ENOTSUPPORTED"))
        let xtermJS = try probe(first: "\u{1B}P>|xterm.js(6.0.0)\u{1B}\\\u{1B}[?62;4;9;22c",
                                second: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;EINVAL:unsupported action\u{1B}\\\u{1B}[?62;4;9;22c",
                                environment: ["TERM": "xterm-256color"])
        XCTAssertEqual(xtermJS.kittyFrames, .refused("EINVAL:unsupported action"))
        let none = try probe(first: "\u{1B}P>|XTerm(390)\u{1B}\\\u{1B}[?64;4c", second: "\u{1B}[?64;4c", environment: ["TERM": "xterm"])
        XCTAssertFalse(none.kittyGraphics)
        XCTAssertNil(none.kittyFrames, "no Kitty graphics: nothing to say of its frames")
    }

    func test_theQuestionsAsked_includeTheTestFrame_andLeaveNothingKept() {
        let commands = KittyGraphics.commands(in: Array(TerminalProbe.kittyQueries.utf8))
        XCTAssertEqual(commands.map { $0["a"] ?? "" }, ["q", "t", "f", "d", "t"])
        XCTAssertEqual(commands[2]["q"], nil, "the frame's answer is asked for")
        XCTAssertEqual(commands[1]["q"], "2")
        XCTAssertEqual(commands.last?["s"], "1", "the picture is retired to one pixel afterwards")
        XCTAssertEqual(Set(commands.dropFirst().map { $0["i"] }), ["32"])
    }
}
