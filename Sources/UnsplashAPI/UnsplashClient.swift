import Foundation
import ImageFeedCore

/// The Unsplash API (or the sandbox that speaks it), as a `PhotoService`.
///
/// Every request carries `Accept-Version: v1` and `Authorization: Bearer <token>` when a user is
/// logged in, `Client-ID <access key>` otherwise.
public final class UnsplashClient: PhotoService, ServiceSession, @unchecked Sendable {
    public let configuration: UnsplashConfiguration
    private let http: any HTTPClient
    private let lock = NSLock()
    private var token: String?
    private var lastMetadata: ResponseMetadata?
    /// After a 403 for the quota: no request goes out until this time; the caller gets the same error at once.
    private var backOffUntil: (date: Date, error: ServiceError)?
    /// When the hour's quota window began, as far as the answers tell: the first answer of a full quota, or the
    /// first after it refilled. Unsplash sends no reset time; a 403 for the quota then waits until an hour after it.
    private var quotaWindowStart: Date?
    private let clock: any WallClock

    public init(configuration: UnsplashConfiguration, http: any HTTPClient, token: String? = nil,
                clock: any WallClock = SystemWallClock()) {
        self.configuration = configuration
        self.http = http
        self.token = token
        self.clock = clock
    }

    /// Logs a user in (a token) or out (nil) for the requests that follow.
    public func setToken(_ token: String?) {
        lock.withLock { self.token = token }
    }

    public var isLoggedIn: Bool { lock.withLock { token != nil } }

    /// The request quota from the most recent response that reported it.
    public var rateLimit: RateLimit? { lock.withLock { lastMetadata?.rateLimit } }

    /// The headers of the most recent response.
    public var lastResponseMetadata: ResponseMetadata? { lock.withLock { lastMetadata } }

    // MARK: PhotoService

