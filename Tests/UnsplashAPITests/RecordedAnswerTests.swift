import Foundation
import ImageFeedCore
@testable import UnsplashAPI
import TestSupport
import XCTest

/// Unsplash as it really answers, from recorded interactions: 429 for the hourly limit as much as 403, a search
/// refused as spam with 410, and quota counts that come from a cache along the way.
final class RecordedAnswerTests: XCTestCase {
    final class TestClock: WallClock, @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_800_000_000)
    }

    func test_429_isTheHourlyLimit_withWhenItEnds() async {
        let http = StubHTTPClient(status: 429, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0", "Retry-After": "600"],
                                  json: "Rate Limit Exceeded")
        let clock = TestClock()
        let client = UnsplashClient(configuration: testConfiguration, http: http, clock: clock)
        await assertThrows(.rateLimited(limit: 50, resetsAt: clock.now.addingTimeInterval(600))) {
            try await client.feed(page: 1, perPage: 30)
        }
        // A bare 429, no headers: still the limit, never "an unexpected answer".
        do {
            _ = try await makeClient(StubHTTPClient(status: 429, json: "Too Many Requests")).feed(page: 1, perPage: 30)
            XCTFail("expected rate limiting")
        } catch {
            guard case .rateLimited = error else { return XCTFail("got \(error)") }
            XCTAssertFalse(error.message.contains("Unexpected"), error.message)
        }
    }

    func test_403_plainTextRateLimitExceeded_isTheHourlyLimit() async {
        do {
            _ = try await makeClient(StubHTTPClient(status: 403, json: "Rate Limit Exceeded")).feed(page: 1, perPage: 30)
            XCTFail("expected rate limiting")
        } catch {
            guard case .rateLimited = error else { return XCTFail("got \(error)") }
        }
    }

    func test_410_queryFlaggedAsSpam_saysUnsplashRefusedTheQuery() async {
        do {
            _ = try await makeClient(StubHTTPClient(status: 410, json: #"{"errors":["Query flagged as spam"]}"#))
                .search(query: "buy cheap", page: 1, perPage: 30, order: .relevant)
            XCTFail("expected a refusal")
        } catch {
            XCTAssertEqual(error.message, "The photo service refused the request: Query flagged as spam. Try other words.")
            XCTAssertFalse(error.retryHelpsNow)
        }
    }

    /// A count that goes up in an answer a cache kept (`Age`) is of an earlier time: it starts no new window, so
    /// the refusal that follows waits for the end of the window that really began first.
    func test_aQuotaCountFromACachedAnswer_startsNoNewWindow() async {
        let clock = TestClock()
        let start = clock.now
        let http = StubHTTPClient(
            HTTPResponse(status: 200, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "40"], body: Data("[]".utf8)),
            HTTPResponse(status: 200, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "45", "Age": "900"], body: Data("[]".utf8)),
            HTTPResponse(status: 403, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0"], body: Data("Rate Limit Exceeded".utf8)))
        let client = UnsplashClient(configuration: testConfiguration, http: http, clock: clock)
        _ = try? await client.feed(page: 1, perPage: 30)
        clock.now = start.addingTimeInterval(1800)
        _ = try? await client.feed(page: 2, perPage: 30)
        XCTAssertEqual(client.rateLimit?.remaining, 40, "the cached count is not the current one")
        clock.now = start.addingTimeInterval(2400)
        await assertThrows(.rateLimited(limit: 50, resetsAt: start.addingTimeInterval(3600))) {
            try await client.feed(page: 3, perPage: 30)
        }
    }
}
