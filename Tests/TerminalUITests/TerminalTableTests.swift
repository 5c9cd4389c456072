import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// The table of terminals, a row at a time: each place users run the program, fed the answers its terminal gives (as
/// its documentation says them: XTVERSION, DA1, the Kitty query, the cell's size) and the environment it sets, and the
/// decisions checked (`TerminalProfile.decide`, the one place they are made).
final class TerminalTableTests: XCTestCase {
    // The answers, as bytes a terminal writes.
    static let kittyOK = "\u{1B}_Gi=31;OK\u{1B}\\"
    static func version(_ name: String) -> String { "\u{1B}P>|\(name)\u{1B}\\" }
    static func da1(_ parameters: String) -> String { "\u{1B}[?\(parameters)c" }
    static func cell(_ width: Int, _ height: Int) -> String { "\u{1B}[6;\(height);\(width)t" }

    struct Place {
        var name: String
        var answers: String?
        var environment: [String: String]
        /// tmux's answer to `TmuxClient.format` (inside tmux).
        var tmux: String?
        var pictures: GraphicsMode
        var links: Bool
        var between: Terminals.Between = .nothing
        var terminal: String?
        var cell: (Int, Int)?
    }

    func profile(_ place: Place) -> TerminalProfile {
        let abilities = place.answers.map { TerminalProbe.parse(Array($0.utf8)) }
        let tmux = place.tmux.flatMap(TmuxClient.parse)
        return TerminalProfile.decide(environment: place.environment, abilities: abilities, tmux: tmux, settings: .init(), unicode: true)
    }

