import CHTTPTransfer
import Foundation
import ImageFeedCore

/// `HTTPClient` on libcurl.
///
/// Each request runs on a thread of its own, its body taken a chunk at a time as libcurl reads it: libcurl
/// reads the socket only as fast as the chunks are taken, so no body grows past its request's `bodyLimit`
/// however fast a server sends (a body declared larger is refused before it is read), and every request
/// has a total deadline that a server trickling a byte at a time meets as surely as one that stalls.
/// Connections, TLS sessions and DNS answers are shared between requests. Compressed answers are accepted
/// and unpacked before the limit counts them.
public final class CurlHTTPClient: HTTPClient, @unchecked Sendable {
    /// How long a request may wait for data (and to connect) before it fails with `.timeout`.
    public let timeout: TimeInterval
    /// How long one request may take in all, from its start to its last byte.
    public let deadline: TimeInterval
    /// Whether redirects are followed (to https, or plain http on loopback, at most five); false returns a
    /// 3xx answer as it is (the OAuth authorize step reads its `Location`).
    public let followRedirects: Bool

    public init(timeout: TimeInterval = 30, deadline: TimeInterval? = nil, followRedirects: Bool = true) {
        self.timeout = timeout
        self.deadline = deadline ?? max(timeout * 4, 120)
        self.followRedirects = followRedirects
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await following(request) { try await self.perform($0, into: nil, progress: nil) }
    }

    /// A GET whose body is written to `file` as it arrives (never held whole), with progress as fractions
    /// when the size is known. The file is created anew; on any failure it is removed. A non-2xx answer's
    /// body is returned in the response (up to 64 KB) and nothing is written.
    public func download(_ request: HTTPRequest, to file: URL,
                         progress: (@Sendable (Double?) -> Void)? = nil) async throws -> HTTPResponse {
        do {
            return try await following(request) { try await self.perform($0, into: file, progress: progress) }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// Follows redirects when asked: only to https (or plain http on loopback), never to another scheme,
    /// with no credentials to another host.
    private func following(_ request: HTTPRequest, _ perform: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        var current = request
        for _ in 0...5 {
            let response = try await perform(current)
            guard followRedirects, [301, 302, 303, 307, 308].contains(response.status),
                  let location = response.header("Location") else {
                return response
            }
            guard let next = URL(string: location, relativeTo: current.url)?.absoluteURL,
                  let scheme = next.scheme?.lowercased(),
                  scheme == "https" || (scheme == "http" && HTTPRequest.isLoopback(host: next.host ?? "")) else {
                // Followed only to https (plain http on loopback): anything else is refused, and said.
                let shown = String(UntrustedText.sanitize(location).prefix(120))
                throw ServiceError.other("\(current.url.host ?? "The server") redirected to \(shown), which is not https; it was not followed.")
            }
            if next.host != current.url.host || next.port != current.url.port {
                current.headers = current.headers.filter { $0.key.lowercased() != "authorization" }
            }
            if response.status == 303 || (response.status != 307 && response.status != 308 && current.method == .post) {
                current.method = .get
                current.body = nil
            }
            current.url = next
        }
        throw ServiceError.noConnection("the server redirected too often")
    }

    private func perform(_ request: HTTPRequest, into file: URL?,
                         progress: (@Sendable (Double?) -> Void)?) async throws -> HTTPResponse {
        let sink: CurlTransfer.Sink
        if let file {
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw FileWriteFailure(folder: file.deletingLastPathComponent().path, code: errno)
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            sink = .file(handle)
        } else {
            sink = .memory
        }
        let transfer = CurlTransfer(request: request, sink: sink, progress: progress)
        let timeout = self.timeout
        let deadline = self.deadline
        let outcome: CurlTransfer.Outcome = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    continuation.resume(with: transfer.run(timeout: timeout, deadline: deadline))
                }
                thread.name = "http"
                thread.stackSize = 1 << 20
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        return outcome.response
    }
}

/// One request's state while libcurl runs it on its thread: the head so far, the body (in memory or in a
/// file), progress, and whether the request was cancelled.
final class CurlTransfer: @unchecked Sendable {
    enum Sink {
        case memory
        case file(FileHandle)
    }

    struct Outcome: Sendable {
        var response: HTTPResponse
    }

    /// What a non-2xx answer's body may hold when the body goes to a file (an error page).
    static let errorBodyLimit = 64 * 1024

    let request: HTTPRequest
    private let sink: Sink
    private let progress: (@Sendable (Double?) -> Void)?
    private let lock = NSLock()
    private var cancelled = false
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var received = 0
    private var lastReported = -1.0
    private var writeFailed = false
    /// Why the file could not be written: the system's error number (ENOSPC), 0 where it did not say.
    private var writeErrno: Int32 = 0

    init(request: HTTPRequest, sink: Sink, progress: (@Sendable (Double?) -> Void)?) {
        self.request = request
        self.sink = sink
        self.progress = progress
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    private var writesToFile: Bool {
        guard case .file = sink else { return false }
        return (200..<300).contains(status)
    }

    /// A header line: the status line starts a new head (after an interim 1xx answer).
    func header(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            let parts = trimmed.split(separator: " ")
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            headers = [:]
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            // Headers are few and short; a server sending thousands is cut off at a sane count.
            if headers.count < 200, value.utf8.count < 8_192 { headers[name] = value }
        }
    }

