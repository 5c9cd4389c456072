import Foundation
import ImageFeedCore

/// A token from `POST /oauth/token`.
public struct OAuthToken: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var scope: String?
    public var username: String?

    public init(accessToken: String, tokenType: String = "bearer", scope: String? = nil, username: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.scope = scope
        self.username = username
    }
}

/// Unsplash's OAuth 2 authorization-code flow: the authorize page, reading the redirect back, and
/// exchanging the code for a token.
public struct OAuthClient: Sendable {
    /// What the app asks to do: read public data (`public`), read the user's profile (`read_user`), like and unlike
    /// (`write_likes`); and, when the user opted in, add photos to their collections and take them out
    /// (`write_collections`).
    public static let scope = "public read_user write_likes"

    /// The scopes this login asks for.
    public var scope: String {
        configuration.writeCollections ? Self.scope + " write_collections" : Self.scope
    }

    public let configuration: UnsplashConfiguration
    private let http: any HTTPClient

    public init(configuration: UnsplashConfiguration, http: any HTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    /// A fresh, unguessable `state` for one login attempt: 128 random bits as hex.
    public static func makeState() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = generator.next() as UInt32
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// Checks that logging in is possible at all, and says what to configure when it is not.
    public func checkConfigured() throws(OAuthError) {
        guard let key = configuration.accessKey, !key.isEmpty else {
            throw .notConfigured("Logging in needs an Unsplash application: set UNSPLASH_ACCESS_KEY and UNSPLASH_SECRET_KEY (or access_key and secret_key in the config file), or run with --demo.")
        }
        guard let secret = configuration.secretKey, !secret.isEmpty else {
            throw .notConfigured("Logging in needs the application's secret key: set UNSPLASH_SECRET_KEY (or secret_key in the config file).")
        }
    }

    /// `https://unsplash.com/oauth/authorize?client_id=…&redirect_uri=…&response_type=code&scope=…&state=…`
    public func authorizeURL(state: String) throws(OAuthError) -> URL {
        try checkConfigured()
        var base = configuration.oauthBase
        base.appendPathComponent("oauth")
        base.appendPathComponent("authorize")
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "client_id", value: configuration.accessKey),
            URLQueryItem(name: "redirect_uri", value: configuration.redirectURI),
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "scope", value: scope),
            URLQueryItem(name: "state", value: state),
        ]
        // A literal "+" would read as a space; spaces are sent as %20.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// Reads the authorization code from what came back: the redirect URL (or its query), or, in the
    /// out-of-band flow, the bare code the user pasted.
    ///
    /// A URL or query is checked against `expectedState`; a bare code cannot carry a state and is taken as is.
    public static func code(fromRedirect text: String, expectedState: String) throws(OAuthError) -> String {
        switch OAuthRedirect.parse(text) {
        case .nothing:
            throw .missingCode
        case let .denied(reason):
            throw .denied(reason: reason)
        case let .code(code, state: nil):
            return code
        case let .code(code, state: state?):
            guard state == expectedState else { throw .stateMismatch }
            return code
        }
    }

    /// `POST /oauth/token` with the code: client_id, client_secret, redirect_uri, code and
    /// grant_type=authorization_code.
    public func exchange(code: String) async throws(OAuthError) -> OAuthToken {
        try checkConfigured()
        var url = configuration.oauthBase
        url.appendPathComponent("oauth")
        url.appendPathComponent("token")
        var form = URLComponents()
        form.queryItems = [
            URLQueryItem(name: "client_id", value: configuration.accessKey),
            URLQueryItem(name: "client_secret", value: configuration.secretKey),
            URLQueryItem(name: "redirect_uri", value: configuration.redirectURI),
            URLQueryItem(name: "code", value: code),
            URLQueryItem(name: "grant_type", value: "authorization_code"),
        ]
        // Form encoding: "+" and "&" in values must be escaped beyond what URLComponents does.
        let body = (form.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        let request = HTTPRequest(method: .post, url: url, headers: [
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
            "User-Agent": configuration.userAgent,
        ], body: Data(body.utf8))
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch {
            throw .service(.fromTransport(error))
        }
        guard (200..<300).contains(response.status) else {
            if let refusal = try? JSONDecoder().decode(TokenErrorDTO.self, from: response.body) {
                throw .tokenRefused(refusal.errorDescription ?? refusal.error)
            }
            if response.status >= 500 { throw .service(.server(status: response.status)) }
            throw .tokenRefused("HTTP \(response.status)")
        }
        let token: TokenDTO
        do {
            token = try UnsplashJSON.decode(TokenDTO.self, from: response.body)
        } catch {
            throw .service(error)
        }
        return OAuthToken(accessToken: token.accessToken, tokenType: token.tokenType ?? "bearer",
                          scope: token.scope, username: token.username)
    }

    private struct TokenDTO: Decodable {
        let accessToken: String
        let tokenType: String?
        let scope: String?
        let username: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case scope
            case username
        }
    }

    private struct TokenErrorDTO: Decodable {
        let error: String
        let errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }
}
