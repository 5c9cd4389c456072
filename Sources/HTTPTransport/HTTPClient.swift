import Foundation
import ImageFeedCore

public struct HTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case delete = "DELETE"
    }

    public var method: Method
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// The most bytes of the answer's body that are read: a longer body (or one that declares itself
    /// longer) fails the request with `BodyLimit.exceeded`, and nothing past the limit is held.
    public var bodyLimit: Int

    /// Whether `host` is this machine (127.0.0.0/8, ::1, localhost): the only place plain http is allowed.
    public static func isLoopback(host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public init(method: Method = .get, url: URL, headers: [String: String] = [:], body: Data? = nil,
                bodyLimit: Int = BodyLimit.apiAnswer) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.bodyLimit = bodyLimit
    }
}

/// How much of a body each kind of answer may bring. A server (or a CDN anyone uploads to) can send a body
/// that never ends or declares gigabytes: each kind stops at its own limit.
public enum BodyLimit {
    /// An API answer (a page of photos is some 100 KB; the largest real answers are about 1 MB).
    public static let apiAnswer = 16 * 1024 * 1024
    /// An image shown on screen (Unsplash's `regular` is under 1 MB; its `full` of a large photo some 20 MB).
    public static let image = 32 * 1024 * 1024
    /// A download, written to disk as it arrives (Imgur's videos go up to 200 MB).
    public static let download = 1024 * 1024 * 1024

    /// "16 MB": a limit as a person reads it.
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 * 1024 ? "\(bytes / (1024 * 1024 * 1024)) GB" : "\(bytes / (1024 * 1024)) MB"
    }

    /// The error of a body past its limit.
    public static func exceeded(_ limit: Int, host: String?) -> ServiceError {
        .other("The answer from \(host ?? "the server") was larger than \(describe(limit)) and was not read.")
    }
}

public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lower-cased, so look-ups do not depend on how the server spelled them.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}

/// The transport under the API client: real HTTP in the app, canned answers in tests.
/// Implementations throw `ServiceError.noConnection` or `.timeout` for transport failures
/// and return every HTTP answer, whatever its status.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

extension HTTPClient {
    /// `send`, with whatever the transport threw as a `ServiceError`: its own, a cancelled request, or
    /// anything else as no connection. The API clients call this.
    public func sendForService(_ request: HTTPRequest) async throws(ServiceError) -> HTTPResponse {
        do {
            return try await send(request)
        } catch {
            throw ServiceError.fromTransport(error)
        }
    }
}

extension ServiceError {
    /// What a transport threw, as a `ServiceError`: its own, a cancelled request, or anything else as no
    /// connection (what the transport said is for the log, which the logging client writes, not for the screen).
    public static func fromTransport(_ error: any Error) -> ServiceError {
        switch error {
        case let error as ServiceError: error
        case is CancellationError: .other("The request was cancelled.")
        default: .noConnection("the connection failed")
        }
    }
}
