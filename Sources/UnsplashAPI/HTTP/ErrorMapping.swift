import Foundation
import ImageFeedCore

extension ServiceError {
    /// The typed error for an HTTP answer that is not a success.
    /// - Parameter withUserToken: the request carried a user's token, so a 401 means the session ended.
    /// - Parameter now: the client's clock, which a `Retry-After` counts from.
    static func from(_ response: HTTPResponse, withUserToken: Bool, now: Date) -> ServiceError {
        let metadata = ResponseMetadata(headers: response)
        let detail = bodyMessage(response.body)
        switch response.status {
        case 401:
            return withUserToken ? .sessionExpired : .applicationKeyRefused
        // The hourly quota: Unsplash answers 403 with `X-Ratelimit-Remaining: 0` and "Rate Limit Exceeded", and
        // 429 ("too many requests") for the same.
        case 429, 403 where metadata.rateLimit?.remaining == 0 || detail.lowercased().contains("rate limit"):
            return .rateLimited(limit: metadata.rateLimit?.limit, resetsAt: resetTime(response, now: now))
        case 403:
            return .forbidden(detail.isEmpty ? "access denied" : detail)
        // A search Unsplash will not run (`{"errors":["Query flagged as spam"]}`): the words, not the service, are
        // the problem.
        case 410:
            return .forbidden(detail.isEmpty ? "the request is no longer served (HTTP 410)" : "\(detail). Try other words.")
        case 404:
            return .notFound
        case 500...599:
            return .server(status: response.status)
        default:
            return .http(status: response.status, message: detail)
        }
    }

    /// Unsplash does not say when the hourly quota refills; a server that does (as the sandbox does)
    /// sends the time as `X-Ratelimit-Reset` (epoch seconds) or a `Retry-After` in seconds.
    private static func resetTime(_ response: HTTPResponse, now: Date) -> Date? {
        if let reset = response.header("X-Ratelimit-Reset").flatMap({ TimeInterval($0) }) {
            return Date(timeIntervalSince1970: reset)
        }
        if let after = response.header("Retry-After").flatMap({ TimeInterval($0) }) {
            return now.addingTimeInterval(after)
        }
        return nil
    }

    /// The text of `{"errors": […]}`, or of a short plain-text body.
    static func bodyMessage(_ body: Data) -> String {
        if let decoded = try? JSONDecoder().decode(ErrorsDTO.self, from: body) {
            return decoded.errors.joined(separator: "; ")
        }
        guard body.count <= 300, let text = String(data: body, encoding: .utf8) else { return "" }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("{") || trimmed.hasPrefix("<") ? "" : trimmed
    }
}
