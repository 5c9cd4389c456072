import Foundation
import TestSupport
import UnsplashAPI
import XCTest

/// What a new user trips on, tried in tmux as they would: each test is one place where someone got stuck
/// or was left guessing, kept fixed.
final class FirstUseTests: EndToEndTestCase {
    /// The Albums tab before anyone was looked up: Esc leaves the field, and then Tab, the digits and q
    /// work as everywhere else; Tab also leaves the field for the next pane.
    func test_albums_escLeavesTheEmptyField_andThePaneStaysUsable() throws {
        try launchIntoTheFeed()
        try tmux.send("4")
        try tmux.waitFor(text: "Type a username and press Enter")
        try tmux.send("Escape")
        var screen = try tmux.waitFor(text: "Press e (or click the field) to type a username")
        XCTAssertTrue(screen.contains("press e to type a name"), "the field says how to come back\n\(screen)")
        try tmux.send("1")
        try tmux.waitFor("the feed again") { $0.contains("Eileen Collins") && !$0.contains("Imgur user") }
        // Tab from the field goes on to the next pane (Albums is the last: the feed).
        try tmux.send("4", "e")
        try tmux.waitFor(text: "Type a username and press Enter")
        try tmux.send("Tab")
        screen = try tmux.waitFor("Tab out of the field") { $0.contains("Eileen Collins") && !$0.contains("Imgur user") }
        try tmux.send("4")
        try tmux.waitFor(text: "Press e (or click the field)")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// End and Home as PuTTY, rxvt and the Linux console send them go to the last and first photo; a sequence
    /// nobody knows is dropped whole (End was read as `4`, which opened the Albums tab and typed `~`).
    func test_escapeSequences_fromAnyTerminal_areKeysOrNothing() throws {
        try launchIntoTheFeed()
        let escape: UInt8 = 0x1B
        let bracket = UInt8(ascii: "[")
        try sendBytes([escape, bracket, UInt8(ascii: "4"), UInt8(ascii: "~")]) // End (PuTTY, VT220, Linux)
        var screen = try tmux.waitFor("the last photo selected") { screen in
            screen.contains("1 Feed") && !screen.contains("Imgur user")
                && self.line(containing: "Eileen Collins", in: screen).map(Self.isSelected) != true
                && screen.split(separator: "\n").contains { Self.isSelected(String($0)) && $0.contains("♡") }
        }
        XCTAssertFalse(screen.contains("~"), screen)
        try sendBytes([escape, bracket, UInt8(ascii: "7"), UInt8(ascii: "~")]) // Home (rxvt)
        try tmux.waitFor("the first photo again") { self.line(containing: "Eileen Collins", in: $0).map(Self.isSelected) == true }
        // Unknown: F-keys with modifiers nobody maps, a focus report, a private reply; then j still works.
        try sendBytes([escape, bracket] + Array("25;3$x".utf8) + [escape, bracket] + Array("99~".utf8)
            + [escape, bracket, UInt8(ascii: "I")] + [escape, bracket] + Array("?1;2c".utf8))
        try tmux.send("j")
        screen = try tmux.waitFor("the second photo") { self.line(containing: "Chelsea the cat", in: $0).map(Self.isSelected) == true }
        XCTAssertTrue(screen.contains("1 Feed"), screen)
        XCTAssertFalse(screen.contains("Imgur user") || screen.contains("Search for photos"), "no key leaked\n\(screen)")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// One dropped picture request is not broken for the session: the picture is asked for again when it
    /// comes back into view (after a short wait), and at once on r; the viewer offers r too.
    func test_aFailedPicture_isRetried_inViewAgain_onR_andInTheViewer() async throws {
        let sandbox = try await useSandboxProcess(["--fault", "image=drop"])
        defer { if sandbox.isRunning { sandbox.terminate() } }
        try launch("", width: 100, height: 30)
        try tmux.waitFor(text: "Photo unavailable")
        try await setFaults("") // the service is back
        // Away and back, after the wait: the picture comes.
        try await Task.sleep(nanoseconds: 2_200_000_000)
        try tmux.send("G")
        try tmux.waitFor("far from the first photo") { self.line(containing: "Eileen Collins", in: $0) == nil }
        try tmux.send("g")
        try tmux.waitForSteady("the first photo drawn") {
            self.line(containing: "Eileen Collins", in: $0) != nil && !$0.contains("Photo unavailable") && !$0.contains("Loading")
        }

        // r asks again at once.
        try await setFaults("image=drop")
        try tmux.send("G") // photos not drawn yet
        try tmux.waitFor(text: "Photo unavailable")
        try await setFaults("")
        try tmux.send("r")
        try tmux.waitForSteady("the picture after r") { !$0.contains("Photo unavailable") && $0.contains("1 Feed") }
        try tmux.waitForQuiet("the feed after r")

        // The viewer: a damaged photo says so, and r (which rotates a photo shown) tries again.
        try await setFaults("image=corrupt")
        try tmux.send("Enter")
        // The whole frame (on a busy machine a capture can come while its last row, the status line, is being written).
        var screen = try tmux.waitForSteady("the viewer's failure") { $0.contains("Press r to try again") }
        XCTAssertTrue(screen.contains("Photo unavailable"), screen)
        XCTAssertTrue(statusLine(screen).contains("r retry"), statusLine(screen))
        try await setFaults("")
        try tmux.send("r")
        screen = try tmux.waitForSteady("the photo in the viewer") {
            !$0.contains("Photo unavailable") && !$0.contains("Loading") && $0.contains("on Unsplash")
        }
        XCTAssertFalse(screen.contains("90°"), "r tried again, it did not rotate\n\(screen)")
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }

    /// Failures a key caused show where the user looks: a reload during a 503 says so in the status line
    /// (which says the service is failing, not "online"), the next page's failure shows with the last card
    /// in view, and a failed profile refresh says so too.
    func test_errorsAreShownWhereTheUserLooks() async throws {
        let sandbox = try await useSandboxProcess()
        defer { if sandbox.isRunning { sandbox.terminate() } }
        try launch("", width: 100, height: 30)
        try tmux.waitFor("the feed online") { $0.contains("Eileen Collins") && $0.contains("online") }
        try await setFaults("photos=status:503")
        try tmux.send("r")
        var screen = try tmux.waitFor(text: "Couldn't reload the feed (HTTP 503). r tries again.")
        XCTAssertTrue(screen.contains("service failing"), screen)
        XCTAssertFalse(screen.contains("online"), screen)
        XCTAssertTrue(screen.contains("Eileen Collins"), "the photos stay\n\(screen)")

        // The last card selected: the row under it, with the error, is in view.
        try tmux.send("G")
        screen = try tmux.waitFor(text: "Couldn't load more")
        XCTAssertTrue(screen.split(separator: "\n").contains { Self.isSelected(String($0)) }, "the selected card shows too\n\(screen)")

        // With the service back, r works and says so.
        try await setFaults("")
        try tmux.send("r")
        try tmux.waitFor("the retry") { !$0.contains("Couldn't load more") && !$0.contains("service failing") }

        // A profile refresh that fails.
        try tmux.send("3")
        try tmux.waitFor(text: "Favorites ")
        try await setFaults("me=status:500")
        try tmux.send("r")
        screen = try tmux.waitFor(text: "Couldn't refresh the profile (HTTP 500). r tries again.")
        XCTAssertTrue(screen.contains("Favorites "), "the profile stays on screen\n\(screen)")
        try tmux.send("q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// TERM=xterm and TERM=linux have eight colours: the bars are white on blue (not black on black),
    /// and photos mix the eight with shades instead of losing their colour.
    func test_eightColourTerminals_readableBarsAndColouredPhotos() throws {
        for term in ["xterm", "linux"] {
            try launch(environment: ["TERM": term])
            try logInWithTheDemoKey()
            try tmux.waitForSteady("the feed in eight colours (\(term))") { $0.contains("Eileen Collins") && !$0.contains("Loading") }
            let styled = try tmux.tmux(["capture-pane", "-p", "-e", "-t", "e2e"])
            let lines = styled.split(separator: "\n").map(String.init)
            let tabBar = try XCTUnwrap(lines.first)
            XCTAssertTrue(tabBar.contains("\u{1B}[44m") || tabBar.contains(";44m"), "the tab bar is on blue\n\(tabBar.debugDescription)")
            XCTAssertTrue(tabBar.contains("46m"), "the active tab is on cyan\n\(tabBar.debugDescription)")
            // Nothing asks for a colour the terminal lacks (tmux writes them as 9x/10x or 38;5;N).
            XCTAssertFalse(styled.contains("[9") || styled.contains(";9") || styled.contains("38;5;") || styled.contains("48;5;"),
                           "only the eight colours\n\(styled.prefix(2000).debugDescription)")
            let pictureRows = lines.dropFirst().prefix(10).joined()
            XCTAssertTrue(pictureRows.contains("░") || pictureRows.contains("▒") || pictureRows.contains("▓"),
                          "shades mix the colours\n\(pictureRows.prefix(800).debugDescription)")
            XCTAssertTrue(["31m", "33m", "36m", "37m", "41m", "43m", "47m"].filter { pictureRows.contains($0) }.count >= 3,
                          "the photo has colours\n\(pictureRows.prefix(800).debugDescription)")
            try tmux.send("q")
            try assertTerminalRestored()
            tmux.stop()
            tmux = Tmux(folder: folder.url, environment: tmux.environment)
            // The demo remembers its login; the next terminal type starts from the login again.
            try? FileManager.default.removeItem(at: folder.url.appendingPathComponent("state/image-feed/demo-token"))
        }
    }
}

extension FirstUseTests {
    /// At 80 columns the keys that matter most (help, quit, back) show first and whole on every pane and in
    /// the viewer; the quota gives way.
    func test_keyHints_theImportantOnesSurviveAt80Columns() throws {
        try launch(width: 80, height: 24)
        try logInWithTheDemoKey()
        var screen = try tmux.waitFor("the feed") { $0.contains("1 Feed") && $0.contains("Tab panes") }
        XCTAssertTrue(statusLine(screen).hasPrefix(" ? help  q quit  Enter open"), statusLine(screen))
        XCTAssertFalse(statusLine(screen).contains("…"), "no hint is cut\n\(statusLine(screen))")

        try tmux.send("/")
        screen = try tmux.waitFor(text: "Enter search")
        XCTAssertTrue(statusLine(screen).contains("Esc done"), statusLine(screen))
        try tmux.send("Escape")
        screen = try tmux.waitFor(text: "/ search")
        XCTAssertTrue(statusLine(screen).hasPrefix(" ? help  q quit"), statusLine(screen))

        try tmux.send("1", "Enter")
        screen = try tmux.waitFor("the viewer") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") }
        XCTAssertTrue(statusLine(screen).contains("Esc back  ? help  n/p next"), statusLine(screen))
        try tmux.send("n") // the second photo: a long name, still with the essential keys
        // The frame may be caught while it is still being written (the status line is its last row): the whole
        // status line is waited for.
        screen = try tmux.waitFor("the second photo's status line") {
            self.statusLine($0).contains("Stefan van der Walt") && self.statusLine($0).contains("Esc back  ? help")
        }
        XCTAssertTrue(statusLine(screen).contains("Esc back  ? help"), statusLine(screen))
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }

    /// The viewer goes through the list it was opened from; the feed then selects where the viewer was.
    func test_viewer_nextAndPreviousPhoto_andTheListFollows() throws {
        try launchIntoTheFeed()
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") }
        try tmux.send("p")
        try tmux.waitFor(text: "This is the first photo.")
        try tmux.send("n")
        try tmux.waitFor("the viewer") { Self.isViewer($0, showing: "Photo by Stefan van der Walt on Unsplash") }
        try tmux.send("Left")
        try tmux.waitFor("the viewer") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") }
        try tmux.send("]", "]")
        let third = try tmux.waitFor("the third photo") { !$0.contains("NASA on") && !$0.contains("Stefan van der Walt on") && $0.contains("on Unsplash") }
        let name = try XCTUnwrap(third.range(of: #"Photo by (.+) on Unsplash"#, options: .regularExpression).map { String(third[$0]) })
        try tmux.send("Escape")
        let feed = try tmux.waitFor(text: "1 Feed")
        let author = name.replacingOccurrences(of: "Photo by ", with: "").replacingOccurrences(of: " on Unsplash", with: "")
        XCTAssertTrue(feed.split(separator: "\n").contains { Self.isSelected(String($0)) && $0.contains(author) },
                      "the third card is selected\n\(feed)")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Zoomed in, the photo uses the whole terminal: no bars beside it.
    func test_viewer_zoomedIn_usesTheWholeTerminal() throws {
        try launchIntoTheFeed(width: 200, height: 60)
        try tmux.send("Enter")
        try tmux.waitForSteady("the whole photo") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") && !$0.contains("Loading") }
        func pictureRowsStartingWithColour() throws -> Int {
            let styled = try tmux.tmux(["capture-pane", "-p", "-e", "-t", "e2e"]).split(separator: "\n", omittingEmptySubsequences: false)
            // A row whose first cell has a colour of its own (tmux starts each row by resetting to the default).
            return styled.prefix(58).filter { row in
                var rest = Substring(row)
                while rest.hasPrefix("\u{1B}[39m") || rest.hasPrefix("\u{1B}[49m") { rest = rest.dropFirst(5) }
                return rest.hasPrefix("\u{1B}[")
            }.count
        }
        XCTAssertLessThan(try pictureRowsStartingWithColour(), 5, "at fit a square photo has bars beside it")
        try tmux.send("+", "+")
        try tmux.waitForSteady("2.3x") { $0.contains("2.3× zoom") && !$0.contains("Loading") }
        // The zoomed picture follows the label (drawn from the photo's pixels again).
        try tmux.waitFor("the photo at the left edge, zoomed in") { _ in ((try? pictureRowsStartingWithColour()) ?? 0) > 50 }
        try tmux.send(">")
        try tmux.waitForSteady("rotated") { $0.contains("90°") && !$0.contains("Loading") }
        try tmux.waitFor("the photo at the left edge, rotated") { _ in ((try? pictureRowsStartingWithColour()) ?? 0) > 50 }
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// The demo's way in is said first and plainly, Enter is enough, and the next run remembers the login
    /// (until logging out), as a real login is remembered.
    /// Inside GNU screen: Esc goes back at once (screen holds a lone Esc while the mouse is reported, so none is),
    /// no 24-bit colour whatever COLORTERM the outer terminal left, and quitting leaves no frame on screen's window (it has
    /// no alternate screen unless `altscreen on`).
    func test_insideGNUScreen_escGoesBack_no24BitColour_andNothingStays() throws {
        try Tool.require("screen")
        let script = folder.url.appendingPathComponent("in-screen.sh")
        try Data(command("--demo", environment: ["COLORTERM": "truecolor"]).utf8).write(to: script)
        let session = "imagefeed-\(UUID().uuidString.prefix(8))"
        // screen detaches when its terminal goes (autodetach), and would stay: it is told to quit.
        addTeardownBlock { _ = try? LoopbackSSH.run(["screen", "-S", session, "-X", "quit"]) }
        try tmux.start("screen -q -S \(session) sh '\(script.path)'", width: 100, height: 30,
                       directory: Self.repositoryRoot)
        try tmux.waitFor(text: "Enter log in to the demo")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Demo: press Enter")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { !$0.contains("1 Feed") && $0.contains("on Unsplash") }
        try tmux.send("Escape")
        try tmux.waitFor("the feed again, after Esc alone", timeout: 3) { $0.contains("1 Feed") }
        try tmux.send("q")
        let screen = try tmux.waitFor(text: "exit status")
        XCTAssertNotNil(line(containing: "exit status 0", in: screen), screen)
        XCTAssertFalse(screen.contains("Eileen Collins") || screen.contains("1 Feed"), "the last frame stayed\n\(screen)")
        let log = try String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)
        // screen's TERM decides (8 colours for `screen`, 256 for `screen-256color`): never 24-bit.
        XCTAssertTrue(log.contains("COLORTERM=truecolor") && !log.contains("colours: truecolor"), log)
    }

    func test_demo_saysHowToGetIn_EnterLogsIn_andTheLoginIsRemembered() throws {
        try launch()
        var screen = try tmux.waitFor(text: "Enter log in to the demo (no account needed)")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "Demo: press Enter (or a) to log in as the demo user.")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        XCTAssertEqual(lines.dropFirst().first.map { $0.hasPrefix("Demo: press Enter") }, true, "the demo's way in comes first\n\(screen)")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("q")
        try assertTerminalRestored()
        let tokenFile = folder.url.appendingPathComponent("state/image-feed/demo-token")
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)

        // The next run goes straight to the feed.
        try tmux.respawn(command("--demo"), directory: Self.repositoryRoot)
        screen = try tmux.waitFor(text: "Eileen Collins")
        XCTAssertFalse(screen.contains("Log in to Unsplash"), screen)
        // Logging out forgets it.
        try tmux.send("3")
        try tmux.waitFor(text: "L log out")
        try tmux.send("L")
        try tmux.waitFor(text: "Log out?")
        try tmux.send("y")
        try tmux.waitFor(text: "Enter log in to the demo")
        try tmux.send("q")
        try assertTerminalRestored()
        XCTAssertFalse(FileManager.default.fileExists(atPath: tokenFile.path))
        try tmux.respawn(command("--demo"), directory: Self.repositoryRoot)
        try tmux.waitFor(text: "Enter log in to the demo")
        try tmux.send("q")
    }
}

extension FirstUseTests {
    /// A feed photo's detail (i): its description, details and author, as for search results; Enter goes on
    /// to the viewer, Esc back to the feed. The caption uses the width beside a narrow picture.
    func test_feedPhotos_haveTheDetailScreen_andCaptionsUseTheWidth() throws {
        try launch(width: 120, height: 40)
        try logInWithTheDemoKey()
        var screen = try tmux.waitFor(text: "Eileen Collins")
        let caption = try XCTUnwrap(line(containing: "Eileen Collins", in: screen))
        let pictureRow = try XCTUnwrap(screen.split(separator: "\n").dropFirst().first.map(String.init))
        XCTAssertGreaterThan(caption.trimmingCharacters(in: .whitespaces).count,
                             pictureRow.trimmingCharacters(in: .whitespaces).count + 5,
                             "the caption goes on past the picture's right edge\n\(caption)\n\(pictureRow)")
        try tmux.send("i")
        screen = try tmux.waitForSteady("the detail") { $0.contains("Published") && $0.contains("@") && !$0.contains("Loading") }
        XCTAssertTrue(statusLine(screen).hasPrefix(" Esc back  ? help  Enter full screen"), statusLine(screen))
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") }
        try tmux.send("Escape")
        try tmux.waitFor(text: "Published")
        try tmux.send("q") // q on a sub-screen goes back
        try tmux.waitFor("the feed") { $0.contains("1 Feed") && !$0.contains("Published") }
        try tmux.send("q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// A TERM this machine's terminfo lacks (as over SSH from Ghostty) is drawn as xterm-256color with a
    /// notice, not refused; under vt100 (no alternate screen) the last frame is cleared on quit.
    func test_unknownTERM_fallsBack_andVT100IsClearedOnQuit() throws {
        try launch(environment: ["TERM": "xterm-ghostty"])
        try tmux.waitFor("the notice over the first screen") {
            $0.contains("TERM=xterm-ghostty is not known here: drawing as xterm-256color") && $0.contains("Unsplash photos, in your terminal")
        }
        try tmux.send("q")
        try assertTerminalRestored()

        tmux.stop()
        tmux = Tmux(folder: folder.url, environment: tmux.environment)
        try launch(environment: ["TERM": "vt100"])
        try tmux.waitFor(text: "Unsplash photos, in your terminal")
        try tmux.send("q")
        let after = try tmux.waitFor(text: "exit status")
        XCTAssertFalse(after.contains("Unsplash photos, in your terminal"), "the last frame is gone\n\(after)")
    }

    /// Without an access key, the first screen says at once what to do (--demo, or the keys and the file).
    func test_withoutKeys_theFirstScreenSaysWhatToDo() throws {
        try launch("")
        let screen = try tmux.waitFor(text: "No Unsplash access key is configured")
        XCTAssertTrue(screen.contains("--demo"), screen)
        XCTAssertTrue(screen.contains("config.toml"), screen)
        try tmux.send("Enter")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(try tmux.capture().contains("Login failed"), "Enter does not lead to a failure")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// q on a sub-screen goes back (an open album, a detail); on a pane it quits.
    func test_q_goesBackFromAnOpenAlbum() throws {
        try launchIntoTheFeed()
        try tmux.send("4")
        try tmux.waitFor(text: "Type a username")
        try tmux.type("labs")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Albums of labs (2)")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Open Microscopy: all photos  4 photos")
        try tmux.send("q")
        try tmux.waitFor("the albums again") { $0.contains("Albums of labs (2)") && !$0.contains("exit status") }
        try tmux.send("q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// Text fields edit as a shell's line does (← →, Home/End, Ctrl-A/E/U/W, Delete), `/` again selects the
    /// old query so typing replaces it, and a query with CJK and emoji shows whole in the header.
    func test_textFields_editLikeAShellLine_andWideCharactersShowWhole() throws {
        try launchIntoTheFeed()
        try tmux.send("/")
        try tmux.waitFor(text: "Enter search")
        try tmux.type("cofee")
        try tmux.send("Left", "Left")
        try tmux.type("f")
        try tmux.send("C-e")
        try tmux.type(" cup")
        try tmux.send("C-w", "BSpace")
        var screen = try tmux.waitFor(text: "Search  coffee▏")
        try tmux.send("Home", "DC")
        screen = try tmux.waitFor(text: "Search  ▏offee")
        try tmux.send("C-a")
        try tmux.type("c")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "photos for “coffee”")

        // / again: the old query is selected; typing replaces it. Wide characters show whole.
        try tmux.send("/")
        try tmux.waitFor(text: "Enter search")
        try tmux.type("猫 🐱")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "for “猫 🐱”")
        XCTAssertTrue(screen.contains("Search  猫 🐱"), screen)
        try tmux.send("/", "C-u")
        try tmux.type("ab 猫 🐱")
        try tmux.send("Enter")
        try tmux.waitFor(text: "for “ab 猫 🐱”")
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// On a slow link (the sandbox's bandwidth fault) the download's progress bar shows and fills; the same
    /// photo downloaded again says it replaced the file.
    func test_download_showsItsProgress_andSaysWhenItReplacedTheFile() async throws {
        let sandbox = try await useSandboxProcess()
        defer { if sandbox.isRunning { sandbox.terminate() } }
        var environment = tmux.environment
        environment["IMAGE_FEED_DOWNLOADS"] = folder.url.appendingPathComponent("downloads").path
        tmux.stop()
        tmux = Tmux(folder: folder.url, environment: environment)
        try launch("", width: 100, height: 30)
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("Enter")
        try tmux.waitForSteady("the viewer") { Self.isViewer($0, showing: "Photo by NASA on Unsplash") && !$0.contains("Loading") }
        try await setFaults("image=bandwidth:20000")
        try tmux.send("d")
        var screen = try tmux.waitFor(text: "Downloading █")
        XCTAssertNotNil(screen.range(of: #"Downloading [█░]{20} \d+%"#, options: .regularExpression), screen)
        screen = try tmux.waitFor(text: "Saved nasa-", timeout: 30)
        XCTAssertFalse(screen.contains("replaced"), screen)
        try await setFaults("")
        try tmux.send("d")
        try tmux.waitFor(text: "again in ")
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }
}

extension FirstUseTests {
    /// Moving card by card scrolls the terminal in steps and sends only the new rows: whatever it sent, the
    /// pane's text (every glyph of the pictures too) is what a full repaint (Ctrl-L) draws.
    func test_cardByCard_theScreenIsWhatARepaintDraws() throws {
        try launchIntoTheFeed(width: 200, height: 60)
        for keys in [["j"], ["j", "j"], ["k"], ["G"], ["k", "k", "k"], ["g"]] {
            for key in keys { try tmux.send(key) }
            try tmux.waitForSteady("the pictures after \(keys.joined())") { !$0.contains("Loading") }
            // The pictures that come in view arrive: the pane stays the same for a second.
            let afterMove = try tmux.waitForQuiet("the pictures after \(keys.joined())")
            try tmux.send("C-l")
            let repainted = try tmux.waitForQuiet("the repaint after \(keys.joined())")
            let before = afterMove.split(separator: "\n", omittingEmptySubsequences: false)
            let after = repainted.split(separator: "\n", omittingEmptySubsequences: false)
            let differing = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            XCTAssertEqual(differing, [], "after \(keys.joined()): rows that differ from a repaint\n\(afterMove)\n\(repainted)")
        }
        try tmux.send("q")
        try assertTerminalRestored()
    }
}
