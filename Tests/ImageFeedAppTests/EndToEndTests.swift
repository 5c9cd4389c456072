import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// The real `image-feed` binary in a real terminal (tmux), against its own demo sandbox: what a person sees
/// and types.
final class EndToEndTests: XCTestCase {
    var folder: TemporaryFolder!
    var tmux: Tmux!

    override func setUpWithError() throws {
        try XCTSkipUnless(Tmux.isAvailable, "tmux is not installed (make deps installs it)")
        folder = try TemporaryFolder()
        tmux = Tmux(folder: folder.url, environment: folder.environment)
    }

    override func tearDown() {
        tmux = nil // kills the tmux server and everything in it
        folder = nil
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts `image-feed ARGS` in a shell that reports its exit status and stays open, so the test can
    /// see the screen the program leaves behind.
    func launch(_ arguments: String = "--demo", width: Int = 100, height: Int = 30) throws {
        let binary = CommandLineTests.executable.path
        try tmux.start("'\(binary)' \(arguments); echo \"exit status $?\"; sleep 600",
                       width: width, height: height, directory: Self.repositoryRoot)
    }

    /// The line of the screen that contains `text`.
    func line(containing text: String, in screen: String) -> String? {
        screen.split(separator: "\n", omittingEmptySubsequences: false).first { $0.contains(text) }.map(String.init)
    }

    /// After the program ended: its status was 0 and the terminal is as it was (main screen, cursor shown,
    /// mouse reporting off).
    func assertTerminalRestored(file: StaticString = #filePath, line: UInt = #line) throws {
        let screen = try tmux.waitFor(text: "exit status")
        XCTAssertNotNil(self.line(containing: "exit status 0", in: screen), screen, file: file, line: line)
        XCTAssertEqual(try tmux.format("#{alternate_on}"), "0", "still on the alternate screen", file: file, line: line)
        XCTAssertEqual(try tmux.format("#{cursor_flag}"), "1", "the cursor is hidden", file: file, line: line)
        XCTAssertEqual(try tmux.format("#{mouse_any_flag}"), "0", "mouse reporting is still on", file: file, line: line)
    }

    func test_feed_scrollLikeOpenViewerAndQuit() throws {
        try launch()
        var screen = try tmux.waitFor("the feed with its status line") {
            $0.contains("Eileen Collins") && $0.contains("quota") && $0.contains("♡")
        }
        XCTAssertTrue(screen.contains("1 Feed"), screen)
        XCTAssertTrue(line(containing: "Eileen Collins", in: screen)?.hasPrefix("▌") == true, "the first card is selected\n\(screen)")

        // Down one card: the second photo is selected.
        try tmux.send("j")
        screen = try tmux.waitFor("the second card selected") {
            self.line(containing: "Chelsea the cat", in: $0)?.hasPrefix("▌") == true
        }
        XCTAssertTrue(line(containing: "Chelsea the cat", in: screen)?.contains("♡") == true, screen)

        // Like it: the heart fills.
        try tmux.send("l")
        screen = try tmux.waitFor("the heart to fill") {
            self.line(containing: "Chelsea the cat", in: $0)?.contains("♥") == true
        }

        // Open the viewer: the photo with its attribution.
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "Photo by Stefan van der Walt on Unsplash")
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

    func test_help_tabsAndTooSmall() throws {
        try launch()
        try tmux.waitFor(text: "Eileen Collins")
        try tmux.send("?")
        var screen = try tmux.waitFor(text: "Keys")
        XCTAssertTrue(screen.contains("Ctrl-C"), screen)
        try tmux.send("Escape", "3")
        screen = try tmux.waitFor(text: "Profile is coming")
        try tmux.send("1")
        try tmux.waitFor(text: "Eileen Collins")

        try tmux.resize(width: 30, height: 10)
        screen = try tmux.waitFor(text: "Terminal too small")
        try tmux.resize(width: 120, height: 40)
        screen = try tmux.waitFor("the feed at the new size") { $0.contains("Eileen Collins") && !$0.contains("Terminal too small") }
        try tmux.send("C-c")
        try assertTerminalRestored()
    }

    func test_sigterm_restoresTheTerminal() throws {
        try launch()
        try tmux.waitFor(text: "Eileen Collins")
        let shell = try XCTUnwrap(Int32(try tmux.format("#{pane_pid}")))
        let child = try XCTUnwrap(childProcess(of: shell), "the app's process")
        XCTAssertEqual(kill(child, SIGTERM), 0)
        try assertTerminalRestored()
    }

    /// The first child of `parent`, from /proc.
    func childProcess(of parent: Int32) -> Int32? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
        for task in tasks {
            let children = (try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? ""
            if let first = children.split(separator: " ").first, let pid = Int32(first) { return pid }
        }
        return nil
    }
}
