import Foundation
@testable import ImageFeedApp
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

/// `image-feed login` and `image-feed logout` from the shell, against the sandbox.
final class LoginCommandTests: XCTestCase {
    var sandbox: RunningSandbox!
    var folder: TemporaryFolder!
    var port: Int!

    override func setUp() async throws {
        sandbox = try await RunningSandbox.start(try SandboxServer())
        folder = try TemporaryFolder()
        port = try EndToEndTestCase.freePort()
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }

    var environment: [String: String] {
        var environment = folder.environment
        environment["UNSPLASH_ACCESS_KEY"] = SandboxSettings.demoAccessKey
        environment["UNSPLASH_SECRET_KEY"] = SandboxSettings.demoSecretKey
        environment["UNSPLASH_REDIRECT_URI"] = "http://127.0.0.1:\(port!)/callback"
        environment["IMAGE_FEED_API_BASE"] = sandbox.baseURL.absoluteString
        environment["IMAGE_FEED_OAUTH_BASE"] = sandbox.baseURL.absoluteString
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return environment
    }

    /// A running `image-feed login`, its output read as it comes.
    final class Running: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        private let output = Pipe()
        private let lock = NSLock()
        private var text = ""

        init(_ arguments: [String], environment: [String: String]) throws {
            process.executableURL = CommandLineTests.executable
            process.arguments = arguments
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.withLock { self.text += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var printed: String { lock.withLock { text } }

        func waitFor(_ needle: String, timeout: TimeInterval = 20) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if printed.contains(needle) { return printed }
                Thread.sleep(forTimeInterval: 0.02)
            }
            process.terminate()
            throw Tmux.Failure(description: "no \(needle) in:\n\(printed)")
        }

