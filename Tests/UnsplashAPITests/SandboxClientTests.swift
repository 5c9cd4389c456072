import Foundation
import ImageFeedCore
import TerminalImage
import UnsplashAPI
import UnsplashSandbox
import XCTest

/// The client against the sandbox over real loopback HTTP: every endpoint, every error class.
final class SandboxClientTests: SandboxTestCase {
    func test_feed_pagesThroughDistinctPhotosWithHeaders() async throws {
        let client = sandbox.client()
        let first = try await client.feed(page: 1, perPage: 30)
        let second = try await client.feed(page: 2, perPage: 30)
        XCTAssertEqual(first.items.count, 30)
        XCTAssertEqual(first.nextPage, 2)
        XCTAssertEqual(second.nextPage, 3)
        XCTAssertEqual(first.totalItems, 330)
        XCTAssertEqual(first.totalPages, 11)
        XCTAssertTrue(Set(first.items.map(\.id)).isDisjoint(with: second.items.map(\.id)))
        XCTAssertNotNil(client.rateLimit)
        let last = try await client.feed(page: 11, perPage: 30)
        XCTAssertNil(last.nextPage)
        let photo = try XCTUnwrap(first.items.first)
        XCTAssertNotNil(photo.user?.username)
        XCTAssertNotNil(photo.urls.small)
        XCTAssertNotNil(photo.blurHash)
        XCTAssertNotNil(photo.createdAt)
    }

    func test_photo_hasDetailsAndUnknownPhotoIsNotFound() async throws {
        let client = sandbox.client()
        let id = try await client.feed(page: 1, perPage: 10).items[6].id // the rocket: exif and location
        let photo = try await client.photo(id: id)
        XCTAssertEqual(photo.id, id)
        XCTAssertNotNil(photo.exif?.model)
        XCTAssertNotNil(photo.location?.latitude)
        XCTAssertFalse(photo.tags.isEmpty)
        await assertThrows(.notFound) { try await client.photo(id: "no-such-photo") }
    }

    func test_likeAndUnlike_areKeptPerUserAndShowInLikes() async throws {
        let client = sandbox.client(loggedInAs: "demo")
        let other = sandbox.client(loggedInAs: "rachel")
        let photo = try await client.feed(page: 1, perPage: 5).items[1]
        let liked = try await client.setLike(true, photoID: photo.id)
        XCTAssertTrue(liked.likedByUser)
        XCTAssertEqual(liked.likes, photo.likes + 1)
        let likedForMe = try await client.photo(id: photo.id).likedByUser
        XCTAssertTrue(likedForMe)
        let likedForOther = try await other.photo(id: photo.id).likedByUser
        XCTAssertFalse(likedForOther, "likes are per user")
        let favoriteIDs = try await client.likes(username: "demo", page: 1, perPage: 30).items.map(\.id)
        XCTAssertEqual(favoriteIDs, [photo.id])
        let myLikeCount = try await client.me().totalLikes
        XCTAssertEqual(myLikeCount, 1)
        let unliked = try await client.setLike(false, photoID: photo.id)
        XCTAssertFalse(unliked.likedByUser)
        XCTAssertEqual(unliked.likes, photo.likes)
        let favoritesEmpty = try await client.likes(username: "demo", page: 1, perPage: 30).items.isEmpty
        XCTAssertTrue(favoritesEmpty)
    }

    func test_meAndUsers() async throws {
        let me = try await sandbox.client(loggedInAs: "demo").me()
        XCTAssertEqual(me.username, "demo")
        XCTAssertNotNil(me.bio)
        XCTAssertNotNil(me.profileImage.large)
        let user = try await sandbox.client().user(username: "lav")
        XCTAssertNil(user.bio, "a user without a bio has none")
        await assertThrows(.notFound) { try await self.sandbox.client().user(username: "nobody-here") }
    }

    func test_search_matchesDescriptionsTagsAndNames_andSorts() async throws {
        let client = sandbox.client()
        let cats = try await client.search(query: "cat", page: 1, perPage: 30, order: .relevant)
        XCTAssertFalse(cats.items.isEmpty)
        XCTAssertTrue(cats.items.allSatisfy { ($0.caption ?? "").lowercased().contains("cat") || $0.user?.username == "stefan" })
        let byName = try await client.search(query: "Michetti", page: 1, perPage: 30, order: .relevant)
        XCTAssertTrue(byName.items.allSatisfy { $0.user?.username == "rachel" })
        XCTAssertFalse(byName.items.isEmpty)
        let space = try await client.search(query: "space", page: 1, perPage: 10, order: .latest)
        let dates = space.items.compactMap(\.createdAt)
        XCTAssertEqual(dates, dates.sorted(by: >))
        XCTAssertEqual(space.nextPage, 2)
        let nothing = try await client.search(query: "zebra-unicorn", page: 1, perPage: 30, order: .relevant)
        XCTAssertTrue(nothing.items.isEmpty)
        XCTAssertEqual(nothing.totalItems, 0)
        XCTAssertNil(nothing.nextPage)
    }