    static let places: [Place] = [
        Place(name: "kitty", answers: kittyOK + version("kitty(0.35.2)") + cell(10, 21) + da1("62;"),
              environment: ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], pictures: .kitty, links: true, terminal: "kitty", cell: (10, 21)),
        // Ghostty: Kitty graphics; a DA1 that lists 4 is not taken for Sixel.
        Place(name: "Ghostty", answers: kittyOK + version("ghostty 1.1.3") + cell(9, 18) + da1("62;4;22"),
              environment: ["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], pictures: .kitty, links: true, terminal: "Ghostty"),
        Place(name: "Ghostty without its Kitty answer", answers: version("ghostty 1.1.3") + cell(9, 18) + da1("62;4;22"),
              environment: ["TERM": "xterm-ghostty"], pictures: .cells, links: true, terminal: "Ghostty"),
        // WezTerm: answers the Kitty query, but its own iTerm2 images are used.
        Place(name: "WezTerm", answers: kittyOK + version("WezTerm 20240203-110809-5046fc22") + cell(8, 17) + da1("65;4;6;18;22"),
              environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], pictures: .iterm2, links: true, terminal: "WezTerm"),
        // Konsole: Kitty graphics by its answer, placed directly.
        Place(name: "Konsole", answers: kittyOK + cell(9, 19) + da1("62;22"),
              environment: ["TERM": "xterm-256color", "KONSOLE_VERSION": "230805"], pictures: .kitty, links: true, terminal: "Konsole"),
        // Konsole around tmux: tmux's client is Konsole, which ignores placeholders.
        Place(name: "Konsole around tmux", answers: version("tmux 3.4") + da1("62;22"),
              environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
              tmux: "1|xterm-256color|Konsole 23.08.5|9|19|RGB", pictures: .cells, links: false, between: .tmux, terminal: "Konsole"),
        // Rio around tmux: placeholders through the passthrough.
        Place(name: "Rio around tmux", answers: version("tmux 3.4") + da1("62;22"),
              environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
              tmux: "1|rio|rio 0.2.10|9|19|RGB", pictures: .kittyPlaceholders, links: false, between: .tmux, terminal: "Rio"),
        // VS Code's terminal: iTerm2 images where its image support is on (DA1 then lists Sixel), else characters; Kitty
        // graphics where it answers the query.
        Place(name: "VS Code, images on", answers: cell(8, 16) + da1("62;4;9;22"),
              environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"], pictures: .iterm2, links: true, terminal: "VS Code"),
        Place(name: "VS Code, images off", answers: cell(8, 16) + da1("62;9;22"),
              environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"], pictures: .cells, links: true, terminal: "VS Code"),
        // xterm.js 6 answers the Kitty query, but frees an image when a placement goes: iTerm2's images all the same.
        Place(name: "VS Code answering the Kitty query", answers: kittyOK + version("xterm.js(6.0.0)") + cell(8, 16) + da1("62;4;9;22"),
              environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "vscode"], pictures: .iterm2, links: true, terminal: "VS Code"),
        // Over plain SSH from VS Code no TERM_PROGRAM crosses: its XTVERSION answer names it.
        Place(name: "xterm.js over SSH", answers: kittyOK + version("xterm.js(6.0.0)") + cell(8, 16) + da1("62;4;9;22"),
              environment: ["TERM": "xterm-256color"], pictures: .iterm2, links: true, terminal: "VS Code"),
        Place(name: "xterm.js over SSH, images off", answers: kittyOK + version("xterm.js(6.0.0)") + cell(8, 16) + da1("62;9;22"),
              environment: ["TERM": "xterm-256color"], pictures: .cells, links: true, terminal: "VS Code"),
        // Windows Terminal over SSH: nothing in the environment crosses; DA1 lists Sixel and CSI 16 t says 10x20.
        Place(name: "Windows Terminal over SSH", answers: cell(10, 20) + da1("61;4;6;7;14;21;22;23;24;28;32;42"),
              environment: ["TERM": "xterm-256color"], pictures: .sixel, links: false, cell: (10, 20)),
        // Windows Terminal where WT_SESSION is there and no cell size is said: its Sixel cell, 10x20.
        Place(name: "Windows Terminal, no cell size", answers: da1("61;4;6;7;14;21;22;23;24;28;32;42"),
              environment: ["TERM": "xterm-256color", "WT_SESSION": "c2b1f0"], pictures: .sixel, links: true,
              terminal: "Windows Terminal", cell: (10, 20)),
        // iTerm2: LC_TERMINAL crosses SSH; its own images before its Sixel.
        Place(name: "iTerm2 over SSH", answers: cell(14, 28) + da1("62;4"),
              environment: ["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"], pictures: .iterm2, links: true, terminal: "iTerm2"),
        Place(name: "iTerm2 by XTVERSION", answers: version("iTerm2 3.5.0") + cell(14, 28) + da1("62;4"),
              environment: ["TERM": "xterm-256color"], pictures: .iterm2, links: true, terminal: "iTerm2"),
        // iTerm2 3.5.5 and later answer the Kitty query: its own images all the same.
        Place(name: "iTerm2 3.6, answering the Kitty query", answers: kittyOK + version("iTerm2 3.6.2") + cell(14, 28) + da1("62;4"),
              environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app", "LC_TERMINAL": "iTerm2"], pictures: .iterm2,
              links: true, terminal: "iTerm2"),
        // tmux built with Sixel, attached to foot (no placeholders): Sixel in the pane.
        Place(name: "tmux with Sixel, in foot", answers: version("tmux 3.5a") + da1("62;4;22"),
              environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
              tmux: "0|foot|foot(1.16.2)|9|18|RGB,sixel|1", pictures: .sixel, links: false, between: .tmux, terminal: "foot", cell: (9, 18)),
        Place(name: "tmux without Sixel, in foot", answers: version("tmux 3.3a") + da1("62;4;22"),
              environment: ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
              tmux: "0|foot|foot(1.16.2)|9|18|RGB,sixel|", pictures: .cells, links: false, between: .tmux, terminal: "foot"),
        // Zellij: Kitty graphics where it answers for them (0.45 and later), never Sixel from its DA1.
        // Zellij passes OSC 8 links to the terminal outside (known by the environment it left): on where that terminal
        // makes them clickable.
        Place(name: "Zellij 0.45 in kitty", answers: kittyOK + version("Zellij(0.45.0)") + cell(10, 21) + da1("62;4;22"),
              environment: ["TERM": "xterm-kitty", "ZELLIJ": "0", "ZELLIJ_SESSION_NAME": "work"], pictures: .kitty, links: true,
              between: .zellij),
        // Zellij 0.45 in a terminal with Sixel: it lists Sixel in DA1 only then, and passes it through.
        Place(name: "Zellij 0.45 in foot", answers: version("Zellij(0.45.0)") + cell(9, 18) + da1("62;4;22"),
              environment: ["TERM": "foot", "ZELLIJ": "0"], pictures: .sixel, links: true, between: .zellij, cell: (9, 18)),
        Place(name: "Zellij 0.45 in a terminal without Sixel", answers: version("Zellij(0.45.0)") + cell(9, 18) + da1("62;22"),
              environment: ["TERM": "xterm-256color", "ZELLIJ": "0"], pictures: .cells, links: false, between: .zellij),
        Place(name: "older Zellij in foot", answers: version("Zellij(0.44.1)") + cell(9, 18) + da1("62;4;22"),
              environment: ["TERM": "foot", "ZELLIJ": "0"], pictures: .cells, links: true, between: .zellij),
        Place(name: "Zellij not saying its version", answers: cell(9, 18) + da1("62;4;22"),
              environment: ["TERM": "foot", "ZELLIJ": "0"], pictures: .cells, links: true, between: .zellij),
        // herdr in Ghostty: Ghostty's environment and answers (its terminal layer is Ghostty's), TERM and COLORTERM of its
        // own, HERDR_ENV=1: herdr draws its panes as text; its links go to Ghostty.
        Place(name: "herdr in Ghostty", answers: kittyOK + version("ghostty 1.2.0") + cell(9, 18) + da1("62;22"),
              environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "TERM_PROGRAM": "ghostty", "GHOSTTY_RESOURCES_DIR": "/usr/share/ghostty",
                            "HERDR_ENV": "1", "HERDR_PANE_ID": "7"],
              pictures: .cells, links: true, between: .herdr, terminal: "herdr"),
        // GNU screen: characters, whatever the terminal outside has.
        Place(name: "GNU screen in kitty", answers: version("kitty(0.35.2)") + da1("62;4"),
              environment: ["TERM": "screen", "STY": "1234.pts-0.host", "COLORTERM": "truecolor"], pictures: .cells, links: false,
              between: .gnuScreen, terminal: "kitty"),
        // xterm: Sixel that follows scrolls.
        Place(name: "xterm", answers: version("XTerm(379)") + cell(6, 13) + da1("63;1;2;4;6;9;15;16;22;28"),
              environment: ["TERM": "xterm-256color"], pictures: .sixel, links: false, terminal: "xterm", cell: (6, 13)),
    ]

