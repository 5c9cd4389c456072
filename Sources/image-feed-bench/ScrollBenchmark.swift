import Foundation
import TerminalUI
import UnsplashSandbox
#if canImport(Glibc)
import Glibc
#endif

/// A long session: the real `image-feed` program (a process of its own, on a pseudo-terminal) scrolls
/// through thousands of feed photos against the sandbox, each card's photo fetched and drawn as a person
/// reading the feed would see it. Measures the program's peak memory (the kernel's high-water mark of its
/// resident set) and how many API requests it made per 100 photos (images are not API requests).
struct ScrollBenchmark {
    let photos: Int
    let width = 120
    let height = 40
    /// The next key goes when the program has answered the last and been quiet this long: its photo had
    /// time to arrive and be drawn.
    let pause: TimeInterval = 0.004

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run(into report: inout Report) async throws {
        let label = "scroll \(photos) feed photos, \(width)x\(height)"
        guard let program = Self.sibling("image-feed") else {
            report.note("\(label): skipped, image-feed is not built beside the benchmark (make bench builds both)")
            return
        }
        let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(feedSize: photos + 60)))
        let token = sandbox.server.state.issueToken(username: sandbox.server.catalog.demoUsername)

        let environment = Self.programEnvironment(tag: "scroll", sandbox: sandbox, token: token)

        let terminal = try PseudoTerminal(width: width, height: height)
        let pid = try Self.spawn(program, environment: environment, terminal: terminal.slave)
        var finished = false
        defer {
            if !finished { kill(pid, SIGKILL); var status: Int32 = 0; waitpid(pid, &status, 0) }
            Children.ended(pid)
            terminal.close()
        }
        func served(_ route: String) -> Int { sandbox.server.state.requestsByRoute[route] ?? 0 }
        func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: () -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else {
                    let routes = sandbox.server.state.requestsByRoute.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    throw Failure(description: "\(label): \(what) did not happen in \(Int(timeout)) s (served: \(routes.joined(separator: ", ")))")
                }
                sleepFor(0.005)
            }
        }
        try waitUntil("the first page and its photos") { served("photos") >= 1 && served("image") >= 2 }

        // A photo counts as viewed when its card came into view and its picture was fetched. A key goes
        // when the last one was answered: a new picture asked for, and the screen quiet for a moment.
        let started = now()
        var keys = 0
        var stalled = 0.0
        // Stuck is no new photo for half a minute (keys that bring none, a second each, add up over a long run).
        var lastProgress = now()
        // The memory as the photos seen pass each mark: a footprint that stays flat after the first 500 is what a
        // user scrolling all afternoon keeps.
        var marks = [500, 1_000, 3_000, 10_000, 30_000].filter { $0 < photos }
        var atMarks: [(photos: Int, memory: Memory)] = []
        while served("image") < photos {
            if let mark = marks.first, served("image") >= mark {
                marks.removeFirst()
                atMarks.append((mark, try Self.memory(of: pid)))
            }
            let images = served("image")
            let before = terminal.bytesReceived
            terminal.type(Array("j".utf8))
            keys += 1
            let keyTime = now()
            while served("image") == images, now() - keyTime < 1 { sleepFor(0.001) }
            if served("image") == images { stalled += now() - keyTime } else { lastProgress = now() }
            terminal.waitForQuiet(after: before, quiet: pause, timeout: 1)
            guard keys < photos * 2, now() - lastProgress < 30 else {
                let routes = sandbox.server.state.requestsByRoute.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                throw Failure(description: "\(label): stuck after \(keys) keys (served: \(routes.joined(separator: ", ")))")
            }
        }
        sleepFor(0.5)
        let elapsed = now() - started
        let memory = try Self.memory(of: pid)

        terminal.type(Array("q".utf8))
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            guard Date() < deadline else { break }
            sleepFor(0.01)
        }
        finished = Date() < deadline
        await sandbox.stop()

        let routes = sandbox.server.state.requestsByRoute
        let apiRequests = routes.filter { !["image", "oauth-authorize", "oauth-token"].contains($0.key) }.values.reduce(0, +)
        let perHundred = Double(apiRequests) / Double(photos) * 100
        let breakdown = routes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        report.note("\(label): requests served: \(breakdown); \(String(format: "%.1f", elapsed)) s of scrolling")
        func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
        for (count, mark) in atMarks {
            report.add("\(label): after \(count) photos: peak (VmHWM); its own memory (RssAnon)",
                       megabytes(mark.peak) + "; " + megabytes(mark.anonymous))
        }
        report.add("\(label): peak memory (VmHWM)", megabytes(memory.peak), target: "<= 50 MB")
        report.add("\(label): memory at the end (VmRSS); its own (RssAnon); libraries and files (RssFile)",
                   megabytes(memory.resident) + "; " + megabytes(memory.anonymous) + "; " + megabytes(memory.file))
        if let first = atMarks.first {
            report.add("\(label): growth of the peak after the first \(first.photos) photos", megabytes(memory.peak - first.memory.peak),
                       target: "flat")
        }
        report.add("\(label): API requests per 100 photos", String(format: "%.2f", perHundred), target: "<= 4")
        report.note("\(label): \(keys) key presses; \(String(format: "%.1f", stalled)) s waiting on keys that brought no new photo")
    }

    /// The environment `image-feed` runs in against `sandbox`, logged in with `token`, in a fresh home (no saved
    /// feed, no image cache), on an xterm-256color terminal speaking UTF-8.
    static func programEnvironment(tag: String, sandbox: RunningSandbox, token: String) -> [String: String] {
        var environment = FeedBenchmark.privateEnvironment(tag: tag)
        try? FileManager.default.removeItem(atPath: environment["HOME"]!)
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["IMAGE_FEED_API_BASE"] = sandbox.baseURL.absoluteString
        environment["IMAGE_FEED_OAUTH_BASE"] = sandbox.baseURL.absoluteString
        environment["UNSPLASH_ACCESS_KEY"] = SandboxSettings.demoAccessKey
        environment["IMAGE_FEED_TOKEN"] = token
        return environment
    }

    /// A program built beside this one (`swift build -c release` puts every product in one folder).
    static func sibling(_ name: String) -> URL? {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate = own.deletingLastPathComponent().appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// Starts `program` in a session of its own with the terminal as its standard input, output and error.
    static func spawn(_ program: URL, environment: [String: String], terminal: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, terminal, target) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(Self.spawnSetSID))
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program.path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program.path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(description: "cannot run \(program.path): \(String(cString: strerror(status)))") }
        Children.started(pid)
        return pid
    }

    /// POSIX_SPAWN_SETSID (glibc 2.26+), which Swift's Glibc module does not export.
    static let spawnSetSID: Int32 = 0x80

    /// A process's memory, in bytes: the high-water mark of its resident set, the resident set now, and that set's
    /// two parts: its own (heap, stacks: what its data costs) and pages of files (the program and its libraries).
    struct Memory {
        var peak: Int
        var resident: Int
        var anonymous: Int
        var file: Int
    }

    /// The process's peak and current resident set, from /proc.
    static func memory(of pid: pid_t) throws -> Memory {
        let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func kilobytes(_ field: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return 0 }
            return Int(line.split(separator: " ").dropFirst().first.map(String.init) ?? "") ?? 0
        }
        return Memory(peak: kilobytes("VmHWM") * 1024, resident: kilobytes("VmRSS") * 1024,
                      anonymous: kilobytes("RssAnon") * 1024, file: kilobytes("RssFile") * 1024)
    }
}

/// Blocks the calling thread (the benchmark paces keys on its own thread, as a person would).
func sleepFor(_ seconds: TimeInterval) {
    usleep(useconds_t(seconds * 1_000_000))
}
