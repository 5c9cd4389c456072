import Foundation
import XCTest

/// Exploring as on the site, in tmux against the demo sandbox, all from the keyboard: from the feed to a
/// photographer, one of their collections and back; a topic in the feed, kept for the next run; a search narrowed
/// by orientation and colour; a tag of a photo searched from its detail.
final class ExploreEndToEndTests: EndToEndTestCase {
    func test_explore_fromTheFeed_toAPhotographer_theirCollection_aTopic_andAFilteredSearch() throws {
        try launchIntoTheFeed(width: 110, height: 34)
        // The first card's photographer (NASA): the header, the sections and their photos.
        try tmux.send("u")
        var screen = try tmux.waitFor("NASA's page") { $0.contains("@nasa") && $0.contains("Photos 48") && $0.contains("sort: latest (s)") }
        XCTAssertTrue(screen.contains("https://images.nasa.gov"), "the portfolio\n\(screen)")
        XCTAssertTrue(screen.contains("Esc back"), screen)
        try tmux.send("s")
        try tmux.waitFor(text: "sort: oldest (s)")
        // Their collections, then one of them.
        try tmux.send("]", "]")
        screen = try tmux.waitFor(text: "Space age")
        XCTAssertTrue(screen.contains("3 photos"), screen)
        try tmux.send("Enter")
        // Its photos (a card's line shows once they came) open in the viewer.
        screen = try tmux.waitFor("the collection's page and its photos") {
            $0.contains("by NASA · 3 photos") && $0.contains("Launches, astronauts") && $0.contains("♡")
        }
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { !$0.contains("by NASA · 3 photos") && $0.contains("Esc back") }
        try tmux.send("Escape")
        try tmux.waitFor(text: "by NASA · 3 photos")
        // Back to the photographer, back to the feed.
        try tmux.send("Escape")
        try tmux.waitFor(text: "@nasa")
        try tmux.send("q")
        screen = try tmux.waitFor("the feed again") { $0.contains("Eileen Collins") && !$0.contains("@nasa") }

        // A topic instead of the editorial feed.
        try tmux.send("t")
        try tmux.waitFor("the topics") { $0.contains("Editorial") && $0.contains("Nature") && $0.contains("Film") }
        try tmux.send("Right")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "Topic: Nature")
        XCTAssertTrue(screen.contains("t changes it"), screen)
        // Its photos oldest first: the order is kept for the next run too.
        try tmux.send("s")
        try tmux.waitFor(text: "oldest first")

        // A search narrowed by orientation and colour: the header says so, and the sandbox is asked with them.
        try tmux.send("/")
        try tmux.tmux(["send-keys", "-t", "e2e", "-l", "texture"])
        try tmux.send("Enter")
        try tmux.waitFor(text: "for “texture”")
        // The picker: O opens it on the orientation, → changes it, Enter searches.
        try tmux.send("O")
        try tmux.waitFor(text: "◂ any ▸")
        try tmux.send("Right", "Enter")
        try tmux.waitFor(text: "filters: landscape (O C W)")
        try tmux.send("O", "Right", "Enter")
        try tmux.waitFor(text: "filters: portrait (O C W)")
        try tmux.send("O", "O", "C", "C", "Enter")
        screen = try tmux.waitFor(text: "filters: squarish, black and white (O C W)")
        screen = try tmux.waitFor("the filtered results") { $0.contains("photos for “texture”") && $0.contains("squarish, black and white") }
        let log = try String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("orientation=squarish&color=black_and_white"), "the request carries the filters")

        try tmux.send("q")
        try assertTerminalRestored()

        // The next run shows the topic chosen, in the order chosen (the demo remembers its login too); the file
        // that keeps them is the owner's only.
        try tmux.respawn(command("--demo"), directory: Self.repositoryRoot)
        screen = try tmux.waitFor(text: "Topic: Nature")
        XCTAssertTrue(screen.contains("oldest first"), screen)
        let kept = folder.url.appendingPathComponent("state/image-feed/demo-feed-topic.json")
        let mode = try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        try tmux.send("q")
        try assertTerminalRestored()
    }
}

extension ExploreEndToEndTests {
    /// The detail of a photo shows how often it was seen and downloaded, its topics and tags; `#` picks a tag and
    /// Enter searches it. `u` in the viewer opens the photographer.
    func test_theDetail_searchesATag_andTheViewerOpensThePhotographer() throws {
        try launchIntoTheFeed(width: 110, height: 34)
        try tmux.send("i")
        var screen = try tmux.waitFor("the detail with its statistics") { $0.contains("views") && $0.contains("downloads") }
        XCTAssertTrue(screen.contains("Topics: Space"), screen)
        XCTAssertTrue(screen.contains("#astronaut"), screen)
        try tmux.send("#")
        screen = try tmux.waitFor(text: "[astronaut]")
        XCTAssertTrue(screen.contains("Enter search #astronaut"), "the hint says what Enter does now\n\(screen)")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "for “astronaut”")
        XCTAssertTrue(screen.contains("2 Search"), screen)
        // The feed still has the detail open; its photo full screen, then its photographer.
        try tmux.send("1")
        try tmux.waitFor(text: "Tags: #astronaut")
        try tmux.send("Enter")
        try tmux.waitFor(text: "n/p next")
        try tmux.send("u")
        try tmux.waitFor(text: "Photos 48")
        // Back: the page goes, the detail it was opened over shows, then the feed.
        try tmux.send("q")
        try tmux.waitFor(text: "Tags: #astronaut")
        try tmux.send("Escape")
        try tmux.waitFor("the feed") { $0.contains("Eileen Collins") && !$0.contains("Tags:") }
        try tmux.send("q")
        try assertTerminalRestored()
    }
}