        func finish(timeout: TimeInterval = 20) -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.05)
            return process.terminationStatus
        }
    }

    func authorizeURL(in text: String) throws -> URL {
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("/oauth/authorize?") })
        return try XCTUnwrap(URL(string: line.trimmingCharacters(in: .whitespaces)))
    }

    func test_login_leavesTheQRCodeOut_whereTheTerminalHasNoRoomForIt() {
        XCTAssertNil(ShellLogin.qrRowsMissing(picture: (61, 31), linkRows: 3, terminal: nil), "not a terminal: printed")
        XCTAssertNil(ShellLogin.qrRowsMissing(picture: (61, 31), linkRows: 3, terminal: (80, 50)))
        XCTAssertEqual(ShellLogin.qrRowsMissing(picture: (61, 31), linkRows: 3, terminal: (80, 24)), 43)
        XCTAssertEqual(ShellLogin.qrRowsMissing(picture: (61, 31), linkRows: 3, terminal: (60, 60)), 43, "too narrow")
    }

    func test_login_throughTheLoopbackRedirect_storesTheToken_logoutRemovesIt() async throws {
        let login = try Running(["login"], environment: environment)
        let printed = try login.waitFor("press Enter")
        XCTAssertTrue(printed.contains("█") || printed.contains("▀"), "the QR code is printed\n\(printed)")
        // The link comes last, right above the prompt, so the QR code cannot push it out of sight.
        let qrEnd = try XCTUnwrap(printed.range(of: "▀", options: .backwards)?.lowerBound)
        XCTAssertLessThan(qrEnd, try XCTUnwrap(printed.range(of: "/oauth/authorize?")?.lowerBound), printed)
        let http = CurlHTTPClient(followRedirects: false)
        let location = try await DemoBrowser.approve(try authorizeURL(in: printed), http: http)
        _ = try await http.send(HTTPRequest(url: try XCTUnwrap(URL(string: location))))
        XCTAssertEqual(login.finish(), 0, login.printed)
        XCTAssertTrue(login.printed.contains("Logged in as @demo."), login.printed)

        let tokenFile = folder.url.appendingPathComponent("state/image-feed/token")
        let mode = (try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int ?? 0) & 0o777
        XCTAssertEqual(mode, 0o600)
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(login.printed.contains(token), "the token is never printed")

        let me = try Running(["me"], environment: environment)
        XCTAssertEqual(me.finish(), 0, me.printed)
        XCTAssertTrue(me.printed.contains("\"username\" : \"demo\"") || me.printed.contains("\"username\":\"demo\""), me.printed)

        let logout = try Running(["logout"], environment: environment)
        XCTAssertEqual(logout.finish(), 0)
        XCTAssertTrue(logout.printed.contains("Logged out"), logout.printed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tokenFile.path))
    }

    func test_login_withAPastedAddress_andAWrongStateFails() async throws {
        let login = try Running(["login"], environment: environment)
        let printed = try login.waitFor("press Enter")
        let location = try await DemoBrowser.approve(try authorizeURL(in: printed), http: CurlHTTPClient(followRedirects: false))
        login.input.fileHandleForWriting.write(Data((location + "\n").utf8))
        XCTAssertEqual(login.finish(), 0, login.printed)
        XCTAssertTrue(login.printed.contains("Logged in"), login.printed)

        let other = try Running(["login"], environment: environment)
        _ = try other.waitFor("press Enter")
        other.input.fileHandleForWriting.write(Data("http://127.0.0.1/callback?code=abc&state=not-this-one\n".utf8))
        XCTAssertEqual(other.finish(), 1)
        XCTAssertTrue(other.printed.contains("did not come from this login attempt"), other.printed)
    }

    /// Nothing the app prints or writes holds a secret: after logging in and using every command, and after
    /// the token is revoked, the outputs and every file the app wrote (saved lists, the image cache, the
    /// search history) are searched for the token, the secret key and the login code. Only the token file
    /// may hold the token.
    func test_noTokenOrSecretIsPrintedOrWrittenAnywhereElse() async throws {
        var outputs: [String] = []
        let login = try Running(["login"], environment: environment)
        let printed = try login.waitFor("press Enter")
        let http = CurlHTTPClient(followRedirects: false)
        let location = try await DemoBrowser.approve(try authorizeURL(in: printed), http: http)
        let code = try XCTUnwrap(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        _ = try await http.send(HTTPRequest(url: try XCTUnwrap(URL(string: location))))
        XCTAssertEqual(login.finish(), 0, login.printed)
        outputs.append(login.printed)

        let tokenFile = folder.url.appendingPathComponent("state/image-feed/token")
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertGreaterThan(token.count, 8)

        for arguments in [["me"], ["feed"], ["search", "sea"], ["cache", "info"]] {
            let command = try Running(arguments, environment: environment)
            XCTAssertEqual(command.finish(), 0, "\(arguments): \(command.printed)")
            outputs.append(command.printed)
        }
        // A revoked token: the 401 message is printed, and says nothing of the token either.
        sandbox.server.state.revokeToken(token)
        let refused = try Running(["me"], environment: environment)
        XCTAssertNotEqual(refused.finish(), 0)
        outputs.append(refused.printed)
        XCTAssertTrue(outputs.last!.lowercased().contains("log in") || outputs.last!.lowercased().contains("expired"),
                      outputs.last!)

        let secrets = [("the token", token), ("the secret key", SandboxSettings.demoSecretKey), ("the login code", code)]
        for (name, secret) in secrets {
            for output in outputs {
                XCTAssertFalse(output.contains(secret), "\(name) was printed:\n\(output)")
            }
        }
        // Every file under the app's folders, the SQLite files and image cache included, as bytes.
        let files = FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        XCTAssertFalse(files.isEmpty)
        for file in files where file.resolvingSymlinksInPath() != tokenFile.resolvingSymlinksInPath() {
            let bytes = try Data(contentsOf: file)
            for (name, secret) in secrets {
                XCTAssertNil(bytes.range(of: Data(secret.utf8)), "\(name) is in \(file.path)")
            }
        }
    }
}
