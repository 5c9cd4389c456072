import Foundation
@testable import ImageFeedApp
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The loopback listener, and the login effects against the sandbox: the same code as the login screen.
final class LoginFlowTests: XCTestCase {
    let http = CurlHTTPClient(timeout: 5, followRedirects: false)

    func get(_ address: String) async throws -> HTTPResponse {
        try await http.send(HTTPRequest(url: try XCTUnwrap(URL(string: address))))
    }

    /// Waits for the outcome the listener reports.
    final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var outcomes: [LoopbackRedirectListener.Outcome] = []
        func add(_ outcome: LoopbackRedirectListener.Outcome) { lock.withLock { outcomes.append(outcome) } }
        func first(within seconds: Double) async -> LoopbackRedirectListener.Outcome? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let first = lock.withLock({ outcomes.first }) { return first }
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
            return nil
        }
    }

    func test_listener_takesOneCallback_answersOtherPathsWith404_andCloses() async throws {
        let port = try EndToEndTestCase.freePort()
        let listener = try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(port)/callback")
        let outcomes = Outcomes()
        listener.start(timeout: 10) { outcomes.add($0) }

        let other = try await get("http://127.0.0.1:\(port)/favicon.ico")
        XCTAssertEqual(other.status, 404)
        let callback = try await get("http://127.0.0.1:\(port)/callback?code=abc&state=s1")
        XCTAssertEqual(callback.status, 200)
        XCTAssertTrue(String(decoding: callback.body, as: UTF8.self).contains("close this tab"))
        let outcome = await outcomes.first(within: 5)
        XCTAssertEqual(outcome, .redirect("http://127.0.0.1:\(port)/callback?code=abc&state=s1"))
        // One callback only: the listener is gone.
        do {
            _ = try await get("http://127.0.0.1:\(port)/callback?code=again&state=s1")
            XCTFail("the listener should be closed")
        } catch {}
    }

    func test_listener_bindsToLoopbackOnly() throws {
        let port = try EndToEndTestCase.freePort()
        let listener = try LoopbackRedirectListener(redirectURI: "http://localhost:\(port)/callback")
        _ = listener
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        let hexPort = String(format: "%04X", port)
        let entries = table.split(separator: "\n").filter { $0.contains(":\(hexPort) ") }
        XCTAssertTrue(entries.contains { $0.contains("0100007F:\(hexPort)") }, "listening on 127.0.0.1")
        XCTAssertFalse(entries.contains { $0.contains("00000000:\(hexPort)") }, "never on every interface")
    }

    func test_listener_timesOut_andStops() async throws {
        let port = try EndToEndTestCase.freePort()
        let slow = try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(port)/callback")
        let outcomes = Outcomes()
        slow.start(timeout: 0.3) { outcomes.add($0) }
        let timedOut = await outcomes.first(within: 5)
        XCTAssertEqual(timedOut, .timedOut)

        let stopped = try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(try EndToEndTestCase.freePort())/cb")
        let stoppedOutcomes = Outcomes()
        stopped.start(timeout: 30) { stoppedOutcomes.add($0) }
        stopped.stop()
        let outcome = await stoppedOutcomes.first(within: 5)
        XCTAssertEqual(outcome, .stopped)
    }

    func test_listener_refusesATakenPortAndNonLoopbackAddresses() throws {
        let port = try EndToEndTestCase.freePort()
        let first = try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(port)/callback")
        XCTAssertThrowsError(try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(port)/callback")) { error in
            XCTAssertTrue(String(describing: error).contains("paste the code"), "\(error)")
        }
        _ = first
        XCTAssertThrowsError(try LoopbackRedirectListener(redirectURI: "https://example.com/callback"))
    }

    func test_performer_logsInThroughTheListener_andStoresTheToken() async throws {
        let sandbox = try await RunningSandbox.start(try SandboxServer())
        defer { Task { await sandbox.stop() } }
        let folder = try TemporaryFolder()
        let port = try EndToEndTestCase.freePort()
        var configuration = try Settings.load(environment: folder.environment)
        configuration.apiBase = sandbox.baseURL
        configuration.oauthBase = sandbox.baseURL
        configuration.accessKey = SandboxSettings.demoAccessKey
        configuration.secretKey = SandboxSettings.demoSecretKey
        configuration.redirectURI = "http://127.0.0.1:\(port)/callback"
        let store = FileTokenStore(file: configuration.paths.tokenFile)
        let client = UnsplashClient(configuration: configuration.unsplash, http: http)
        let performer = LiveEffectPerformer(client: client, downloader: PhotoDownloader(folder: folder.url, client: client),
                                           opener: DesktopURLOpener(environment: [:]),
                                           oauth: OAuthClient(configuration: configuration.unsplash, http: http),
                                           tokenStore: store, redirectURI: configuration.redirectURI)
        let posted = Posted()
        let prepared = await performer.perform(.login(.prepare)) { posted.add($0) }
        guard case let .login(.prepared(.success(request)))? = prepared.first else { return XCTFail("\(prepared)") }
        XCTAssertNil(request.listenerProblem)

        // The browser: the page, its Login button, the redirect to the listener.
        let location = try await DemoBrowser.approve(request.authorizeURL, http: http)
        _ = try await get(location)
        let event = await posted.first(within: 5)
        guard case let .login(.redirectReceived(address))? = event else { return XCTFail("\(String(describing: event))") }
        guard case let .code(code, state) = OAuthRedirect.parse(address) else { return XCTFail(address) }
        XCTAssertEqual(state, request.state)

        let exchanged = await performer.perform(.login(.exchange(code: code))) { _ in }
        guard case let .login(.exchangeFinished(.success(profile)))? = exchanged.first else { return XCTFail("\(exchanged)") }
        XCTAssertEqual(profile?.username, "demo")
        let token = try XCTUnwrap(try store.loadToken())
        XCTAssertFalse(token.isEmpty)
        let mode = (try FileManager.default.attributesOfItem(atPath: configuration.paths.tokenFile.path)[.posixPermissions] as? Int ?? 0) & 0o777
        XCTAssertEqual(mode, 0o600)

        // Logging out removes it.
        _ = await performer.perform(.logOut) { _ in }
        XCTAssertNil(try store.loadToken())
        XCTAssertFalse(client.isLoggedIn)
    }

    func test_performer_withoutAccessKey_saysWhatToConfigure() async throws {
        let folder = try TemporaryFolder()
        let configuration = try Settings.load(environment: folder.environment)
        let client = UnsplashClient(configuration: configuration.unsplash, http: http)
        let performer = LiveEffectPerformer(client: client, downloader: PhotoDownloader(folder: folder.url, client: client),
                                           opener: DesktopURLOpener(environment: [:]),
                                           oauth: OAuthClient(configuration: configuration.unsplash, http: http))
        let events = await performer.perform(.login(.prepare)) { _ in }
        guard case let .login(.prepared(.failure(.notConfigured(message))))? = events.first else { return XCTFail("\(events)") }
        XCTAssertTrue(message.contains("UNSPLASH_ACCESS_KEY"), message)
    }

    final class Posted: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [AppViewModel.Event] = []
        func add(_ event: AppViewModel.Event) { lock.withLock { events.append(event) } }
        func first(within seconds: Double) async -> AppViewModel.Event? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let first = lock.withLock({ events.first }) { return first }
                try? await Task.sleep(nanoseconds: 10_000_000)
            }
            return nil
        }
    }
}
