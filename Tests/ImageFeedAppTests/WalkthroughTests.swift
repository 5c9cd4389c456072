import Foundation
import XCTest

/// What a user meets at 80x24, the size most terminals open at, and on a new app's hourly budget: every part of
/// a screen can be reached, nothing the user needs is cut off, a key costs at most the request it must.
final class WalkthroughTests: EndToEndTestCase {
    /// The detail at 80x24 scrolls to its camera, statistics, topics, tags and author; a picked tag is in sight
    /// and Enter searches it.
    func test_theDetailAt80x24_scrollsToEverything_andAPickedTagIsInSight() throws {
        try launchAt80x24()
        try tmux.send("i")
        var screen = try tmux.waitFor("the detail, saying there is more") { $0.contains("▼ more") && $0.contains("13 likes") }
        // Down to the end: the author's block, and the details before it.
        try tmux.send("G")
        screen = try tmux.waitFor("the author") { $0.contains("Photo by NASA on Unsplash") && $0.contains("@nasa") }
        XCTAssertFalse(screen.contains("▼ more"), screen)
        for part in ["Hasselblad", "views", "downloads", "Topics: Space", "Tags: #astronaut"] {
            XCTAssertTrue(screen.contains(part), "\(part) is in sight at the end\n\(screen)")
        }
        // Back to the top, then a tag picked: its line comes into sight, and the hint says what Enter does.
        try tmux.send("g")
        try tmux.waitFor("the top again") { $0.contains("▼ more") && $0.contains("Eileen Collins") }
        try tmux.send("#", "#")
        screen = try tmux.waitFor(text: "[space]")
        XCTAssertTrue(screen.contains("Enter search #space"), screen)
        try tmux.send("Enter")
        try tmux.waitFor(text: "for “space”")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Letters typed on a Search pane with nothing searched start the query: the sort and filters stay as they were.
    /// Filters are picked in a picker (backwards too) and cost one request, however far the colour is.
    func test_search_lettersStartTheQuery_andAFilterPickedCostsOneRequest() throws {
        try launchAt80x24()
        try tmux.send("2")
        try tmux.waitFor(text: "Search Unsplash's photos")
        try tmux.type("cows")
        try tmux.send("Enter")
        var screen = try tmux.waitFor(text: "for “cows”, by relevance")
        XCTAssertTrue(screen.contains("filters: none"), screen)

        try tmux.type("/")
        try tmux.send("C-u")
        try tmux.type("coffee")
        try tmux.send("Enter")
        screen = try tmux.waitForSteady("the results") { $0.contains("photos for “coffee”") && Self.quotaLeft($0) != nil }
        let before = try XCTUnwrap(Self.quotaLeft(screen), screen)
        // Colour: past all eleven, then one back; nothing is asked until Enter.
        try tmux.send("C")
        try tmux.waitFor(text: "◂ any ▸")
        for _ in 0..<11 { try tmux.send("Right") }
        try tmux.send("Left")
        screen = try tmux.waitFor(text: "◂ teal ▸")
        XCTAssertEqual(Self.quotaLeft(screen), before, "cycling costs nothing\n\(screen)")
        try tmux.send("Enter")
        screen = try tmux.waitForSteady("the search with the colour") { $0.contains("filters: teal") && !$0.contains("◂") }
        XCTAssertEqual(Self.quotaLeft(screen), before - 1, "one search for the colour picked\n\(screen)")
        // From none, backwards is the last colour; Esc leaves the filters as they were.
        try tmux.send("C", "Right", "Right", "Left")
        try tmux.waitFor(text: "◂ blue ▸")
        try tmux.send("Escape")
        screen = try tmux.waitForSteady("the picker gone") { !$0.contains("◂") }
        XCTAssertTrue(screen.contains("filters: teal"), screen)
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// A reload whose connection drops says it could not reload, never that it did.
    func test_aReloadThatLosesTheConnection_saysSo() async throws {
        let sandbox = try await useSandboxProcess()
        defer { if sandbox.isRunning { sandbox.terminate() } }
        try launch("", width: 80, height: 24)
        try tmux.waitFor("the feed online") { $0.contains("Photo by NASA") && $0.contains("quota") }
        try await setFaults("photos=drop")
        try tmux.send("r")
        let screen = try tmux.waitFor(text: "Couldn't reload the feed")
        XCTAssertFalse(screen.contains("The feed reloaded"), screen)
        XCTAssertTrue(screen.contains("Photo by NASA"), "the photos stay\n\(screen)")
        try await setFaults("")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// At 80x24 a long notice wraps instead of losing its end (the fix), and the first screen without keys shows
    /// all of what to do: the logo gives up rows first.
    func test_at80x24_noticesAndTheFirstScreen_endWithTheirFix() throws {
        try launch(width: 80, height: 24, environment: ["TERM": "xterm-ghostty"])
        var screen = try tmux.waitFor(text: "Unsplash photos, in your terminal")
        screen = try tmux.waitFor(text: "TERM=xterm-ghostty is not known here")
        XCTAssertTrue(screen.contains("terminfo to change that)."), screen)
        try tmux.send("q")
        try assertTerminalRestored()

        tmux.stop()
        tmux = Tmux(folder: folder.url, environment: tmux.environment)
        try launch("", width: 80, height: 24)
        screen = try tmux.waitFor(text: "No Unsplash access key is configured")
        for part in ["UNSPLASH_ACCESS_KEY", "says how to get them.", "q quit"] {
            XCTAssertTrue(screen.contains(part), "\(part) is on the screen\n\(screen)")
        }
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Adding to a collection without the scope, in the demo: the refusal names the variable that lifts it, whole
    /// at 80 columns.
    func test_aRefusalInTheDemo_namesWhatLiftsIt_whole() throws {
        try launchAt80x24()
        try tmux.send("3")
        try tmux.waitFor(text: "@demo")
        try tmux.send("1")
        try tmux.waitFor(text: "Photo by NASA")
        try tmux.send("i")
        try tmux.waitFor(text: "▼ more")
        try tmux.send("c")
        try tmux.waitFor(text: "Your collections")
        try tmux.waitFor(text: "photos")
        try tmux.send("Enter")
        let screen = try tmux.waitFor(text: "IMAGE_FEED_WRITE_COLLECTIONS=1")
        XCTAssertTrue(screen.contains("log out and in again."), screen)
        // Back from the picker and the detail, then quit.
        try tmux.send("Escape")
        try tmux.waitFor(text: "Tags:")
        try tmux.send("Escape")
        try tmux.waitFor("the feed") { !$0.contains("Tags:") }
        try tmux.send("q")
        try assertTerminalRestored()
    }
}
