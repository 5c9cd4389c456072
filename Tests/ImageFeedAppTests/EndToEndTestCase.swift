import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import ImageFeedApp
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

/// What every tmux end-to-end class shares: a private tmux server for each test (stopped with everything in it when
/// the test ends), the app launched in it with its own home, the demo sandbox in a process of its own when a test
/// stops it, and the ways to read the screen. `EndToEndTests`, `FirstUseTests`, `WalkthroughTests`, `NobodyMisledTests`,
/// `ExploreEndToEndTests` and `WhatAUserMeetsTests` are its classes.
class EndToEndTestCase: XCTestCase {
    var folder: TemporaryFolder!
    var tmux: Tmux!
    var redirectPort: Int!
    /// The sandbox process's address, when a test runs one (`useSandboxProcess`).
    var sandboxBase: URL?

    /// A loopback port nobody listens on now (for the app's redirect listener).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Tmux.Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// From the login screen to the feed, with the demo's own stand-in browser (the `a` key).
    func logInWithTheDemoKey() throws {
        try tmux.waitFor(text: "Unsplash photos, in your terminal")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Log in to Unsplash")
        try tmux.send("a")
    }

    override func setUpWithError() throws {
        TestWatchdog.install(current: self)
        try XCTSkipUnless(Tmux.isAvailable, "tmux is not installed (make deps installs it)")
        folder = try TemporaryFolder()
        var environment = folder.environment
        redirectPort = try Self.freePort()
        environment["UNSPLASH_REDIRECT_URI"] = "http://127.0.0.1:\(redirectPort!)/callback"
        tmux = Tmux(folder: folder.url, environment: environment)
        // Teardown blocks run after async tests too; the server must go before its folder does.
        addTeardownBlock { [weak self] in self?.tmux?.stop() }
    }

    override func tearDown() {
        tmux?.stop() // kills the tmux server and everything in it
        tmux = nil
        folder = nil
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Starts `image-feed ARGS` in a shell that reports its exit status and stays open, so the test can
    /// see the screen the program leaves behind.
    func launch(_ arguments: String = "--demo", width: Int = 100, height: Int = 30,
                environment: [String: String] = [:]) throws {
        try tmux.start(command(arguments, environment: environment), width: width, height: height,
                       directory: Self.repositoryRoot)
    }

    /// The app, then the shell reports its status and keeps reading commands (so the test can check the
    /// terminal's modes came back).
    func command(_ arguments: String, environment: [String: String] = [:]) -> String {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)' " }.joined()
        return "\(settings)'\(CommandLineTests.executable.path)' \(arguments); echo \"exit status $?\"; exec sh"
    }

    /// A line of the selected card or tile: the selection bar comes first, beside the picture.
    static func isSelected(_ line: String) -> Bool {
        line.drop { $0 == " " }.hasPrefix("▌")
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

    /// `image-feed cache info` with the terminal's environment.
    func cacheInfo() throws -> String {
        try Tool.execute([CommandLineTests.executable.path, "cache", "info"], environment: tmux.environment, timeout: 60).text
    }

    /// A sandbox in a process of its own (so a test can stop it), a token from it as a login would get,
    /// and a terminal whose app talks to it with that token.
    func useSandboxProcess(_ arguments: [String] = []) async throws -> Process {
        let port = try Self.freePort()
        let sandbox = Process()
        sandbox.executableURL = CommandLineTests.executable.deletingLastPathComponent().appendingPathComponent("unsplash-sandbox")
        sandbox.arguments = ["--port", "\(port)", "--auto-approve"] + arguments
        sandbox.standardOutput = FileHandle.nullDevice
        sandbox.standardError = FileHandle.nullDevice
        try sandbox.run()
        let base = "http://127.0.0.1:\(port)"
        sandboxBase = URL(string: base)
        let configuration = UnsplashConfiguration(apiBase: URL(string: base)!, oauthBase: URL(string: base)!,
                                                  accessKey: "demo-access-key", secretKey: "demo-secret-key",
                                                  redirectURI: "http://127.0.0.1:\(redirectPort!)/callback")
        let http = CurlHTTPClient(followRedirects: false)
        let oauth = OAuthClient(configuration: configuration, http: http)
        var token: String?
        for _ in 0..<50 where token == nil { // the sandbox takes a moment to start
            let state = OAuthClient.makeState()
            if let location = try? await DemoBrowser.approve(try oauth.authorizeURL(state: state), http: http),
               let code = try? OAuthClient.code(fromRedirect: location, expectedState: state) {
                token = try await oauth.exchange(code: code).accessToken
            } else {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        var environment = tmux.environment
        environment["UNSPLASH_ACCESS_KEY"] = "demo-access-key"
        environment["IMAGE_FEED_API_BASE"] = base
        environment["IMAGE_FEED_OAUTH_BASE"] = base
        environment["IMAGE_FEED_TOKEN"] = try XCTUnwrap(token, "no token from the sandbox")
        tmux?.stop()
        tmux = Tmux(folder: folder.url, environment: environment)
        return sandbox
    }

    /// The screen holds a photo drawn as characters: half blocks or quadrants (Block Elements).
    static func drawsBlocks(_ screen: String) -> Bool {
        screen.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }
    }

    /// The authorize address as the login screen shows it: the lines under "1. Open this link", each a
    /// piece of it (the QR code may stand to their right).
    static func authorizeURL(on screen: String) -> URL? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains("Open this link") }) else { return nil }
        var text = ""
        for line in lines[(start + 1)...] {
            if line.contains("y copies it") { break }
            let trimmed = line.drop { $0 == " " }
            guard let piece = trimmed.split(separator: " ").first, !piece.contains("other:") else { continue }
            text += piece
        }
        return URL(string: text)
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

