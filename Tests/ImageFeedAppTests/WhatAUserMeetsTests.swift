import Foundation
import XCTest

/// What a user meets and must not be misled by: a habit (`f` twice) never deletes a second favorite, a new list opens
/// at its top.
final class WhatAUserMeetsTests: EndToEndTestCase {
    /// Three photos liked, then in the Profile's favorites `f` twice: the first unlikes the selected favorite, which
    /// stays in place with its heart empty and the status line saying so; the second likes the same photo again. It
    /// used to remove the card and move the selection on, so the second `f` unliked the next favorite: two gone.
    func test_favorites_aSecondF_likesTheSamePhotoAgain_notTheNextOne() throws {
        try launchAt80x24()
        for key in ["f", "j", "f", "j", "f"] {
            try tmux.send(key)
            try tmux.waitForQuiet("after \(key)", quiet: 0.4)
        }
        try tmux.send("3")
        try tmux.waitFor(text: "Favorites 3")
        try tmux.send("f")
        var screen = try tmux.waitFor(text: "Favorites 2")
        XCTAssertTrue(screen.contains("from your favorites"), "what was removed is said\n\(screen)")
        XCTAssertTrue(screen.contains("1/3"), "the card stays, selected, the list still three long\n\(screen)")
        try tmux.send("f")
        // (The notice gives the status line back to the keys after a few seconds.)
        try tmux.waitFor("the same photo liked again") { $0.contains("Favorites 3") && $0.contains("f unlike") }
        // Leaving the favorites takes an unliked one away.
        try tmux.send("f")
        try tmux.waitFor(text: "Favorites 2")
        try tmux.send("1")
        try tmux.waitFor(text: "/30")
        try tmux.send("3")
        // The unliked one is gone: two cards, the selected one a favorite.
        try tmux.waitFor("the favorites again") { $0.contains("Favorites 2") && $0.contains("/2") && $0.contains("f unlike") }
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// Six photos down the feed, a topic picked: the topic's photos open at the first, not the sixth.
    func test_aTopicPickedForTheFeed_opensAtItsFirstPhoto() throws {
        try launchAt80x24()
        for _ in 0..<5 { try tmux.send("j") }
        try tmux.waitFor(text: "6/")
        try tmux.send("t")
        try tmux.waitFor("the topics") { $0.contains("Editorial") && $0.contains("Nature") }
        try tmux.send("Right")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Topic: Nature")
        let screen = try tmux.waitForSteady("the topic's photos") { $0.range(of: #" \d+/\d+"#, options: .regularExpression) != nil }
        XCTAssertNotNil(screen.range(of: #" 1/\d+"#, options: .regularExpression), "the first photo is selected\n\(screen)")
        try tmux.send("q")
        try assertTerminalRestored()
    }
}

extension WhatAUserMeetsTests {
    /// The keys the viewer's help lists work in the viewer as in a detail: `/` searches, the pane numbers, Tab and
    /// Shift-Tab go to a pane (they did nothing there).
    func test_theViewer_takesThePaneKeysItsHelpLists() throws {
        try launchAt80x24()
        let viewer = { (screen: String) in screen.contains("Esc back") && screen.contains("Photo by NASA on Unsplash") }
        try tmux.send("Enter")
        try tmux.waitFor("the viewer", viewer)
        try tmux.send("/")
        try tmux.waitFor(text: "Enter search")
        try tmux.send("Escape", "1", "Enter")
        try tmux.waitFor("the viewer again", viewer)
        try tmux.send("3")
        try tmux.waitFor("the Profile") { $0.contains("Favorites") && !$0.contains("Esc back") }
        try tmux.send("1", "Enter")
        try tmux.waitFor("the viewer again", viewer)
        try tmux.send("Tab")
        try tmux.waitFor(text: "Search Unsplash's photos")
        try tmux.send("1", "Enter")
        try tmux.waitFor("the viewer again", viewer)
        try tmux.send("BTab")
        try tmux.waitFor("the Albums, the pane before the feed") { !viewer($0) && $0.contains("Imgur albums") }
        // Out of its field, then out.
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }

    /// An animation the server damaged is not kept: at the next start it plays; and once the server has recovered,
    /// `r` fetches a damaged one again and it plays. Both used to stay broken for the day, the damaged bytes kept in
    /// the image cache and reused after restarts. (The album's selected tile reads its animation too: the server is
    /// damaging images before the album opens, so the tile's read is damaged as well, and not kept either.)
    func test_aDamagedAnimation_isNotKept_andRFetchesItAgain() async throws {
        try launchIntoTheFeed()
        sandboxBase = try demoBase()
        try await setFaults("image=corrupt")
        try openTheAlbumOfAnimations()
        try tmux.send("Enter")
        var screen = try tmux.waitFor(text: "Photo unavailable")
        XCTAssertFalse(screen.contains("Space play"), "nothing is offered to play\n\(screen)")
        // The next item (the animated WebP) damaged too; the server recovers; r fetches it again, and it plays.
        try tmux.send("n")
        try tmux.waitFor("the WebP, damaged") { $0.contains("Across the cup") && $0.contains("Photo unavailable") }
        try await setFaults("")
        try tmux.send("r")
        screen = try tmux.waitFor("the WebP playing") { $0.contains("Across the cup") && $0.contains("▶") }
        XCTAssertFalse(screen.contains("Photo unavailable"), screen)
        try quitFromTheAlbumOfAnimations()
        try tmux.waitFor(text: "exit status 0")

        // The next start (the demo's cache kept): the GIF damaged last time plays at once.
        try tmux.type(command("--demo"))
        try tmux.send("Enter")
        try tmux.waitFor(text: "Eileen Collins")
        try openTheAlbumOfAnimations()
        try tmux.send("Enter")
        screen = try tmux.waitFor("the GIF playing") { $0.contains("Falcon 9 lifting off (GIF)") && $0.contains("▶") }
        XCTAssertFalse(screen.contains("Photo unavailable"), screen)
        try quitFromTheAlbumOfAnimations()
        try assertTerminalRestored()
    }
}
