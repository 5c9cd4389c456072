import Foundation
import TerminalImage
import TerminalUI
import UnsplashSandbox
#if canImport(Glibc)
import Glibc
#endif

/// What a hostile or unlucky server costs the real `image-feed` program (a process of its own): its peak
/// memory on a decompression bomb and on bodies that never end, and the API requests of a typical session,
/// against a well-behaved sandbox and one whose listings repeat themselves. A new Unsplash application has
/// 50 requests an hour.
struct HostileBenchmark {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The program measured; nil: the one built beside the benchmark.
    var program: URL?

    func run(into report: inout Report) async throws {
        guard let program = program ?? ScrollBenchmark.sibling("image-feed") else {
            report.note("hostile: skipped, image-feed is not built beside the benchmark (make bench builds both)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-hostile")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        // A 60000 x 60000 progressive JPEG of a few hundred bytes, drawn by `render`.
        let bomb = folder.appendingPathComponent("bomb.jpg")
        let tiny = RGBImage(width: 16, height: 16, pixels: [UInt8](repeating: 128, count: 16 * 16 * 3))
        try ImageCodec.claimingSize(try ImageCodec.encodeJPEG(tiny, progressive: true), width: 60_000, height: 60_000).write(to: bomb)
        let rendered = try Self.command(program, ["render", bomb.path, "--cols", "80", "--rows", "24", "--graphics", "cells"],
                                        environment: Self.environment(home: folder))
        report.add("hostile: render a 60000x60000 JPEG bomb, peak memory", Self.megabytes(rendered.peak), target: "< 100 MB")
        report.note("hostile: render of the bomb exited \(rendered.status) in \(milliseconds(rendered.seconds)): \(rendered.error)")

        // JSON commands and `render` against bodies that never end, or declare 2 GB.
        for (fault, arguments, label) in [("photos=endless", ["feed"], "feed command, an endless body"),
                                          ("photos=huge", ["feed"], "feed command, a body declared 2 GB"),
                                          ("image=endless", ["render", "IMAGE"], "render of a URL, an endless image")] {
            let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(faults: [try FaultRule(parsing: fault)])))
            let image = sandbox.baseURL.appendingPathComponent("images/photos/coffee.jpg").absoluteString
            let outcome = try Self.command(program, arguments.map { $0 == "IMAGE" ? image : $0 } + (arguments[0] == "render" ? ["--cols", "40", "--rows", "12"] : []),
                                           environment: Self.environment(home: folder, sandbox: sandbox))
            await sandbox.stop()
            report.add("hostile: \(label), peak memory", Self.megabytes(outcome.peak), target: "< 100 MB")
            report.add("hostile: \(label), time to the error", milliseconds(outcome.seconds))
            report.note("hostile: \(label): exit \(outcome.status): \(outcome.error)")
        }

        // The full-screen app with every image a bomb, then every image endless.
        for fault in ["image=bomb", "image=endless"] {
            let session = try await Session.start(program, faults: [fault], home: folder.appendingPathComponent("app"))
            try? session.waitUntil("the first page and its pictures", timeout: 60) { session.served("photos") >= 1 && session.served("image") >= 2 }
            for _ in 0..<10 { session.press("j", quiet: 0.2) }
            sleepFor(5)
            report.add("hostile: the app, every image \(fault.dropFirst(6)), peak memory (VmHWM)", session.peakMemory(), target: "< 150 MB")
            await session.stop()
        }

        // A typical session: 100 cards, 3 photos opened, 3 likes, a detail, a photographer, a search, the profile.
        let typical = try await Session.start(program, faults: [], home: folder.appendingPathComponent("typical"))
        try typical.waitUntil("the first page", timeout: 60) { typical.served("photos") >= 1 && typical.served("image") >= 2 }
        for _ in 0..<99 { typical.press("j", quiet: 0.03) }
        for _ in 0..<3 {
            typical.press("\r", quiet: 0.3)
            typical.press("q", quiet: 0.2)
            typical.press("l", quiet: 0.2)
            typical.press("k", quiet: 0.05)
        }
        typical.press("i", quiet: 0.3)
        typical.press("q", quiet: 0.2)
        typical.press("u", quiet: 0.5)
        typical.press("q", quiet: 0.2)
        typical.press("/", quiet: 0.1)
        for key in "coffee" { typical.press(String(key), quiet: 0.02) }
        typical.press("\r", quiet: 0.5)
        typical.press("3", quiet: 0.5)
        sleepFor(1)
        let requests = typical.apiRequests
        report.note("hostile: typical session, requests served: \(typical.breakdown)")
        report.add("hostile: typical session (100 cards, 3 photos, 3 likes, a detail, a photographer, a search, the profile), API requests",
                   "\(requests)", target: "<= 25")
        await typical.stop()

