import Foundation

/// The current time, injected so that cache ages and rate-limit messages can be tested.
/// (Named to stay clear of the standard library's `Clock`, which measures durations.)
public protocol WallClock: Sendable {
    var now: Date { get }
}

public struct SystemWallClock: WallClock {
    public init() {}
    public var now: Date { Date() }
}