    /// A chunk of the body: false stops the transfer (a file that cannot be written).
    func data(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        received += chunk.count
        if writesToFile, case let .file(handle) = sink {
            do {
                try handle.write(contentsOf: Data(buffer: chunk))
            } catch {
                writeFailed = true
                writeErrno = FileWriteFailure.errno(of: error)
                return false
            }
        } else if case .file = sink {
            if body.count < Self.errorBodyLimit { body.append(contentsOf: chunk.prefix(Self.errorBodyLimit - body.count)) }
        } else {
            // The declared length (within the limit) is reserved at once: no copies as the body grows.
            if body.isEmpty, let expected = headers["content-length"].flatMap(Int.init), expected > 0, expected <= request.bodyLimit {
                body.reserveCapacity(expected)
            }
            body.append(contentsOf: chunk)
        }
        reportProgress()
        return true
    }

    private func reportProgress() {
        guard let progress else { return }
        guard let expected = headers["content-length"].flatMap(Int.init), expected > 0 else {
            progress(nil)
            return
        }
        let value = min(1, Double(received) / Double(expected))
        // Reported in steps of 2% at most, so the screen is not flooded.
        guard value - lastReported >= 0.02 || value == 1 else { return }
        lastReported = value
        progress(value)
    }

    /// The folder a file handle writes into (for the message when it cannot be written).
    static func path(of handle: FileHandle) -> String? {
        let link = "/proc/self/fd/\(handle.fileDescriptor)"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        return URL(fileURLWithPath: target).deletingLastPathComponent().path
    }

    /// Runs the request on the calling thread, to its end.
    func run(timeout: TimeInterval, deadline: TimeInterval) -> Result<Outcome, Error> {
        let headerLines = request.headers.map { "\($0.key): \($0.value)" }
        let headerPointers = headerLines.map { strdup($0) }
        defer { headerPointers.forEach { free($0) } }
        let method = request.method.rawValue
        let url = request.url.absoluteString
        let body = request.body ?? Data()
        var message = [CChar](repeating: 0, count: 256)
        var status = 0
        let context = Unmanaged.passRetained(self)
        defer { context.release() }
        var callbacks = ifh_callbacks(
            context: context.toOpaque(),
            header: { context, line, length in
                guard let context, let line else { return }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                let text = String(decoding: UnsafeRawBufferPointer(start: line, count: length), as: UTF8.self)
                transfer.header(text)
            },
            data: { context, bytes, length in
                guard let context, let bytes else { return 1 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.data(UnsafeBufferPointer(start: bytes, count: length)) ? 0 : 1
            },
            cancelled: { context in
                guard let context else { return 1 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            })
        let outcome: Int32 = url.withCString { urlPointer in
            method.withCString { methodPointer in
                body.withUnsafeBytes { bodyBytes in
                    headerPointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { headersBuffer in
                        var curlRequest = ifh_request(
                            url: urlPointer, method: methodPointer, headers: headersBuffer.baseAddress,
                            header_count: headersBuffer.count,
                            body: bodyBytes.bindMemory(to: UInt8.self).baseAddress, body_length: bodyBytes.count,
                            connect_timeout_ms: Int(timeout * 1_000), idle_timeout_s: max(1, Int(timeout.rounded(.up))),
                            total_timeout_ms: Int(deadline * 1_000), body_limit: Int64(max(0, request.bodyLimit)))
                        return ifh_perform(&curlRequest, &callbacks, &status, &message, message.count)
                    }
                }
            }
        }
        var folder = ""
        if case let .file(handle) = sink {
            if writeFailed, let path = Self.path(of: handle) { folder = path }
            try? handle.close()
        }
        switch Int(outcome) {
        case Int(IFH_OK):
            return .success(Outcome(response: HTTPResponse(status: status, headers: headers, body: self.body)))
        case Int(IFH_CANCELLED):
            return .failure(CancellationError())
        case Int(IFH_TOO_LARGE):
            return .failure(BodyLimit.exceeded(request.bodyLimit, host: request.url.host))
        case Int(IFH_TIMEOUT):
            return .failure(ServiceError.timeout)
        case Int(IFH_STOPPED) where writeFailed:
            return .failure(FileWriteFailure(folder: folder, code: writeErrno))
        case Int(IFH_CANNOT_RESOLVE):
            return .failure(ServiceError.noConnection("cannot find host \(request.url.host ?? "")"))
        case Int(IFH_CANNOT_CONNECT):
            return .failure(ServiceError.noConnection("cannot connect to \(request.url.host ?? "the host")"))
        case Int(IFH_INSECURE):
            return .failure(ServiceError.noConnection("secure connection failed"))
        case Int(IFH_BROKEN):
            return .failure(ServiceError.noConnection("the answer broke off"))
        case Int(IFH_HEAD_TOO_LARGE):
            return .failure(ServiceError.other("\(request.url.host ?? "The server") sent an answer whose headers are too large to read."))
        default:
            // libcurl's own words mean little to a person; the log has the request.
            return .failure(TransportFailure(detail: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
    }
}

/// A failure of the transport whose detail is for the log: `sendForService` shows it as plain words.
public struct TransportFailure: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { "transport failure: \(detail)" }

    public init(detail: String) {
        self.detail = detail
    }
}

/// The file a body was streamed to could not be written: its folder (empty where it is not known), and the
/// system's error number (ENOSPC; 0 where it did not say). The caller says it in its user's words.
public struct FileWriteFailure: Error, Equatable, CustomStringConvertible {
    public let folder: String
    public let code: Int32

    public init(folder: String, code: Int32) {
        self.folder = folder
        self.code = code
    }

    public var description: String {
        "\(folder.isEmpty ? "The file" : folder) could not be written" + (code == 0 ? "" : ": \(String(cString: strerror(code)))")
    }

    /// The error number under a Foundation write error (0 where it names none).
    public static func errno(of error: any Error) -> Int32 {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteNoPermission: return EACCES
        case .fileWriteFileExists: return EEXIST
        default: return 0
        }
    }
}
