import Foundation
import HTTPTransport
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
        start(file: configuration.paths.logFile, level: chosen, secrets: configuration.secrets)
        let logger = Logger(label: "image-feed")
        logger.info("\(ImageFeedVersion.line): \(command), pid \(ProcessInfo.processInfo.processIdentifier)")
        for warning in configuration.warnings { logger.warning("\(warning)") }
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
        for (pattern, template) in patterns {
            result = pattern.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result),
                                                      withTemplate: template)
        }
        return result
    }

    // Header values and query or form parameters that carry a credential.
    private static let patterns: [(NSRegularExpression, String)] = [
        (try! NSRegularExpression(pattern: #"(?i)\b(Bearer|Client-ID)\s+[^\s",;]+"#), "$1 [secret]"),
        (try! NSRegularExpression(pattern: #"(?i)\b(authorization)(["']?\s*[:=]\s*["']?)[^\r\n"]+"#), "$1$2[secret]"),
        (try! NSRegularExpression(pattern: #"(?i)\b(client_id|client_secret|code|access_token|refresh_token|token|password)=[^&\s"]+"#),
         "$1=[secret]"),
        (try! NSRegularExpression(pattern: #"(?i)"(access_token|refresh_token|client_secret)"\s*:\s*"[^"]*""#), "\"$1\": \"[secret]\""),
    ]
}

/// The file the log goes to, shared by every logger of the process.
final class LogFile: @unchecked Sendable {
    static let shared = LogFile()

    private let lock = NSLock()
    private var file: URL?
    private var handle: FileHandle?
    private var size = 0
    private var maximumBytes = 1 << 20
    private var secrets: [String] = []

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
        lock.withLock {
            guard let file else { return }
            let data = Data((Logs.redact(line, secrets: secrets) + "\n").utf8)
            if handle == nil { handle = openHandle(file) }
            guard let current = handle else { return }
            if size + data.count > maximumBytes {
                try? current.close()
                let previous = file.appendingPathExtension("1")
                try? FileManager.default.removeItem(at: previous)
                try? FileManager.default.moveItem(at: file, to: previous)
                handle = openHandle(file)
            }
            guard let handle else { return }
            handle.write(data)
            size += data.count
        }
    }

    /// Opens the log for appending, creating it (0600, in a 0700 folder) when it is not there.
    private func openHandle(_ file: URL) -> FileHandle? {
        let manager = FileManager.default
        let folder = file.deletingLastPathComponent()
        if !manager.fileExists(atPath: folder.path) {
            try? manager.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if !manager.fileExists(atPath: file.path) {
            guard manager.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else { return nil }
        }
        guard let handle = try? FileHandle(forWritingTo: file) else { return nil }
        size = Int((try? handle.seekToEnd()) ?? 0)
        return handle
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
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
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
