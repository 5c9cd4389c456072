import Foundation

/// Remembers whether the last start of the full-screen app got as far as showing its screens. A start
/// leaves a marker that the app takes away once it has been drawing for a few seconds (or quits); a marker
/// left by a process that is gone means that start crashed early, and the next start goes without what
/// it would have restored (the saved lists) and says why, so a bad saved photo cannot crash every start.
public struct StartGuard: Sendable {
    public let marker: URL
    /// How long the app must have been drawing before its start counts as a good one.
    public static let settleTime: TimeInterval = 3

    public init(marker: URL) {
        self.marker = marker
    }

    /// Whether the last start ended before it settled. A marker of a process still running (a second copy
    /// starting now) does not count.
    public func lastStartFailed() -> Bool {
        guard let data = try? BoundedFile.read(marker, limit: 64, noFollow: true) else { return false }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text), pid > 0 else { return true }
        if pid == getpid() { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// This start has begun.
    public func begin() {
        try? FileManager.default.createDirectory(at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data("\(getpid())\n".utf8).write(to: marker, options: .atomic)
    }

    /// This start got through (or the app quit normally).
    public func settled() {
        guard let data = try? BoundedFile.read(marker, limit: 64, noFollow: true),
              Int32(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) == getpid() else { return }
        try? FileManager.default.removeItem(at: marker)
    }

    /// What the user is told when the saved lists were left out.
    public static let notice = "The last start stopped before its first screens, so the saved lists were not loaded this time "
        + "(image-feed cache clear empties them)."
}