    /// The viewer with this attribution (cards and the detail screen say it too: the viewer has no tab bar and
    /// no "Published").
    static func isViewer(_ screen: String, showing attribution: String) -> Bool {
        screen.contains(attribution) && !screen.contains("1 Feed") && !screen.contains("Published")
    }
    /// The status line of a pane.
    func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map(String.init) ?? ""
    }

    /// Sets the sandbox process's faults at run time (`photos=status:503`, `image=dropx1`; "" clears them).
    func setFaults(_ rules: String) async throws {
        let base = try XCTUnwrap(sandboxBase, "no sandbox process")
        let request = HTTPRequest(method: rules.isEmpty ? .delete : .post, url: base.appendingPathComponent("_sandbox/faults"),
                                  body: rules.isEmpty ? nil : Data(rules.utf8))
        let answer = try await CurlHTTPClient().send(request)
        XCTAssertTrue((200..<300).contains(answer.status), String(decoding: answer.body, as: UTF8.self))
    }

    /// The demo in tmux, logged in, its feed on screen.
    func launchIntoTheFeed(width: Int = 100, height: Int = 30) throws {
        try launch(width: width, height: height)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Eileen Collins")
    }

    /// Sends bytes as a terminal would (an escape sequence in one piece).
    func sendBytes(_ bytes: [UInt8]) throws {
        try tmux.tmux(["send-keys", "-t", "e2e", "-H"] + bytes.map { String(format: "%02x", $0) })
    }

    /// The demo logged in at 80x24, its feed on screen (the first card's caption is cut at this width).
    func launchAt80x24() throws {
        try launch(width: 80, height: 24)
        try logInWithTheDemoKey()
        try tmux.waitFor(text: "Photo by NASA")
    }

    /// The quota the status line shows ("quota 4996/5000"): the requests left.
    static func quotaLeft(_ screen: String) -> Int? {
        guard let range = screen.range(of: #"quota \d+/"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(6).dropLast())
    }

    /// The dialog's lines between its borders, joined: a link broken over lines reads whole again.
    static func dialogText(_ screen: String) -> String {
        screen.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"), open < close else { return nil }
            return line[line.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
        }.joined()
    }

    /// The in-process demo sandbox's address, from the log the app writes (its requests are there).
    func demoBase() throws -> URL {
        let log = folder.url.appendingPathComponent("state/image-feed/image-feed.log")
        let text = try String(contentsOf: log, encoding: .utf8)
        let found = try XCTUnwrap(text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression), "no request in the log")
        return try XCTUnwrap(URL(string: String(text[found])))
    }

    /// From the feed to the demo's album of animations (Imgur user nasa, "Moving pictures"), its first item selected.
    func openTheAlbumOfAnimations() throws {
        try tmux.send("4")
        try tmux.waitFor(text: "Type a username and press Enter")
        try tmux.type("nasa")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Moving pictures")
        try tmux.send("j", "Enter")
        try tmux.waitFor(text: "Falcon 9 lifting off (GIF)")
    }

    /// From the viewer over that album: back to the album, back to the albums, and quit.
    func quitFromTheAlbumOfAnimations() throws {
        try tmux.send("Escape")
        try tmux.waitFor(text: "Moving pictures  3 photos")
        try tmux.send("Escape", "q")
    }
}
