import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTransport
import ImageFeedCore
import Logging
import UnsplashAPI

/// ImageFeed's log: swift-log into `$XDG_STATE_HOME/image-feed/image-feed.log`, owner-only, rotated when it
/// passes a size (the one before is kept as `image-feed.log.1`), with every secret taken out before a line is
/// written: the configured keys and token word for word, and whatever looks like one (an `Authorization`
/// value, a `code`, `client_id`, `client_secret` or token parameter).
public enum Logs {
    /// The levels `--log-level` and `IMAGE_FEED_LOG_LEVEL` take; "off" writes nothing.
    public static let levelNames = ["trace", "debug", "info", "notice", "warning", "error", "critical", "off"]

    /// The level a setting names; nil for "off"; throws for a name that is not one.
    public static func level(_ name: String) throws(ConfigurationError) -> Logger.Level? {
        let lowered = name.lowercased()
        if lowered == "off" { return nil }
        guard let level = Logger.Level(rawValue: lowered) else {
            throw ConfigurationError(message: "\(name) is not a log level: \(levelNames.joined(separator: ", ")).")
        }
        return level
    }

    /// Starts the log for a command: the level from `flag`, else `IMAGE_FEED_LOG_LEVEL`, else info; a first line
    /// with the version and the command; the settings' warnings.
    public static func startCommand(_ command: String, configuration: Settings, flag: String?,
                                    environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) {
        let name = flag ?? environment["IMAGE_FEED_LOG_LEVEL"].flatMap { $0.isEmpty ? nil : $0 } ?? "info"
        let chosen: Logger.Level?
        do {
            chosen = try level(name)
        } catch {
            throw ConfigurationError(message: (flag != nil ? "--log-level: " : "IMAGE_FEED_LOG_LEVEL: ") + error.message)
        }
        reportProblems(to: printProblem)
        start(file: configuration.paths.logFile, level: chosen, secrets: configuration.secrets)
        let logger = Logger(label: "image-feed")
        logger.info("\(ImageFeedVersion.line): \(command), pid \(ProcessInfo.processInfo.processIdentifier)")
        for warning in configuration.warnings { logger.warning("\(warning)") }
    }

    /// Who is told, once, that the log cannot be written (a full disk): a command prints it on stderr (the
    /// default once a command starts), the full-screen session shows it on the status line.
    public static func reportProblems(to report: (@Sendable (String) -> Void)?) {
        LogFile.shared.setProblemReport(report)
    }

    /// Prints the problem on stderr, as every command's warnings are.
    public static let printProblem: @Sendable (String) -> Void = { message in
        let line = Array("image-feed: warning: \(message)\n".utf8)
        _ = LogFile.writeAll(STDERR_FILENO, line)
    }

    /// A command's failure, as the user was told it.
    public static func failure(_ message: String) {
        Logger(label: "image-feed").error("\(message)")
    }

    nonisolated(unsafe) private static var started = false
    private static let startLock = NSLock()

    /// Sends every logger of the process to `file` at `level` (nil: nowhere). Once per process; later calls
    /// only add secrets to take out.
    public static func start(file: URL, level: Logger.Level?, secrets: [String], maximumBytes: Int = 1 << 20) {
        let sink = LogFile.shared
        sink.addSecrets(secrets)
        startLock.lock()
        defer { startLock.unlock() }
        guard !started else { return }
        started = true
        sink.open(file, maximumBytes: maximumBytes)
        LoggingSystem.bootstrap { label in
            guard let level else { return SwiftLogNoOpLogHandler() }
            return FileLogHandler(label: label, level: level, sink: sink)
        }
    }

    /// Every logger of the process says nothing, anywhere (a command that must write no file and print only its
    /// report: `doctor`). Once per process, as `start`.
    public static func silence() {
        startLock.lock()
        defer { startLock.unlock() }
        guard !started else { return }
        started = true
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
    }

    /// Words to take out of every line from now on (keys, a token just issued).
    public static func addSecrets(_ secrets: [String]) {
        LogFile.shared.addSecrets(secrets)
    }

    /// `text` with every secret taken out: the words in `secrets`, and what has the shape of one.
    public static func redact(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: "[secret]")
        }
        return SecretShapes.redact(result)
    }
}

/// The file the log goes to, shared by every logger of the process.
///
/// Logging is best effort: a write that fails (a full disk, a folder that cannot be made, a file the user
/// cannot write) never stops the program. The first failure is reported once, through `Logs.problems`, and
/// the log rests until the next rotation tries again; what it had written stays whole.
final class LogFile: @unchecked Sendable {
    static let shared = LogFile()

