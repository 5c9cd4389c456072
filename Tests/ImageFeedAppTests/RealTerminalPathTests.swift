import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TerminalImage
import TestSupport
import XCTest

/// The paths between a terminal and a headless box, each in a real terminal under Xvfb, photographed: the viewer's
/// photo against its source and against the tools of the field run the same way (chafa, img2sixel), and what each
/// path leaves behind.
final class RealTerminalPathTests: RealTerminalTestCase {
    /// Over SSH into xterm as a VT340: Sixel crosses, as good as img2sixel and chafa sent the same way.
    func test_overSSH_xterm_theSixelPhoto_asWellAsThePeers() throws {
        try againIfNoPhotograph {
            let path = try loopbackSSH().ssh
            let viewer = try viewerPhotograph(in: .xterm, through: path)
            try assertAsGoodAsThePeers(viewer, in: .xterm, sixel: true, through: path)
        }
    }

    /// Through mosh into alacritty: characters (mosh passes no pictures) in 24-bit colour, as good as chafa through
    /// the same mosh.
    func test_throughMosh_alacritty_charactersIn24BitColour_asWellAsChafa() throws {
        try againIfNoPhotograph {
            try Tool.require("mosh")
            let path = try loopbackSSH().mosh
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            let log = try String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)
            XCTAssertTrue(log.contains("colours: truecolor"), "24-bit colour through mosh:\n\(log.suffix(2000))")
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }

    /// Inside tmux (as started with no configuration) in alacritty: characters, as good as chafa in the same tmux;
    /// after quitting, the pane's title is tmux's own.
    func test_insideTmux_alacritty_asWellAsChafa_andThePaneTitleStays() throws {
        try againIfNoPhotograph {
            try Tool.require("tmux")
            let socket = folder.url.appendingPathComponent("tmux.sock").path
            let path = TerminalPath(name: "tmux") { command in
                "tmux -S \(LoopbackSSH.quoted(socket)) -f /dev/null new-session \(LoopbackSSH.quoted(command + "; sleep 60"))"
            }
            addTeardownBlock { _ = try? LoopbackSSH.run(["tmux", "-S", socket, "kill-server"]) }
            let title = try LoopbackSSH.run(["hostname"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            try press(viewer.window, "Escape")
            try press(viewer.window, "q")
            // Its title is read once the app has ended.
            let ended = Date().addingTimeInterval(20)
            while appCPUTicks() != nil, Date() < ended { Thread.sleep(forTimeInterval: 0.1) }
            XCTAssertNil(appCPUTicks(), "the app ended after q")
            let paneTitle = try LoopbackSSH.run(["tmux", "-S", socket, "display-message", "-p", "#{pane_title}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(paneTitle, title, "the pane's title after quitting")
            _ = try? LoopbackSSH.run(["tmux", "-S", socket, "kill-server"])
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }

    /// Inside GNU screen in alacritty: 256 colours (screen 4 has no 24-bit), as good as chafa in the same screen.
    func test_insideGNUScreen_alacritty_asWellAsChafa() throws {
        try againIfNoPhotograph {
            try Tool.require("screen")
            // Each window its own session, told to quit at the end (screen detaches when its terminal goes, and would stay).
            var sessions: [String] = []
            let path = TerminalPath(name: "GNU screen") { command in
                let session = "imagefeed-\(UUID().uuidString.prefix(8))"
                sessions.append(session)
                return "screen -q -S \(session) sh -c \(LoopbackSSH.quoted(command))"
            }
            addTeardownBlock { for session in sessions { _ = try? LoopbackSSH.run(["screen", "-S", session, "-X", "quit"]) } }
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }
}
