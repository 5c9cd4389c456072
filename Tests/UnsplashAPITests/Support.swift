import Foundation
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

let testConfiguration = UnsplashConfiguration(
    apiBase: URL(string: "https://api.example.test")!, oauthBase: URL(string: "https://auth.example.test")!,
    accessKey: "app-key", secretKey: "app-secret", redirectURI: "http://127.0.0.1:8765/callback")

func makeClient(_ http: StubHTTPClient, token: String? = nil) -> UnsplashClient {
    UnsplashClient(configuration: testConfiguration, http: http, token: token)
}

/// Asserts that `work` throws exactly `expected`.
func assertThrows<T>(_ expected: ServiceError, file: StaticString = #filePath, line: UInt = #line,
                     _ work: () async throws -> T) async {
    do {
        _ = try await work()
        XCTFail("expected \(expected), got a result", file: file, line: line)
    } catch {
        XCTAssertEqual(error as? ServiceError, expected, file: file, line: line)
    }
}

/// A sandbox on a free loopback port for one test, and clients pointed at it.
struct SandboxFixture {
    let running: RunningSandbox
    let http = CurlHTTPClient(timeout: 5, followRedirects: false)

    static func start(_ settings: SandboxSettings = SandboxSettings()) async throws -> SandboxFixture {
        SandboxFixture(running: try await RunningSandbox.start(try SandboxServer(settings: settings)))
    }

    var configuration: UnsplashConfiguration {
        UnsplashConfiguration(apiBase: running.baseURL, oauthBase: running.baseURL,
                              accessKey: SandboxSettings.demoAccessKey, secretKey: SandboxSettings.demoSecretKey,
                              redirectURI: "http://127.0.0.1:8765/callback")
    }

    func client(loggedInAs username: String? = nil, scope: String = "public read_user write_likes") -> UnsplashClient {
        UnsplashClient(configuration: configuration, http: http,
                       token: username.map { running.server.state.issueToken(username: $0, scope: scope) })
    }

    func fault(_ rule: String) throws {
        running.server.state.setFaults([try FaultRule(parsing: rule)])
    }

    func stop() async {
        await running.stop()
    }
}

