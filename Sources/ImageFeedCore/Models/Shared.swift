import Foundation

/// A value kept once on the heap and shared by every model that holds it: a photo's author is the same
/// person on many photos, and a photo's rarely known details (camera, place, topics) take a pointer's
/// room, not some 230 bytes, in every photo of a list. Compared and hashed by value.
public final class Shared<Value: Hashable & Sendable>: Hashable, Sendable {
    public let value: Value

    public init(_ value: Value) {
        self.value = value
    }

    public static func == (lhs: Shared, rhs: Shared) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// Values many photos repeat, kept once: an author met again with nothing changed is the one already held,
/// and the tails Unsplash puts after a photo's `raw` address for its sizes (the same few for every photo)
/// are one string each. The tables are bounded (past their size they start again), so they cost little
/// however long the app runs; only memory depends on them, never what a model says.
///
/// The authors' table is sized to what a list holds as values (`Paging.heldRadius` photos either side of the one
/// shown, the rest packed): an author is some 1.7 KB (a bio, three profile-picture addresses), and a real feed's
/// photos are nearly all by different people, so a table of 4,096 grew by 7 MB as a feed was scrolled.
enum Interned {
    private final class Tables: @unchecked Sendable {
        let lock = NSLock()
        var users: [String: Shared<User>] = [:]
        var tails: Set<String> = []
    }

    private static let tables = Tables()
    static let maximumUsers = 512
    static let maximumTails = 256

    static func user(_ user: User) -> Shared<User> {
        tables.lock.lock()
        defer { tables.lock.unlock() }
        if let held = tables.users[user.id], held.value == user { return held }
        if tables.users.count >= maximumUsers { tables.users.removeAll(keepingCapacity: true) }
        let shared = Shared(user)
        tables.users[user.id] = shared
        return shared
    }

    /// How many authors the table holds (for tests).
    static var userCount: Int {
        tables.lock.withLock { tables.users.count }
    }

    /// `tail`, or an equal string already held. Short strings are kept inside the value by Swift itself.
    static func tail(_ tail: String) -> String {
        guard tail.utf8.count > 15 else { return tail }
        tables.lock.lock()
        defer { tables.lock.unlock() }
        if let held = tables.tails.firstIndex(of: tail) { return tables.tails[held] }
        if tables.tails.count >= maximumTails { tables.tails.removeAll(keepingCapacity: true) }
        tables.tails.insert(tail)
        return tail
    }
}