    func test_download_isTrackedAndPointsAtTheFile() async throws {
        let client = sandbox.client()
        let photo = try await client.feed(page: 1, perPage: 1).items[0]
        let file = try await client.trackDownload(of: photo)
        XCTAssertEqual(sandbox.running.server.state.downloads(of: photo.id), 1)
        let bytes = try await sandbox.http.send(HTTPRequest(url: file))
        XCTAssertEqual(bytes.status, 200)
        XCTAssertEqual(ImageFormat(sniffing: bytes.body), .jpeg)
    }

    func test_images_areServedAtTheRequestedSize() async throws {
        let photo = try await sandbox.client().feed(page: 1, perPage: 1).items[0]
        let small = try await sandbox.http.send(HTTPRequest(url: try XCTUnwrap(photo.urls.thumb)))
        let size = try ImageCodec.jpegSize(small.body)
        XCTAssertEqual(size.width, 200)
        var components = URLComponents(url: try XCTUnwrap(photo.urls.raw), resolvingAgainstBaseURL: false)!
        components.queryItems! += [URLQueryItem(name: "w", value: "64"), URLQueryItem(name: "h", value: "48"),
                                   URLQueryItem(name: "fit", value: "crop")]
        let cropped = try await sandbox.http.send(HTTPRequest(url: components.url!))
        let croppedSize = try ImageCodec.jpegSize(cropped.body)
        XCTAssertEqual(croppedSize.width, 64)
        XCTAssertEqual(croppedSize.height, 48)
    }

    // MARK: Authentication

    func test_wrongAccessKey_isInvalidAccessKey() async {
        var configuration = sandbox.configuration
        configuration.accessKey = "wrong"
        let client = UnsplashClient(configuration: configuration, http: sandbox.http)
        await assertThrows(.applicationKeyRefused) { try await client.feed(page: 1, perPage: 30) }
    }

    func test_revokedToken_isSessionExpired() async throws {
        let token = sandbox.running.server.state.issueToken(username: "demo")
        let client = UnsplashClient(configuration: sandbox.configuration, http: sandbox.http, token: token)
        _ = try await client.me()
        sandbox.running.server.state.revokeToken(token)
        await assertThrows(.sessionExpired) { try await client.me() }
    }

    func test_likeWithoutWriteScope_isForbidden() async throws {
        let token = sandbox.running.server.state.issueToken(username: "demo", scope: "public read_user")
        let client = UnsplashClient(configuration: sandbox.configuration, http: sandbox.http, token: token)
        let id = try await client.feed(page: 1, perPage: 1).items[0].id
        do {
            _ = try await client.setLike(true, photoID: id)
            XCTFail("expected forbidden")
        } catch {
            guard case .forbidden = error else { return XCTFail("got \(error)") }
        }
    }

