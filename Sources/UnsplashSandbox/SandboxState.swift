import Foundation

/// What the sandbox remembers while it runs: likes per user, login codes and tokens, quotas, faults.
/// Shared by concurrent requests, so every access goes through the lock.
public final class SandboxState: @unchecked Sendable {
    struct PendingCode {
        var clientID: String
        var redirectURI: String
        var username: String
        var scope: String
        var expires: Date
    }

    struct Session {
        var username: String
        var scope: Set<String>
    }

    struct Quota {
        var windowStart: Date
        var used: Int
    }

    private let lock = NSLock()
    private var likesByUser: [String: Set<String>] = [:]
    private var codes: [String: PendingCode] = [:]
    private var sessions: [String: Session] = [:]
    private var quotas: [String: Quota] = [:]
    private var faultRules: [FaultRule]
    private var downloadCounts: [String: Int] = [:]
    private var requestCount = 0
    private var routeCounts: [String: Int] = [:]

    init(faults: [FaultRule]) {
        faultRules = faults
    }

    // MARK: What the demo keeps between runs

    /// The user's own doings (likes, in order, and collection changes), as the demo keeps them beside its token.
    public struct Remembered: Codable, Equatable, Sendable {
        public var likes: [String: [String]] = [:]
        public var collectionAdded: [String: [String]] = [:]
        public var collectionRemoved: [String: [String]] = [:]

        public init() {}

