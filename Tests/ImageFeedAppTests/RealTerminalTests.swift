import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TerminalImage
import TestSupport
import XCTest

/// The app in real terminal emulators under Xvfb, photographed: kitty (Kitty graphics), xterm as a VT340 and mlterm
/// (Sixel), alacritty (characters in 24-bit colour), urxvt (256 colours). The viewer's photo in the photograph is
/// compared with the source photo (PSNR), and with what the tools of the field (img2sixel, chafa) make of the same
/// photo in the same terminal; then a dialog over the pictures comes and goes, and nothing of it may stay on screen.
final class RealTerminalTests: RealTerminalTestCase {
    /// kitty makes the attribution's names links (OSC 8): its own record of the screen has them, with the
    /// referral parameters Unsplash asks for.
    func test_kitty_attributionIsLinked_withTheReferral() throws {
        let socket = folder.url.appendingPathComponent("kitty.sock").path
        let window = try open(.kitty, command: [CommandLineTests.executable.path, "--demo"], listen: socket)
        // kitty's own record of the screen says when each screen is there (no photograph needed).
        func waitForText(_ text: String) throws {
            let deadline = Date().addingTimeInterval(60)
            var seen = ""
            while Date() < deadline {
                seen = (try? run(["kitty", "@", "--to", "unix:\(socket)", "get-text"])) ?? ""
                if seen.contains(text) { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
            XCTFail("kitty never showed \(text); it showed:\n\(seen)")
        }
        try waitForText("Unsplash photos, in your terminal")
        try press(window, "Return")
        try waitForText("Log in to Unsplash")
        try press(window, "a")
        var links: Set<String> = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let text = try run(["kitty", "@", "--to", "unix:\(socket)", "get-text", "--ansi"])
            links = Set(text.components(separatedBy: "\u{1B}]8;;").dropFirst().compactMap { part in
                part.split(separator: "\u{1B}", maxSplits: 1).first.map(String.init)
            }.filter { !$0.isEmpty })
            if links.count >= 2 { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        XCTAssertTrue(links.contains("https://unsplash.com/?utm_source=image_feed&utm_medium=referral"), "\(links)")
        XCTAssertTrue(links.contains { $0.contains("/@nasa?utm_source=image_feed&utm_medium=referral") }, "\(links)")
    }

    func test_kitty_viewer_showsThePhotoItself_andAHelpOverItLeavesNothingBehind() throws {
        try againIfNoPhotograph {
            let viewer = try viewerPhotograph(in: .kitty)
            XCTAssertGreaterThanOrEqual(viewer.score, 30, "the viewer's photo in kitty against its source (PSNR dB)")
            print("kitty: viewer photo \(viewer.rect.width)x\(viewer.rect.height) px, PSNR \(String(format: "%.1f", viewer.score)) dB")
            try assertHelpLeavesNothingBehind(viewer.window, before: viewer.shot, terminal: "kitty")
            try assertMovesLeaveNothingBehind(viewer.window, viewer: viewer.shot, feed: viewer.feed, terminal: "kitty")
            // kitty answers DECRQM 2026 (set or reset): every frame went as one synchronized update.
            XCTAssertTrue(sessionLog().contains("synchronized frames: on (the terminal answered DECRQM 2026"), sessionLog())
        }
    }

    /// What the session logged so far.
    func sessionLog() -> String {
        (try? String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)) ?? ""
    }

    /// urxvt prints APC strings as text: the start-up questions leave nothing on the shell's screen (the Kitty
    /// query, `Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA`, stayed there after quitting).
    func test_urxvt_theStartUpQuestionsLeaveNothingBehind() throws {
        let script = "printf 'before\\n'; '\(CommandLineTests.executable.path)' --demo; printf 'after\\n'; sleep 60"
        let window = try open(.urxvt, command: ["sh", "-c", script])
        // Its questions asked and answered, its first screen drawn: then q.
        try appStarted(window)
        try press(window, "q")
        // Back on the shell's screen: "before" and "after" (6 and 5 characters) and the cursor, nothing wider.
        let shot = try photograph(window, until: "the shell's screen after quitting") { shot in
            Self.litRows(shot) > 0 && Self.widestLitRun(shot) < 160
        }
        let widest = Self.widestLitRun(shot)
        print("urxvt: after quitting, the widest text is \(widest) px")
        XCTAssertLessThan(widest, 160, "something wider than 'before' stayed on the screen")
    }

    /// mlterm's background is white: the app asks (OSC 11) and takes the light theme.
    func test_mlterm_aLightBackground_getsTheLightTheme() throws {
        let window = try open(.mlterm, command: [CommandLineTests.executable.path, "--demo"])
        let log = folder.url.appendingPathComponent("state/image-feed/image-feed.log")
        let deadline = Date().addingTimeInterval(30)
        var said = ""
        while Date() < deadline, !said.contains("theme: ") {
            Thread.sleep(forTimeInterval: 0.5)
            said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        XCTAssertTrue(said.contains("theme: light (the terminal's background is light)"), said)
        try press(window, "q")
    }

    func test_xterm_viewer_showsTheSixelPhoto_asWellAsImg2sixel_andAHelpOverItLeavesNothingBehind() throws {
        let viewer = try viewerPhotograph(in: .xterm)
        // xterm does not know mode 2026 (DECRQM answers 0): it is never named there.
        XCTAssertTrue(sessionLog().contains("synchronized frames: off (the terminal did not say it has synchronized output"), sessionLog())
        try assertHelpLeavesNothingBehind(viewer.window, before: viewer.shot, terminal: "xterm")
        try assertMovesLeaveNothingBehind(viewer.window, viewer: viewer.shot, feed: viewer.feed, terminal: "xterm")
        try assertAsGoodAsThePeers(viewer, in: .xterm, sixel: true)
    }

    /// xterm copies Sixel pixels with a scroll but leaves them in the lines the scroll brings in: at 160x48, two cards
    /// down and back up left the cat's pixels beside the narrower astronaut above it, until the program had those
    /// lines written whole.
    func test_xterm_twoCardsDownAndBack_leaveNoPixelsOfTheOthers() throws {
        let window = try open(.xterm, columns: 160, rows: 48, command: [CommandLineTests.executable.path, "--demo"])
        try logIntoTheDemo(window)
        var previous: RGBImage?
        var cpu = appCPUTicks()
        let top = try photograph(window, until: "the feed's first photos, settled") { shot in
            defer { previous = shot }
            let busy = appCPUTicks()
            defer { cpu = busy }
            return Self.photoRect(in: shot) != nil && Self.alike(previous, shot) && Self.idle(cpu, busy)
        }
        for key in ["j", "j", "k", "k"] { try press(window, key) }
        let back = try photograph(window, until: "the feed as it was, two cards down and back") { $0.psnr(top) > 40 }
        print("xterm: two cards down and back: PSNR \(String(format: "%.1f", back.psnr(top))) dB against before")
    }

    /// mlterm draws Sixel (here on a black background, as a photo viewer's users set it).
    func test_mlterm_viewer_showsTheSixelPhoto_asWellAsThePeers() throws {
        try againIfNoPhotograph {
            let viewer = try viewerPhotograph(in: .mltermDark)
            try assertAsGoodAsThePeers(viewer, in: .mltermDark, sixel: true)
        }
    }

    /// urxvt: 256 colours (its TERM says so and it answers nothing of 24-bit), characters, as good as chafa there.
    func test_urxvt_viewer_drawsThePhotoIn256Colours_asWellAsChafa() throws {
        try againIfNoPhotograph {
            let viewer = try viewerPhotograph(in: .urxvt)
            try assertAsGoodAsThePeers(viewer, in: .urxvt, sixel: false)
        }
    }

    /// alacritty draws no pictures: the photo in characters, in 24-bit colour, in alacritty's own cell shape.
    func test_alacritty_viewer_drawsThePhotoInCharacters_asWellAsChafa() throws {
        try againIfNoPhotograph {
            let viewer = try viewerPhotograph(in: .alacritty)
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false)
        }
    }

    // MARK: Animations

    /// `render` plays an animation in kitty (Kitty graphics' own animation: every frame sent once) and in xterm (Sixel,
    /// paced by the program): photographed while it plays, two different frames are found, each as close to its source
    /// frame as the still is to the first (within 1 dB).
    func test_kitty_render_playsTheAnimation_twoFramesEachAsSharpAsTheStill() throws {
        try againIfNoPhotograph { try assertPlays(in: .kitty, graphics: "kitty") }
    }

    func test_xterm_render_playsTheAnimationInSixel_twoFramesEachAsSharpAsTheStill() throws {
        try againIfNoPhotograph { try assertPlays(in: .xterm, graphics: "sixel") }
    }

    /// The viewer plays the demo's animated GIF (its Imgur album "Moving pictures") in kitty, kitty playing the frames
    /// it was given once: two different frames photographed.
    func test_kitty_viewer_playsTheAnimatedAlbumItem() throws {
        try againIfNoPhotograph {
            let file = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif")
            let frames = try ImageCodec.decodeAnimation(Data(contentsOf: file)).frames.map(\.image)
            let window = try open(.kitty, command: [CommandLineTests.executable.path, "--demo"])
            // Each key once the screen before it is drawn and holds still.
            let first = try appStarted(window)
            try press(window, "Return")
            let login = try settled(window, after: first, "the login screen")
            try press(window, "Return")
            let feed = try settled(window, after: login, "the feed")
            try press(window, "4", "n", "a", "s", "a", "Return")
            let albums = try settled(window, after: feed, "the albums of nasa")
            try press(window, "j", "Return")
            // Its selected tile (the GIF) plays where it stands (`animations = hover`): the screen never holds still.
            _ = try photograph(window, until: "the album of animations") { !Self.alike(albums, $0) }
            Thread.sleep(forTimeInterval: 2)
            try press(window, "Return")
            var seen: [Int: Double] = [:]
            let deadline = Date().addingTimeInterval(40)
            // kitty shows the frames it was given pixel for pixel (the still JPEG before them scores about 34 dB).
            while seen.filter({ $0.value >= 40 }).count < 2, Date() < deadline {
                let shot = try photograph(window)
                // Above the status line (the last of 32 rows).
                let picture = Self.crop(shot, (0, 0, shot.width, shot.height - shot.height / 32 - 2))
                if let rect = Self.litBox(in: picture), rect.width > 200, rect.height > 100 {
                    let found = Self.crop(picture, rect)
                    if let best = frames.enumerated().map({ ($0.offset, found.psnr(AreaResampler.resize($0.element, width: rect.width, height: rect.height))) })
                        .max(by: { $0.1 < $1.1 }), best.1 >= 25 {
                        seen[best.0] = max(seen[best.0] ?? 0, best.1)
                    }
                }
                Thread.sleep(forTimeInterval: 0.15)
            }
            print("kitty viewer: frames seen while playing: " + seen.sorted { $0.key < $1.key }.map { "\($0.key + 1) \(String(format: "%.1f", $0.value)) dB" }.joined(separator: ", "))
            XCTAssertGreaterThanOrEqual(seen.filter { $0.value >= 40 }.count, 2, "two different frames of the GIF photographed in the viewer")
        }
    }
}