    public func feed(page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> {
        let (response, metadata) = try await get(["photos"], query: pageQuery(page, perPage))
        let list = try UnsplashJSON.decode(LossyList<PhotoDTO>.self, from: response.body)
        return try makePage(list, page: page, perPage: perPage, metadata: metadata)
    }

    public func photo(id: String) async throws(ServiceError) -> Photo {
        let (response, _) = try await get(["photos", id])
        return try UnsplashJSON.decode(PhotoDTO.self, from: response.body).photo
    }

    public func setLike(_ liked: Bool, photoID: String) async throws(ServiceError) -> Photo {
        guard isLoggedIn else { throw .loginRequired }
        let response = try await send(liked ? .post : .delete, url(["photos", photoID, "like"]))
        return try UnsplashJSON.decode(LikeResponseDTO.self, from: response.body).photo.photo
    }

    public func me() async throws(ServiceError) -> Profile {
        guard isLoggedIn else { throw .loginRequired }
        let (response, _) = try await get(["me"])
        return try UnsplashJSON.decode(UserDTO.self, from: response.body).user
    }

    public func user(username: String) async throws(ServiceError) -> User {
        let (response, _) = try await get(["users", username])
        return try UnsplashJSON.decode(UserDTO.self, from: response.body).user
    }

    public func likes(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> {
        let (response, metadata) = try await get(["users", username, "likes"], query: pageQuery(page, perPage))
        let list = try UnsplashJSON.decode(LossyList<PhotoDTO>.self, from: response.body)
        return try makePage(list, page: page, perPage: perPage, metadata: metadata)
    }

    public func search(query: String, page: Int, perPage: Int, order: SearchOrder) async throws(ServiceError) -> Page<Photo> {
        let items = [URLQueryItem(name: "query", value: query)] + pageQuery(page, perPage)
            + [URLQueryItem(name: "order_by", value: order.rawValue)]
        let (response, metadata) = try await get(["search", "photos"], query: items)
        let results = try UnsplashJSON.decode(SearchResultsDTO.self, from: response.body)
        let size = clampedPageSize(perPage)
        var pageResult = try makePage(results.results, page: page, perPage: size, metadata: metadata)
        pageResult.totalItems = results.total ?? metadata.total
        if let totalPages = results.totalPages {
            pageResult.totalPages = totalPages
            pageResult.nextPage = page < totalPages ? page + 1 : nil
        }
        return pageResult
    }

    public func trackDownload(of photo: Photo) async throws(ServiceError) -> URL {
        let location = photo.links.downloadLocation ?? url(["photos", photo.id, "download"])
        let response = try await send(.get, location)
        let answer = try UnsplashJSON.decode(DownloadDTO.self, from: response.body)
        guard let file = URL(string: answer.url) else { throw .malformedResponse(field: "url") }
        return file
    }

    // MARK: Requests

    private func pageQuery(_ page: Int, _ perPage: Int) -> [URLQueryItem] {
        [URLQueryItem(name: "page", value: String(max(1, page))),
         URLQueryItem(name: "per_page", value: String(clampedPageSize(perPage)))]
    }

    private func clampedPageSize(_ perPage: Int) -> Int {
        min(max(1, perPage), maximumPageSize)
    }

    func url(_ path: [String], query: [URLQueryItem] = []) -> URL {
        var url = configuration.apiBase
        for component in path { url.appendPathComponent(component) }
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems = query
        // "+" in a query value means a space to most servers; keep a literal plus.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? url
    }

    private func get(_ path: [String], query: [URLQueryItem] = []) async throws(ServiceError) -> (HTTPResponse, ResponseMetadata) {
        let response = try await send(.get, url(path, query: query))
        return (response, ResponseMetadata(headers: response))
    }

    /// Sends a request with the API's headers and returns a 2xx answer, or throws the typed error.
    private func send(_ method: HTTPRequest.Method, _ url: URL) async throws(ServiceError) -> HTTPResponse {
        // Out of quota: back off until it resets instead of asking again into another 403.
        let now = clock.now
        if let backOff = lock.withLock({ backOffUntil }), backOff.date > now {
            throw backOff.error
        }
        let currentToken = lock.withLock { token }
        var headers = ["Accept-Version": "v1", "Accept": "application/json", "User-Agent": configuration.userAgent]
        // Credentials go only to the configured API host, never to a URL a response pointed elsewhere.
        if url.host == configuration.apiBase.host, url.port == configuration.apiBase.port {
            if let currentToken {
                headers["Authorization"] = "Bearer \(currentToken)"
            } else if let key = configuration.accessKey, !key.isEmpty {
                headers["Authorization"] = "Client-ID \(key)"
            } else {
                throw .notConfigured(
                    "No Unsplash access key is configured. Set UNSPLASH_ACCESS_KEY, or run with --demo to use the built-in sandbox.")
            }
        }
        let response = try await http.sendForService(HTTPRequest(method: method, url: url, headers: headers))
        let metadata = ResponseMetadata(headers: response)
        lock.withLock {
            if let limit = metadata.rateLimit {
                let previous = lastMetadata?.rateLimit
                // A fresh window: this request was its first, or the quota grew since the last answer.
                if limit.remaining >= limit.limit - 1 || previous.map({ limit.remaining > $0.remaining }) == true
                    || quotaWindowStart == nil {
                    quotaWindowStart = now
                }
            }
            if metadata.rateLimit == nil, let previous = lastMetadata?.rateLimit {
                var kept = metadata
                kept.rateLimit = previous
                lastMetadata = kept
            } else {
                lastMetadata = metadata
            }
        }
        guard (200..<300).contains(response.status) else {
            var error = ServiceError.from(response, withUserToken: currentToken != nil, now: now)
            if case let .rateLimited(limit, resetsAt) = error {
                // Without a reset time, the end of the hour's window (at least a minute away), which the user is told.
                let until = resetsAt ?? lock.withLock { Self.windowEnd(start: quotaWindowStart, now: now) }
                error = .rateLimited(limit: limit, resetsAt: until)
                lock.withLock { backOffUntil = (until, error) }
            }
            throw error
        }
        return response
    }

    /// When a used-up hourly quota refills: an hour after its window began (an hour from now when that is not
    /// known), and never sooner than a minute from now.
    static func windowEnd(start: Date?, now: Date) -> Date {
        max((start ?? now).addingTimeInterval(3600), now.addingTimeInterval(60))
    }

    private func makePage(_ list: LossyList<PhotoDTO>, page: Int, perPage: Int,
                          metadata: ResponseMetadata) throws(ServiceError) -> Page<Photo> {
        // A page whose every item is unreadable is a malformed response, not an empty page.
        if list.elements.isEmpty, let first = list.failures.first {
            throw .malformedResponse(field: first)
        }
        let size = clampedPageSize(perPage)
        let totalPages = metadata.total.map { ($0 + size - 1) / size } ?? metadata.pageNumber(of: "last")
        let nextPage: Int?
        if !metadata.links.isEmpty {
            nextPage = metadata.pageNumber(of: "next")
        } else if let totalPages {
            nextPage = page < totalPages ? page + 1 : nil
        } else {
            nextPage = list.elements.count + list.failures.count < size ? nil : page + 1
        }
        return Page(items: list.elements.map(\.photo), number: page, perPage: size, totalItems: metadata.total,
                    totalPages: totalPages, nextPage: nextPage, skippedItems: list.failures.count)
    }
}
