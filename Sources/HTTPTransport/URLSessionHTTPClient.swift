import Foundation
import ImageFeedCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` on Foundation's URLSession (libcurl underneath on Linux).
///
/// Every answer is read through a delegate, a chunk at a time, so that no body grows past its request's
/// `bodyLimit` (a body declared larger is refused before it is read), and every request has a total
/// deadline that a server trickling a byte at a time meets as surely as one that stalls.
public final class URLSessionHTTPClient: HTTPClient, @unchecked Sendable {
    private let session: URLSession
    private let transfers: TransferRouter
    /// How long one request may take in all, from its start to its last byte.
    public let deadline: TimeInterval

    /// - Parameters:
    ///   - timeout: how long a request may wait for data before it fails with `.timeout`.
    ///   - deadline: how long a request may take in all (default four times `timeout`, at least 120 s).
    ///   - followRedirects: false returns a 3xx answer as it is (the OAuth authorize step reads its `Location`);
    ///     true follows https redirects (and plain http ones on loopback) only.
    public init(timeout: TimeInterval = 30, deadline: TimeInterval? = nil, followRedirects: Bool = true) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        self.deadline = deadline ?? max(timeout * 4, 120)
        configuration.timeoutIntervalForResource = self.deadline
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        transfers = TransferRouter(followRedirects: followRedirects)
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await perform(request, into: nil, progress: nil)
    }

    /// A GET whose body is written to `file` as it arrives (never held whole), with progress as fractions
    /// when the size is known. The file is created anew; on any failure it is removed. A non-2xx answer's
    /// body is returned in the response (up to 64 KB) and nothing is written.
    public func download(_ request: HTTPRequest, to file: URL,
                         progress: (@Sendable (Double?) -> Void)? = nil) async throws -> HTTPResponse {
        do {
            return try await perform(request, into: file, progress: progress)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    private func perform(_ request: HTTPRequest, into file: URL?,
                         progress: (@Sendable (Double?) -> Void)?) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let sink: Transfer.Sink
        if let file {
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o644]),
                  let handle = try? FileHandle(forWritingTo: file) else {
                throw ServiceError.other("\(file.path) could not be written.")
            }
            sink = .file(handle)
        } else {
            sink = .memory
        }
        let transfer = Transfer(limit: max(0, request.bodyLimit), sink: sink, progress: progress)
        let outcome: Transfer.Outcome
        do {
            outcome = try await run(urlRequest, transfer)
        } catch let error as URLError {
            throw Self.serviceError(for: error)
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ServiceError.noConnection("the connection failed")
        }
        if case .exceeded = outcome.ending { throw BodyLimit.exceeded(request.bodyLimit, host: request.url.host) }
        if case .expired = outcome.ending { throw ServiceError.timeout }
        var headers: [String: String] = [:]
        for (name, value) in outcome.response.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return HTTPResponse(status: outcome.response.statusCode, headers: headers, body: outcome.body)
    }

    /// The request through a delegate-driven task, cancelled off the cancelling thread.
    ///
    /// Never cancelled inline from the cancellation handler: on Linux, cancelling a URLSession task
    /// synchronously (a `sync` onto the session's queue) while the Swift runtime holds the cancelled task's
    /// status lock can wait forever on a transfer finishing at that moment, which needs the same lock.
    private func run(_ request: URLRequest, _ transfer: Transfer) async throws -> Transfer.Outcome {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Transfer.Outcome, Error>) in
                transfer.continuation = continuation
                let task = session.dataTask(with: request)
                transfers.register(transfer, for: task)
                let cancelledAlready = transfer.start(task)
                task.resume()
                if cancelledAlready { task.cancel() }
                // The total deadline: a body that trickles in never ends on its own.
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak transfer] in
                    transfer?.expire()
                }
            }
        } onCancel: {
            if let task = transfer.cancel() {
                DispatchQueue.global().async { task.cancel() }
            }
        }
    }

    public static func serviceError(for error: URLError) -> ServiceError {
        switch error.code {
        case .timedOut:
            return .timeout
        case .cancelled:
            return .other("The request was cancelled.")
        case .notConnectedToInternet:
            return .noConnection("not connected to the internet")
        case .cannotFindHost, .dnsLookupFailed:
            return .noConnection("cannot find host \(error.failingURL?.host ?? "")")
        case .cannotConnectToHost:
            return .noConnection("cannot connect to \(error.failingURL?.host ?? "the host")")
        case .networkConnectionLost:
            return .noConnection("the connection was lost")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .noConnection("secure connection failed")
        case .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return .noConnection("the answer broke off")
        case .dataNotAllowed, .internationalRoamingOff:
            return .noConnection("the network does not allow data now")
        case .unsupportedURL, .badURL:
            return .noConnection("the address cannot be reached")
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .noConnection("the server redirected too often")
        default:
            // Foundation's own descriptions and codes mean nothing to a person (the log has the request).
            return .noConnection("the connection failed")
        }
    }
}

/// One request's state: the body so far (in memory or in a file), its limit, and how it ended.
final class Transfer: @unchecked Sendable {
    enum Sink {
        case memory
        case file(FileHandle)
    }

    enum Ending {
        case completed
        /// The body passed the limit, or declared that it would.
        case exceeded
        /// The total deadline passed.
        case expired
    }

    struct Outcome: @unchecked Sendable {
        var response: HTTPURLResponse
        var body: Data
        var ending: Ending
    }

    /// What a non-2xx answer's body may hold when the body goes to a file (an error page).
    static let errorBodyLimit = 64 * 1024

    private let lock = NSLock()
    let limit: Int
    private let sink: Sink
    private let progress: (@Sendable (Double?) -> Void)?
    private var body = Data()
    private var received: Int64 = 0
    private var expected: Int64 = -1
    private var lastReported = -1.0
    private var response: HTTPURLResponse?
    private var ending: Ending = .completed
    private var task: URLSessionTask?
    private var cancelled = false
    private var finished = false
    var continuation: CheckedContinuation<Outcome, Error>?

    init(limit: Int, sink: Sink, progress: (@Sendable (Double?) -> Void)?) {
        self.limit = limit
        self.sink = sink
        self.progress = progress
    }

    /// Records the task; true when cancellation came first (the caller cancels it after starting it).
    func start(_ task: URLSessionTask) -> Bool {
        lock.withLock {
            self.task = task
            return cancelled
        }
    }

    /// Marks the request cancelled; returns its task if it has started.
    func cancel() -> URLSessionTask? {
        lock.withLock {
            cancelled = true
            return task
        }
    }

    /// The deadline passed: the task is stopped and the request fails with a timeout.
    func expire() {
        let running: URLSessionTask? = lock.withLock {
            guard !finished else { return nil }
            ending = .expired
            return task
        }
        running?.cancel()
    }

    private var writesToFile: Bool {
        guard case .file = sink, let status = response?.statusCode else { return false }
        return (200..<300).contains(status)
    }

    /// The answer's head: refused at once when it declares a body over the limit.
    func receive(_ response: URLResponse) -> Bool {
        lock.withLock {
            self.response = response as? HTTPURLResponse
            expected = response.expectedContentLength
            if expected > Int64(limit) {
                ending = .exceeded
                return false
            }
            return true
        }
    }

    /// A chunk of the body: false when it takes the body past the limit (the task is then cancelled).
    func receive(_ chunk: Data) -> Bool {
        var fraction: Double??
        let keep: Bool = lock.withLock {
            guard case .completed = ending else { return false }
            received += Int64(chunk.count)
            if received > Int64(limit) {
                ending = .exceeded
                body = Data()
                return false
            }
            if writesToFile, case let .file(handle) = sink {
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    ending = .exceeded
                    return false
                }
            } else if case .file = sink, body.count + chunk.count > Self.errorBodyLimit {
                // An error page too long to be worth reading: what came first is enough to report it.
            } else {
                body.append(chunk)
            }
            guard progress != nil else { return true }
            guard expected > 0 else {
                fraction = .some(nil)
                return true
            }
            let value = min(1, Double(received) / Double(expected))
            // Reported in steps of 2% at most, so the screen is not flooded.
            if value - lastReported >= 0.02 || value == 1 {
                lastReported = value
                fraction = .some(value)
            }
            return true
        }
        if let fraction { progress?(fraction) }
        return keep
    }

    /// The transfer ended: resumes the waiting request exactly once.
    func complete(_ error: Error?) {
        let (continuation, result): (CheckedContinuation<Outcome, Error>?, Result<Outcome, Error>) = lock.withLock {
            finished = true
            let waiting = self.continuation
            self.continuation = nil
            if case let .file(handle) = sink { try? handle.close() }
            if case .completed = ending, let error {
                let cancelled = (error as? URLError)?.code == .cancelled && self.cancelled
                return (waiting, .failure(cancelled ? CancellationError() : error))
            }
            guard let response else {
                return (waiting, .failure(URLError(.badServerResponse)))
            }
            return (waiting, .success(Outcome(response: response, body: body, ending: ending)))
        }
        continuation?.resume(with: result)
    }
}

/// The session's delegate: hands each task's events to its transfer.
final class TransferRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    private let followRedirects: Bool

    init(followRedirects: Bool) {
        self.followRedirects = followRedirects
    }

    func register(_ transfer: Transfer, for task: URLSessionTask) {
        lock.withLock { transfers[task.taskIdentifier] = transfer }
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.withLock { transfers[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let allowed = transfer(dataTask)?.receive(response) ?? false
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if transfer(dataTask)?.receive(data) == false { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let finished = lock.withLock { transfers.removeValue(forKey: task.taskIdentifier) }
        finished?.complete(error)
    }

    /// Redirects are followed only when asked for, and only to https (or plain http on loopback): never to a
    /// file or another scheme.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        guard followRedirects, let url = request.url, let scheme = url.scheme?.lowercased() else {
            completionHandler(nil)
            return
        }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
        completionHandler(scheme == "https" || (scheme == "http" && loopback) ? request : nil)
    }
}
