import Foundation
import HTTPTransport
import ImageFeedCore

/// Answers each request with the next canned response (or error) and records the requests. Past the last
/// answer it gives the last again, or (`repeatsLast: false`) fails as a lost connection.
public final class StubHTTPClient: HTTPClient, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Result<HTTPResponse, Error>]
    private let repeatsLast: Bool
    private var sent: [HTTPRequest] = []

    public init(_ answers: [Result<HTTPResponse, Error>], repeatsLast: Bool = true) {
        self.answers = answers
        self.repeatsLast = repeatsLast
    }

    /// One answer, given to every request.
    public convenience init(status: Int = 200, headers: [String: String] = [:], json: String) {
        self.init([.success(HTTPResponse(status: status, headers: headers, body: Data(json.utf8)))])
    }

    /// These answers in turn, then no connection.
    public convenience init(_ responses: HTTPResponse...) {
        self.init(responses.map { .success($0) }, repeatsLast: false)
    }

    public var requests: [HTTPRequest] { lock.withLock { sent } }
    public var lastRequest: HTTPRequest? { lock.withLock { sent.last } }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let answer: Result<HTTPResponse, Error> = lock.withLock {
            sent.append(request)
            guard !answers.isEmpty else { return .failure(ServiceError.noConnection("no canned answer")) }
            return answers.count > 1 || !repeatsLast ? answers.removeFirst() : answers[0]
        }
        return try answer.get()
    }
}
