import Foundation
@testable import TerminalUI
import XCTest

/// The start-up questions against a terminal on a real pseudo-terminal that answers late.
final class TerminalProbeTests: XCTestCase {
    /// A terminal slow to answer the first questions (1 s of a 1.5 s deadline: a huge window drawn in software)
    /// still has the Kitty query behind them answered in time: each exchange has the whole deadline, not what the
    /// first left of it.
    func test_aSlowFirstAnswer_leavesTheKittyQueryItsOwnDeadline() throws {
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
            Thread.sleep(forTimeInterval: 1.0)
            answer("\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;c")
            guard readUntil("\u{1B}[c") else { return }
            Thread.sleep(forTimeInterval: 0.7)
            answer("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c")
        }
        far.start()
        let abilities = try XCTUnwrap(TerminalProbe.run(input: slave, output: slave, environment: ["TERM": "xterm-kitty"]))
        XCTAssertTrue(abilities.answered)
        XCTAssertEqual(abilities.version, "kitty(0.35.2)")
        XCTAssertTrue(abilities.kittyGraphics, "the Kitty query's answer, 0.7 s after it was asked")
        XCTAssertNil(abilities.unfinishedString)
    }
}
