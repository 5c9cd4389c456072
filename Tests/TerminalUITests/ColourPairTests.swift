import CNcursesw
import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

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