    func test_everyPlace_isDecidedAsItsDocumentationSays() {
        for place in Self.places {
            let decided = profile(place)
            XCTAssertEqual(decided.graphics.mode, place.pictures, "\(place.name): \(decided.graphics.reason)")
            XCTAssertEqual(decided.hyperlinks.value, place.links, "\(place.name): links")
            XCTAssertEqual(decided.between, place.between, place.name)
            if let terminal = place.terminal { XCTAssertEqual(decided.terminal, terminal, place.name) }
            if let cell = place.cell {
                XCTAssertEqual(decided.graphics.cellWidth, cell.0, "\(place.name): cell width")
                XCTAssertEqual(decided.graphics.cellHeight, cell.1, "\(place.name): cell height")
            }
            XCTAssertFalse(decided.graphics.reason.isEmpty, place.name)
        }
    }

    /// An animation in Kitty graphics: played by the terminal where it played the test frame (kitty), paced by the
    /// program where it refused it (Zellij's ENOTSUPPORTED, xterm.js's EINVAL) or said nothing (Ghostty 1.3); not asked
    /// (render, inside tmux), by the terminal's row.
    func test_kittyAnimation_isPlayedOnlyWhereTheTerminalPlaysTheTestFrame() {
        let framesOK = "\u{1B}_Gi=32,r=2;OK\u{1B}\\"
        let cases: [(name: String, answers: String?, environment: [String: String], tmux: String?, frames: TerminalAbilities.KittyFrames?,
                     playback: PictureDrawer.AnimationPlayback)] = [
            ("kitty", Self.kittyOK + framesOK + Self.version("kitty(0.42.1)") + Self.cell(10, 21) + Self.da1("62;"),
             ["TERM": "xterm-kitty"], nil, nil, .terminalFrames),
            ("Zellij 0.45", Self.kittyOK + "\u{1B}_Gi=32;ENOTSUPPORTED\u{1B}\\" + Self.version("Zellij(0.45.0)") + Self.cell(10, 20) + Self.da1("62;"),
             ["TERM": "xterm-256color", "ZELLIJ": "0"], nil, nil, .framesInPlace),
            ("xterm.js", Self.kittyOK + "\u{1B}_Gi=32;EINVAL:unsupported action\u{1B}\\" + Self.version("xterm.js(6.0.0)") + Self.cell(8, 16)
                + Self.da1("62;4;9;22"), ["TERM": "xterm-256color"], nil, nil, .framesInPlace),
            ("Ghostty 1.3, silent", Self.kittyOK + Self.version("ghostty 1.3.0") + Self.cell(9, 18) + Self.da1("62;4;22"),
             ["TERM": "xterm-ghostty"], nil, .unanswered, .framesInPlace),
            ("kitty, not asked in time", nil, ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1"], nil, nil, .terminalFrames),
            ("Ghostty, not asked in time", nil, ["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], nil, nil, .framesInPlace),
            ("kitty around tmux", Self.version("tmux 3.4") + Self.da1("62;22"), ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
             "1|xterm-kitty|kitty(0.42.1)|10|21|RGB", nil, .terminalFrames),
            ("Ghostty around tmux", Self.version("tmux 3.4") + Self.da1("62;22"), ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"],
             "1|xterm-ghostty|ghostty 1.3.0|9|18|RGB", nil, .framesInPlace),
        ]
        for place in cases {
            var abilities = place.answers.map { TerminalProbe.parse(Array($0.utf8)) }
            if let frames = place.frames { abilities?.kittyFrames = frames }
            // xterm.js's Kitty answer is not taken: its frames matter where the settings name Kitty graphics.
            let settings = TerminalProfile.Settings(graphics: place.name == "xterm.js" ? .kitty : nil)
            let decided = TerminalProfile.decide(environment: place.environment, abilities: abilities, tmux: place.tmux.flatMap(TmuxClient.parse),
                                                 settings: settings, unicode: true)
            XCTAssertTrue([.kitty, .kittyPlaceholders].contains(decided.graphics.mode), "\(place.name): \(decided.graphics.reason)")
            XCTAssertEqual(decided.graphics.playback, place.playback, "\(place.name): \(decided.graphics.playbackReason)")
            XCTAssertTrue(decided.summary.contains("animations: \(decided.graphics.playbackReason)"), place.name)
        }
    }

    func test_zellij_isBetween_andTheKittyQueryMayBeSentThere() {
        XCTAssertEqual(Terminals.between(["ZELLIJ": "0", "TERM": "xterm-256color"]), .zellij)
        XCTAssertFalse(Terminals.isMultiplexed(["ZELLIJ": "0"]), "Zellij answers as a terminal")
        var answered = TerminalAbilities()
        answered.answered = true
        XCTAssertTrue(Terminals.sendsKittyQuery(["ZELLIJ": "0", "TERM": "xterm-256color"], after: answered))
        XCTAssertFalse(Terminals.drawsSextants(environment: ["ZELLIJ": "0"], abilities: TerminalProbe.parse(Array(Self.version("kitty(0.35.2)").utf8)),
                                               tmux: nil), "Zellij draws cells from the outer terminal's font")
        XCTAssertNil(Terminals.graphicsByEnvironment(["ZELLIJ": "0", "TERM": "xterm-kitty"]), "render asks nothing of Zellij's version")
    }

    func test_render_guessesByEnvironment() {
        XCTAssertEqual(Terminals.graphicsByEnvironment(["TERM": "xterm-kitty"]), .kitty)
        XCTAssertEqual(Terminals.graphicsByEnvironment(["TERM_PROGRAM": "ghostty"]), .kitty)
        XCTAssertNil(Terminals.graphicsByEnvironment(["TERM_PROGRAM": "ghostty", "TERM": "xterm-256color", "HERDR_ENV": "1"]),
                     "herdr keeps Ghostty's environment but draws no Kitty graphics")
        XCTAssertEqual(Terminals.graphicsByEnvironment(["TERM_PROGRAM": "WezTerm"]), .iterm2, "WezTerm's Kitty graphics misplace pictures")
        XCTAssertEqual(Terminals.graphicsByEnvironment(["LC_TERMINAL": "iTerm2"]), .iterm2)
        XCTAssertNil(Terminals.graphicsByEnvironment(["TERM": "xterm-kitty", "TMUX": "/tmp/t"]))
        XCTAssertNil(Terminals.graphicsByEnvironment(["TERM": "xterm-256color"]))
    }

    /// The help says what draws the photos, in each mode's own words.
    func test_helpNote_namesTheModeAndItsCells() {
        XCTAssertEqual(TerminalApp.picturesNote(GraphicsChoice(mode: .kitty, reason: "asked", cellWidth: 9, cellHeight: 18)),
                       "Kitty graphics, 9x18-pixel cells: asked. The graphics setting changes it.")
        XCTAssertEqual(TerminalApp.picturesNote(GraphicsChoice(mode: .iterm2, reason: "asked", cellWidth: 9, cellHeight: 18)),
                       "iTerm2 inline images: asked. The graphics setting changes it.")
        XCTAssertEqual(TerminalApp.picturesNote(GraphicsChoice(mode: .cells, reason: "asked")),
                       "coloured characters: asked. The graphics setting changes it.")
    }

    func test_tmuxAnswer_withSixelSupport_isRead() {
        let foot = TmuxClient.parse("0|foot|foot(1.16.2)|9|18|RGB,sixel|1")
        XCTAssertEqual(foot?.drawsSixel, true)
        XCTAssertEqual(foot?.hasRGB, true)
        XCTAssertEqual(TmuxClient.parse("0|foot|foot(1.16.2)|9|18|RGB|1")?.drawsSixel, false, "the terminal lacks it")
        XCTAssertEqual(TmuxClient.parse("0|foot|foot(1.16.2)|9|18|RGB,sixel|")?.drawsSixel, false, "tmux built without it")
        XCTAssertEqual(TmuxClient.parse("1|rio|rio 0.2.10")?.drawsPlaceholders, true)
        XCTAssertEqual(TmuxClient.parse("1|xterm-256color|Konsole 23.08.5")?.drawsPlaceholders, false)
    }

    /// GNU screen with a COLORTERM inherited from the terminal outside: 256 colours (screen cannot be asked whether it
    /// is screen 5 with `truecolor on`), and the advice says how that draws 24-bit.
    func test_gnuScreen_withInheritedColorterm_draws256_andSaysHowScreen5Draws24Bit() {
        let environment = ["TERM": "screen", "STY": "1234.pts-0.host", "COLORTERM": "truecolor"]
        let decided = TerminalProfile.decide(environment: environment, abilities: nil, tmux: nil, settings: .init(), unicode: true)
        XCTAssertFalse(decided.terminfo.entries.contains { $0.hasSuffix("-direct") }, "\(decided.terminfo.entries)")
        XCTAssertNotEqual(decided.colors.value, .truecolor)
        XCTAssertFalse(decided.mouse.value)
        XCTAssertTrue(decided.colors.reason.contains("GNU screen"), decided.colors.reason)
        // Screen 5 draws 24-bit colour with `truecolor on` (it cannot be asked): the advice says how, 256 stays.
        let advice = try? XCTUnwrap(decided.colorsAdvice, "the terminal outside has 24-bit colour")
        XCTAssertTrue(advice?.contains("truecolor on") == true && advice?.contains("screen 5") == true, advice ?? "")
        XCTAssertTrue(advice?.contains("colors = \"truecolor\"") == true, advice ?? "")
        // Without a word of 24-bit colour from the terminal outside, nothing to advise.
        let plain = TerminalProfile.decide(environment: ["TERM": "screen", "STY": "1234.pts-0.host"], abilities: nil, tmux: nil,
                                           settings: .init(), unicode: true)
        XCTAssertNil(plain.colorsAdvice)
        // Set, it is drawn in the semicolon form screen 5 reads.
        let set = TerminalProfile.decide(environment: environment, abilities: nil, tmux: nil, settings: .init(colors: .truecolor), unicode: true)
        XCTAssertEqual(set.terminfo.entries.first, "alacritty-direct", "\(set.terminfo.entries)")
        XCTAssertNil(set.colorsAdvice, "set: nothing to advise")
    }

    /// Synchronized output (DEC mode 2026): on where DECRQM says the terminal has it (1 set, 2 reset), never where it
    /// did not answer or knows it not, never through a tmux whose client lacks it, never inside GNU screen.
    func test_synchronizedFrames_whereDECRQMAnswers_andNowhereElse() {
        let decrqm = { (value: Int) in "\u{1B}[?2026;\(value)$y" }
        let tmuxEnvironment = ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,1,0"]
        let cases: [(name: String, answers: String?, environment: [String: String], tmux: String?, on: Bool)] = [
            ("kitty, reset", Self.version("kitty(0.42.1)") + decrqm(2) + Self.da1("62;"), ["TERM": "xterm-kitty"], nil, true),
            ("foot, set", Self.version("foot(1.16.2)") + decrqm(1) + Self.da1("62;4;22"), ["TERM": "foot"], nil, true),
            ("xterm, not known", Self.version("XTerm(379)") + decrqm(0) + Self.da1("63;1;2;4"), ["TERM": "xterm-256color"], nil, false),
            ("permanently reset", decrqm(4) + Self.da1("62;"), ["TERM": "xterm-256color"], nil, false),
            ("no answer to DECRQM", Self.da1("62;"), ["TERM": "xterm-256color"], nil, false),
            ("not asked", nil, ["TERM": "xterm-kitty"], nil, false),
            ("tmux with a client that has it", Self.version("tmux 3.5a") + decrqm(2) + Self.da1("62;22"), tmuxEnvironment,
             "1|xterm-kitty|kitty(0.42.1)|10|21|RGB,sync,title", true),
            ("tmux with a client that lacks it", Self.version("tmux 3.5a") + decrqm(2) + Self.da1("62;22"), tmuxEnvironment,
             "1|xterm-256color|XTerm(379)|6|13|RGB,title", false),
            ("GNU screen", decrqm(2) + Self.da1("62;"), ["TERM": "screen", "STY": "1.pts-0.host"], nil, false),
        ]
        for place in cases {
            let abilities = place.answers.map { TerminalProbe.parse(Array($0.utf8)) }
            let decided = TerminalProfile.decide(environment: place.environment, abilities: abilities, tmux: place.tmux.flatMap(TmuxClient.parse),
                                                 settings: .init(), unicode: true)
            XCTAssertEqual(decided.synchronizedFrames.value, place.on, "\(place.name): \(decided.synchronizedFrames.reason)")
            XCTAssertTrue(decided.summary.contains { $0.hasPrefix("synchronized frames: \(place.on ? "on" : "off") (") }, place.name)
        }
    }

    /// Colour-scheme reports (mode 2031): kitty, Ghostty and Contour answer DECRQM for them; the theme follows there.
    func test_themeChanges_followedWhereTheTerminalReportsThem() {
        let answered = TerminalProbe.parse(Array((Self.version("ghostty 1.2.0") + "\u{1B}[?2031;2$y" + Self.da1("62;22")).utf8))
        XCTAssertEqual(answered.themeReports, 2)
        let decided = TerminalProfile.decide(environment: ["TERM": "xterm-ghostty"], abilities: answered, tmux: nil, settings: .init(), unicode: true)
        XCTAssertTrue(decided.themeChanges.value, decided.themeChanges.reason)
        XCTAssertTrue(decided.summary.contains { $0.hasPrefix("theme changes: reported") })
        let silent = TerminalProbe.parse(Array((Self.version("XTerm(379)") + "\u{1B}[?2031;0$y" + Self.da1("63;4")).utf8))
        XCTAssertFalse(TerminalProfile.decide(environment: ["TERM": "xterm-256color"], abilities: silent, tmux: nil, settings: .init(),
                                              unicode: true).themeChanges.value)
        XCTAssertFalse(TerminalProfile.decide(environment: ["TERM": "screen", "STY": "1.pts-0.host"], abilities: answered, tmux: nil,
                                              settings: .init(), unicode: true).themeChanges.value, "not through GNU screen")
    }

    /// A rule that names a terminal lives in Terminals.swift: no other file of the program holds one.
    func test_terminalNames_liveInTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let names = ["\"kitty", "\"ghostty", "\"wezterm", "\"foot", "\"iTerm2\"", "\"iTerm.app\"", "\"vscode", "WT_SESSION", "KONSOLE_VERSION", "VTE_VERSION",
                     "\"mlterm", "\"rxvt", "XTerm(", "ZELLIJ", "HERDR_ENV", "xterm.js", "zellij(", "\"STY\"", "\"TMUX\"", "KITTY_WINDOW_ID", "LC_TERMINAL", "TERM_PROGRAM"]
        let files = ["Sources/TerminalUI", "Sources/TerminalImage", "Sources/ImageFeedApp", "Sources/image-feed"].flatMap { folder in
            FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
        }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "Terminals.swift" }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
                .replacingOccurrences(of: "\"kitty-placeholders\"", with: "") // a setting's value, not a terminal
            for name in names where code.contains(name) {
                XCTFail("\(file.lastPathComponent) names a terminal (\(name)): its rule belongs in Terminals.swift")
            }
        }
    }
}
