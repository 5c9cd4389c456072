import Foundation
import XCTest

/// What a user meets at 80x24, the size most terminals open at, and on a new app's hourly budget: every part of
/// a screen can be reached, nothing the user needs is cut off, a key costs at most the request it must.
extension EndToEndTests {
    /// The demo logged in at 80x24, its feed on screen (the first card's caption is cut at this width).
    func launchAt80x24() throws {
        try launch(width: 80, height: 24)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Photo by NASA")
    }

    /// The detail at 80x24 scrolls to its camera, statistics, topics, tags and author; a picked tag is in sight
    /// and Enter searches it.
    func test_theDetailAt80x24_scrollsToEverything_andAPickedTagIsInSight() throws {
        try launchAt80x24()
        try tmux.send("i")
        var screen = try tmux.waitFor("the detail, saying there is more") { $0.contains("more below") && $0.contains("13 likes") }
        // Down to the end: the author's block, and the details before it.
        try tmux.send("G")
        screen = try tmux.waitFor("the author") { $0.contains("Photo by NASA on Unsplash") && $0.contains("@nasa") }
        XCTAssertFalse(screen.contains("more below"), screen)
        for part in ["Hasselblad", "views", "downloads", "Topics: Space", "Tags: #astronaut"] {
            XCTAssertTrue(screen.contains(part), "\(part) is in sight at the end\n\(screen)")
        }
        // Back to the top, then a tag picked: its line comes into sight, and the hint says what Enter does.
        try tmux.send("g")
        try tmux.waitFor("the top again") { $0.contains("more below") && $0.contains("Eileen Collins") }
        try tmux.send("#", "#")
        screen = try tmux.waitFor(text: "[space]")
        XCTAssertTrue(screen.contains("Enter search #space"), screen)
        try tmux.send("Enter")
        try tmux.waitFor(text: "for “space”")
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// The quota the status line shows ("quota 4996/5000"): the requests left.
    static func quotaLeft(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"quota \d+/"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(6).dropLast())
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
}
