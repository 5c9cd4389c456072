import Foundation
import ImageFeedCore
@testable import UnsplashAPI
import TestSupport
import XCTest

final class ClientRequestTests: XCTestCase {
    func test_requestsWithoutLogin_carryClientIDAndVersion() async throws {
        let http = StubHTTPClient(json: "[]")
        _ = try await makeClient(http).feed(page: 2, perPage: 30)
        let request = try XCTUnwrap(http.lastRequest)
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.url.absoluteString, "https://api.example.test/photos?page=2&per_page=30")
        XCTAssertEqual(request.headers["Authorization"], "Client-ID app-key")
        XCTAssertEqual(request.headers["Accept-Version"], "v1")
    }

    func test_requestsWhenLoggedIn_carryBearerToken() async throws {
        let http = StubHTTPClient(json: "[]")
        _ = try await makeClient(http, token: "user-token").feed(page: 1, perPage: 10)
        XCTAssertEqual(http.lastRequest?.headers["Authorization"], "Bearer user-token")
    }

    func test_pageSize_isClampedToThirty() async throws {
        let http = StubHTTPClient(json: "[]")
        _ = try await makeClient(http).feed(page: 0, perPage: 500)
        XCTAssertEqual(http.lastRequest?.url.query, "page=1&per_page=30")
    }

    func test_withoutKeyOrToken_saysWhatToConfigure() async {
        let client = UnsplashClient(configuration: UnsplashConfiguration(), http: StubHTTPClient(json: "[]"))
        do {
            _ = try await client.feed(page: 1, perPage: 30)
            XCTFail("expected an error")
        } catch {
            guard case let .notConfigured(message) = error else { return XCTFail("got \(error)") }
            XCTAssertTrue(message.contains("UNSPLASH_ACCESS_KEY"))
        }
    }

    func test_endpoints_useUnsplashPathsAndMethods() async throws {
        let photo = #"{"id": "p1"}"#
        let http = StubHTTPClient([
            .success(HTTPResponse(status: 200, body: Data(photo.utf8))),
            .success(HTTPResponse(status: 201, body: Data(#"{"photo": {"id": "p1", "likes": 5, "liked_by_user": true}, "user": {}}"#.utf8))),
            .success(HTTPResponse(status: 200, body: Data(#"{"photo": {"id": "p1", "likes": 4, "liked_by_user": false}}"#.utf8))),
            .success(HTTPResponse(status: 200, body: Data(#"{"id": "me", "username": "jane"}"#.utf8))),
            .success(HTTPResponse(status: 200, body: Data(#"{"id": "u", "username": "bob"}"#.utf8))),
            .success(HTTPResponse(status: 200, body: Data("[]".utf8))),
            .success(HTTPResponse(status: 200, body: Data(#"{"total": 0, "total_pages": 0, "results": []}"#.utf8))),
            .success(HTTPResponse(status: 200, body: Data(#"{"url": "https://images.example.test/p1.jpg?dl=1"}"#.utf8))),
        ])
        let client = makeClient(http, token: "t")
        _ = try await client.photo(id: "p1")
        let liked = try await client.setLike(true, photoID: "p1")
        let unliked = try await client.setLike(false, photoID: "p1")
        _ = try await client.me()
        _ = try await client.user(username: "bob")
        _ = try await client.likes(username: "bob", page: 3, perPage: 12)
        _ = try await client.search(query: "black & white+cats", page: 1, perPage: 30, order: .latest)
        let file = try await client.trackDownload(of: Photo(id: "p1", links: PhotoLinks(
            downloadLocation: URL(string: "https://api.example.test/photos/p1/download?ixid=abc"))))
        XCTAssertTrue(liked.likedByUser)
        XCTAssertEqual(liked.likes, 5)
        XCTAssertFalse(unliked.likedByUser)
        XCTAssertEqual(file.absoluteString, "https://images.example.test/p1.jpg?dl=1")
        XCTAssertEqual(http.requests.map { "\($0.method.rawValue) \($0.url.absoluteString)" }, [
            "GET https://api.example.test/photos/p1",
            "POST https://api.example.test/photos/p1/like",
            "DELETE https://api.example.test/photos/p1/like",
            "GET https://api.example.test/me",
            "GET https://api.example.test/users/bob",
            "GET https://api.example.test/users/bob/likes?page=3&per_page=12",
            "GET https://api.example.test/search/photos?query=black%20%26%20white%2Bcats&page=1&per_page=30&order_by=latest",
            "GET https://api.example.test/photos/p1/download?ixid=abc",
        ])
    }

    func test_credentials_areNeverSentToAnotherHost() async throws {
        let http = StubHTTPClient(json: #"{"url": "https://images.example.test/x.jpg"}"#)
        _ = try await makeClient(http, token: "secret-token").trackDownload(of: Photo(id: "p", links: PhotoLinks(
            downloadLocation: URL(string: "https://elsewhere.example.test/steal"))))
        XCTAssertNil(http.lastRequest?.headers["Authorization"])
    }

    func test_likeAndMe_withoutLogin_requireLogin() async {
        let client = makeClient(StubHTTPClient(json: "{}"))
        await assertThrows(.loginRequired) { try await client.setLike(true, photoID: "a") }
        await assertThrows(.loginRequired) { try await client.me() }
    }

    // MARK: Headers

    func test_rateLimitHeaders_areExposed() async throws {
        let http = StubHTTPClient(headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "49"], json: "[]")
        let client = makeClient(http)
        _ = try await client.feed(page: 1, perPage: 30)
        XCTAssertEqual(client.rateLimit, RateLimit(limit: 50, remaining: 49))
    }

    func test_linkAndTotalHeaders_decideTheNextPage() async throws {
        let link = #"<https://api.example.test/photos?page=1>; rel="first", <https://api.example.test/photos?page=2>; rel="prev", <https://api.example.test/photos?page=34>; rel="last", <https://api.example.test/photos?page=4>; rel="next""#
        let http = StubHTTPClient(headers: ["Link": link, "X-Total": "1000", "X-Per-Page": "30"], json: #"[{"id": "a"}]"#)
        let page = try await makeClient(http).feed(page: 3, perPage: 30)
        XCTAssertEqual(page.nextPage, 4)
        XCTAssertEqual(page.totalItems, 1000)
        XCTAssertEqual(page.totalPages, 34)
    }

    func test_lastPageByLinkHeader_hasNoNextPage() async throws {
        let link = #"<https://api.example.test/photos?page=1>; rel="first", <https://api.example.test/photos?page=2>; rel="prev""#
        let page = try await makeClient(StubHTTPClient(headers: ["Link": link], json: #"[{"id": "a"}]"#)).feed(page: 3, perPage: 30)
        XCTAssertNil(page.nextPage)
    }

    func test_withoutPagingHeaders_aShortPageIsTheLast() async throws {
        let short = try await makeClient(StubHTTPClient(json: #"[{"id": "a"}]"#)).feed(page: 1, perPage: 2)
        XCTAssertNil(short.nextPage)
        let full = try await makeClient(StubHTTPClient(json: #"[{"id": "a"}, {"id": "b"}]"#)).feed(page: 1, perPage: 2)
        XCTAssertEqual(full.nextPage, 2)
    }

    func test_linkHeaderParser_readsSeveralRelations() {
        let links = ResponseMetadata.parseLinks(#"<https://x.test/a?page=2>; rel="next", <https://x.test/a?page=9>; rel="last""#)
        XCTAssertEqual(links["next"]?.absoluteString, "https://x.test/a?page=2")
        XCTAssertEqual(links["last"]?.absoluteString, "https://x.test/a?page=9")
        XCTAssertTrue(ResponseMetadata.parseLinks("garbage").isEmpty)
    }

    // MARK: Errors

    func test_401_withToken_isSessionExpired() async {
        await assertThrows(.sessionExpired) {
            try await makeClient(StubHTTPClient(status: 401, json: #"{"errors": ["OAuth error: The access token is invalid"]}"#),
                                 token: "revoked").feed(page: 1, perPage: 30)
        }
    }

    func test_401_withAccessKey_isInvalidAccessKey() async {
        await assertThrows(.applicationKeyRefused) {
            try await makeClient(StubHTTPClient(status: 401, json: #"{"errors": ["OAuth error: The access token is invalid"]}"#))
                .feed(page: 1, perPage: 30)
        }
    }

    func test_403_withNoRemainingQuota_isRateLimitedWithResetTime() async {
        let http = StubHTTPClient(status: 403, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0",
                                                        "X-Ratelimit-Reset": "1763730000"], json: "Rate Limit Exceeded")
        await assertThrows(.rateLimited(limit: 50, resetsAt: Date(timeIntervalSince1970: 1_763_730_000))) {
            try await makeClient(http).feed(page: 1, perPage: 30)
        }
        XCTAssertTrue(ServiceError.rateLimited(limit: 50, resetsAt: Date(timeIntervalSince1970: 1_763_730_000))
            .message.hasPrefix("Rate limited until"))
    }

    /// A reset time no calendar holds (1e300 seconds, infinity, not a number) still gives a message to show.
    func test_403_withAnAbsurdResetTime_isStillSaid() async {
        for reset in ["1e300", "inf", "-inf", "nan", "4611686018427387904"] {
            let http = StubHTTPClient(status: 403, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0",
                                                            "X-Ratelimit-Reset": reset], json: "Rate Limit Exceeded")
            do {
                _ = try await makeClient(http).feed(page: 1, perPage: 30)
                XCTFail("expected rate limiting")
            } catch {
                guard case .rateLimited = error else { return XCTFail("\(reset): got \(error)") }
                XCTAssertTrue(error.message.lowercased().contains("try again"), "\(reset): \(error.message)")
                XCTAssertFalse(error.message(from: "Unsplash").isEmpty)
            }
        }
    }

    func test_403_rateLimitWithoutResetHeader_waitsForTheHoursWindow_andSaysWhen() async {
        let http = StubHTTPClient(status: 403, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0"],
                                  json: "Rate Limit Exceeded")
        let before = Date()
        do {
            _ = try await makeClient(http).feed(page: 1, perPage: 30)
            XCTFail("expected rate limiting")
        } catch {
            guard case let .rateLimited(limit, resetsAt?) = error else { return XCTFail("got \(error)") }
            XCTAssertEqual(limit, 50)
            // No earlier answer told when the window began: an hour from the refusal.
            XCTAssertEqual(resetsAt.timeIntervalSince(before), 3600, accuracy: 5)
            XCTAssertTrue(error.message.hasPrefix("Rate limited until"), error.message)
        }
        XCTAssertTrue(ServiceError.rateLimited(limit: 50, resetsAt: nil).message.contains("within the hour"))
    }

    func test_retryAfter_countsFromTheClientsClock() async {
        struct Fixed: WallClock { var now: Date { Date(timeIntervalSince1970: 1_000_000) } }
        let http = StubHTTPClient(status: 403, headers: ["X-Ratelimit-Limit": "50", "X-Ratelimit-Remaining": "0", "Retry-After": "120"],
                                  json: "Rate Limit Exceeded")
        let client = UnsplashClient(configuration: testConfiguration, http: http, clock: Fixed())
        await assertThrows(.rateLimited(limit: 50, resetsAt: Date(timeIntervalSince1970: 1_000_120))) {
            try await client.feed(page: 1, perPage: 30)
        }
    }

    func test_windowEnd_anHourAfterTheWindowBegan_atLeastAMinuteAway() {
        let now = Date(timeIntervalSince1970: 10_000)
        XCTAssertEqual(UnsplashClient.windowEnd(start: now.addingTimeInterval(-1800), now: now), now.addingTimeInterval(1800))
        XCTAssertEqual(UnsplashClient.windowEnd(start: now.addingTimeInterval(-3590), now: now), now.addingTimeInterval(60))
        XCTAssertEqual(UnsplashClient.windowEnd(start: nil, now: now), now.addingTimeInterval(3600))
    }

    func test_403_otherwise_isForbiddenWithTheServersReason() async {
        await assertThrows(.forbidden("Missing permissions")) {
            try await makeClient(StubHTTPClient(status: 403, json: #"{"errors": ["Missing permissions"]}"#), token: "t")
                .setLike(true, photoID: "a")
        }
    }

    func test_404_isNotFound() async {
        await assertThrows(.notFound) {
            try await makeClient(StubHTTPClient(status: 404, json: #"{"errors": ["Couldn't find Photo"]}"#)).photo(id: "x")
        }
    }

    func test_5xx_isServerError() async {
        for status in [500, 502, 503] {
            await assertThrows(.server(status: status)) {
                try await makeClient(StubHTTPClient(status: status, json: "<html>oops</html>")).feed(page: 1, perPage: 30)
            }
        }
    }

    func test_otherStatus_keepsTheMessage() async {
        await assertThrows(.http(status: 400, message: "query is missing")) {
            try await makeClient(StubHTTPClient(status: 400, json: #"{"errors": ["query is missing"]}"#))
                .search(query: " ", page: 1, perPage: 30, order: .relevant)
        }
    }

    func test_transportErrors_passThroughTyped() async {
        let timeout = StubHTTPClient([.failure(ServiceError.timeout)])
        await assertThrows(.timeout) { try await makeClient(timeout).feed(page: 1, perPage: 30) }
        let offline = StubHTTPClient([.failure(ServiceError.noConnection("cannot connect"))])
        await assertThrows(.noConnection("cannot connect")) { try await makeClient(offline).feed(page: 1, perPage: 30) }
    }

    func test_everyErrorHasAMessageAPersonCanActOn() {
        let errors: [ServiceError] = [
            .noConnection("x"), .timeout, .sessionExpired, .applicationKeyRefused, .loginRequired, .notConfigured("Set X."),
            .rateLimited(limit: nil, resetsAt: nil), .forbidden("x"), .notFound, .server(status: 503),
            .http(status: 418, message: ""), .malformedResponse(field: "results[2].id"), .other("x"),
        ]
        for error in errors {
            XCTAssertFalse(error.message.isEmpty, "\(error)")
        }
        XCTAssertTrue(ServiceError.malformedResponse(field: "results[2].id").message.contains("results[2].id"))
    }

    // MARK: Configuration

    func test_plainHTTP_isRefusedExceptOnLoopback() {
        XCTAssertNoThrow(try UnsplashConfiguration(apiBase: URL(string: "http://127.0.0.1:8765")!).validate())
        XCTAssertNoThrow(try UnsplashConfiguration(apiBase: URL(string: "http://localhost:1")!).validate())
        XCTAssertNoThrow(try UnsplashConfiguration(apiBase: URL(string: "http://[::1]:9")!).validate())
        XCTAssertThrowsError(try UnsplashConfiguration(apiBase: URL(string: "http://api.unsplash.com")!).validate())
        XCTAssertThrowsError(try UnsplashConfiguration(apiBase: URL(string: "http://127.0.0.1.evil.test")!).validate())
        XCTAssertThrowsError(try UnsplashConfiguration(oauthBase: URL(string: "http://10.0.0.1")!).validate())
        XCTAssertThrowsError(try UnsplashConfiguration(apiBase: URL(string: "ftp://api.unsplash.com")!).validate())
    }
}

