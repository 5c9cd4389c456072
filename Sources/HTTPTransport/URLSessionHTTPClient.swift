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
            (data, response) = try await session.data(for: urlRequest)
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
        default:
            return .noConnection(error.localizedDescription)
        }
    }
}

/// Answers every redirect with "don't follow", so the 3xx response itself is returned.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
