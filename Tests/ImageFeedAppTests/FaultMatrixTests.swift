import Foundation
@testable import ImageFeedApp
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

/// Every pane and the viewer against every fault the sandbox can inject: the right state and message on
/// screen, the app still answering keys, and nothing lost once the service is back.
final class FaultMatrixTests: XCTestCase {
    var sandbox: RunningSandbox!
    var folder: TemporaryFolder!

    override func setUp() async throws {
        sandbox = try await RunningSandbox.start(try SandboxServer())
        folder = try TemporaryFolder()
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }

    /// A terminal that only draws (into cell buffers) and never has input of its own.
    final class DrawingBackend: TerminalBackend {
        let width = 100
        let height = 30
        var last: CellBuffer?
        func draw(_ buffer: CellBuffer) { last = buffer }
        func readInput(timeout: Int) -> InputEvent? {
            if timeout > 0 { Thread.sleep(forTimeInterval: Double(min(timeout, 20)) / 1_000) }
            return nil
        }
            func invalidate() {}
        func restore() {}
        var text: String { last?.lines.joined(separator: "\n") ?? "" }
    }

    struct Harness {
        let app: TerminalApp
        let backend: DrawingBackend

        /// Runs the loop until the screen shows what `condition` wants; fails with the screen otherwise.
        @discardableResult
        func run(until what: String, timeout: TimeInterval = 15, _ condition: (AppState, String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                app.step(timeout: 5)
                app.drawFrame()
                if condition(app.state, backend.text) { return backend.text }
            }
            throw Tmux.Failure(description: "timed out waiting for \(what); the screen was:\n\(backend.text)")
        }

        func press(_ key: Key) {
            app.handle(.key(key))
        }
    }

    func makeHarness() -> Harness {
        let token = sandbox.server.state.issueToken(username: "demo")
        let http = CurlHTTPClient(timeout: 30)
        let configuration = UnsplashConfiguration(apiBase: sandbox.baseURL, oauthBase: sandbox.baseURL,
                                                  accessKey: SandboxSettings.demoAccessKey)
        let client = UnsplashClient(configuration: configuration, http: http, token: token)
        let performer = LiveEffectPerformer(client: client, downloader: PhotoDownloader(folder: folder.url, client: client),
                                           opener: DesktopURLOpener(environment: [:]))
        let backend = DrawingBackend()
        let app = TerminalApp(backend: backend, theme: Theme(colorMode: .none, unicode: false),
                              imageSource: HTTPImageSource(http: http), performer: performer, state: AppState(session: .loggedIn))
        return Harness(app: app, backend: backend)
    }

