import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Over SSH the program's writes never wait (sshd takes megabytes first): where the terminal answers DA1, the
/// backend asks it behind what it writes and keeps no more than a window unconfirmed.
final class ConfirmedWindowTests: XCTestCase {
    func test_behindABuffer_picturesWaitForTheTerminalsAnswers_andAKeysFrameStillGoesSoon() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true, readRate: 125_000, buffered: true)
        var abilities = TerminalAbilities()
        abilities.answered = true
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                         abilities: abilities, graphics: .kitty, link: .fast)
        defer {
            backend.restore()
            terminal.close()
        }
        let card = noisyPicture(columns: 30, rows: 15) // about 240 KB to upload
        backend.draw(frameShowing(card))
        let started = Date()
        while Date().timeIntervalSince(started) < 0.5 { _ = backend.readInput(timeout: 20) }
        XCTAssertLessThan(terminal.bufferedBytes, 100_000, "no more than a window waits in the buffer")
        var answer = CellBuffer(width: 60, height: 20)
        answer.write("the next photo", x: 0, y: 0)
        let pressed = Date()
        while !backend.readyForFrame, Date().timeIntervalSince(pressed) < 5 { _ = backend.readInput(timeout: 20) }
        backend.draw(answer)
        while Date().timeIntervalSince(pressed) < 3 {
            _ = backend.readInput(timeout: 20)
            if String(decoding: terminal.takeOutput(), as: UTF8.self).contains("the next photo") { break }
        }
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.5, "the key's frame crossed within a window's time")
    }
}
