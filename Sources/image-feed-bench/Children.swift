import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The programs the benchmark started (the app in a pseudo-terminal, `render` and the JSON commands): when the
/// benchmark is interrupted (Ctrl-C, SIGTERM, SIGHUP), they are killed with it, never left running.
enum Children {
    /// A fixed table, so that the signal handler reads it without allocating.
    nonisolated(unsafe) private static var pids = [pid_t](repeating: 0, count: 64)
    private static let lock = NSLock()

    static func started(_ pid: pid_t) {
        lock.withLock {
            if let free = pids.firstIndex(of: 0) { pids[free] = pid }
        }
    }

    static func ended(_ pid: pid_t) {
        lock.withLock {
            if let index = pids.firstIndex(of: pid) { pids[index] = 0 }
        }
    }

    /// Ctrl-C, SIGTERM and SIGHUP kill every child still running, then end the benchmark as the signal would.
    static func killOnInterrupt() {
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { number in
                Children.pids.withUnsafeBufferPointer { table in
                    for pid in table where pid > 0 { kill(pid, SIGKILL) }
                }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
