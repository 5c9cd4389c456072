import Foundation
import ImageFeedApp
import TerminalImage
import TerminalUI
import TestSupport
import XCTest

/// doctor says what the session does: for the same answers, environment and settings, doctor's picture, colour and
/// character lines are the session's choice (the session opens a real curses screen, on a pseudo-terminal, from the
/// same `TerminalProfile`).
final class TerminalAgreementTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        TestWatchdog.install(current: self)
        folder = try TemporaryFolder()
    }

    struct Case {
        var name: String
        var environment: [String: String]
        var answers: String?
        var tmux: String?
        var config: String = ""
    }

    static let kittyOK = "\u{1B}_Gi=31;OK\u{1B}\\"

    static let cases: [Case] = [
        Case(name: "kitty", environment: ["TERM": "xterm-kitty", "COLORTERM": "truecolor"],
             answers: kittyOK + "\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c"),
        // GNU screen inside a terminal with 24-bit colour, COLORTERM inherited: doctor used to advise truecolor there.
        Case(name: "GNU screen with COLORTERM", environment: ["TERM": "screen", "STY": "99.pts-1.host", "COLORTERM": "truecolor"],
             answers: "\u{1B}P>|kitty(0.35.2)\u{1B}\\\u{1B}[?62;4c"),
        Case(name: "tmux around kitty", environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
             answers: "\u{1B}P>|tmux 3.4\u{1B}\\\u{1B}[?62;22c", tmux: "1|xterm-kitty|kitty(0.35.2)|10|20|RGB"),
        Case(name: "xterm-256color that says nothing", environment: ["TERM": "xterm-256color"], answers: nil),
        Case(name: "xterm with Sixel", environment: ["TERM": "xterm-256color"],
             answers: "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[6;13;6t\u{1B}[?63;4c"),
        Case(name: "a config that sets colours and characters", environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"],
             answers: "\u{1B}[?62;c", config: "colors = \"256\"\nblitter = \"quadrant\"\n"),
        Case(name: "Zellij", environment: ["TERM": "xterm-256color", "ZELLIJ": "0", "COLORTERM": "truecolor"],
             answers: "\u{1B}[6;20;10t\u{1B}[?62;4;22c"),
        Case(name: "not UTF-8", environment: ["TERM": "xterm-256color", "LANG": "C", "LC_ALL": "C"], answers: "\u{1B}[?62;c"),
    ]

    func test_doctorsLines_areTheSessionsChoice() async throws {
        guard Terminfo.knowsEntry("xterm-256color") else { throw XCTSkip("no terminfo here") }
        for item in Self.cases {
            let place = try TemporaryFolder()
            if !item.config.isEmpty { _ = try place.write(item.config, to: "config/image-feed/config.toml") }
            let environment = place.environment.merging(["LANG": "C.UTF-8"]) { a, _ in a }.merging(item.environment) { _, b in b }
            let abilities = item.answers.map { TerminalProbe.parse(Array($0.utf8)) }
            let tmux = item.tmux.flatMap(TmuxClient.parse)
            let report = await Doctor.report(environment: environment, network: false,
                                             terminal: .init(isTerminal: true, abilities: abilities, tmux: tmux))
            // The session: the same settings, the same answers, one profile, a real screen.
            let settings = try Settings.load(environment: environment)
            let profile = InteractiveSession.profile(settings, environment: environment, abilities: abilities, tmux: tmux,
                                                     colors: settings.colors, graphics: settings.graphics)
            let terminal = try PseudoTerminal(width: 80, height: 24)
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, profile: profile)
            let drawn = backend.colorMode
            backend.restore()
            terminal.close()

            let pictures = try XCTUnwrap(report.check("Pictures"), item.name).detail
            XCTAssertTrue(pictures.hasPrefix("\(profile.graphics.mode.rawValue): \(profile.graphics.reason)"),
                          "\(item.name): doctor says \(pictures); the session draws \(profile.graphics.mode.rawValue)")
            let colours = try XCTUnwrap(report.check("Colours"), item.name)
            XCTAssertTrue(colours.detail.hasPrefix(Doctor.describe(drawn)), "\(item.name): doctor says \(colours.detail); the session draws \(drawn)")
            XCTAssertEqual(colours.fix != nil, profile.colorsAdvice != nil, item.name)
            if colours.status == .warning {
                XCTAssertNotEqual(drawn, .truecolor, "\(item.name): a warning about 24-bit colour the session draws")
            }
            if profile.graphics.mode == .cells {
                let blitter = try XCTUnwrap(report.check("Blitter"), item.name).detail
                XCTAssertEqual(blitter, "\(profile.blitter.value.rawValue): \(profile.blitter.reason)", item.name)
            } else {
                XCTAssertNil(report.check("Blitter"), item.name)
            }
        }
    }

    /// GNU screen with an inherited COLORTERM: doctor does not claim 24-bit colour, says why, and says how screen 5
    /// draws it (`truecolor on`, then the colors setting): screen cannot be asked which it is.
    func test_gnuScreenWithColorterm_doctorSays256_andHowScreen5Draws24Bit() async throws {
        guard Terminfo.knowsEntry("screen-256color") else { throw XCTSkip("no screen-256color terminfo here") }
        let environment = folder.environment.merging(["TERM": "screen", "STY": "99.pts-1.host", "COLORTERM": "truecolor",
                                                      "LANG": "C.UTF-8"]) { _, b in b }
        let report = await Doctor.report(environment: environment, network: false, terminal: .init(isTerminal: true, abilities: nil))
        let colours = try XCTUnwrap(report.check("Colours"))
        XCTAssertEqual(colours.status, .info, "nothing is wrong: \(colours.detail)")
        let fix = try XCTUnwrap(colours.fix)
        XCTAssertTrue(fix.contains("truecolor on") && fix.contains("colors = \"truecolor\""), fix)
        XCTAssertTrue(colours.detail.hasPrefix("256 colours"), colours.detail)
        XCTAssertTrue(colours.detail.contains("GNU screen"), colours.detail)
    }

    /// `render` draws the colours the session would draw for the same environment and no answers (a previewer asks
    /// the terminal nothing): one profile decides both. Inside GNU screen with an inherited COLORTERM it drew 24-bit
    /// colour, which screen cannot pass, while the session and doctor drew and said 256.
    func test_render_drawsTheSessionsColours() async throws {
        guard Terminfo.knowsEntry("xterm-256color") else { throw XCTSkip("no terminfo here") }
        for item in Self.cases where item.config.isEmpty {
            let place = try TemporaryFolder()
            let environment = place.environment.merging(["LANG": "C.UTF-8"]) { a, _ in a }.merging(item.environment) { _, b in b }
            let decided = RenderArguments(source: "photo.jpg").decide(environment: environment)
            let settings = try Settings.load(environment: environment)
            let profile = InteractiveSession.profile(settings, environment: environment, abilities: nil, tmux: nil,
                                                     colors: nil, graphics: decided.graphics)
            let terminal = try PseudoTerminal(width: 80, height: 24)
            let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, profile: profile)
            let drawn = backend.colorMode
            backend.restore()
            terminal.close()
            XCTAssertEqual(decided.colors, drawn, "\(item.name): render draws \(decided.colors), the session \(drawn)")
        }
        // Colours asked for are drawn as asked.
        XCTAssertEqual(RenderArguments(source: "photo.jpg", colors: "truecolor").decide(environment: ["TERM": "screen", "STY": "1.x"]).colors,
                       .truecolor)
        // The program itself inside GNU screen's environment: 256-colour escapes, not one 24-bit one.
        guard Terminfo.knowsEntry("screen-256color") else { return }
        let photo = RealTerminalTestCase.astronaut.path
        let environment = ["TERM": "screen", "STY": "99.pts-1.host", "COLORTERM": "truecolor", "LANG": "C.UTF-8",
                           "HOME": folder.url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let drawn = try Tool.execute([CommandLineTests.executable.path, "render", "--cols", "20", "--rows", "6", photo],
                                     environment: environment, timeout: 60)
        XCTAssertEqual(drawn.status, 0, drawn.errorText)
        XCTAssertTrue(drawn.text.contains("8;5;"), "256-colour escapes: \(drawn.text.prefix(200).debugDescription)")
        XCTAssertFalse(drawn.text.contains("8;2;"), "no 24-bit colour inside GNU screen")
    }
}

