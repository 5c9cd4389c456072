import Foundation
import ImageFeedCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPClient` on Foundation's URLSession (libcurl underneath on Linux).
public final class URLSessionHTTPClient: HTTPClient, @unchecked Sendable {
    private let session: URLSession

    /// - Parameters:
    ///   - timeout: how long a request may wait for data before it fails with `.timeout`.
    ///   - followRedirects: false returns a 3xx answer as it is (the OAuth authorize step reads its `Location`).
    public init(timeout: TimeInterval = 30, followRedirects: Bool = true) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout * 4, 120)
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration,
                             delegate: followRedirects ? nil : RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await load(urlRequest)
        } catch let error as URLError {
            throw Self.serviceError(for: error)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ServiceError.noConnection(error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else {
            throw ServiceError.noConnection("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }

    /// The request through a completion-handler task, cancelled off the cancelling thread.
    ///
    /// Not `URLSession.data(for:)`: on Linux its cancellation handler cancels the URLSession task
    /// synchronously (a `sync` onto the session's queue) while the Swift runtime holds the cancelled task's
    /// status lock, and a transfer finishing at that moment on the session's queue waits for the same
    /// lock to resume its continuation: both wait forever. The image pipeline cancels loads as pictures
    /// scroll away, so the full-screen app (and a test of it) could freeze this way.
    private func load(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let handle = CancellableTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        let cancelled = (error as? URLError)?.code == .cancelled && handle.isCancelled
                        continuation.resume(throwing: cancelled ? CancellationError() : error)
                    } else if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let cancelledAlready = handle.start(task)
                task.resume()
                if cancelledAlready { task.cancel() }
            }
        } onCancel: {
            // Never cancel the URLSession task here, under the runtime's lock: hand it to another thread.
            if let task = handle.cancel() {
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
        default:
            // Foundation's own descriptions are long and vary by platform; a short, stable form instead.
            return .noConnection("network error \(error.code.rawValue)")
        }
    }
}

/// Answers every redirect with "don't follow", so the 3xx response itself is returned.
/// The URLSession task of one request, and whether the Swift task asking for it was cancelled.
private final class CancellableTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    var isCancelled: Bool { lock.withLock { cancelled } }

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
}

private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
