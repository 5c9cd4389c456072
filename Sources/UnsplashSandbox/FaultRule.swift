import Foundation

/// A fault the sandbox injects into the answers of one route (or every route), for tests and demos.
///
/// Written as `ROUTE=KIND[:ARG][xCOUNT]`, for example `photos=status:500`, `image=corrupt`, `image=bandwidth:16384`,
/// `search=latency:2000`, `*=drop`, `like=status:503x1` (only the next request).
public struct FaultRule: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// Waits `argument` milliseconds before answering (then answers normally).
        case latency
        /// Answers with HTTP status `argument` (401, 403, 404, 500, 503, …) and an errors body.
        case status
        /// Answers 403 "Rate Limit Exceeded" with `X-Ratelimit-Remaining: 0`, the quota said to refill after
        /// `argument` seconds (60 when not given).
        case rateLimit = "ratelimit"
        /// Answers 200 with a body that is not JSON.
        case malformed
        /// Answers 200 with the first half of the real JSON.
        case truncated
        /// Closes the connection in the middle of the answer.
        case drop
        /// Serves image bytes that are damaged past their header.
        case corrupt
        /// Sends the answer at `argument` bytes a second (a slow link: the download's progress shows).
        case bandwidth
        /// Answers with every text field (descriptions, names, bios, locations) carrying terminal escape
        /// sequences, control characters and bidi overrides: what a hostile uploader could write.
        case hostile
        /// Serves, for an image, a few hundred bytes of JPEG whose header claims 60000 x 60000 pixels.
        case bomb
        /// Answers 200 with a body that never ends (junk bytes, no length), until the client goes away.
        case endless
        /// Answers 200 declaring a body of 2 GB (`Content-Length`) and sends junk until the client goes away.
        case huge
        /// Answers 200 and sends one byte every `argument` milliseconds (1000 when not given), never ending:
        /// a server that trickles meets the client's total deadline.
        case trickle
        /// Answers with absurd numbers: a photo 1 x 2^62 pixels, counts and totals of 2^62, negative views,
        /// dates in the year 99999, coordinates past the poles, and `X-Total` of 2^62.
        case absurd
        /// Answers every page of a listing with page 1's items (the `Link` still points on): a listing that
        /// repeats itself, as Unsplash's do when photos are published between two requests.
        case `repeat`
    }

    /// The routes: `photos` (the feed), `photo`, `like`, `download`, `me`, `user`, `user-likes`,
    /// `search`, exploring's `user-photos`, `user-collections`, `topics`, `topic`, `topic-photos`, `collection`,
    /// `collection-photos`, `collection-change`, `search-users`, `search-collections`, `image`, `oauth-authorize`,
    /// `oauth-token`, Imgur's `imgur-albums` and `imgur-images`, or `*` for all.
    public static let routes = ["photos", "photo", "like", "download", "me", "user", "user-likes", "search",
                                "user-photos", "user-collections", "topics", "topic", "topic-photos", "collection",
                                "collection-photos", "collection-change", "search-users", "search-collections",
                                "image", "oauth-authorize", "oauth-token", "imgur-albums", "imgur-images", "*"]

    public var route: String
    public var kind: Kind
    public var argument: Int?
    /// How many requests it still applies to; nil for every one.
    public var remaining: Int?

    public init(route: String, kind: Kind, argument: Int? = nil, remaining: Int? = nil) {
        self.route = route
        self.kind = kind
        self.argument = argument
        self.remaining = remaining
    }

    public init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, Self.routes.contains(parts[0]) else {
            throw SandboxError.badFault("\(text): expected ROUTE=KIND with ROUTE one of \(Self.routes.joined(separator: ", "))")
        }
        var spec = parts[1]
        var remaining: Int?
        if let times = spec.lastIndex(of: "x"), let count = Int(spec[spec.index(after: times)...]), count > 0 {
            remaining = count
            spec = String(spec[..<times])
        }
        let kindAndArgument = spec.split(separator: ":", maxSplits: 1).map(String.init)
        guard let kind = Kind(rawValue: kindAndArgument.first ?? "") else {
            throw SandboxError.badFault("\(text): KIND is one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var argument: Int?
        if kindAndArgument.count == 2 {
            guard let value = Int(kindAndArgument[1]), value >= 0 else {
                throw SandboxError.badFault("\(text): the argument must be a whole number")
            }
            argument = value
        }
        if kind == .latency || kind == .status || kind == .bandwidth, argument == nil {
            throw SandboxError.badFault("\(text): \(kind.rawValue) needs a number (milliseconds, a status, or bytes a second)")
        }
        if kind == .trickle, argument == 0 {
            throw SandboxError.badFault("\(text): trickle needs at least one millisecond between bytes")
        }
        if kind == .bandwidth, argument == 0 {
            throw SandboxError.badFault("\(text): bandwidth needs at least one byte a second")
        }
        if kind == .status, let status = argument, !(100...599).contains(status) {
            throw SandboxError.badFault("\(text): \(status) is not an HTTP status")
        }
        self.init(route: parts[0], kind: kind, argument: argument, remaining: remaining)
    }

    func applies(to route: String) -> Bool {
        self.route == "*" || self.route == route
    }
}
