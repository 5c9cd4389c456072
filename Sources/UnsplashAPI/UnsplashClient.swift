import Foundation
import ImageFeedCore

/// The Unsplash API (or the sandbox that speaks it), as a `PhotoService`.
///
/// Every request carries `Accept-Version: v1` and `Authorization: Bearer <token>` when a user is
/// logged in, `Client-ID <access key>` otherwise.
public final class UnsplashClient: PhotoService, ExploreService, ServiceSession, @unchecked Sendable {
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
        try await photoPage(["photos"], page: page, perPage: perPage)
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
        try await photoPage(["users", username, "likes"], page: page, perPage: perPage)
    }

    public func search(query: String, page: Int, perPage: Int, order: SearchOrder,
                       filters: SearchFilters) async throws(ServiceError) -> Page<Photo> {
        var items = [URLQueryItem(name: "order_by", value: order.rawValue)]
        if let orientation = filters.orientation { items.append(URLQueryItem(name: "orientation", value: orientation.rawValue)) }
        if let color = filters.color { items.append(URLQueryItem(name: "color", value: color.rawValue)) }
        if filters.contentFilter != .low { items.append(URLQueryItem(name: "content_filter", value: filters.contentFilter.rawValue)) }
        return try await searchPage(["search", "photos"], query: query, extra: items, page: page, perPage: perPage, as: PhotoDTO.self) { $0.photo }
    }

    public func trackDownload(of photo: Photo) async throws(ServiceError) -> URL {
        let location = photo.links.downloadLocation ?? url(["photos", photo.id, "download"])
        let response = try await send(.get, location)
        let answer = try UnsplashJSON.decode(DownloadDTO.self, from: response.body)
        guard let file = URL(string: answer.url) else { throw .malformedResponse(field: "url") }
        return file
    }

    // MARK: ExploreService

    public func photos(from source: PhotoListSource, page: Int, perPage: Int) async throws(ServiceError) -> Page<Photo> {
        switch source {
        case let .userPhotos(username, order):
            return try await photoPage(["users", username, "photos"], page: page, perPage: perPage, extra: [("order_by", order.rawValue)])
        case let .userLikes(username):
            return try await likes(username: username, page: page, perPage: perPage)
        case let .topicPhotos(slug, order):
            return try await photoPage(["topics", slug, "photos"], page: page, perPage: perPage, extra: [("order_by", order.rawValue)])
        case let .collectionPhotos(id):
            return try await photoPage(["collections", id, "photos"], page: page, perPage: perPage)
        }
    }

    public func userCollections(username: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<PhotoCollection> {
        let (response, metadata) = try await get(["users", username, "collections"], query: pageQuery(page, perPage))
        let list = try UnsplashJSON.decode(LossyList<CollectionDTO>.self, from: response.body)
        return try makePage(list, page: page, perPage: perPage, metadata: metadata) { $0.collection }
    }

    public func collection(id: String) async throws(ServiceError) -> PhotoCollection {
        let (response, _) = try await get(["collections", id])
        return try UnsplashJSON.decode(CollectionDTO.self, from: response.body).collection
    }

    public func topics(page: Int, perPage: Int) async throws(ServiceError) -> Page<Topic> {
        let (response, metadata) = try await get(["topics"], query: pageQuery(page, perPage))
        let list = try UnsplashJSON.decode(LossyList<TopicDTO>.self, from: response.body)
        return try makePage(list, page: page, perPage: perPage, metadata: metadata) { $0.topic }
    }

    public func topic(slug: String) async throws(ServiceError) -> Topic {
        let (response, _) = try await get(["topics", slug])
        return try UnsplashJSON.decode(TopicDTO.self, from: response.body).topic
    }

    public func searchUsers(query: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<User> {
        try await searchPage(["search", "users"], query: query, page: page, perPage: perPage, as: UserDTO.self) { $0.user }
    }

    public func searchCollections(query: String, page: Int, perPage: Int) async throws(ServiceError) -> Page<PhotoCollection> {
        try await searchPage(["search", "collections"], query: query, page: page, perPage: perPage, as: CollectionDTO.self) { $0.collection }
    }

    public func setInCollection(_ add: Bool, photoID: String, collectionID: String) async throws(ServiceError) {
        guard isLoggedIn else { throw .loginRequired }
        _ = try await send(add ? .post : .delete, url(["collections", collectionID, add ? "add" : "remove"],
                                                      query: [URLQueryItem(name: "photo_id", value: photoID)]))
    }

    // MARK: Requests

    /// A page of photos from a listing route.
    private func photoPage(_ path: [String], page: Int, perPage: Int, extra: [(String, String)] = []) async throws(ServiceError) -> Page<Photo> {
        let (response, metadata) = try await get(path, query: pageQuery(page, perPage) + extra.map { URLQueryItem(name: $0.0, value: $0.1) })
        let list = try UnsplashJSON.decode(LossyList<PhotoDTO>.self, from: response.body)
        return try makePage(list, page: page, perPage: perPage, metadata: metadata) { $0.photo }
    }

    /// A page of a search route: the results, with the total and the number of pages the answer gives.
    private func searchPage<DTO: Decodable, Item>(_ path: [String], query: String, extra: [URLQueryItem] = [], page: Int, perPage: Int,
                                                  as type: DTO.Type, _ item: (DTO) -> Item) async throws(ServiceError) -> Page<Item> {
        let items = [URLQueryItem(name: "query", value: query)] + pageQuery(page, perPage) + extra
        let (response, metadata) = try await get(path, query: items)
        let results = try UnsplashJSON.decode(SearchAnswerDTO<DTO>.self, from: response.body)
        let size = clampedPageSize(perPage)
        var pageResult = try makePage(results.results, page: page, perPage: size, metadata: metadata, item)
        pageResult.totalItems = Checked.count(results.total) ?? metadata.total
        if let totalPages = Checked.page(results.totalPages) {
            pageResult.totalPages = totalPages
            pageResult.nextPage = page < totalPages ? page + 1 : nil
        }
        return pageResult
    }

    private func pageQuery(_ page: Int, _ perPage: Int) -> [URLQueryItem] {
        [URLQueryItem(name: "page", value: String(max(1, page))),
         URLQueryItem(name: "per_page", value: String(clampedPageSize(perPage)))]
    }

    private func clampedPageSize(_ perPage: Int) -> Int {
        min(max(1, perPage), maximumPageSize)
    }

    /// The API's URL for `path`: each element (an id, a username, a slug) one percent-encoded segment.
    func url(_ path: [String], query: [URLQueryItem] = []) -> URL {
        PathSegments.url(configuration.apiBase, path, query: query)
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
            if let limit = metadata.rateLimit, metadata.isFresh {
                let previous = lastMetadata?.rateLimit
                // A fresh window: this request was its first, or the quota grew since the last answer. A count
                // from a cached answer (`Age`) is of an earlier time: it starts nothing.
                if limit.remaining >= limit.limit - 1 || previous.map({ limit.remaining > $0.remaining }) == true
                    || quotaWindowStart == nil {
                    quotaWindowStart = now
                }
            }
            if metadata.rateLimit == nil || !metadata.isFresh, let previous = lastMetadata?.rateLimit {
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

    private func makePage<DTO, Item>(_ list: LossyList<DTO>, page: Int, perPage: Int, metadata: ResponseMetadata,
                                     _ item: (DTO) -> Item) throws(ServiceError) -> Page<Item> {
        // A page whose every item is unreadable is a malformed response, not an empty page.
        if list.elements.isEmpty, let first = list.failures.first {
            throw .malformedResponse(field: first)
        }
        let size = clampedPageSize(perPage)
        // `total` is checked (at most 10^12), so this cannot overflow.
        let totalPages = metadata.total.map { ($0 + size - 1) / size } ?? metadata.pageNumber(of: "last")
        let nextPage: Int?
        if !metadata.links.isEmpty {
            nextPage = metadata.pageNumber(of: "next")
        } else if let totalPages {
            nextPage = page < totalPages ? page + 1 : nil
        } else {
            nextPage = list.elements.count + list.failures.count < size ? nil : page + 1
        }
        return Page(items: list.elements.map(item), number: page, perPage: size, totalItems: metadata.total,
                    totalPages: totalPages, nextPage: nextPage, skippedItems: list.failures.count)
    }
}
