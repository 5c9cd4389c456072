import Foundation
import XCTest

/// What the program tells the user is what happened: a copy says where it went (inside tmux too), a download stays
/// in view wherever the user goes, the selection is on screen, the demo keeps what the user did.
final class NobodyMisledTests: EndToEndTestCase {
    /// In a tmux as it comes (`set-clipboard external`, which ignores a program's OSC 52), `y` puts the link in tmux's
    /// paste buffer and says so, never "sent with OSC 52"; where it stops short of the clipboard (`set-clipboard off`)
    /// a dialog says why, gives the one-line fix and shows the whole link to select.
    func test_copyInsideTmux_goesToItsBuffer_andSaysWhereItStopped() throws {
        try launchAt80x24()
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { $0.contains("Photo by NASA on Unsplash") && $0.contains("Esc back") }
        try tmux.send("y")
        var screen = try tmux.waitFor(text: "Copied to tmux's buffer")
        XCTAssertFalse(screen.contains("OSC 52"), "no copy through OSC 52 is claimed\n\(screen)")
        let buffers = try tmux.tmux(["list-buffers", "-F", "#{buffer_sample}"])
        let link = try XCTUnwrap(buffers.split(separator: "\n").first.map(String.init), "tmux's paste buffer has the link")
        XCTAssertTrue(link.contains("utm_source=image_feed"), buffers)

        // set-clipboard off: the buffer still has it, and the dialog has the fix and the whole link.
        try tmux.tmux(["set-option", "-s", "set-clipboard", "off"])
        try tmux.tmux(["delete-buffer"])
        try tmux.send("y")
        screen = try tmux.waitFor(text: "did not reach your clipboard")
        XCTAssertTrue(Self.dialogText(screen).contains("tmux set -s set-clipboard on"), screen)
        // The whole link, on rows that hold nothing but it, from the pane's edge: a drag takes no border with it.
        XCTAssertTrue(screen.contains(link), "the whole link can be selected in the dialog\n\(screen)")
        let rows = screen.components(separatedBy: "\n")
        let start = try XCTUnwrap(rows.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("http") }, "the link starts a row\n\(screen)")
        var joined = ""
        for row in rows[start...] where joined.count < link.count { joined += row.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(joined, link, screen)
        XCTAssertTrue(try tmux.tmux(["list-buffers"]).contains("utm_source=image_feed"))
        try tmux.send("Enter")
        try tmux.waitFor("the dialog gone") { !$0.contains("did not reach your clipboard") }
        try tmux.send("Escape", "q")
        try assertTerminalRestored()
    }

    /// A download started in the viewer stays in view after Esc (`↓ 42%` on the pane's status line), its end is said
    /// on the pane, `q` while one runs asks first (Esc keeps it), and quitting leaves no part of a file.
    func test_aDownloadStartedInTheViewer_staysInViewAfterEsc_andQuitAsks() throws {
        let downloads = folder.url.appendingPathComponent("downloads")
        try launch("--demo", width: 80, height: 24,
                   environment: ["IMAGE_FEED_DEMO_FAULTS": "image=bandwidth:9000", "IMAGE_FEED_DOWNLOADS": downloads.path])
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Photo by NASA")
        try tmux.send("Enter")
        try tmux.waitFor("the viewer") { $0.contains("Photo by NASA on Unsplash") && $0.contains("Esc back") }
        try tmux.send("d")
        try tmux.waitFor(text: "Downloading")
        try tmux.send("Escape")
        var screen = try tmux.waitFor("the download on the feed's status line") {
            $0.contains("r reload") && $0.range(of: #"↓ (\d+%|…)"#, options: .regularExpression) != nil
        }
        screen = try tmux.waitFor(text: "Saved nasa-", timeout: 60)
        XCTAssertTrue(screen.contains(" in ~/") || screen.contains(" in /"), screen)
        XCTAssertTrue(screen.contains("1 Feed"), "said on the feed\n\(screen)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: downloads.path)
        XCTAssertEqual(saved.count, 1, "\(saved)")

        // A second one, then q: the question; Esc keeps it running; q and Enter quit, and nothing partial stays.
        try tmux.send("j", "Enter")
        try tmux.waitFor("the viewer") { $0.contains("Esc back") && $0.contains("on Unsplash") }
        try tmux.send("d")
        try tmux.waitFor(text: "Downloading")
        try tmux.send("Escape")
        try tmux.waitFor(text: "↓")
        try tmux.send("q")
        screen = try tmux.waitFor(text: "Quit while downloading?")
        XCTAssertTrue(screen.contains("Keep downloading"), screen)
        try tmux.send("Escape")
        screen = try tmux.waitFor("the question gone, the download still running") { !$0.contains("Quit while") && $0.contains("↓") }
        try tmux.send("q")
        try tmux.waitFor(text: "Quit while downloading?")
        try tmux.send("Enter")
        try assertTerminalRestored()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloads.path).sorted(), saved,
                       "only the finished file; no part of the second")
    }
}

extension NobodyMisledTests {
    /// At 80x15 (half of an 80x30 split) the Profile opens with its selected favorite in view, the header giving
    /// way: `f unlike` acts on the card the user sees.
    func test_profileAt80x15_opensWithTheSelectedFavoriteInView() throws {
        try launch("--demo", width: 80, height: 15)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Photo by NASA")
        try tmux.send("f")
        try tmux.waitFor(text: "♥")
        try tmux.send("3")
        let screen = try tmux.waitForSteady("the profile with its favorite") { $0.contains("f unlike") && !$0.contains("Loading") }
        let card = try XCTUnwrap(line(containing: "Photo by NASA on Unsplash", in: screen), "the favorite is in view\n\(screen)")
        XCTAssertTrue(Self.isSelected(card), "and selected\n\(screen)")
        for key in ["j", "k", "G", "g"] {
            try tmux.send(key)
            let after = try tmux.waitForQuiet("the profile after \(key)", quiet: 0.5)
            XCTAssertTrue(line(containing: "Photo by NASA on Unsplash", in: after).map(Self.isSelected) == true,
                          "after \(key) the selected favorite is in view\n\(after)")
        }
        try tmux.send("q")
        try assertTerminalRestored()
    }

    /// The demo keeps its likes beside its token: liked in one run, still liked in the next (in the feed and in the
    /// Profile's favorites), as the login is.
    func test_theDemoKeepsItsLikes_betweenRuns() throws {
        try launchAt80x24()
        try tmux.send("f")
        try tmux.waitFor(text: "♥ 14")
        try tmux.send("q")
        try assertTerminalRestored()
        try tmux.respawn(command("--demo"), directory: Self.repositoryRoot)
        let screen = try tmux.waitFor("the feed again, logged in") { $0.contains("Photo by NASA") && $0.contains("quota") }
        XCTAssertTrue(screen.contains("♥ 14"), "the like is kept\n\(screen)")
        try tmux.send("3")
        try tmux.waitFor("the favorite in the Profile") { $0.contains("f unlike") && $0.contains("Photo by NASA on Unsplash") }
        try tmux.send("q")
        try assertTerminalRestored()
        let kept = folder.url.appendingPathComponent("state/image-feed/demo-likes.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: kept.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, "readable by its owner only")
    }
}