        /// Ids as the catalog writes them: a file another program wrote keeps to short printable names, and a few.
        public var isPlausible: Bool {
            let lists = Array(likes.values) + Array(collectionAdded.values) + Array(collectionRemoved.values)
            let keys = Array(likes.keys) + Array(collectionAdded.keys) + Array(collectionRemoved.keys)
            let ids = lists.joined()
            return lists.count <= 1_000 && ids.count <= 100_000
                && (keys + ids).allSatisfy { !$0.isEmpty && $0.utf8.count <= 100 && $0.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F } }
        }
    }

    /// Told after each like or collection change (the demo writes what it keeps).
    private var changed: (@Sendable () -> Void)?

    public func whenChanged(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { changed = action }
    }

    public var remembered: Remembered {
        lock.withLock { rememberedLocked() }
    }

    private func rememberedLocked() -> Remembered {
        var remembered = Remembered()
        remembered.likes = likeOrder.filter { !$0.value.isEmpty }
        remembered.collectionAdded = collectionAdded.filter { !$0.value.isEmpty }
        remembered.collectionRemoved = collectionRemoved.filter { !$0.value.isEmpty }.mapValues { $0.sorted() }
        return remembered
    }

    /// Takes up what an earlier run kept.
    public func restore(_ remembered: Remembered) {
        lock.withLock {
            likeOrder = remembered.likes.mapValues { ids in ids.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } } }
            likesByUser = likeOrder.mapValues(Set.init)
            collectionAdded = remembered.collectionAdded
            collectionRemoved = remembered.collectionRemoved.mapValues(Set.init)
        }
    }

    private func tellChanged() {
        lock.withLock { changed }?()
    }

    // MARK: Collections

    /// Photos users added to collections, newest first, and the catalog's photos they took out.
    private var collectionAdded: [String: [String]] = [:]
    private var collectionRemoved: [String: Set<String>] = [:]

    /// A collection's photo ids: what was added (newest first), then the catalog's own, less what was taken out.
    func collectionPhotoIDs(_ id: String, catalog: [String]) -> [String] {
        lock.withLock {
            let added = collectionAdded[id] ?? []
            let removed = collectionRemoved[id] ?? []
            return (added + catalog.filter { !added.contains($0) }).filter { !removed.contains($0) }
        }
    }

    func setInCollection(_ add: Bool, photoID: String, collectionID: String) {
        lock.withLock {
            var added = collectionAdded[collectionID] ?? []
            added.removeAll { $0 == photoID }
            if add {
                added.insert(photoID, at: 0)
                collectionRemoved[collectionID]?.remove(photoID)
            } else {
                collectionRemoved[collectionID, default: []].insert(photoID)
            }
            collectionAdded[collectionID] = added
        }
        tellChanged()
    }

    // MARK: Likes

    func likes(of username: String) -> Set<String> {
        lock.withLock { likesByUser[username] ?? [] }
    }

    /// The ids a user liked, most recent first.
    private var likeOrder: [String: [String]] = [:]

    func likedPhotoIDs(of username: String) -> [String] {
        lock.withLock { likeOrder[username] ?? [] }
    }

    func setLike(_ liked: Bool, photoID: String, username: String) {
        lock.withLock {
            var set = likesByUser[username] ?? []
            var order = likeOrder[username] ?? []
            if liked {
                if set.insert(photoID).inserted { order.insert(photoID, at: 0) }
            } else {
                set.remove(photoID)
                order.removeAll { $0 == photoID }
            }
            likesByUser[username] = set
            likeOrder[username] = order
        }
        tellChanged()
    }

    /// How many users like the photo right now.
    func likeCount(photoID: String) -> Int {
        lock.withLock { likesByUser.values.filter { $0.contains(photoID) }.count }
    }

    // MARK: OAuth

    func issueCode(clientID: String, redirectURI: String, username: String, scope: String, now: Date = Date()) -> String {
        let code = Self.randomToken()
        lock.withLock {
            codes[code] = PendingCode(clientID: clientID, redirectURI: redirectURI, username: username, scope: scope,
                                      expires: now.addingTimeInterval(600))
        }
        return code
    }

    /// Takes a code out (codes are single-use) if it was issued to this client for this redirect URI.
    func redeemCode(_ code: String, clientID: String, redirectURI: String, now: Date = Date()) -> PendingCode? {
        lock.withLock {
            guard let pending = codes.removeValue(forKey: code), pending.expires > now,
                  pending.clientID == clientID, pending.redirectURI == redirectURI else { return nil }
            return pending
        }
    }

    /// Makes a bearer token for a user; tests use it to log in without the OAuth pages.
    /// Takes a token issued by an earlier run as this user's (the in-process demo sandbox forgets its
    /// sessions when it stops; the demo keeps its login, as a real one is kept).
    public func adoptToken(_ token: String, username: String, scope: String = "public read_user write_likes") {
        lock.withLock {
            sessions[token] = Session(username: username, scope: Set(scope.split(separator: " ").map(String.init)))
        }
    }

    public func issueToken(username: String, scope: String = "public read_user write_likes") -> String {
        let token = Self.randomToken()
        lock.withLock {
            sessions[token] = Session(username: username, scope: Set(scope.split(separator: " ").map(String.init)))
        }
        return token
    }

    /// Revokes a token, as a user revoking the application's access would.
    public func revokeToken(_ token: String) {
        _ = lock.withLock { sessions.removeValue(forKey: token) }
    }

    func session(for token: String) -> Session? {
        lock.withLock { sessions[token] }
    }

    // MARK: Quotas

    /// Counts one request against the caller's hourly quota; returns what is left, or nil if none was.
    func spendQuota(caller: String, limit: Int, now: Date = Date()) -> (remaining: Int, resetsAt: Date)? {
        lock.withLock {
            var quota = quotas[caller] ?? Quota(windowStart: now, used: 0)
            if now.timeIntervalSince(quota.windowStart) >= 3_600 {
                quota = Quota(windowStart: now, used: 0)
            }
            let resetsAt = quota.windowStart.addingTimeInterval(3_600)
            guard quota.used < limit else {
                quotas[caller] = quota
                return nil
            }
            quota.used += 1
            quotas[caller] = quota
            return (limit - quota.used, resetsAt)
        }
    }

    func quotaReset(caller: String) -> Date {
        lock.withLock { (quotas[caller]?.windowStart ?? Date()).addingTimeInterval(3_600) }
    }

    // MARK: Faults

    public var faults: [FaultRule] {
        lock.withLock { faultRules }
    }

    public func setFaults(_ rules: [FaultRule]) {
        lock.withLock { faultRules = rules }
    }

    public func addFault(_ rule: FaultRule) {
        lock.withLock { faultRules.append(rule) }
    }

    /// The faults that apply to this request of a route; counted ones are used up.
    func takeFaults(for route: String) -> [FaultRule] {
        lock.withLock {
            requestCount += 1
            routeCounts[route, default: 0] += 1
            var taken: [FaultRule] = []
            var kept: [FaultRule] = []
            for var rule in faultRules {
                if rule.applies(to: route) {
                    taken.append(rule)
                    if let remaining = rule.remaining {
                        rule.remaining = remaining - 1
                        if remaining - 1 <= 0 { continue }
                    }
                }
                kept.append(rule)
            }
            faultRules = kept
            return taken
        }
    }

    // MARK: Downloads

    func countDownload(photoID: String) {
        lock.withLock { downloadCounts[photoID, default: 0] += 1 }
    }

    public func downloads(of photoID: String) -> Int {
        lock.withLock { downloadCounts[photoID] ?? 0 }
    }

    /// Every request the sandbox answered (faulted or not).
    public var requestsServed: Int {
        lock.withLock { requestCount }
    }

    /// Requests answered per route: the API's ("photos", "photo", "like", "me", "user", "user-likes",
    /// "search", "download"), "image" for photo and avatar files, "oauth-authorize" and "oauth-token".
    public var requestsByRoute: [String: Int] {
        lock.withLock { routeCounts }
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
