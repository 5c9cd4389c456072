import Foundation
import XCTest

/// A test that hangs (a terminal under Xvfb that never answers, a tool that never ends, a pipe a daemon keeps open)
/// would otherwise hold the whole run until CI's own limit, and the log would not say which test it was. Watched, a
/// test still running after `limit` seconds is named on standard error with the processes it started, and those are
/// killed: the test's waits end and it fails by itself, and the run goes on. A test still stuck `grace` seconds after
/// that ends the run at once, with a message, rather than after half an hour with none.
///
/// Installed from the `setUp` of the suites that start processes; once installed it watches every test that follows.
final class TestWatchdog: NSObject, XCTestObservation, @unchecked Sendable {
    static let shared = TestWatchdog()
    /// The longest test takes about 30 s here and 125 s on two busy cores (a terminal started twice); the watchdog's
    /// own check sets a shorter one (IMAGE_FEED_TEST_LIMIT, seconds).
    static let limit: Double = ProcessInfo.processInfo.environment["IMAGE_FEED_TEST_LIMIT"].flatMap(Double.init) ?? 300
    static let grace: Double = 60

    private let lock = NSLock()
    private var installed = false
    private var generation = 0
    private var current = ""

    static func install(current testCase: XCTestCase) {
        shared.lock.lock()
        let first = !shared.installed
        shared.installed = true
        shared.lock.unlock()
        guard first else { return }
        XCTestObservationCenter.shared.addTestObserver(shared)
        // The test that installs it has already started: it is watched from now.
        shared.testCaseWillStart(testCase)
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        lock.lock()
        generation += 1
        let watched = generation
        current = testCase.name
        lock.unlock()
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.limit) { [self] in expire(watched, stage: 1) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        lock.lock()
        generation += 1
        lock.unlock()
    }

    private func expire(_ watched: Int, stage: Int) {
        lock.lock()
        let name = current
        let stillRunning = generation == watched
        lock.unlock()
        guard stillRunning else { return }
        let processes = Self.descendants(of: getpid())
        let listing = processes.map { "  \($0.pid) \($0.command)" }.joined(separator: "\n")
        if stage == 1 {
            Self.say("TestWatchdog: \(name) is still running after \(Int(Self.limit)) s; killing the processes it started:\n"
                     + (listing.isEmpty ? "  (none)" : listing))
            for process in processes { kill(process.pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.grace) { [self] in expire(watched, stage: 2) }
        } else {
            Self.say("TestWatchdog: \(name) is still stuck \(Int(Self.grace)) s after its processes were killed; ending the run.\n"
                     + listing)
            for process in processes { kill(process.pid, SIGKILL) }
            exit(70)
        }
    }

    private static func say(_ text: String) {
        let line = text + "\n"
        // Standard error is not buffered on its way to CI's log, as the test runner's output is.
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    /// Every process below `root`, read from /proc: its id and command line.
    static func descendants(of root: pid_t) -> [(pid: pid_t, command: String)] {
        var parents: [pid_t: pid_t] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After the command's name in brackets: state, then the parent's id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
        }
        var found: [pid_t] = []
        var frontier: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let children = parents.filter { frontier.contains($0.value) }.map(\.key)
            found += children
            frontier = Set(children)
        }
        return found.sorted().map { pid in
            let raw = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let command = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
            return (pid, String(command.prefix(200)))
        }
    }
}
