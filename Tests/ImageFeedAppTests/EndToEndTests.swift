import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import ImageFeedApp
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

/// The real `image-feed` binary in a real terminal (tmux), against its own demo sandbox: what a person sees
/// and types.
final class EndToEndTests: EndToEndTestCase {
    func test_feed_scrollLikeOpenViewerAndQuit() throws {
        try launch()
        try logInWithTheDemoKey()
        var screen = try tmux.waitFor("the feed with its status line") {
            $0.contains("Eileen Collins") && $0.contains("quota") && $0.contains("♡")
        }
        XCTAssertTrue(screen.contains("1 Feed"), screen)
        XCTAssertTrue(line(containing: "Eileen Collins", in: screen).map(Self.isSelected) == true, "the first card is selected\n\(screen)")

        // Down one card: the second photo is selected.
        try tmux.send("j")
        screen = try tmux.waitFor("the second card selected") {
            self.line(containing: "Chelsea the cat", in: $0).map(Self.isSelected) == true
        }
        XCTAssertTrue(line(containing: "Chelsea the cat", in: screen)?.contains("♡") == true, screen)

        // Like it: the heart fills.
        try tmux.send("f")
        screen = try tmux.waitFor("the heart to fill") {
            self.line(containing: "Chelsea the cat", in: $0)?.contains("♥") == true
        }

        // Open the viewer: the photo with its attribution (which the card shows too).
        try tmux.send("Enter")
        screen = try tmux.waitFor("the viewer") { $0.contains("Photo by Stefan van der Walt on Unsplash") && !$0.contains("1 Feed") }
        XCTAssertNotNil(line(containing: "♥", in: screen), "the viewer shows the like\n\(screen)")
        XCTAssertFalse(screen.contains("1 Feed"), "the viewer fills the terminal\n\(screen)")
        // Zoom and rotate answer, and Esc goes back to the feed with the heart still red.
        try tmux.send("+", "r", "0", "Escape")
        screen = try tmux.waitFor("the feed again") {
            $0.contains("1 Feed") && self.line(containing: "Chelsea the cat", in: $0)?.contains("♥") == true
        }

        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// `[keys]` in the config file: the rebound key likes, the old one does nothing, the help shows the new one.
    func test_reboundKeys_actAndShowInTheHelp() throws {
        _ = try folder.write("[keys]\nlike = \"x\"\n", to: "config/image-feed/config.toml")
        try launch()
        try logInWithTheDemoKey()
        try tmux.waitFor("the feed") { $0.contains("Eileen Collins") && $0.contains("1 Feed") }
        try tmux.send("f")
        try tmux.send("x")
        try tmux.waitFor("the heart to fill") { self.line(containing: "Eileen Collins", in: $0)?.contains("♥") == true }
        // The status line names the user's key, not the default.
        let feed = try tmux.waitFor(text: "x like")
        XCTAssertFalse(feed.contains("f like"), feed)
        try tmux.send("?")
        let help = try tmux.waitFor(text: "like / unlike")
        XCTAssertNotNil(help.range(of: #"│\s+x\s+like / unlike"#, options: .regularExpression), help)
        try tmux.send("Escape")
        try tmux.send("x")
        try tmux.waitFor("the heart empty again") { self.line(containing: "Eileen Collins", in: $0)?.contains("♡") == true }
        try tmux.send("q")
        try assertTerminalRestored()
    }

    func test_help_tabsAndTooSmall() throws {
        try launch()
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("?")
        var screen = try tmux.waitForSteady("the help") { $0.contains("Keys") && $0.contains("Ctrl-C") }
        XCTAssertTrue(screen.contains("Ctrl-C"), screen)
        try tmux.send("Escape", "3")
        screen = try tmux.waitFor(text: "@demo")
        try tmux.send("1")
        try tmux.waitFor(text: "Eileen Collins")

        try tmux.resize(width: 30, height: 10)
        screen = try tmux.waitFor(text: "Terminal too small")
        try tmux.resize(width: 120, height: 40)
        screen = try tmux.waitFor("the feed at the new size") { $0.contains("Eileen Collins") && !$0.contains("Terminal too small") }
        try tmux.send("C-c")
        try assertTerminalRestored()
    }

    /// The Albums tab against the sandbox's Imgur routes: a username, its albums, an album, a photo in the
    /// viewer, the largest zoom and back, then a name Imgur does not know.
    func test_albums_typeAUserOpenAnAlbumAndAPhoto_zoom_andBack() throws {
        try launch()
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("4")
        var screen = try tmux.waitFor(text: "Type a username and press Enter to see their albums.")
        XCTAssertTrue(screen.contains("4 Albums"), screen)
        try tmux.type("labs")
        try tmux.send("Enter")
        screen = try tmux.waitFor("the albums of labs, one without a cover") {
            $0.contains("Albums of labs (2)") && $0.contains("Open Microscopy: all photos") && $0.contains("No cover")
        }
        XCTAssertTrue(line(containing: "Open Microscopy: all photos", in: screen).map(Self.isSelected) == true,
                      "the first album is selected\n\(screen)")

        try tmux.send("Enter")
        screen = try tmux.waitFor("the album's photos") {
            $0.contains("Open Microscopy: all photos  4 photos") && $0.contains("stained tissue under a microscope")
        }
        try tmux.send("Enter")
        screen = try tmux.waitForSteady("the photo in the viewer") {
            !$0.contains("4 Albums") && !$0.contains("Loading") && $0.contains("Esc back")
                && $0.contains("stained tissue under a microscope")
        }
        XCTAssertFalse(screen.contains("on Unsplash"), "an Imgur photo is not attributed to Unsplash\n\(screen)")
        XCTAssertFalse(screen.contains("× zoom"), "the whole photo first\n\(screen)")
        let fitted = screen

        try tmux.send("z")
        // The label first, then the picture drawn again from the photo's pixels.
        screen = try tmux.waitForSteady("the largest zoom, its picture") {
            $0.contains("8× zoom") && !$0.contains("Loading") && $0.split(separator: "\n").dropLast() != fitted.split(separator: "\n").dropLast()
        }
        try tmux.send("z")
        try tmux.waitFor("the whole photo again") { !$0.contains("× zoom") && $0.contains("Esc back") }

        try tmux.send("Escape")
        try tmux.waitFor("the album again") { $0.contains("4 Albums") && $0.contains("Open Microscopy: all photos  4 photos") }
        try tmux.send("Escape")
        try tmux.waitFor(text: "Albums of labs (2)")

        // A name Imgur does not know: the error says so, and how to change it.
        try tmux.send("e", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.type("nobody")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "No Imgur user nobody.")
        XCTAssertTrue(screen.contains("press e to change it"), screen)

        try tmux.send("q")
        try assertTerminalRestored()
    }

    func test_sigterm_restoresTheTerminal() throws {
        try launch()
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        let shell = try XCTUnwrap(Int32(try tmux.format("#{pane_pid}")))
        let child = try XCTUnwrap(childProcess(of: shell), "the app's process")
        XCTAssertEqual(kill(child, SIGTERM), 0)
        try assertTerminalRestored()
    }

    /// The whole story of a user: log in through the loopback redirect (this test plays the browser: it
    /// opens the authorize page shown on screen and presses Login), like a photo in the feed, find it in
    /// the favorites, unlike it there, see the feed's heart gray, log out with Yes, land on the login screen.
    func test_login_favorites_logout() async throws {
        try launch(width: 140, height: 48, environment: ["IMAGE_FEED_LOG_LEVEL": "trace"])
        try tmux.waitFor(text: "Unsplash photos, in your terminal")
        try tmux.send("Enter")
        let screen = try tmux.waitForSteady("the login screen with its QR code") { $0.contains("Log in to Unsplash") && $0.contains("█") }

        let url = try XCTUnwrap(Self.authorizeURL(on: screen), screen)
        XCTAssertTrue(url.absoluteString.contains("redirect_uri=http://127.0.0.1:\(redirectPort!)/callback"), url.absoluteString)
        // The QR code on screen reads back as exactly that address.
        XCTAssertEqual(try QRReader.read(screen: screen, folder: folder.url), url.absoluteString)

        // The browser's part: the authorize page, its Login button, and the redirect to the app's listener.
        let location = try await DemoBrowser.approve(url, http: CurlHTTPClient(followRedirects: false))
        XCTAssertTrue(location.hasPrefix("http://127.0.0.1:\(redirectPort!)/callback?code="), location)
        let answer = try await CurlHTTPClient(followRedirects: false).send(HTTPRequest(url: try XCTUnwrap(URL(string: location))))
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("close this tab"))

        try tmux.waitFor("the feed") { $0.contains("Eileen Collins") && $0.contains("1 Feed") }
        try tmux.send("f")
        try tmux.waitFor("the first photo liked") { self.line(containing: "Eileen Collins", in: $0)?.contains("♥") == true }

        try tmux.send("3")
        let profile = try tmux.waitFor("the favorites with the photo") {
            $0.contains("@demo") && $0.contains("Favorites 1") && self.line(containing: "Eileen Collins", in: $0) != nil
        }
        XCTAssertTrue(profile.contains("Dana Demo"), profile)
        XCTAssertTrue(line(containing: "Eileen Collins", in: profile)?.contains("♥") == true, profile)

        // Unliked: no longer counted, its card in place with its heart empty until the favorites are left.
        try tmux.send("f")
        try tmux.waitFor("the favorite unliked") {
            $0.contains("Favorites 0") && self.line(containing: "Eileen Collins", in: $0)?.contains("♡") == true
        }

        try tmux.send("1")
        try tmux.waitFor("the feed heart gray") { self.line(containing: "Eileen Collins", in: $0)?.contains("♡") == true }

        try tmux.send("3")
        try tmux.waitFor(text: "L log out")
        try tmux.waitFor("the favorite gone") { $0.contains("No favorites yet") && !$0.contains("Eileen Collins") }
        try tmux.send("L")
        try tmux.waitFor(text: "Log out?")
        try tmux.send("y")
        try tmux.waitFor("the login screen") { $0.contains("Unsplash photos, in your terminal") && $0.contains("Log in") }
        try tmux.send("q")
        try assertTerminalRestored()

        // The log of the whole session: the requests are there, no secret is (the sandbox's keys, the code of
        // the redirect, the token: both are 64 hex digits in the sandbox).
        let log = try String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("POST \(sandboxBase?.absoluteString ?? "http://127.0.0.1:")"), log)
        XCTAssertTrue(log.contains("/oauth/token → 200"), log)
        XCTAssertTrue(log.contains("/me → 200"), log)
        XCTAssertTrue(log.contains("pictures: cells"), log)
        let code = try XCTUnwrap(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        for secret in [SandboxSettings.demoAccessKey, SandboxSettings.demoSecretKey, SandboxSettings.demoImgurClientID, code,
                       "Bearer", "Client-ID", "access_token"] {
            XCTAssertFalse(log.contains(secret), "\(secret) is in the log:\n\(log)")
        }
        XCTAssertNil(log.range(of: "[0-9a-f]{64}", options: .regularExpression), log)
    }

    /// Search as a person would: type a query, see tiles in two columns, switch to one, sort by date, open
    /// a result's detail and come back; quit, start again, and find the query among the suggestions.
    func test_search_tilesLayoutSortDetail_andTheQueryIsOfferedNextTime() throws {
        try launch(width: 120, height: 40)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("/")
        try tmux.waitFor(text: "Enter search")
        try tmux.type("coffee")
        try tmux.send("Enter")
        var screen = try tmux.waitFor("two columns of results") { screen in
            screen.contains("photos for “coffee”, by relevance")
                && screen.split(separator: "\n").contains { $0.components(separatedBy: "Rachel Michetti").count == 3 }
        }
        XCTAssertTrue(screen.contains("2 columns (v)"), screen)

        try tmux.send("v")
        screen = try tmux.waitForSteady("one column") { $0.contains("1 column (v)") && $0.contains("Rachel Michetti") }
        XCTAssertFalse(screen.split(separator: "\n").contains { $0.components(separatedBy: "Rachel Michetti").count > 2 }, screen)

        try tmux.send("s")
        try tmux.waitForSteady("sorted by date") { $0.contains("24 photos for “coffee”, by latest") && $0.contains("Rachel Michetti") }

        try tmux.send("Enter")
        screen = try tmux.waitFor("the detail screen") { $0.contains("Photo by Rachel Michetti on Unsplash") && $0.contains("pixels") }
        XCTAssertTrue(screen.contains("@rachel"), screen)
        try tmux.send("Escape")
        try tmux.waitFor(text: "photos for “coffee”, by latest")
        try tmux.send("q")
        try assertTerminalRestored()

        // A new run: the query is offered while typing part of it, in another case.
        try tmux.respawn(command("--demo"), directory: Self.repositoryRoot)
        // The demo remembers its login: straight to the feed.
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("/")
        try tmux.type("COF")
        screen = try tmux.waitFor("the suggestion") { $0.contains("Earlier") && $0.contains("│ coffee") }
        try tmux.send("Down", "Enter")
        // The sort order chosen in the earlier run is kept.
        try tmux.waitFor(text: "photos for “coffee”, by latest")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Over SSH from inside a local tmux the program cannot tell tmux is there by its environment (no TMUX, TERM as the
    /// user's tmux.conf set it): the Kitty graphics query, an APC string, would become tmux's pane title and stay
    /// after quitting. tmux's XTVERSION answer keeps it from being sent.
    func test_behindATmuxItCannotSee_theProbeLeavesThePaneTitleAlone() throws {
        try launch("--demo", width: 80, height: 24, environment: ["TMUX": "", "TERM": "xterm-256color"])
        try tmux.waitFor(text: "Log in")
        try tmux.send("q")
        try assertTerminalRestored()
        // tmux's own title for a pane is the host's name; the query would have left "Gi=31,s=1,v=1,a=q,…".
        XCTAssertEqual(try tmux.format("#{pane_title}"), try tmux.format("#{host}"), "the probe changed the pane's title")
    }

    /// Text from the network carrying escape sequences (clipboard, title, clear screen, colours, bracketed
    /// paste, bell, bidi override) is shown inert: none of them reaches the terminal.
    func test_hostileText_isShownInert() async throws {
        let sandbox = try await useSandboxProcess(["--fault", "*=hostile"])
        defer { if sandbox.isRunning { sandbox.terminate() } }
        try launch("", width: 110, height: 30)
        try tmux.tmux(["set-option", "-g", "set-clipboard", "on"])
        let titleBefore = try tmux.format("#{pane_title}")
        let screen = try tmux.waitForSteady("the feed with hostile captions") { $0.contains("Eileen Collins") && $0.contains("1 Feed") }
        XCTAssertTrue(screen.contains("evil"), "the text itself is shown\n\(screen)")
        XCTAssertTrue(screen.hasPrefix(" ImageFeed"), "nothing cleared the screen\n\(screen)")
        try tmux.send("3")
        try tmux.waitForSteady("the profile with a hostile bio") { $0.contains("@demo") && $0.contains("evil") }
        XCTAssertEqual(try tmux.tmux(["list-buffers"]), "", "nothing reached the clipboard")
        XCTAssertEqual(try tmux.format("#{pane_title}"), titleBefore, "the title was not changed")
        // The check can see a clipboard write: the viewer's own "copy link" (OSC 52) does reach it.
        try tmux.send("1", "Enter")
        try tmux.waitFor(text: "on Unsplash")
        try tmux.send("y")
        try tmux.waitFor("the link on the clipboard", timeout: 10) { _ in
            ((try? self.tmux.tmux(["show-buffer"])) ?? "").hasPrefix("http")
        }
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }

    func test_sighup_restoresTheTerminal() throws {
        try launch()
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        let shell = try XCTUnwrap(Int32(try tmux.format("#{pane_pid}")))
        let child = try XCTUnwrap(childProcess(of: shell), "the app's process")
        XCTAssertEqual(kill(child, SIGHUP), 0)
        try assertTerminalRestored()
    }

    /// A crash on a background thread (a trap in a detached task) still gives the terminal back: the
    /// fatal-signal handler restores it before the process dies with the signal.
    func test_crashInABackgroundTask_restoresTheTerminal() throws {
        try launch("--demo", width: 100, height: 30, environment: ["IMAGE_FEED_CRASH_AFTER": "3"])
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        let screen = try tmux.waitFor(text: "exit status")
        let status = try XCTUnwrap(line(containing: "exit status", in: screen)?.split(separator: " ").last.flatMap { Int($0) })
        // 128 + the signal: SIGILL (4) or SIGTRAP (5), the two ways Swift traps.
        XCTAssertTrue([128 + SIGILL, 128 + SIGTRAP].contains(Int32(status)), screen)
        XCTAssertEqual(try tmux.format("#{alternate_on}"), "0", "still on the alternate screen")
        XCTAssertEqual(try tmux.format("#{cursor_flag}"), "1", "the cursor is hidden")
        XCTAssertEqual(try tmux.format("#{mouse_any_flag}"), "0", "mouse reporting is still on")
        // The shell reads lines again: the terminal's modes came back (echo, canonical input).
        try tmux.type("echo typed-after-crash")
        try tmux.send("Enter")
        try tmux.waitFor(text: "typed-after-crash")
    }

    /// A start that crashed before it settled (its marker is left behind): the next start goes without the saved
    /// lists (a bad saved photo cannot crash every start) and says why.
    func test_aStartThatCrashedEarly_isFollowedByOneThatSaysWhy() throws {
        try launch("--demo", width: 200, height: 30, environment: ["IMAGE_FEED_CRASH_AFTER": "1"])
        try tmux.waitFor(text: "exit status")
        try tmux.type(command("--demo"))
        try tmux.send("Enter")
        try tmux.waitFor(text: "The last start stopped before its first screens")
        // That start settles, so the one after it starts as usual.
        sleep(4)
        try tmux.send("q")
        try tmux.waitFor(text: "exit status 0")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("state/image-feed/demo-start-marker").path))
    }

    /// A thousand resizes in a row: no crash, and the last size is drawn correctly.
    func test_aThousandResizes() throws {
        try launch(width: 100, height: 30)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
        // Ten tmux commands of a hundred resizes each (a command per resize would take a minute).
        for batch in 0..<10 {
            var commands: [String] = []
            for index in (batch * 100)..<((batch + 1) * 100) {
                if !commands.isEmpty { commands.append(";") }
                commands += ["resize-window", "-t", "e2e", "-x", "\(60 + index % 80)", "-y", "\(14 + index % 30)"]
            }
            try tmux.tmux(commands)
        }
        try tmux.resize(width: 90, height: 28)
        // After a thousand resizes the app may take a moment to catch up: wait for the frame of the last size.
        let screen = try tmux.waitForSteady("the feed at 90x28") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return screen.contains("1 Feed") && lines.count > 27 && (lines[27].contains("q quit") || lines[27].contains("help"))
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[0].hasPrefix(" ImageFeed"), screen)
        XCTAssertTrue(lines[27].contains("q quit") || lines[27].contains("help"), "the status line is on the last row\n\(screen)")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Offline: browse with the service up (the feed and its photos are saved), stop the service, start
    /// again: the saved feed shows, photos and all, with a notice saying it is offline and from when.
    func test_offline_theSavedFeedShowsWhenTheServiceIsGone() async throws {
        let sandbox = try await useSandboxProcess()
        defer { if sandbox.isRunning { sandbox.terminate() } }

        try launch("", width: 100, height: 30)
        try tmux.waitForSteady("the feed with its photo") { $0.contains("Eileen Collins") && $0.contains("online") && Self.drawsBlocks($0) }
        // Blocks may still be the photo's BlurHash stand-in: wait until its bytes are in the image cache.
        let deadline = Date().addingTimeInterval(20)
        var info = ""
        var steadyReads = 0
        repeat {
            let now = try cacheInfo()
            steadyReads = now == info ? steadyReads + 1 : 0
            info = now
            if info.contains("Images: "), !info.contains("Images: 0 files"), steadyReads >= 3 { break }
            try await Task.sleep(nanoseconds: 200_000_000)
        } while Date() < deadline
        XCTAssertFalse(info.contains("Images: 0 files"), info)
        try tmux.send("q")
        try assertTerminalRestored()

        sandbox.terminate()
        sandbox.waitUntilExit()
        try tmux.respawn(command(""), directory: Self.repositoryRoot)
        let screen = try tmux.waitForSteady("the saved feed, offline") {
            $0.contains("Eileen Collins") && $0.contains("offline — saved")
        }
        XCTAssertFalse(screen.contains("Photo unavailable"), "the photos come from the image cache\n\(screen)")
        XCTAssertTrue(Self.drawsBlocks(screen), screen)
        try tmux.send("q")
        try assertTerminalRestored()
    }
}
