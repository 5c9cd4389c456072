import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// OAuth as Unsplash does it: an authorize page with Login and Cancel, a redirect carrying a
/// single-use code (or the code shown on the page for the out-of-band redirect), and the token endpoint.
extension SandboxServer {
    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"

    struct AuthorizeRequest {
        var clientID: String
        var redirectURI: String
        var scope: String
        var state: String?
    }

    enum AuthorizeCheck {
        case success(AuthorizeRequest)
        /// The page that says what is wrong with the request.
        case failure(Response)
    }

    private func authorizeRequest(from values: [String: String]) -> AuthorizeCheck {
        guard values["client_id"] == settings.accessKey else {
            return .failure(Self.html(.badRequest, title: "Unknown application",
                                      body: "<p>The client_id does not belong to a registered application.</p>"))
        }
        guard let redirect = values["redirect_uri"], Self.isAcceptableRedirect(redirect) else {
            return .failure(Self.html(.badRequest, title: "Invalid redirect URI",
                                      body: "<p>The redirect_uri is not one registered for this application.</p>"))
        }
        guard values["response_type"] == "code" else {
            return .failure(Self.html(.badRequest, title: "Unsupported response type",
                                      body: "<p>Only response_type=code is supported.</p>"))
        }
        return .success(AuthorizeRequest(clientID: settings.accessKey, redirectURI: redirect,
                                         scope: values["scope"] ?? "public", state: values["state"]))
    }

    /// The out-of-band URI, or an http URL on a loopback address (the app's one-shot listener).
    static func isAcceptableRedirect(_ redirect: String) -> Bool {
        if redirect == outOfBand { return true }
        guard let url = URL(string: redirect), url.scheme == "http", let host = url.host else { return false }
        return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
    }

    func authorize(_ request: Request) async -> Response {
        let faults = state.takeFaults(for: "oauth-authorize")
        if let status = faults.first(where: { $0.kind == .status })?.argument {
            return Self.html(Self.status(status), title: "Error", body: "<p>Fault injected.</p>")
        }
        let values = Self.query(request)
        switch authorizeRequest(from: values) {
        case let .failure(page):
            return page
        case let .success(authorize):
            if settings.autoApprove {
                return approve(authorize)
            }
            let hidden = ["client_id": authorize.clientID, "redirect_uri": authorize.redirectURI,
                          "response_type": "code", "scope": authorize.scope, "state": authorize.state ?? ""]
                .sorted { $0.key < $1.key }
                .map { "<input type=\"hidden\" name=\"\($0.key)\" value=\"\(HTML.escape($0.value))\">" }
                .joined(separator: "\n")
            let scopes = authorize.scope.split(separator: " ").map { "<li>\(HTML.escape(String($0)))</li>" }.joined()
            let body = """
                <p><strong>ImageFeed</strong> would like to access your account, <strong>@\(HTML.escape(catalog.demoUsername))</strong>.</p>
                <p>It asks for:</p><ul>\(scopes)</ul>
                <form method="post" action="/oauth/authorize">
                \(hidden)
                <button type="submit" name="decision" value="approve" id="login">Login</button>
                <button type="submit" name="decision" value="deny" id="cancel">Cancel</button>
                </form>
                """
            return Self.html(.ok, title: "Authorize ImageFeed", body: body)
        }
    }

    func decide(_ request: Request) async -> Response {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 65_536) else {
            return Self.html(.badRequest, title: "Bad request", body: "<p>The form could not be read.</p>")
        }
        let values = Self.formValues(String(buffer: buffer))
        switch authorizeRequest(from: values) {
        case let .failure(page):
            return page
        case let .success(authorize):
            if values["decision"] == "approve" { return approve(authorize) }
            if authorize.redirectURI == Self.outOfBand {
                return Self.html(.ok, title: "Access denied", body: "<p>You did not authorize ImageFeed.</p>")
            }
            return redirect(authorize, with: [("error", "access_denied"),
                                               ("error_description", "The resource owner or authorization server denied the request.")])
        }
    }

    private func approve(_ authorize: AuthorizeRequest) -> Response {
        let code = state.issueCode(clientID: authorize.clientID, redirectURI: authorize.redirectURI,
                                   username: catalog.demoUsername, scope: authorize.scope)
        if authorize.redirectURI == Self.outOfBand {
            return Self.html(.ok, title: "Authorization code",
                             body: "<p>Copy this code and paste it into ImageFeed:</p><p><code id=\"code\">\(code)</code></p>")
        }
        return redirect(authorize, with: [("code", code)])
    }

    private func redirect(_ authorize: AuthorizeRequest, with items: [(String, String)]) -> Response {
        var components = URLComponents(string: authorize.redirectURI) ?? URLComponents()
        var query = components.queryItems ?? []
        query += items.map { URLQueryItem(name: $0.0, value: $0.1) }
        if let value = authorize.state { query.append(URLQueryItem(name: "state", value: value)) }
        components.queryItems = query
        return Response(status: .found, headers: [.location: components.string ?? authorize.redirectURI])
    }

    func token(_ request: Request) async -> Response {
        let faults = state.takeFaults(for: "oauth-token")
        await waitOutLatency(faults)
        if let status = faults.first(where: { $0.kind == .status })?.argument {
            return Self.errors(Self.status(status), [Self.status(status).reasonPhrase])
        }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 65_536) else {
            return tokenError(.badRequest, "invalid_request", "The request body could not be read.")
        }
        let text = String(buffer: buffer)
        var values = Self.formValues(text)
        if request.headers[.contentType]?.hasPrefix("application/json") == true,
           let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] {
            values = object.compactMapValues { $0 as? String }
        }
        for (key, value) in Self.query(request) where values[key] == nil {
            values[key] = value
        }
        guard values["grant_type"] == "authorization_code" else {
            return tokenError(.badRequest, "unsupported_grant_type",
                              "The authorization grant type is not supported by the authorization server.")
        }
        guard values["client_id"] == settings.accessKey, values["client_secret"] == settings.secretKey else {
            return tokenError(.unauthorized, "invalid_client",
                              "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.")
        }
        guard let code = values["code"], let redirect = values["redirect_uri"],
              let pending = state.redeemCode(code, clientID: settings.accessKey, redirectURI: redirect) else {
            return tokenError(.badRequest, "invalid_grant",
                              "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.")
        }
        let token = state.issueToken(username: pending.username, scope: pending.scope)
        let user = catalog.user(username: pending.username)
        let answer = APIDocuments.Token(accessToken: token, tokenType: "Bearer", refreshToken: SandboxState.randomToken(),
                                        scope: pending.scope, createdAt: Int(Date().timeIntervalSince1970),
                                        userId: user?.id ?? "", username: pending.username)
        return Self.response(.ok, body: APIDocuments.encode(answer))
    }

    private func tokenError(_ status: HTTPResponse.Status, _ error: String, _ description: String) -> Response {
        Self.response(status, body: APIDocuments.encode(APIDocuments.TokenError(error: error, errorDescription: description)))
    }

    /// `a=1&b=two+words` → ["a": "1", "b": "two words"].
    static func formValues(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            guard let key = parts.first, !key.isEmpty, values[key] == nil else { continue }
            values[key] = parts.count > 1 ? parts[1] : ""
        }
        return values
    }
}