    private let lock = NSLock()
    private var file: URL?
    private var descriptor: Int32 = -1
    private var size = 0
    private var maximumBytes = 1 << 20
    private var secrets: [String] = []
    /// Said once: the log could not be written, and why.
    private var reported = false
    private var failedAt = 0.0
    /// Told of the first failure (from the thread that logged).
    private var onProblem: (@Sendable (String) -> Void)?

    func setProblemReport(_ report: (@Sendable (String) -> Void)?) {
        lock.withLock { onProblem = report }
    }

    func addSecrets(_ more: [String]) {
        lock.withLock {
            secrets = Array(Set(secrets + more.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
        }
    }

    func open(_ file: URL, maximumBytes: Int) {
        lock.withLock {
            self.file = file
            self.maximumBytes = max(4096, maximumBytes)
        }
    }

    func write(_ line: String) {
        var problem: String?
        var report: (@Sendable (String) -> Void)?
        lock.withLock {
            report = onProblem
            guard let file else { return }
            // After a failure, try again at most once a minute (a full disk is not freed between two lines).
            if failedAt > 0, ProcessInfo.processInfo.systemUptime - failedAt < 60 { return }
            let bytes = Array((Logs.redact(line, secrets: secrets) + "\n").utf8)
            if descriptor < 0 {
                if let reason = openDescriptor(file) { problem = fail(file, reason); return }
            }
            if size + bytes.count > maximumBytes {
                Glibc.close(descriptor)
                descriptor = -1
                let previous = file.path + ".1"
                unlink(previous)
                Glibc.rename(file.path, previous)
                if let reason = openDescriptor(file) { problem = fail(file, reason); return }
            }
            if let reason = Self.writeAll(descriptor, bytes) {
                // What was written of the line is cut back, so the file holds whole lines only.
                _ = ftruncate(descriptor, off_t(size))
                problem = fail(file, reason)
                return
            }
            failedAt = 0
            size += bytes.count
        }
        if let problem { report?(problem) }
    }

    /// Notes the failure; the message to report, the first time only.
    private func fail(_ file: URL, _ reason: String) -> String? {
        failedAt = ProcessInfo.processInfo.systemUptime
        guard !reported else { return nil }
        reported = true
        return "The log \(file.path) cannot be written (\(reason)); ImageFeed goes on without it."
    }

    /// Every byte, or the reason it could not be written.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    /// Opens the log for appending, creating it (0600, in a 0700 folder) when it is not there; the reason when
    /// it cannot be.
    private func openDescriptor(_ file: URL) -> String? {
        let folder = file.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                return "its folder cannot be made: \(error.localizedDescription)"
            }
        }
        let opened = Glibc.open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { return String(cString: strerror(errno)) }
        descriptor = opened
        var status = stat()
        size = fstat(opened, &status) == 0 ? Int(status.st_size) : 0
        return nil
    }
}

/// One line per message: time, level, label, message, metadata.
struct FileLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let sink: LogFile

    init(label: String, level: Logger.Level, sink: LogFile) {
        self.label = label
        logLevel = level
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        let fields = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = CivilTime.internet(Date(), milliseconds: true)
        // One message is one line: a newline inside it would let text pass for a line of its own.
        let message = "\(event.message)".replacingOccurrences(of: "\n", with: "\\n")
        sink.write("\(time) \(event.level) [\(label)] \(message)\(fields)")
    }
}

/// The HTTP port with a log line per request: the method, the address (credentials taken out), the status,
/// the time it took and the size of the answer; a failure with what failed. Headers and bodies are never logged.
public struct LoggingHTTPClient: HTTPClient {
    let upstream: any HTTPClient
    let logger: Logger

    public init(_ upstream: any HTTPClient, label: String = "http") {
        self.upstream = upstream
        logger = Logger(label: label)
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        let what = "\(request.method.rawValue) \(request.url.absoluteString)"
        logger.trace("\(what)")
        do {
            let response = try await upstream.send(request)
            let elapsed = Self.milliseconds(ContinuousClock.now - start)
            let line = "\(what) → \(response.status) in \(elapsed) ms, \(response.body.count) bytes"
            if response.status >= 500 {
                logger.warning("\(line)")
            } else if response.status >= 400 {
                logger.notice("\(line)")
            } else {
                logger.info("\(line)")
            }
            return response
        } catch {
            let elapsed = Self.milliseconds(ContinuousClock.now - start)
            logger.warning("\(what) failed after \(elapsed) ms: \(error)")
            throw error
        }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