        // A server whose every page repeats the first: requests before the first key, then over 100 key presses.
        let repeating = try await Session.start(program, faults: ["photos=repeat"], home: folder.appendingPathComponent("repeat"))
        try repeating.waitUntil("the first page", timeout: 60) { repeating.served("photos") >= 1 }
        sleepFor(3)
        let beforeKeys = repeating.served("photos")
        for _ in 0..<100 { repeating.press("j", quiet: 0.02) }
        sleepFor(1)
        report.add("hostile: a repeating feed, requests before the first key", "\(beforeKeys)", target: "<= 3")
        report.add("hostile: a repeating feed, requests after 100 key presses", "\(repeating.served("photos"))", target: "<= 5")
        await repeating.stop()
    }

    /// The program in a pseudo-terminal of its own against a sandbox with `faults`, logged in.
    final class Session {
        let sandbox: RunningSandbox
        let terminal: PseudoTerminal
        let pid: pid_t

        /// The most memory the program may take before the watchdog kills it (so that a regression cannot take
        /// the machine down); its peak is then reported as "past" this.
        static let memoryCap = 2 << 30
        private let watchdog = Watchdog()

        init(sandbox: RunningSandbox, terminal: PseudoTerminal, pid: pid_t) {
            self.sandbox = sandbox
            self.terminal = terminal
            self.pid = pid
            let watchdog = self.watchdog
            Thread.detachNewThread {
                while !watchdog.stopped {
                    if let memory = try? ScrollBenchmark.memory(of: pid), memory.resident > Self.memoryCap {
                        watchdog.killed = true
                        kill(pid, SIGKILL)
                        return
                    }
                    usleep(20_000)
                }
            }
        }

        final class Watchdog: @unchecked Sendable {
            var stopped = false
            var killed = false
        }

        /// The program's peak memory, or a note that the watchdog killed it past the cap.
        func peakMemory() -> String {
            if watchdog.killed { return "killed past \(Self.memoryCap >> 30) GB" }
            return (try? ScrollBenchmark.memory(of: pid)).map { HostileBenchmark.megabytes($0.peak) } ?? "gone"
        }

        static func start(_ program: URL, faults: [String], home: URL) async throws -> Session {
            let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(faults: try faults.map(FaultRule.init(parsing:)))))
            try? FileManager.default.removeItem(at: home)
            var environment = HostileBenchmark.environment(home: home, sandbox: sandbox)
            environment["TERM"] = "xterm-256color"
            environment["IMAGE_FEED_TOKEN"] = sandbox.server.state.issueToken(username: sandbox.server.catalog.demoUsername)
            let terminal = try PseudoTerminal(width: 120, height: 40)
            let pid = try ScrollBenchmark.spawn(program, environment: environment, terminal: terminal.slave)
            return Session(sandbox: sandbox, terminal: terminal, pid: pid)
        }

        func served(_ route: String) -> Int { sandbox.server.state.requestsByRoute[route] ?? 0 }

        var apiRequests: Int {
            sandbox.server.state.requestsByRoute.filter { !["image", "oauth-authorize", "oauth-token"].contains($0.key) }.values.reduce(0, +)
        }

        var breakdown: String {
            sandbox.server.state.requestsByRoute.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }

        func waitUntil(_ what: String, timeout: TimeInterval, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else { throw Failure(description: "hostile: \(what) did not happen in \(Int(timeout)) s (served: \(breakdown))") }
                sleepFor(0.01)
            }
        }

        /// Types a key and waits until the program has been quiet `quiet` seconds.
        func press(_ key: String, quiet: TimeInterval) {
            let before = terminal.bytesReceived
            terminal.type(Array(key.utf8))
            terminal.waitForQuiet(after: before, quiet: quiet, timeout: 5)
        }

        func stop() async {
            watchdog.stopped = true
            kill(pid, SIGTERM)
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(5)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() > deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                sleepFor(0.01)
            }
            Children.ended(pid)
            terminal.close()
            await sandbox.stop()
        }
    }

    /// A private home, and the sandbox as the service when there is one.
    static func environment(home: URL, sandbox: RunningSandbox? = nil) -> [String: String] {
        var environment = FeedBenchmark.privateEnvironment(tag: "hostile")
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        if let sandbox {
            environment["IMAGE_FEED_API_BASE"] = sandbox.baseURL.absoluteString
            environment["IMAGE_FEED_OAUTH_BASE"] = sandbox.baseURL.absoluteString
            environment["UNSPLASH_ACCESS_KEY"] = SandboxSettings.demoAccessKey
        }
        return environment
    }

    /// Runs a command to its end: its exit status, peak resident memory (bytes), time and last line of stderr.
    static func command(_ program: URL, _ arguments: [String], environment: [String: String],
                        timeout: TimeInterval = 300) throws -> (status: Int32, peak: Int, seconds: Double, error: String) {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-bench-hostile-\(getpid()).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorFile = open(errors.path, O_WRONLY | O_TRUNC)
        let nullFile = open("/dev/null", O_RDWR)
        defer {
            close(errorFile)
            close(nullFile)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, nullFile, 0)
        posix_spawn_file_actions_adddup2(&actions, nullFile, 1)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program.path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = now()
        let spawned = posix_spawn(&pid, program.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot run \(program.path): \(String(cString: strerror(spawned)))") }
        Children.started(pid)
        defer { Children.ended(pid) }
        var status: Int32 = 0
        var usage = rusage()
        // A watchdog: past the timeout (or 2 GB of memory, checked as it runs) the program is killed, so that
        // a regression cannot take the machine down.
        var killed = false
        // The peak is the program's own (VmHWM, read as it runs): the rusage of a child started by posix_spawn
        // counts the benchmark's own memory from before the exec, the same for every child.
        var peak = 0
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            let memory = try? ScrollBenchmark.memory(of: pid)
            peak = max(peak, memory?.peak ?? 0)
            if now() - started > timeout || (memory?.resident ?? 0) > Session.memoryCap {
                kill(pid, SIGKILL)
                wait4(pid, &status, 0, &usage)
                killed = true
                break
            }
            sleepFor(0.005)
        }
        let seconds = now() - started
        let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: errors)
        let last = killed ? "killed by the watchdog (past 2 GB or the time limit)" : text.split(separator: "\n").last.map(String.init) ?? ""
        return ((status >> 8) & 0xFF, peak, seconds, String(last.prefix(160)))
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
