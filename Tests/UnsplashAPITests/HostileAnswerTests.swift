import Foundation
import ImageFeedCore
import TestSupport
import UnsplashAPI
import UnsplashSandbox
import XCTest

/// What a server that nobody vetted can send, over real loopback HTTP from the sandbox's hostile faults,
/// and ids that try to reach another path of the API.
final class HostileAnswerTests: SandboxTestCase {
    /// A body that never ends stops at its limit; one declared 2 GB is refused before it is read.
    func test_bodiesPastTheirLimit_areNotRead() async throws {
        for (fault, seconds) in [("photos=endless", 30.0), ("photos=huge", 5.0)] {
            try sandbox.fault(fault)
            let started = Date()
            do {
                _ = try await sandbox.client().feed(page: 1, perPage: 10)
                XCTFail("\(fault): no such body can be a page")
            } catch {
                XCTAssertTrue(error.message.contains("larger than 16 MB"), "\(fault): \(error.message)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), seconds, fault)
        }
    }

    func test_aServerThatTrickles_meetsTheTotalDeadline() async throws {
        try sandbox.fault("photos=trickle:100")
        // Bytes keep coming (one every 100 ms), so only the total deadline can end it.
        let http = CurlHTTPClient(timeout: 5, deadline: 2, followRedirects: false)
        let client = UnsplashClient(configuration: sandbox.configuration, http: http)
        let started = Date()
        await assertThrows(.timeout) { try await client.feed(page: 1, perPage: 10) }
        let took = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(took, 1.5)
        XCTAssertLessThan(took, 10)
    }

    func test_absurdNumbers_areDropped() async throws {
        try sandbox.fault("photos=absurd")
        let page = try await sandbox.client().feed(page: 1, perPage: 10)
        XCTAssertFalse(page.items.isEmpty)
        for photo in page.items {
            XCTAssertEqual(photo.width, 0)
            XCTAssertEqual(photo.height, 0)
            XCTAssertEqual(photo.likes, 0)
            XCTAssertNil(photo.createdAt)
            XCTAssertNil(photo.views)
        }
        XCTAssertNil(page.totalItems, "X-Total of 2^62 is no total")
        XCTAssertLessThanOrEqual(page.totalPages ?? 0, 1_000, "the Link header's last page, not 2^62 over the page size")
    }

    func test_aRepeatingListing_isServedAsSuch() async throws {
        try sandbox.fault("photos=repeat")
        let client = sandbox.client()
        let first = try await client.feed(page: 1, perPage: 10)
        let second = try await client.feed(page: 2, perPage: 10)
        XCTAssertEqual(first.items.map(\.id), second.items.map(\.id))
        XCTAssertEqual(second.nextPage, 3)
    }

    func test_everyIdIsOnePercentEncodedSegment() async throws {
        let http = StubHTTPClient(status: 200, json: #"{"id": "x"}"#)
        let client = makeClient(http, token: "t")
        let cases: [(String, String)] = [
            ("../../../../tmp/pwn", "..%2F..%2F..%2F..%2Ftmp%2Fpwn"),
            ("a/b", "a%2Fb"),
            ("..", "%2E%2E"),
            (".", "%2E"),
            ("q?x=1#f", "q%3Fx%3D1%23f"),
            ("100%", "100%25"),
            ("nul\u{0}byte", "nul%00byte"),
            ("a b", "a%20b"),
            ("café", "caf%C3%A9"),
        ]
        for (id, encoded) in cases {
            _ = try? await client.photo(id: id)
            let url = try XCTUnwrap(http.lastRequest?.url)
            XCTAssertEqual(url.host, "api.example.test")
            XCTAssertEqual(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath, "/photos/\(encoded)", id)
            _ = try? await client.setLike(true, photoID: id)
            XCTAssertEqual(URLComponents(url: try XCTUnwrap(http.lastRequest?.url), resolvingAgainstBaseURL: false)?.percentEncodedPath,
                           "/photos/\(encoded)/like", id)
        }
        _ = try? await client.user(username: "../me")
        XCTAssertEqual(URLComponents(url: try XCTUnwrap(http.lastRequest?.url), resolvingAgainstBaseURL: false)?.percentEncodedPath,
                       "/users/..%2Fme")
    }

    func test_absurdHeaderNumbers_cannotOverflowThePaging() async throws {
        let http = StubHTTPClient(status: 200, headers: [
            "X-Total": "9223372036854775807", "X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "9999",
            "Link": "<https://api.example.test/photos?page=9223372036854775807>; rel=\"next\"",
        ], json: #"[{"id": "a"}]"#)
        let client = makeClient(http)
        let page = try await client.feed(page: 1, perPage: 30)
        XCTAssertNil(page.totalItems)
        XCTAssertNil(page.nextPage)
        XCTAssertNil(client.rateLimit, "more remaining than the limit is no quota")
    }

    func test_transportFailures_sayPlainWords() async {
        let http = StubHTTPClient([.failure(TransportFailure(detail: "Unsupported protocol (error -1000)"))])
        await assertThrows(.noConnection("the connection failed")) {
            try await http.sendForService(HTTPRequest(url: URL(string: "https://api.example.test/photos")!))
        }
    }
}

