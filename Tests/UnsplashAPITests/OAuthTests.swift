import Foundation
import ImageFeedCore
import UnsplashAPI
import TestSupport
import XCTest

final class OAuthTests: XCTestCase {
    func test_authorizeURL_carriesEveryParameter() throws {
        let url = try OAuthClient(configuration: testConfiguration, http: StubHTTPClient(json: "{}")).authorizeURL(state: "s123")
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        XCTAssertEqual(components.host, "auth.example.test")
        XCTAssertEqual(components.path, "/oauth/authorize")
        let items = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        XCTAssertEqual(items, [
            "client_id": "app-key", "redirect_uri": "http://127.0.0.1:8765/callback", "response_type": "code",
            "scope": "public read_user write_likes", "state": "s123",
        ])
    }

    func test_writeCollections_isAskedForOnlyWhenTheUserOptedIn() throws {
        var configuration = testConfiguration
        configuration.writeCollections = true
        let url = try OAuthClient(configuration: configuration, http: StubHTTPClient(json: "{}")).authorizeURL(state: "s")
        let scope = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "scope" }?.value
        XCTAssertEqual(scope, "public read_user write_likes write_collections")
    }

    func test_makeState_isFreshAndLongEnough() {
        let first = OAuthClient.makeState()
        XCTAssertEqual(first.count, 32)
        XCTAssertNotEqual(first, OAuthClient.makeState())
    }

    func test_withoutAccessKey_loginSaysWhatToConfigure() {
        let client = OAuthClient(configuration: UnsplashConfiguration(), http: StubHTTPClient(json: "{}"))
        XCTAssertThrowsError(try client.authorizeURL(state: "s")) { error in
            guard case let .notConfigured(message) = error as? OAuthError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("UNSPLASH_ACCESS_KEY"))
        }
    }

    func test_withoutSecretKey_loginSaysWhatToConfigure() {
        var configuration = testConfiguration
        configuration.secretKey = nil
        XCTAssertThrowsError(try OAuthClient(configuration: configuration, http: StubHTTPClient(json: "{}")).checkConfigured()) {
            XCTAssertEqual(($0 as? OAuthError).map { if case .notConfigured = $0 { true } else { false } }, true)
        }
    }

    func test_redirect_withMatchingState_givesTheCode() throws {
        XCTAssertEqual(try OAuthClient.code(fromRedirect: "http://127.0.0.1:8765/callback?code=abc123&state=s1", expectedState: "s1"), "abc123")
        XCTAssertEqual(try OAuthClient.code(fromRedirect: "  /callback?state=s1&code=x%2By  \n", expectedState: "s1"), "x+y")
        XCTAssertEqual(try OAuthClient.code(fromRedirect: "code=abc&state=s1", expectedState: "s1"), "abc")
    }

    func test_redirect_withOtherState_isRefused() {
        XCTAssertThrowsError(try OAuthClient.code(fromRedirect: "http://127.0.0.1/callback?code=abc&state=evil", expectedState: "s1")) {
            XCTAssertEqual($0 as? OAuthError, .stateMismatch)
        }
        XCTAssertThrowsError(try OAuthClient.code(fromRedirect: "http://127.0.0.1/callback?code=abc", expectedState: "s1")) {
            XCTAssertEqual($0 as? OAuthError, .stateMismatch)
        }
    }

    func test_redirect_withAccessDenied_isDenied() {
        XCTAssertThrowsError(try OAuthClient.code(fromRedirect: "http://127.0.0.1/cb?error=access_denied&state=s1", expectedState: "s1")) {
            XCTAssertEqual($0 as? OAuthError, .denied(reason: "access was denied"))
        }
        XCTAssertThrowsError(try OAuthClient.code(
            fromRedirect: "http://127.0.0.1/cb?error=invalid_scope&error_description=Bad%20scope&state=s1", expectedState: "s1")) {
            XCTAssertEqual($0 as? OAuthError, .denied(reason: "Bad scope"))
        }
    }

    func test_pastedBareCode_isTakenAsIs() throws {
        XCTAssertEqual(try OAuthClient.code(fromRedirect: " Zq9-x_Y.1~ ", expectedState: "ignored"), "Zq9-x_Y.1~")
    }

    func test_pastedNothingOrNonsense_isMissingCode() {
        for text in ["", "   ", "not a code!", "http://127.0.0.1/callback?state=s1"] {
            XCTAssertThrowsError(try OAuthClient.code(fromRedirect: text, expectedState: "s1"), text) {
                XCTAssertEqual($0 as? OAuthError, .missingCode, text)
            }
        }
    }

    func test_exchange_postsTheFormAndReadsTheToken() async throws {
        let http = StubHTTPClient(json: #"{"access_token": "tok", "token_type": "Bearer", "scope": "public read_user write_likes", "created_at": 1, "username": "jane"}"#)
        let token = try await OAuthClient(configuration: testConfiguration, http: http).exchange(code: "c&1")
        XCTAssertEqual(token, OAuthToken(accessToken: "tok", tokenType: "Bearer", scope: "public read_user write_likes", username: "jane"))
        let request = try XCTUnwrap(http.lastRequest)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.url.absoluteString, "https://auth.example.test/oauth/token")
        XCTAssertEqual(request.headers["Content-Type"], "application/x-www-form-urlencoded")
        XCTAssertEqual(String(decoding: request.body ?? Data(), as: UTF8.self),
                       "client_id=app-key&client_secret=app-secret&redirect_uri=http://127.0.0.1:8765/callback&code=c%261&grant_type=authorization_code")
    }

    func test_exchange_refusedCode_saysWhy() async {
        let http = StubHTTPClient(status: 400, json: #"{"error": "invalid_grant", "error_description": "The provided authorization grant is invalid"}"#)
        do {
            _ = try await OAuthClient(configuration: testConfiguration, http: http).exchange(code: "old")
            XCTFail("expected a refusal")
        } catch {
            XCTAssertEqual(error, .tokenRefused("The provided authorization grant is invalid"))
        }
    }

    func test_exchange_serverTrouble_isAServiceError() async {
        let http = StubHTTPClient(status: 503, json: "down")
        do {
            _ = try await OAuthClient(configuration: testConfiguration, http: http).exchange(code: "c")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error, .service(.server(status: 503)))
        }
    }
}
