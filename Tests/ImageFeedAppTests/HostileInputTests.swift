import Foundation
@testable import ImageFeedApp
import ImageFeedCore
import LocalStore
import TestSupport
import UnsplashAPI
import UnsplashSandbox
import XCTest

/// Files in the user's home, a second copy holding the store, a caller on the login's address, and downloads
/// from a server that never stops: none may crash, hang, bloat or lose data.
final class HostileInputTests: XCTestCase {
    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1) & 0o777
    }

    // MARK: The token file

    func test_aTokenFileThatIsASymlink_isRefused_andWhatItPointsToIsUntouched() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try folder.write("not-a-token-but-a-secret", to: "elsewhere/private.txt")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: elsewhere.path)
        let token = folder.url.appendingPathComponent("state/token")
        try FileManager.default.createDirectory(at: token.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: token, withDestinationURL: elsewhere)
        XCTAssertThrowsError(try FileTokenStore(file: token).loadToken()) { error in
            XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
            XCTAssertFalse("\(error)".contains("not-a-token"), "the file's contents are never shown")
        }
        XCTAssertEqual(try mode(elsewhere), 0o644, "the mode of what the link points to is not changed")
        // Logging in again replaces the link itself, never its target.
        try FileTokenStore(file: token).saveToken("fresh")
        XCTAssertEqual(try String(contentsOf: elsewhere, encoding: .utf8), "not-a-token-but-a-secret")
        XCTAssertEqual(try FileTokenStore(file: token).loadToken(), "fresh")
    }

    func test_aTokenFileAnotherUserOwns_isRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give the file to another user") }
        let folder = try TemporaryFolder()
        let token = try folder.write("someone-elses", to: "state/token")
        XCTAssertEqual(chown(token.path, 65_534, 65_534), 0)
        XCTAssertThrowsError(try FileTokenStore(file: token).loadToken()) { error in
            XCTAssertTrue("\(error)".contains("belongs to another user"), "\(error)")
        }
    }

    func test_aTokenFileOthersCanRead_isNarrowedOnTheOpenedFile() throws {
        let folder = try TemporaryFolder()
        let token = try folder.write("t0ken", to: "state/token")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: token.path)
        XCTAssertEqual(try FileTokenStore(file: token).loadToken(), "t0ken")
        XCTAssertEqual(try mode(token), 0o600)
    }

    func test_theAppStartsLoggedOut_andSaysWhy_whenTheTokenIsASymlink() async throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("x", to: "elsewhere")
        let state = folder.url.appendingPathComponent("state/image-feed")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: state.appendingPathComponent("token"), withDestinationURL: target)
        var environment = folder.environment
        environment["UNSPLASH_ACCESS_KEY"] = "key"
        let context = try await CompositionRoot.make(configuration: try Settings.load(environment: environment), demo: false)
        XCTAssertFalse(context.client.isLoggedIn)
        XCTAssertTrue(context.configuration.warnings.contains { $0.contains("symbolic link") }, "\(context.configuration.warnings)")
    }

    // MARK: The offline store

    /// Another process (Python's sqlite3, as another copy of the program would) takes the store exclusively,
    /// writes, and holds it until told to commit.
    final class StoreHolder {
        let process = Process()
        let input = Pipe()
        let output = Pipe()

        init(_ file: URL, insert: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("PRAGMA locking_mode=EXCLUSIVE")
                db.execute("BEGIN EXCLUSIVE")
                db.execute(sys.argv[2])
                print("held", flush=True)
                sys.stdin.readline()
                db.execute("COMMIT")
                db.close()
                print("done", flush=True)
                """, file.path, insert]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            XCTAssertEqual(readLine(), "held")
        }

        func readLine() -> String {
            var line = Data()
            while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A { line.append(first) }
            return String(decoding: line, as: UTF8.self)
        }

        func commit() {
            input.fileHandleForWriting.write(Data("\n".utf8))
            XCTAssertEqual(readLine(), "done")
            process.waitUntilExit()
        }
    }

    func test_aStoreAnotherProcessHolds_isLeftAlone_andNothingIsLost() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("cache/store.sqlite")
        do {
            let first = try SQLiteStore(file: file)
            try first.saveList(.feed, photos: [Photo(id: "kept")], note: nil, timestamp: Date())
        }
        let holder = try StoreHolder(file, insert: "INSERT INTO cached_list (name, saved_at, note) VALUES ('search', 1, 'theirs')")
        let started = Date()
        XCTAssertThrowsError(try SQLiteStore(file: file, wait: 0.3)) { error in
            guard case SQLiteStore.OpenError.busy = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("in use by another copy"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        // The other copy commits: its write and what was there before are both kept.
        holder.commit()
        let again = try SQLiteStore(file: file)
        XCTAssertFalse(again.wasRebuilt)
        XCTAssertEqual(try again.loadList(.feed)?.photos.map(\.id), ["kept"])
        XCTAssertEqual(try again.loadList(.search)?.note, "theirs")
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        XCTAssertFalse(names.contains { $0.contains("damaged") }, "\(names)")
    }

    func test_theAppGoesOnWithoutABusyStore_andSaysSo() async throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("cache/image-feed/demo/store.sqlite")
        do { _ = try SQLiteStore(file: file) }
        let holder = try StoreHolder(file, insert: "DELETE FROM cached_list WHERE name = 'none'")
        let context = try await CompositionRoot.make(configuration: try Settings.load(environment: folder.environment), demo: true)
        XCTAssertNil(context.store)
        XCTAssertTrue(context.configuration.warnings.contains { $0.contains("in use by another copy") }, "\(context.configuration.warnings)")
        await context.stop()
        holder.commit()
    }

    // MARK: Starting after a crash

    func test_aStartThatDiedBeforeSettling_isNoticedNextTime() throws {
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("state/start-marker")
        let guardian = StartGuard(marker: marker)
        XCTAssertFalse(guardian.lastStartFailed(), "no marker: the last start went well")
        guardian.begin()
        XCTAssertFalse(guardian.lastStartFailed(), "this process's own marker")
        guardian.settled()
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker.path))
        // A marker of a process that is gone: that start crashed.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try Data("\(gone.processIdentifier)\n".utf8).write(to: marker)
        XCTAssertTrue(guardian.lastStartFailed())
        // One of a process still running (a second copy starting now) is not a crash.
        try Data("1\n".utf8).write(to: marker)
        XCTAssertFalse(guardian.lastStartFailed())
    }

    // MARK: The login's listener

    func test_theListener_answersAWrongStateWithAnError_andKeepsWaitingForTheLogins() async throws {
        let port = try EndToEndTestCase.freePort()
        let listener = try LoopbackRedirectListener(redirectURI: "http://127.0.0.1:\(port)/callback", expectedState: "right")
        let outcomes = LoginFlowTests.Outcomes()
        listener.start(timeout: 10) { outcomes.add($0) }
        let http = CurlHTTPClient(timeout: 5, followRedirects: false)
        let wrong = try await http.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/callback?code=evil&state=wrong")!))
        XCTAssertEqual(wrong.status, 400)
        let none = try await http.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/callback?code=evil")!))
        XCTAssertEqual(none.status, 400)
        let nothingYet = await outcomes.first(within: 0.3)
        XCTAssertNil(nothingYet, "a wrong state ends nothing")
        // A caller that sends nothing holds the listener two seconds at most.
        let idle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(idle, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        defer { close(idle) }
        let right = try await http.send(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/callback?code=good&state=right")!))
        XCTAssertEqual(right.status, 200)
        let outcome = await outcomes.first(within: 5)
        XCTAssertEqual(outcome, .redirect("http://127.0.0.1:\(port)/callback?code=good&state=right"))
    }

    // MARK: Files and bodies with no end

    func test_aConfigFileOverItsLimit_isAClearError_atOnce() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("config/image-feed/config.toml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x23, count: Settings.configFileLimit + 1).write(to: file)
        let started = Date()
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            XCTAssertTrue("\(error)".contains("at most 1024 KB"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        // Not a regular file (a FIFO nobody writes to) is refused, not waited on.
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(mkfifo(file.path, 0o600), 0)
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }

    /// An album item whose link is not https (a `file:` or `data:` link, plain http elsewhere than loopback) is
    /// refused before any request, and the reason names what was refused ("no host" said nothing).
    func test_anImageLinkThatIsNotHTTPS_isRefused_andTheReasonSaysWhat() async throws {
        let http = StubHTTPClient([.success(HTTPResponse(status: 200, body: Data("x".utf8)))])
        let source = HTTPImageSource(http: http)
        for (link, said) in [("file:///etc/passwd", "not a file link"), ("data:image/gif;base64,R0lG", "not a data link"),
                             ("http://example.com/a.gif", "not http to example.com")] {
            let url = try XCTUnwrap(URL(string: link))
            do {
                _ = try await source.imageData(at: url)
                XCTFail("\(link) was fetched")
            } catch {
                XCTAssertTrue(error.message(from: "").contains(said), "\(link): \(error.message(from: ""))")
            }
        }
        XCTAssertEqual(http.requests.count, 0, "nothing was asked of the network")
    }

    func test_aDownloadThatNeverEnds_stopsAtItsLimit_andLeavesNoFile() async throws {
        let folder = try TemporaryFolder()
        let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(faults: [try FaultRule(parsing: "image=endless")])))
        let url = sandbox.baseURL.appendingPathComponent("images/photos/coffee.jpg")
        let target = folder.url.appendingPathComponent("part")
        do {
            try await ProgressFetch.fetch(url, to: target, limit: 2 * 1024 * 1024) { _ in }
            XCTFail("an endless download cannot complete")
        } catch {
            XCTAssertTrue(error.message.contains("larger than 2 MB"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        await sandbox.stop()
    }

    func test_aDownload_streamsToTheFile_andIsRenamedIntoPlaceWhole() async throws {
        let folder = try TemporaryFolder()
        let context = try await CompositionRoot.make(configuration: try Settings.load(environment: folder.environment), demo: true)
        let feed = try await context.client.feed(page: 1, perPage: 1)
        let downloads = folder.url.appendingPathComponent("downloads")
        let path = try await PhotoDownloader(folder: downloads, client: context.client).download(feed.items[0]) { _ in }
        XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: [0xFF, 0xD8, 0xFF]))
        // A failed download leaves neither a file nor a partial one.
        context.sandbox?.server.state.setFaults([try FaultRule(parsing: "image=drop")])
        do {
            _ = try await PhotoDownloader(folder: downloads, client: context.client).download(feed.items[0]) { _ in }
        } catch {}
        let names = try FileManager.default.contentsOfDirectory(atPath: downloads.path)
        XCTAssertEqual(names, [URL(fileURLWithPath: path).lastPathComponent], "\(names)")
        await context.stop()
    }
}
