import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import XCTest

/// Attribution links: where the screens put them, the OSC 8 bytes that carry them, and when they are sent.
final class HyperlinkTests: XCTestCase {
    let profile = URL(string: "https://unsplash.com/@ann?utm_source=image_feed&utm_medium=referral")!

    func test_feedCard_linksThePhotographerAndUnsplash_withTheReferral() {
        var ann = photo("a")
        ann.user?.htmlLink = URL(string: "https://unsplash.com/@ann")
        let buffer = renderBuffer(loadedState([ann, photo("b")]), width: 80, height: 20)
        let links = buffer.links.map { ($0.url, String($0.cells.map(\.text).joined())) }
        XCTAssertTrue(links.contains { $0 == (profile.absoluteString, "Ann Author") }, "\(links)")
        XCTAssertTrue(links.contains { $0 == ("https://unsplash.com/?utm_source=image_feed&utm_medium=referral", "Unsplash") }, "\(links)")
        XCTAssertTrue(buffer.lines.contains { $0.contains("Photo by Ann Author on Unsplash") }, buffer.lines.joined(separator: "\n"))
    }

    func test_attribution_cutShort_linksOnlyWhatIsWrittenWhole() {
        var buffer = CellBuffer(width: 20, height: 1)
        let user = User(id: "1", username: "ann", name: "Ann Author")
        let written = PhotoParts(theme: asciiTheme).attribution(user, x: 0, y: 0, style: .plain, maxWidth: 14, into: &buffer)
        XCTAssertEqual(written, 14)
        XCTAssertEqual(buffer.lines[0], "Photo by Ann ~")
        // The name lost its end to the cut: what is left of it links; "Unsplash" was not written at all.
        XCTAssertEqual(buffer.links.map { String($0.cells.map(\.text).joined()) }, ["Ann "])
    }

    func test_layer_wrapsTheCellsInOSC8_inTheirColours_andRestoresTheCursor() {
        var buffer = CellBuffer(width: 30, height: 2)
        let style = CellStyle(foreground: .rgb(RGB(250, 10, 10)), bold: true)
        buffer.write("by Ann", x: 2, y: 1, style: style)
        buffer.link(profile, x: 5, y: 1, width: 3)
        var layer = HyperlinkLayer(colorMode: .palette256)
        let bytes = String(decoding: layer.frame(buffer, before: nil, moved: false), as: UTF8.self)
        let color = Palette.nearest256(RGB(250, 10, 10))
        let expected = "\u{1B}7\u{1B}[2;6H\u{1B}]8;;\(profile.absoluteString)\u{1B}\\\u{1B}[0;1;38;5;\(color)mAnn\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}8"
        XCTAssertEqual(bytes, expected)
        // The same frame again: nothing to send; a cell elsewhere changed: nothing; the screen moved: sent again.
        XCTAssertEqual(layer.frame(buffer, before: buffer, moved: false), [])
        var changed = buffer
        changed.write("X", x: 0, y: 0)
        XCTAssertEqual(layer.frame(changed, before: buffer, moved: false), [])
        XCTAssertFalse(layer.frame(changed, before: changed, moved: true).isEmpty)
        var covered = buffer
        covered.write("Bob", x: 5, y: 1, style: style) // drawn over: the link no longer holds there
        XCTAssertEqual(layer.frame(covered, before: buffer, moved: false), [])
    }

    func test_layer_aDialogOverPartOfALink_leavesThatPartOut() {
        var buffer = CellBuffer(width: 30, height: 1)
        buffer.write("Ann Author", x: 0, y: 0)
        buffer.link(profile, x: 0, y: 0, width: 10)
        buffer.write("|", x: 4, y: 0)
        let runs = HyperlinkLayer.runs(buffer.links[0], in: buffer)
        XCTAssertEqual(runs.map(\.range), [0..<4, 5..<10])
    }

    func test_aHostileAddress_cannotEndTheSequence() {
        var buffer = CellBuffer(width: 10, height: 1)
        buffer.write("x", x: 0, y: 0)
        buffer.link(URL(string: "https://a.example/%1B]0;title%07")!, x: 0, y: 0, width: 1)
        var layer = HyperlinkLayer(colorMode: .none)
        let bytes = layer.frame(buffer, before: nil, moved: false)
        XCTAssertEqual(bytes.filter { $0 == 0x07 }.count, 0)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\u{1B}]").count - 1, 2, text.debugDescription) // the link's open and close only
        XCTAssertTrue(text.contains("\u{1B}]8;;https://a.example/"), text.debugDescription)
    }

    func test_backend_sendsLinksOnlyWhenAsked() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        var buffer = CellBuffer(width: 40, height: 12)
        buffer.write("Photo by Ann on Unsplash", x: 0, y: 3)
        buffer.link(profile, x: 9, y: 3, width: 3)
        for asked in [false, true] {
            let terminal = try PseudoTerminal(width: 40, height: 12, keepsOutput: true)
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                             hyperlinks: asked)
            backend.draw(buffer)
            _ = terminal.endFrame(flushing: backend)
            let output = String(decoding: terminal.takeOutput(), as: UTF8.self)
            XCTAssertEqual(output.contains("\u{1B}]8;;\(profile.absoluteString)\u{1B}\\"), asked, output.debugDescription)
            backend.restore()
            terminal.close()
        }
    }

    func test_drawsHyperlinks_byAnswerOrEnvironment_neverInsideTmux() {
        var kitty = TerminalAbilities()
        kitty.kittyGraphics = true
        XCTAssertTrue(Terminals.drawsHyperlinks(environment: ["TERM": "xterm-kitty"], abilities: kitty))
        var foot = TerminalAbilities()
        foot.version = "foot(1.16.2)"
        XCTAssertTrue(Terminals.drawsHyperlinks(environment: ["TERM": "xterm-256color"], abilities: foot))
        XCTAssertTrue(Terminals.drawsHyperlinks(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7200"], abilities: nil))
        var xterm = TerminalAbilities()
        xterm.version = "XTerm(379)"
        XCTAssertFalse(Terminals.drawsHyperlinks(environment: ["TERM": "xterm-256color"], abilities: xterm))
        XCTAssertFalse(Terminals.drawsHyperlinks(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x,1,0"], abilities: kitty))
    }
}