    func test_oauth_fullFlowThroughTheAuthorizePage() async throws {
        let oauth = OAuthClient(configuration: sandbox.configuration, http: sandbox.http)
        let state = OAuthClient.makeState()
        let page = try await sandbox.http.send(HTTPRequest(url: try oauth.authorizeURL(state: state)))
        let html = String(decoding: page.body, as: UTF8.self)
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(html.contains("id=\"login\""))
        // Press Login: post the page's form back, as a browser would.
        let fields = try Self.formFields(html) + [("decision", "approve")]
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        let redirect = try await sandbox.http.send(HTTPRequest(
            method: .post, url: sandbox.running.baseURL.appendingPathComponent("oauth/authorize"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))
        XCTAssertEqual(redirect.status, 302)
        let location = try XCTUnwrap(redirect.header("Location"))
        XCTAssertTrue(location.hasPrefix("http://127.0.0.1:8765/callback?code="))
        let code = try OAuthClient.code(fromRedirect: location, expectedState: state)
        let token = try await oauth.exchange(code: code)
        XCTAssertEqual(token.username, "demo")
        let client = UnsplashClient(configuration: sandbox.configuration, http: sandbox.http, token: token.accessToken)
        let username = try await client.me().username
        XCTAssertEqual(username, "demo")
        // Codes are single-use.
        do {
            _ = try await oauth.exchange(code: code)
            XCTFail("a code must not work twice")
        } catch {
            guard case .tokenRefused = error else { return XCTFail("got \(error)") }
        }
    }

    func test_oauth_cancelRedirectsWithAccessDenied() async throws {
        let state = "s-cancel"
        let body = "client_id=demo-access-key&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&response_type=code&scope=public&state=\(state)&decision=deny"
        let redirect = try await sandbox.http.send(HTTPRequest(
            method: .post, url: sandbox.running.baseURL.appendingPathComponent("oauth/authorize"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))
        let location = try XCTUnwrap(redirect.header("Location"))
        XCTAssertThrowsError(try OAuthClient.code(fromRedirect: location, expectedState: state)) {
            guard case .denied = $0 as? OAuthError else { return XCTFail("got \($0)") }
        }
    }

    func test_oauth_wrongSecret_isRefused() async throws {
        var configuration = sandbox.configuration
        configuration.secretKey = "wrong"
        let oauth = OAuthClient(configuration: configuration, http: sandbox.http)
        do {
            _ = try await oauth.exchange(code: "whatever")
            XCTFail("expected a refusal")
        } catch {
            guard case .tokenRefused = error else { return XCTFail("got \(error)") }
        }
    }

    func test_oauth_outOfBand_showsTheCodeOnThePage() async throws {
        var configuration = sandbox.configuration
        configuration.redirectURI = UnsplashConfiguration.outOfBandRedirectURI
        let body = "client_id=demo-access-key&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&response_type=code&scope=public&state=s&decision=approve"
        let page = try await sandbox.http.send(HTTPRequest(
            method: .post, url: sandbox.running.baseURL.appendingPathComponent("oauth/authorize"),
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8)))
        let html = String(decoding: page.body, as: UTF8.self)
        let code = try XCTUnwrap(html.components(separatedBy: "<code id=\"code\">").last?.components(separatedBy: "<").first)
        let pasted = try OAuthClient.code(fromRedirect: code, expectedState: "s")
        let token = try await OAuthClient(configuration: configuration, http: sandbox.http).exchange(code: pasted)
        XCTAssertFalse(token.accessToken.isEmpty)
    }

    // MARK: Faults

    func test_fault_statuses_mapToTypedErrors() async throws {
        let client = sandbox.client(loggedInAs: "demo")
        try sandbox.fault("photos=status:401")
        await assertThrows(.sessionExpired) { try await client.feed(page: 1, perPage: 30) }
        try sandbox.fault("photos=ratelimit")
        do {
            _ = try await client.feed(page: 1, perPage: 30)
            XCTFail("expected rate limiting")
        } catch {
            guard case let .rateLimited(limit, resetsAt) = error else { return XCTFail("got \(error)") }
            XCTAssertEqual(limit, 5_000)
            XCTAssertNotNil(resetsAt)
        }
        // That client now backs off until the quota resets; the other statuses are seen by a fresh one.
        let fresh = sandbox.client(loggedInAs: "demo")
        try sandbox.fault("photo=status:404")
        await assertThrows(.notFound) { try await fresh.photo(id: "anything") }
        try sandbox.fault("search=status:500")
        await assertThrows(.server(status: 500)) { try await fresh.search(query: "cat", page: 1, perPage: 30, order: .relevant) }
        try sandbox.fault("me=status:503")
        await assertThrows(.server(status: 503)) { try await fresh.me() }
    }

    func test_fault_malformedAndTruncatedJSON_areMalformedResponses() async throws {
        let client = sandbox.client()
        try sandbox.fault("photos=malformed")
        await assertThrows(.malformedResponse(field: "body")) { try await client.feed(page: 1, perPage: 30) }
        try sandbox.fault("user=truncated")
        await assertThrows(.malformedResponse(field: "body")) { try await client.user(username: "demo") }
    }

    func test_fault_droppedConnection_isNoConnection() async throws {
        try sandbox.fault("photos=drop")
        do {
            _ = try await sandbox.client().feed(page: 1, perPage: 30)
            XCTFail("expected a dropped connection")
        } catch {
            guard case .noConnection = error else { return XCTFail("got \(error)") }
        }
    }

    func test_fault_stall_isTimeout() async throws {
        try sandbox.fault("photos=latency:3000")
        let client = UnsplashClient(configuration: sandbox.configuration, http: CurlHTTPClient(timeout: 1))
        await assertThrows(.timeout) { try await client.feed(page: 1, perPage: 30) }
    }

    func test_stoppedServer_isNoConnection() async throws {
        let client = sandbox.client()
        await sandbox.stop()
        do {
            _ = try await client.feed(page: 1, perPage: 30)
            XCTFail("expected no connection")
        } catch {
            guard case .noConnection = error as? ServiceError else { return XCTFail("got \(error)") }
        }
    }

    func test_fault_countedFault_appliesOnlyThatManyTimes() async throws {
        try sandbox.fault("photos=status:500x1")
        let client = sandbox.client()
        await assertThrows(.server(status: 500)) { try await client.feed(page: 1, perPage: 30) }
        let countAfterFault = try await client.feed(page: 1, perPage: 30).items.count
        XCTAssertEqual(countAfterFault, 30)
    }

    func test_fault_corruptImage_failsToDecode() async throws {
        let photo = try await sandbox.client().feed(page: 1, perPage: 1).items[0]
        try sandbox.fault("image=corrupt")
        let response = try await sandbox.http.send(HTTPRequest(url: try XCTUnwrap(photo.urls.small)))
        XCTAssertEqual(response.status, 200)
        do {
            let decoded = try ImageCodec.decode(response.body)
            XCTAssertTrue(decoded.isDamaged, "a damaged JPEG must not pass for a whole one")
        } catch {
            XCTAssertTrue(error is ImageDecodingError)
        }
    }

    func test_adminEndpoint_setsAndClearsFaults() async throws {
        let url = sandbox.running.baseURL.appendingPathComponent("_sandbox/faults")
        let set = try await sandbox.http.send(HTTPRequest(method: .post, url: url, body: Data("photos=status:503".utf8)))
        XCTAssertEqual(set.status, 200)
        await assertThrows(.server(status: 503)) { try await self.sandbox.client().feed(page: 1, perPage: 30) }
        let cleared = try await sandbox.http.send(HTTPRequest(method: .delete, url: url))
        XCTAssertEqual(cleared.status, 204)
        let countAfterClear = try await sandbox.client().feed(page: 1, perPage: 30).items.count
        XCTAssertEqual(countAfterClear, 30)
    }

    func test_rateLimit_isEnforcedPerKey() async throws {
        await sandbox.stop()
        sandbox = try await SandboxFixture.start(SandboxSettings(rateLimit: 2))
        let client = sandbox.client()
        _ = try await client.feed(page: 1, perPage: 1)
        _ = try await client.feed(page: 1, perPage: 1)
        XCTAssertEqual(client.rateLimit, RateLimit(limit: 2, remaining: 0))
        do {
            _ = try await client.feed(page: 1, perPage: 1)
            XCTFail("expected rate limiting")
        } catch {
            guard case .rateLimited = error else { return XCTFail("got \(error)") }
        }
    }

    func test_rateLimited_backsOffInsteadOfAskingAgain() async throws {
        await sandbox.stop()
        sandbox = try await SandboxFixture.start(SandboxSettings(rateLimit: 1))
        let client = sandbox.client()
        _ = try await client.feed(page: 1, perPage: 1)
        await assertThrowsRateLimited { try await client.feed(page: 1, perPage: 1) }
        let served = sandbox.running.server.state.requestsServed
        // Until the quota resets, the client answers for the service.
        await assertThrowsRateLimited { try await client.feed(page: 2, perPage: 1) }
        await assertThrowsRateLimited { try await client.search(query: "cat", page: 1, perPage: 1, order: .relevant) }
        XCTAssertEqual(sandbox.running.server.state.requestsServed, served, "no request went out into another 403")
    }

    func assertThrowsRateLimited(_ body: () async throws -> Any, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            _ = try await body()
            XCTFail("expected rate limiting", file: file, line: line)
        } catch {
            guard case .rateLimited? = error as? ServiceError else { return XCTFail("got \(error)", file: file, line: line) }
        }
    }

    /// The hidden inputs of the authorize page's form.
    static func formFields(_ html: String) throws -> [(String, String)] {
        html.components(separatedBy: "<input type=\"hidden\" ").dropFirst().compactMap { chunk in
            guard let name = chunk.components(separatedBy: "name=\"").dropFirst().first?.components(separatedBy: "\"").first,
                  let value = chunk.components(separatedBy: "value=\"").dropFirst().first?.components(separatedBy: "\"").first
            else { return nil }
            return (name, value.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\""))
        }
    }
}
