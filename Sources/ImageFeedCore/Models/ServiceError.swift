import Foundation

/// What can go wrong talking to a photo service, each with a message a person can act on.
public enum ServiceError: Error, Hashable, Sendable {
    /// No network, the host cannot be found, or the connection was refused or dropped.
    case noConnection(String)
    case timeout
    /// The stored login is no longer accepted (HTTP 401 with a user token).
    case sessionExpired
    /// The application's access key was refused (HTTP 401 without a user token).
    case applicationKeyRefused
    /// The request needs a logged-in user and there is none.
    case loginRequired
    /// Nothing is configured to talk to the service (no access key and no token).
    case notConfigured(String)
    /// The hourly request quota is used up (HTTP 403 with X-Ratelimit-Remaining: 0).
    case rateLimited(limit: Int?, resetsAt: Date?)
    case forbidden(String)
    case notFound
    /// HTTP 5xx.
    case server(status: Int)
    /// Any other unexpected HTTP status.
    case http(status: Int, message: String)
    /// The response could not be read; `field` names where (e.g. `results[3].urls`).
    case malformedResponse(field: String)
    /// The program stopped asking before a daily allowance ran out (Imgur blocks a client id for the rest of the
    /// month after five days over it): `remaining` of `limit` were left.
    case creditsKept(service: String, remaining: Int, limit: Int)
    case other(String)

    public var message: String {
        switch self {
        case let .noConnection(detail):
            "No connection to the photo service (\(detail)). Check the network and try again."
        case .timeout:
            "The photo service did not answer in time. Try again."
        case .sessionExpired:
            "Your session has expired. Please log in again."
        case .applicationKeyRefused:
            "The Unsplash access key was refused. Check UNSPLASH_ACCESS_KEY or the config file."
        case .loginRequired:
            "This needs you to be logged in. Log in first."
        case let .notConfigured(detail):
            detail
        case let .rateLimited(limit, resetsAt):
            Self.rateLimitMessage(limit: limit, resetsAt: resetsAt)
        case let .forbidden(detail):
            "The photo service refused the request: \(detail)"
        case .notFound:
            "Not found: it may have been deleted."
        case let .server(status):
            "The photo service is having trouble (HTTP \(status)). Try again in a moment."
        case let .http(status, detail):
            detail.isEmpty ? "Unexpected answer from the photo service (HTTP \(status))."
                : "Unexpected answer from the photo service (HTTP \(status)): \(detail)"
        case let .malformedResponse(field):
            "The photo service sent a response that could not be read (at \(field))."
        case let .creditsKept(service, remaining, limit):
            "\(service)'s daily credits for this program are nearly spent (\(remaining) of \(limit) left). It waits until "
                + "\(service) refills them (within a day), so that \(service) does not block it for the rest of the month."
        case let .other(detail):
            detail
        }
    }

    /// The message, naming the service that failed where it says "the photo service" (Imgur's albums say "Imgur").
    public func message(from service: String) -> String {
        message.replacingOccurrences(of: "The photo service", with: service)
            .replacingOccurrences(of: "the photo service", with: service)
    }

    /// Worth offering "try again" for: the same request may succeed later.
    public var isTransient: Bool {
        switch self {
        case .noConnection, .timeout, .server, .rateLimited, .malformedResponse: true
        default: false
        }
    }

    /// What went wrong, without the advice that `message` ends with (for a dialog that asks "Try again?").
    public var problem: String {
        switch self {
        case let .noConnection(detail): "No connection to the photo service (\(detail))."
        case .timeout: "The photo service did not answer in time."
        case let .server(status): "The photo service is having trouble (HTTP \(status))."
        default: message
        }
    }

    /// What the reload key can do about it: try again now, or only later (the quota's reset), or nothing (a photo
    /// that is gone, a key that is refused): then there is no advice. The key is named `{reload}`: the screen that
    /// shows the advice spells it with the key in force.
    public var retryAdvice: String? {
        if case let .rateLimited(_, resetsAt) = self {
            return resetsAt.map { "The quota refills at \(CivilTime.localClockUp($0)); {reload} works again then." } ?? "{reload} works again when the quota refills."
        }
        return retryHelpsNow ? "Press {reload} to try again." : nil
    }

    /// Whether `r` can help at once: not for what is gone, refused or unconfigured, nor while the quota is
    /// used up (the one rule for the panes' "Press r" and the status line's "r tries again").
    public var retryHelpsNow: Bool {
        switch self {
        case .notFound, .applicationKeyRefused, .notConfigured, .loginRequired, .forbidden, .sessionExpired, .rateLimited, .creditsKept: false
        default: true
        }
    }

    /// A status-line notice that `what` ("reload the feed") failed: "Couldn't reload the feed (HTTP 503).", or, for
    /// the quota, the time first ("Rate limited until 08:43: couldn't reload the feed."), so a short line keeps it.
    public func couldNot(_ what: String) -> String {
        if case .rateLimited = self { return "\(summary.prefix(1).uppercased())\(summary.dropFirst()): couldn't \(what)." }
        return "Couldn't \(what) (\(summary))."
    }

    /// A few words for a status-line notice ("HTTP 503", "no connection"), where the whole message would not fit.
    public var summary: String {
        switch self {
        case .noConnection: "no connection"
        case .timeout: "no answer in time"
        case .sessionExpired: "session expired"
        case .applicationKeyRefused: "access key refused"
        case .loginRequired: "log in first"
        case let .notConfigured(detail): detail
        case let .rateLimited(_, resetsAt):
            resetsAt.map { "rate limited until \(CivilTime.localClockUp($0))" } ?? "rate limited"
        case .forbidden: "refused"
        case .notFound: "not found"
        case let .server(status), let .http(status, _): "HTTP \(status)"
        case .malformedResponse: "an unreadable answer"
        case let .creditsKept(service, _, _): "\(service)'s daily credits nearly spent"
        case let .other(detail): detail
        }
    }

    private static func rateLimitMessage(limit: Int?, resetsAt: Date?) -> String {
        let quota = limit.map { " (\($0) requests an hour)" } ?? ""
        guard let resetsAt else {
            return "Rate limit reached\(quota). The quota refills within the hour; try again later."
        }
        // The time first: a line cut short keeps it.
        return "Rate limited until \(CivilTime.localClock(resetsAt, seconds: true))\(quota); try again then."
    }
}

extension ServiceError: LocalizedError {
    public var errorDescription: String? { message }
}