    /// Runs one case of a matrix; a failure names the case and the others still run.
    func activity(_ name: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            XCTFail("\(name): \(error)")
        }
    }

    func fault(_ rule: String) throws {
        sandbox.server.state.setFaults([try FaultRule(parsing: rule)])
    }

    /// The faults, and a piece of the message each must show (nil: the session ends instead).
    let faults: [(String, [String]?)] = [
        ("status:401", nil),
        ("ratelimit", ["limit"]),
        ("status:404", ["Not found"]),
        ("status:500", ["HTTP 500"]),
        ("status:503", ["HTTP 503"]),
        ("malformed", ["could not be read"]),
        ("truncated", ["could not be read"]),
        ("drop", ["could not be read", "No connection"]),
    ]

    enum Pane: String, CaseIterable {
        case feed, search, profile, favorites
    }

    func route(_ pane: Pane) -> String {
        switch pane {
        case .feed: "photos"
        case .search: "search"
        case .profile: "me"
        case .favorites: "user-likes"
        }
    }

    func failureTitle(_ pane: Pane) -> String {
        switch pane {
        case .feed: "Couldn't load the feed"
        case .search: "Couldn't search"
        case .profile: "Couldn't load your profile"
        case .favorites: "Couldn't load your favorites"
        }
    }

    /// Opens the pane the way a person would.
    func open(_ pane: Pane, in harness: Harness) {
        harness.app.dispatch(.start)
        switch pane {
        case .feed:
            break
        case .search:
            harness.app.dispatch(.focusSearch)
            for character in "coffee" { harness.press(.character(character)) }
            harness.press(.enter)
        case .profile, .favorites:
            harness.press(.character("3"))
        }
    }

    func contentShown(_ pane: Pane, _ state: AppState, _ text: String) -> Bool {
        switch pane {
        case .feed: state.feed.phase == .content && text.contains("Eileen Collins")
        case .search: state.search.results.phase == .content && text.contains("Rachel Michetti")
        case .profile: text.contains("@demo")
        case .favorites: state.favorites.phase == .content && text.contains("Favorites ")
        }
    }

    func test_everyPane_againstEveryFault() throws {
        for pane in Pane.allCases {
            for (fault, messages) in faults {
                try activity("\(pane) with \(fault)") {
                    try self.fault("\(route(pane))=\(fault)")
                    let harness = makeHarness()
                    open(pane, in: harness)
                    guard let messages else {
                        let screen = try harness.run(until: "the session to end") { state, _ in state.session == .loggedOut }
                        XCTAssertTrue(screen.contains("Session expired"), "\(pane) \(fault)\n\(screen)")
                        return
                    }
                    let screen = try harness.run(until: "\(pane)'s error") { _, text in
                        text.contains(failureTitle(pane)) && messages.contains { text.contains($0) }
                    }
                    switch fault {
                    case "status:404":
                        // Gone is gone: no "Press r" where trying again cannot help.
                        XCTAssertFalse(screen.contains("Press r"), "no retry offered for a 404: \(pane)\n\(screen)")
                    case "ratelimit":
                        XCTAssertTrue(screen.contains("r works again"), "when r works again: \(pane)\n\(screen)")
                    default:
                        XCTAssertTrue(screen.contains("r to"), "a way to retry is offered: \(pane) \(fault)\n\(screen)")
                    }
                    // Still usable: the help opens and closes.
                    harness.press(.character("?"))
                    try harness.run(until: "the help") { state, _ in state.helpVisible }
                    harness.press(.escape)
                    sandbox.server.state.setFaults([])
                    if fault == "ratelimit" {
                        // Out of quota: a retry backs off (no request goes out) and says so again.
                        let served = sandbox.server.state.requestsServed
                        harness.press(.character("r"))
                        let again = try harness.run(until: "the rate limit again") { _, text in
                            text.contains(failureTitle(pane)) && text.contains("limit")
                        }
                        XCTAssertEqual(sandbox.server.state.requestsServed, served, "\(pane): retried into a 403\n\(again)")
                        return
                    }
                    // The service is back: retry brings the content, nothing was lost on the way.
                    harness.press(.character("r"))
                    try harness.run(until: "\(pane)'s content after the retry") { state, text in contentShown(pane, state, text) }
                }
            }
        }
    }

    func test_viewer_withAFailingOrCorruptImage() throws {
        for (fault, shown) in [("corrupt", "Photo unavailable"), ("status:404", "Couldn't load the photo"),
                               ("status:503", "Couldn't load the photo"), ("bomb", "Photo unavailable"),
                               ("endless", "larger than 32 MB")] {
            try activity("viewer with image=\(fault)") {
                sandbox.server.state.setFaults([])
                let harness = makeHarness()
                open(.feed, in: harness)
                try harness.run(until: "the feed") { state, text in contentShown(.feed, state, text) }
                try self.fault("image=\(fault)")
                harness.press(.enter)
                let screen = try harness.run(until: "the viewer's \(shown)") { _, text in text.contains(shown) }
                XCTAssertTrue(screen.contains("on Unsplash"), "the attribution stays\n\(screen)")
                // Back to the feed, which is as it was.
                harness.press(.escape)
                harness.press(.escape)
                try harness.run(until: "the feed again") { state, text in state.viewer == nil && contentShown(.feed, state, text) }
            }
        }
    }

    /// Absurd numbers (a photo 1 x 2^62 pixels, counts of 2^62) are dropped where they enter: the feed shows,
    /// the detail and the viewer open, and nothing traps; what was saved offline comes back checked too.
    func test_absurdNumbers_areShownWithoutThem() throws {
        try fault("*=absurd")
        let harness = makeHarness()
        open(.feed, in: harness)
        let screen = try harness.run(until: "the feed") { state, text in contentShown(.feed, state, text) }
        XCTAssertFalse(screen.contains("4611686018427387904"), screen)
        harness.press(.character("i"))
        try harness.run(until: "the detail") { state, _ in state.detail != nil }
        harness.press(.escape)
        harness.press(.enter)
        try harness.run(until: "the viewer") { state, _ in state.viewer != nil }
        harness.press(.escape)
        try harness.run(until: "the feed again") { state, text in state.viewer == nil && contentShown(.feed, state, text) }
    }

    /// A feed whose every page repeats the first: the next page is asked for once, then only when the user asks.
    func test_aRepeatingFeed_waitsForTheUser() throws {
        try fault("photos=repeat")
        let harness = makeHarness()
        open(.feed, in: harness)
        try harness.run(until: "the feed") { state, text in contentShown(.feed, state, text) }
        harness.press(.end)
        let screen = try harness.run(until: "the note at the end", timeout: 20) { _, text in text.contains("brought nothing new") }
        XCTAssertTrue(screen.contains("Press r for more"), screen)
        let asked = sandbox.server.state.requestsByRoute["photos"] ?? 0
        for _ in 0..<20 { harness.app.step(timeout: 5); harness.app.drawFrame() }
        XCTAssertEqual(sandbox.server.state.requestsByRoute["photos"] ?? 0, asked, "no request until the user asks")
        harness.press(.character("r"))
        try harness.run(until: "one more page") { _, _ in (self.sandbox.server.state.requestsByRoute["photos"] ?? 0) == asked + 1 }
    }

    /// A ten-second stall: keys are answered meanwhile, and the feed arrives when the service does.
    func test_stall_keysAreStillAnswered() throws {
        try fault("photos=latency:10000")
        let harness = makeHarness()
        open(.feed, in: harness)
        try harness.run(until: "the loader") { _, text in text.contains("Loading the feed") }
        let started = Date()
        harness.press(.character("2"))
        try harness.run(until: "the search pane", timeout: 2) { state, text in state.tab == .search && text.contains("Search") }
        harness.press(.character("?"))
        try harness.run(until: "the help", timeout: 2) { state, _ in state.helpVisible }
        harness.press(.escape)
        harness.press(.character("1"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "keys were answered during the stall")
        try harness.run(until: "the feed after the stall", timeout: 20) { state, text in contentShown(.feed, state, text) }
    }

    /// A like that fails leaves the heart as it was, and says so.
    func test_failedLike_changesNothing() throws {
        let harness = makeHarness()
        open(.feed, in: harness)
        try harness.run(until: "the feed") { state, text in contentShown(.feed, state, text) }
        let before = harness.app.state.feed.photos[0]
        try fault("like=status:503")
        harness.press(.character("f"))
        let screen = try harness.run(until: "the like dialog") { _, text in text.contains("Couldn't like the photo") }
        XCTAssertTrue(screen.contains("Try again"), screen)
        XCTAssertEqual(harness.app.state.feed.photos[0].likedByUser, before.likedByUser)
        XCTAssertEqual(harness.app.state.feed.photos[0].likes, before.likes)
    }
}
