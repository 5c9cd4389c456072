/// The request quota as the service last reported it.
public struct RateLimit: Hashable, Sendable, Codable {
    public var limit: Int
    public var remaining: Int

    public init(limit: Int, remaining: Int) {
        self.limit = limit
        self.remaining = remaining
    }
}
