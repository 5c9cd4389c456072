import Foundation

/// Where the Unsplash API is and how to authenticate to it.
public struct UnsplashConfiguration: Sendable, Equatable {
    public static let defaultAPIBase = URL(string: "https://api.unsplash.com")!
    public static let defaultOAuthBase = URL(string: "https://unsplash.com")!
    /// Unsplash's out-of-band redirect: the authorize page shows the code for the user to paste.
    public static let outOfBandRedirectURI = "urn:ietf:wg:oauth:2.0:oob"

    public var apiBase: URL
    public var oauthBase: URL
    /// The application's access key (Unsplash calls it the client id).
    public var accessKey: String?
    public var secretKey: String?
    public var redirectURI: String
    /// Sent as the User-Agent of every request.
    public var userAgent: String
    /// Logins ask for the `write_collections` scope too (the user opted in).
    public var writeCollections: Bool

    public init(apiBase: URL = defaultAPIBase, oauthBase: URL = defaultOAuthBase, accessKey: String? = nil,
                secretKey: String? = nil, redirectURI: String = outOfBandRedirectURI,
                userAgent: String = "ImageFeed (terminal)", writeCollections: Bool = false) {
        self.writeCollections = writeCollections
        self.apiBase = apiBase
        self.oauthBase = oauthBase
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.redirectURI = redirectURI
        self.userAgent = userAgent
    }

    /// Checks the base URLs: https, or plain http to a loopback address only (the sandbox).
    public func validate() throws(ConfigurationError) {
        try Self.checkTransport(apiBase, name: "API base")
        try Self.checkTransport(oauthBase, name: "OAuth base")
    }

    public static func checkTransport(_ url: URL, name: String) throws(ConfigurationError) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw ConfigurationError(message: "The \(name) \(url.absoluteString) is not an http(s) URL.")
        }
        switch scheme {
        case "https":
            return
        case "http" where isLoopback(host: host):
            return
        case "http":
            throw ConfigurationError(
                message: "The \(name) \(url.absoluteString) uses plain http; only https is allowed, except on a loopback address.")
        default:
            throw ConfigurationError(message: "The \(name) \(url.absoluteString) is not an http(s) URL.")
        }
    }

    public static func isLoopback(host: String) -> Bool {
        HTTPRequest.isLoopback(host: host)
    }
}

public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
