import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import XCTest

/// Synchronized output (DEC mode 2026) and colour-scheme reports (mode 2031), as the terminal sees them: where it said
/// it has synchronized output, every frame and the pictures drawn with it arrive inside one update it shows whole (the
/// data of a Kitty picture, which shows nothing until placed, goes between updates); where it
/// did not, the mode is never named; a reported change of scheme takes a theme that follows it along.
final class SynchronizedFrameTests: XCTestCase {
    static let begin = "\u{1B}[?2026h", end = "\u{1B}[?2026l"

    /// The bytes outside every synchronized update, and whether the updates were balanced (each begun one ended).
    func outsideUpdates(_ output: String) -> (outside: String, balanced: Bool) {
        var outside = "", open = false, balanced = true
        var rest = Substring(output)
        while !rest.isEmpty {
            let marker = open ? Self.end : Self.begin
            guard let range = rest.range(of: marker) else {
                if open { balanced = false } else { outside += rest }
                break
            }
            if !open { outside += rest[..<range.lowerBound] }
            if !open, rest[..<range.lowerBound].contains(Self.end) { balanced = false }
            open.toggle()
            rest = rest[range.upperBound...]
        }
        return (outside, balanced)
    }

    func backend(on terminal: PseudoTerminal, answers: String, graphics: GraphicsMode = .cells) throws -> NcursesBackend {
        setenv("LC_ALL", "C.UTF-8", 1)
        let abilities = TerminalProbe.parse(Array(answers.utf8))
        return try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                  abilities: abilities, graphics: graphics, link: .fast)
    }

    func test_whereTheTerminalHasIt_everyFrameIsOneUpdate_andAKittyPicturesDataGoesBetweenUpdates() throws {
        let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true)
        defer { terminal.close() }
        let backend = try backend(on: terminal, answers: "\u{1B}[?2026;2$y\u{1B}[?62;22c", graphics: .kitty)
        var restored = false
        defer { if !restored { backend.restore() } }
        _ = terminal.endFrame(flushing: backend)
        // curses' own start (before the program writes a byte) aside, the modes set at the start go as one update too.
        let opening = String(decoding: terminal.takeOutput(), as: UTF8.self)
        let written = try XCTUnwrap(opening.range(of: Self.begin), opening.debugDescription)
        XCTAssertEqual(outsideUpdates(String(opening[written.lowerBound...])).outside, "", opening.debugDescription)
        XCTAssertTrue(opening[written.lowerBound...].contains("\u{1B}[?1006h"))
        // Frames of text, then one with a picture (its upload follows curses' frame), the picture moved (its data
        // already in the terminal), then text over it again. Small enough to go within the first window (the
        // pseudo-terminal answers no DA1 asked behind pictures).
        let card = noisyPicture(columns: 8, rows: 4)
        var frames: [CellBuffer] = []
        for step in 0..<3 {
            var buffer = CellBuffer(width: 60, height: 20)
            buffer.write("frame \(step)", x: 2, y: 1 + step)
            frames.append(buffer)
        }
        var withPicture = frameShowing(card)
        withPicture.write("with a picture", x: 0, y: 0)
        frames.append(withPicture)
        var moved = CellBuffer(width: 60, height: 20)
        moved.draw(card, x: 20, y: 6)
        moved.write("moved", x: 0, y: 0)
        frames.append(moved)
        frames.append(frames[0])
        for (index, frame) in frames.enumerated() {
            backend.draw(frame)
            _ = terminal.endFrame(flushing: backend)
            let output = String(decoding: terminal.takeOutput(), as: UTF8.self)
            let (outside, balanced) = outsideUpdates(output)
            XCTAssertTrue(balanced, "frame \(index): every update begun is ended: \(output.prefix(200).debugDescription)")
            XCTAssertTrue(output.hasPrefix(Self.begin), "frame \(index)")
            if index == 3 {
                // The picture's data, which shows nothing until placed, goes between updates (whole Kitty
                // transmissions, nothing else); the text before it and its placement each go inside one.
                XCTAssertTrue(outside.contains("\u{1B}_Ga=t"), "the picture's upload went between updates")
                XCTAssertEqual(outside.replacingOccurrences(of: #"\u{1B}_G(a=t,|m=)[^\u{1B}]*\u{1B}\\"#, with: "", options: .regularExpression),
                               "", "only picture data outside an update: \(outside.prefix(300).debugDescription)")
                let first = try XCTUnwrap(output.range(of: Self.end))
                XCTAssertTrue(output[..<first.lowerBound].contains("with a picture"), "the text is shown whole")
                let placement = try XCTUnwrap(output.range(of: "a=p,"), "the picture placed")
                XCTAssertFalse(outsideUpdates(String(output[..<placement.lowerBound])).balanced, "the placement inside an update")
            } else {
                XCTAssertEqual(outside, "", "frame \(index): nothing outside an update")
            }
            if index == 4 {
                // A picture the terminal has moves with the text it belongs to: one update for both.
                let updates = output.components(separatedBy: Self.begin).count - 1
                XCTAssertEqual(updates, 1, "frame 4: one update: \(output.debugDescription)")
                XCTAssertTrue(output.contains("a=p,") && output.contains("moved"), output.debugDescription)
            }
        }
        backend.restore()
        restored = true
        _ = terminal.endFrame()
        let leaving = String(decoding: terminal.takeOutput(), as: UTF8.self)
        XCTAssertTrue(outsideUpdates(leaving).balanced, "no update left open on the way out: \(leaving.debugDescription)")
    }

    func test_whereTheTerminalDidNotSay_theModeIsNeverNamed() throws {
        for answers in ["\u{1B}[?62;22c", "\u{1B}[?2026;0$y\u{1B}[?62;22c", "\u{1B}[?2026;4$y\u{1B}[?62;22c"] {
            let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true)
            defer { terminal.close() }
            let backend = try backend(on: terminal, answers: answers, graphics: .kitty)
            backend.draw(frameShowing(noisyPicture(columns: 8, rows: 4)))
            _ = terminal.endFrame(flushing: backend)
            backend.restore()
            _ = terminal.endFrame()
            let output = String(decoding: terminal.takeOutput(), as: UTF8.self)
            XCTAssertTrue(output.contains("\u{1B}_G"), "the picture went")
            XCTAssertFalse(output.contains("2026"), "\(answers.debugDescription): mode 2026 never named")
            XCTAssertFalse(output.contains("2031"), "\(answers.debugDescription): nor scheme reports asked for")
        }
    }

    /// Where the terminal reports its colour scheme, the reports are asked for while the program runs, and stopped after.
    func test_schemeReports_areAskedFor_whereTheTerminalHasThem_andStoppedOnLeaving() throws {
        let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true)
        defer { terminal.close() }
        let backend = try backend(on: terminal, answers: "\u{1B}[?2031;2$y\u{1B}[?62;22c")
        _ = terminal.endFrame(flushing: backend)
        XCTAssertTrue(String(decoding: terminal.takeOutput(), as: UTF8.self).contains("\u{1B}[?2031h"))
        // A report is no key: the backend keeps the scheme for the loop.
        terminal.type(Array("\u{1B}[?997;2nj".utf8))
        var keys: [InputEvent] = []
        let deadline = Date().addingTimeInterval(3)
        while keys.isEmpty, Date() < deadline { if let key = backend.readInput(timeout: 50) { keys.append(key) } }
        XCTAssertEqual(keys, [.key(.character("j"))])
        XCTAssertEqual(backend.reportedLightScheme, true)
        backend.restore()
        _ = terminal.endFrame()
        XCTAssertTrue(String(decoding: terminal.takeOutput(), as: UTF8.self).contains("\u{1B}[?2031l"))
    }

    /// A theme that follows the terminal changes within a frame of the report, and back; a theme set stays.
    func test_aReportedScheme_switchesAFollowingTheme_withinAFrame() {
        let backend = TestBackend(width: 60, height: 16)
        let app = TerminalApp(backend: backend, theme: Theme(colorMode: .palette256, unicode: true, name: .dark),
                              imageSource: NoImages(), performer: NoEffects())
        var followed: [ThemeName] = []
        app.themeFollowing = { light in Theme(colorMode: .palette256, unicode: true, name: light ? .light : .dark) }
        app.themeObserver = { followed.append($0) }
        app.dispatch(.start)
        for _ in 0..<3 { app.step(timeout: 5) }
        let dark = backend.frames.last
        backend.reportedLightScheme = true
        app.step(timeout: 5) // the report is read
        app.step(timeout: 5) // the next frame
        XCTAssertEqual(followed, [.light])
        XCTAssertNotEqual(backend.frames.last?.cells, dark?.cells, "the frame after the report is drawn in the light theme")
        XCTAssertEqual(backend.invalidations, 1, "every cell painted again")
        backend.reportedLightScheme = false
        app.step(timeout: 5)
        app.step(timeout: 5)
        XCTAssertEqual(followed, [.light, .dark])
        // The tab bar, as it was drawn in the dark theme.
        XCTAssertEqual(backend.frames.last.map { Array($0.cells.prefix(60)) }, dark.map { Array($0.cells.prefix(60)) },
                       "back to the dark theme's colours")

        let setBackend = TestBackend(width: 60, height: 16)
        let set = TerminalApp(backend: setBackend, theme: Theme(colorMode: .palette256, unicode: true, name: .dark),
                              imageSource: NoImages(), performer: NoEffects())
        set.dispatch(.start)
        for _ in 0..<3 { set.step(timeout: 5) }
        let before = setBackend.frames.count
        setBackend.reportedLightScheme = true
        for _ in 0..<3 { set.step(timeout: 5) }
        XCTAssertEqual(setBackend.invalidations, 0, "a theme set (nothing follows) stays")
        XCTAssertEqual(setBackend.frames.count, before, "nothing to draw again")
    }
}

private struct NoImages: ImageSource {
    func imageData(at url: URL) async throws(ServiceError) -> Data { throw .notFound }
}

private final class NoEffects: EffectPerformer, @unchecked Sendable {
    func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event] { [] }
}
