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

    public init(method: Method = .get, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
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
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw .other("The request was cancelled.")
        } catch {
            throw .noConnection(String(describing: error))
        }
    }
}
