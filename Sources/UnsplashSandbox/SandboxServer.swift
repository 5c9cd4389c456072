import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A Hummingbird server that speaks the part of the Unsplash API that ImageFeed uses, on loopback,
/// from the demo catalog: the feed, photos, likes, users, search, downloads, images and OAuth.
public final class SandboxServer: Sendable {
    public let catalog: SandboxCatalog
    public let settings: SandboxSettings
    public let state: SandboxState
    let images = SandboxImages()

    public init(catalog: SandboxCatalog, settings: SandboxSettings = SandboxSettings()) {
        self.catalog = catalog
        self.settings = settings
        state = SandboxState(faults: settings.faults)
    }

    /// Loads the catalog from `Assets/` (see `SandboxCatalog.locateAssets`).
    public convenience init(settings: SandboxSettings = SandboxSettings()) throws {
        guard let assets = SandboxCatalog.locateAssets() else { throw SandboxError.assetsNotFound }
        self.init(catalog: try SandboxCatalog(assets: assets, feedSize: settings.feedSize), settings: settings)
    }

    /// The application, bound to `host:port` (port 0 picks a free one); `onRunning` is told the port.
    public func application(host: String = "127.0.0.1", port: Int = 0, logger: Logger? = nil,
                            onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        var quiet = Logger(label: "unsplash-sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        return Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "unsplash-sandbox"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger ?? quiet
        )
    }

    // MARK: Routes

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/photos") { request, _ in await self.api(request, route: "photos") { caller in
            try self.listFeed(request, caller: caller)
        } }
        router.get("/photos/:id") { request, context in await self.api(request, route: "photo") { caller in
            try self.showPhoto(id: context.parameters.get("id") ?? "", request: request, caller: caller)
        } }
        router.post("/photos/:id/like") { request, context in await self.api(request, route: "like") { caller in
            try self.like(true, id: context.parameters.get("id") ?? "", request: request, caller: caller)
        } }
        router.delete("/photos/:id/like") { request, context in await self.api(request, route: "like") { caller in
            try self.like(false, id: context.parameters.get("id") ?? "", request: request, caller: caller)
        } }
        router.get("/photos/:id/download") { request, context in await self.api(request, route: "download") { caller in
            try self.download(id: context.parameters.get("id") ?? "", request: request)
        } }
        router.get("/me") { request, _ in await self.api(request, route: "me") { caller in
            guard let username = caller.username else {
                throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
            }
            return try self.json(self.userDocument(username, request: request))
        } }
        router.get("/users/:username") { request, context in await self.api(request, route: "user") { _ in
            try self.json(self.userDocument(context.parameters.get("username") ?? "", request: request))
        } }
        router.get("/users/:username/likes") { request, context in await self.api(request, route: "user-likes") { caller in
            try self.listLikes(username: context.parameters.get("username") ?? "", request: request, caller: caller)
        } }
        router.get("/search/photos") { request, _ in await self.api(request, route: "search") { caller in
            try self.search(request, caller: caller)
        } }
        router.get("/images/photos/:file") { request, context in
            await self.image(request, file: self.catalog.photoURL(file: context.parameters.get("file") ?? ""))
        }
        router.get("/images/avatars/:file") { request, context in
            await self.image(request, file: self.catalog.avatarURL(file: context.parameters.get("file") ?? ""))
        }
        router.get("/p/:id") { request, context in
            self.photoPage(id: context.parameters.get("id") ?? "", request: request)
        }
        addExploreRoutes(to: router)
        addImgurRoutes(to: router)
        router.get("/oauth/authorize") { request, _ in await self.authorize(request) }
        router.post("/oauth/authorize") { request, _ in await self.decide(request) }
        router.post("/oauth/token") { request, _ in await self.token(request) }
        router.get("/_sandbox/faults") { _, _ in
            Self.response(.ok, body: APIDocuments.encode(self.state.faults))
        }
        router.post("/_sandbox/faults") { request, _ in await self.setFaults(request) }
        router.delete("/_sandbox/faults") { _, _ in
            self.state.setFaults([])
            return Response(status: .noContent)
        }
        return router
    }

    // MARK: Callers, quotas and faults

    struct Caller {
        /// The access key or token that pays for the request.
        var key: String
        /// The logged-in user, for a bearer token.
        var username: String?
        var scope: Set<String>
    }

    struct APIFailure: Error {
        var status: HTTPResponse.Status
        var message: String
    }

    private func authenticate(_ request: Request) throws -> Caller {
        let header = request.headers[.authorization] ?? ""
        if header.hasPrefix("Bearer ") {
            let token = String(header.dropFirst("Bearer ".count))
            guard let session = state.session(for: token) else {
                throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
            }
            return Caller(key: token, username: session.username, scope: session.scope)
        }
        if header.hasPrefix("Client-ID ") {
            let key = String(header.dropFirst("Client-ID ".count))
            guard key == settings.accessKey else {
                throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
            }
            return Caller(key: key, username: nil, scope: ["public"])
        }
        if let key = Self.query(request)["client_id"], key == settings.accessKey {
            return Caller(key: key, username: nil, scope: ["public"])
        }
        throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
    }

    /// Runs an API handler with authentication, the hourly quota, its headers, and injected faults.
    func api(_ request: Request, route: String,
                     _ handler: (Caller) throws -> Response) async -> Response {
        let faults = state.takeFaults(for: route)
        await waitOutLatency(faults)
        let caller: Caller
        do {
            caller = try authenticate(request)
        } catch let failure as APIFailure {
            return Self.errors(failure.status, [failure.message])
        } catch {
            return Self.errors(.internalServerError, ["\(error)"])
        }
        let limitName = HTTPField.Name("X-Ratelimit-Limit")!
        let remainingName = HTTPField.Name("X-Ratelimit-Remaining")!
        let resetName = HTTPField.Name("X-Ratelimit-Reset")!
        let injected = faults.first(where: { $0.kind == .rateLimit })
        guard let quota = state.spendQuota(caller: caller.key, limit: settings.rateLimit), injected == nil else {
            // An injected limit resets after its argument's seconds (a minute by default), not at the hour's
            // end: a rehearsal of the limit must not lock the client (or the demo) out for an hour.
            let reset = injected.map { Date().addingTimeInterval(TimeInterval($0.argument ?? 60)) }
                ?? state.quotaReset(caller: caller.key)
            return Response(status: .forbidden, headers: [
                limitName: String(settings.rateLimit), remainingName: "0",
                resetName: String(Int(reset.timeIntervalSince1970)), .contentType: "text/plain",
            ], body: .init(byteBuffer: ByteBuffer(string: "Rate Limit Exceeded")))
        }
        var response: Response
        if let status = faults.first(where: { $0.kind == .status })?.argument {
            let code = Self.status(status)
            response = Self.errors(code, [status == 401 ? "OAuth error: The access token is invalid" : code.reasonPhrase])
        } else {
            do {
                // The repeat fault: every page of a listing made of page 1's items (see `listPage`).
                response = try Self.$repeatsFirstPage.withValue(faults.contains(where: { $0.kind == .repeat })) {
                    try handler(caller)
                }
            } catch let failure as APIFailure {
                response = Self.errors(failure.status, [failure.message])
            } catch {
                response = Self.errors(.internalServerError, ["\(error)"])
            }
        }
        response.headers[limitName] = String(settings.rateLimit)
        response.headers[remainingName] = String(quota.remaining)
        return await applyBodyFaults(faults, to: response)
    }

    /// The added latency of the faults that apply to a request.
    func waitOutLatency(_ faults: [FaultRule]) async {
        for fault in faults where fault.kind == .latency {
            try? await Task.sleep(nanoseconds: UInt64(fault.argument ?? 0) * 1_000_000)
        }
    }

    func applyBodyFaults(_ faults: [FaultRule], to response: Response) async -> Response {
        var response = response
        if faults.contains(where: { $0.kind == .absurd }) {
            let sink = CollectingWriter.Sink()
            try? await response.body.write(CollectingWriter(sink: sink))
            let body = Data(sink.buffer.readableBytesView)
            let changed = (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]))
                .flatMap { try? JSONSerialization.data(withJSONObject: Self.absurd($0), options: [.fragmentsAllowed]) } ?? body
            response.headers[.contentLength] = String(changed.count)
            response.headers[HTTPField.Name("X-Total")!] = String(Self.absurdNumber)
            response.body = .init(byteBuffer: ByteBuffer(bytes: changed))
        }
        if let endless = faults.first(where: { [.endless, .huge, .trickle].contains($0.kind) }) {
            return Self.endlessResponse(endless, contentType: response.headers[.contentType] ?? "application/json")
        }
        if faults.contains(where: { $0.kind == .hostile }) {
            let sink = CollectingWriter.Sink()
            try? await response.body.write(CollectingWriter(sink: sink))
            let body = Data(sink.buffer.readableBytesView)
            if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
               let hostile = try? JSONSerialization.data(withJSONObject: Self.hostile(json), options: [.fragmentsAllowed]) {
                response.headers[.contentLength] = String(hostile.count)
                response.body = .init(byteBuffer: ByteBuffer(bytes: hostile))
            } else {
                response.body = .init(byteBuffer: ByteBuffer(bytes: body))
            }
        }
        if faults.contains(where: { $0.kind == .malformed }) {
            response.headers[.contentLength] = nil
            response.body = .init(byteBuffer: ByteBuffer(string: "<html><body>Service Unavailable</body></html>{\"id\":"))
        } else if faults.contains(where: { $0.kind == .truncated }) || faults.contains(where: { $0.kind == .drop }) {
            let sink = CollectingWriter.Sink()
            try? await response.body.write(CollectingWriter(sink: sink))
            let collected = sink.buffer
            let half = collected.getSlice(at: collected.readerIndex, length: collected.readableBytes / 2) ?? ByteBuffer()
            if faults.contains(where: { $0.kind == .drop }) {
                // Send part of the body, then fail the stream: the server closes the connection mid-answer.
                response.headers[.contentLength] = String(collected.readableBytes)
                response.body = ResponseBody(contentLength: collected.readableBytes) { writer in
                    try await writer.write(half)
                    throw APIFailure(status: .internalServerError, message: "connection dropped by fault injection")
                }
            } else {
                response.headers[.contentLength] = nil
                response.body = .init(byteBuffer: half)
            }
        }
        if let rate = faults.first(where: { $0.kind == .bandwidth })?.argument, rate > 0 {
            // A slow link: the body in tenths of a second's worth, a tenth of a second apart.
            let sink = CollectingWriter.Sink()
            try? await response.body.write(CollectingWriter(sink: sink))
            let collected = sink.buffer
            let total = collected.readableBytes
            response.headers[.contentLength] = String(total)
            response.body = ResponseBody(contentLength: total) { writer in
                let chunk = max(1, rate / 10)
                var offset = 0
                while offset < total {
                    let length = min(chunk, total - offset)
                    if let slice = collected.getSlice(at: collected.readerIndex + offset, length: length) {
                        try await writer.write(slice)
                    }
                    offset += length
                    if offset < total { try await Task.sleep(nanoseconds: 100_000_000) }
                }
                try await writer.finish(nil)
            }
        }
        return response
    }

    /// 2^62: a number no photo, count or page has.
    static let absurdNumber = 4_611_686_018_427_387_904

    /// The same JSON with absurd numbers (see `FaultRule.Kind.absurd`).
    static func absurd(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object {
                switch key {
                case "width": copy[key] = 1
                case "height", "likes", "total_likes", "total_photos", "total_collections", "downloads", "total", "total_pages":
                    copy[key] = absurdNumber
                case "views": copy[key] = -5
                case "created_at", "updated_at", "published_at": copy[key] = "99999-01-01T00:00:00Z"
                case "latitude": copy[key] = 1e300
                case "longitude": copy[key] = -1e300
                case "iso": copy[key] = absurdNumber
                default: copy[key] = absurd(item)
                }
            }
            return copy
        }
        if let array = value as? [Any] { return array.map(absurd) }
        return value
    }

    /// A body that does not end (`endless`), one that declares 2 GB (`huge`), or one a byte at a time (`trickle`).
    /// Each stops when the client goes away, and by itself after ten minutes or 16 GB, so that no fault can hold
    /// the sandbox (or the machine) forever.
    static func endlessResponse(_ fault: FaultRule, contentType: String) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        if fault.kind == .huge { headers[.contentLength] = String(2 * 1024 * 1024 * 1024) }
        let body = ResponseBody { writer in
            let started = Date()
            var sent = 0
            let junk = ByteBuffer(bytes: [UInt8](repeating: 0x41, count: fault.kind == .trickle ? 1 : 64 * 1024))
            while Date().timeIntervalSince(started) < 600, sent < 16 << 30 {
                try await writer.write(junk)
                sent += junk.readableBytes
                if fault.kind == .trickle {
                    try await Task.sleep(nanoseconds: UInt64(fault.argument ?? 1_000) * 1_000_000)
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Text a hostile uploader could write: set the clipboard (OSC 52), the window title (OSC 2), clear the
    /// screen, colour it, start a bracketed paste, ring the bell, reverse the text's direction.
    static let hostileText = "\u{1B}]52;c;aGFja2Vk\u{07}\u{1B}]2;pwned\u{07}\u{1B}[2J\u{1B}[31m\u{1B}[200~\u{202E}evil\u{7}\u{9B}6n"

    /// The same JSON with hostile text added to every human-readable field.
    static func hostile(_ value: Any) -> Any {
        let textKeys: Set<String> = ["description", "alt_description", "name", "first_name", "last_name", "bio", "location",
                                     "city", "country", "title"]
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object {
                if textKeys.contains(key), let text = item as? String {
                    copy[key] = text + hostileText
                } else {
                    copy[key] = hostile(item)
                }
            }
            return copy
        }
        if let array = value as? [Any] { return array.map(hostile) }
        return value
    }

    /// Keeps what a response body writes, to cut it short for the truncation and drop faults.
    struct CollectingWriter: ResponseBodyWriter {
        final class Sink: @unchecked Sendable {
            var buffer = ByteBuffer()
        }

        let sink: Sink
        mutating func write(_ buffer: ByteBuffer) async throws {
            var copy = buffer
            sink.buffer.writeBuffer(&copy)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    // MARK: Handlers

    func pageParameters(_ request: Request) -> (page: Int, perPage: Int) {
        let query = Self.query(request)
        let page = query["page"].flatMap { Int($0) }.map { max(1, $0) } ?? 1
        let perPage = query["per_page"].flatMap { Int($0) }.map { min(max(1, $0), 30) } ?? 10
        return (page, perPage)
    }

    private func listFeed(_ request: Request, caller: Caller) throws -> Response {
        let items = catalog.feed
        return paged(items, request: request, caller: caller)
    }

    private func listLikes(username: String, request: Request, caller: Caller) throws -> Response {
        guard let user = catalog.user(username: username) else {
            throw APIFailure(status: .notFound, message: "Couldn't find User")
        }
        let items = state.likedPhotoIDs(of: user.username).compactMap(catalog.item(id:))
        return paged(items, request: request, caller: caller)
    }

    /// A page of photos with `X-Total`, `X-Per-Page` and a `Link` header, as Unsplash sends them.
    func paged(_ items: [SandboxCatalog.FeedItem], request: Request, caller: Caller) -> Response {
        let liked = caller.username.map(state.likes(of:)) ?? []
        let held = heldCollections(of: caller.username)
        return listPage(items, request: request) { photoDocument($0, request: request, liked: liked, held: held, detailed: false) }
    }

    /// The request's page of `items` as a JSON array (only that page's documents are made), with `X-Total`,
    /// `X-Per-Page` and `Link`, as Unsplash's listings answer.
    func listPage<Item, Document: Encodable>(_ items: [Item], request: Request, _ document: (Item) -> Document) -> Response {
        let (page, perPage) = pageParameters(request)
        let shown = Self.repeatsFirstPage ? 1 : page
        var response = Self.response(.ok, body: APIDocuments.encode(Self.slice(items, page: shown, perPage: perPage).map(document)))
        let lastPage = max(1, (items.count + perPage - 1) / perPage)
        setPaging(&response, total: items.count, perPage: perPage, request: request, page: page,
                  lastPage: Self.repeatsFirstPage ? max(lastPage, page + 10) : lastPage)
        return response
    }

    /// Set while a request with the repeat fault is answered: its listing's pages all hold page 1's items.
    @TaskLocal static var repeatsFirstPage = false

    /// The request's page of `items` as `{"total", "total_pages", "results"}`, as every search route answers, with
    /// the same headers (no `Link` when nothing was found).
    func searchPage<Item, Document: Encodable>(_ items: [Item], request: Request, _ document: (Item) -> Document) throws -> Response {
        let (page, perPage) = pageParameters(request)
        let totalPages = (items.count + perPage - 1) / perPage
        let shown = Self.repeatsFirstPage ? 1 : page
        var response = try json(APIDocuments.Results(total: items.count, totalPages: totalPages,
                                                     results: Self.slice(items, page: shown, perPage: perPage).map(document)))
        setPaging(&response, total: items.count, perPage: perPage, request: request, page: page, lastPage: totalPages > 0 ? totalPages : nil)
        return response
    }

    static func slice<Item>(_ items: [Item], page: Int, perPage: Int) -> ArraySlice<Item> {
        let start = min((page - 1) * perPage, items.count)
        return items[start..<min(start + perPage, items.count)]
    }

    private func setPaging(_ response: inout Response, total: Int, perPage: Int, request: Request, page: Int, lastPage: Int?) {
        response.headers[HTTPField.Name("X-Total")!] = String(total)
        response.headers[HTTPField.Name("X-Per-Page")!] = String(perPage)
        if let lastPage { response.headers[HTTPField.Name("Link")!] = linkHeader(request: request, page: page, lastPage: lastPage) }
    }

    func linkHeader(request: Request, page: Int, lastPage: Int) -> String {
        func link(_ number: Int, _ relation: String) -> String {
            var components = URLComponents()
            var items = Self.query(request).filter { $0.key != "page" }.sorted { $0.key < $1.key }
                .map { URLQueryItem(name: $0.key, value: $0.value) }
            items.append(URLQueryItem(name: "page", value: String(number)))
            components.queryItems = items
            return "<\(baseURL(request))\(request.uri.path)?\(components.percentEncodedQuery ?? "")>; rel=\"\(relation)\""
        }
        var links: [String] = []
        if page > 1 {
            links.append(link(1, "first"))
            links.append(link(page - 1, "prev"))
        }
        if page < lastPage {
            links.append(link(lastPage, "last"))
            links.append(link(page + 1, "next"))
        }
        return links.joined(separator: ", ")
    }

    private func showPhoto(id: String, request: Request, caller: Caller) throws -> Response {
        guard let item = catalog.item(id: id) else { throw APIFailure(status: .notFound, message: "Couldn't find Photo") }
        let liked = caller.username.map(state.likes(of:)) ?? []
        return try json(photoDocument(item, request: request, liked: liked, held: heldCollections(of: caller.username), detailed: true))
    }

    private func like(_ liked: Bool, id: String, request: Request, caller: Caller) throws -> Response {
        guard let username = caller.username else {
            throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
        }
        guard caller.scope.contains("write_likes") else {
            throw APIFailure(status: .forbidden, message: "OAuth error: The access token does not have the write_likes scope")
        }
        guard let item = catalog.item(id: id) else { throw APIFailure(status: .notFound, message: "Couldn't find Photo") }
        state.setLike(liked, photoID: id, username: username)
        let answer = APIDocuments.LikeAnswer(
            photo: photoDocument(item, request: request, liked: state.likes(of: username), detailed: false),
            user: try userDocument(username, request: request))
        return Self.response(liked ? .created : .ok, body: APIDocuments.encode(answer))
    }

    private func download(id: String, request: Request) throws -> Response {
        guard let item = catalog.item(id: id) else { throw APIFailure(status: .notFound, message: "Couldn't find Photo") }
        state.countDownload(photoID: id)
        let url = "\(baseURL(request))/images/photos/\(item.entry.file)?ixid=\(item.id)&fm=jpg"
        return try json(APIDocuments.Download(url: url))
    }

    private func search(_ request: Request, caller: Caller) throws -> Response {
        let query = Self.query(request)
        guard let text = query["query"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIFailure(status: .badRequest, message: "query is missing")
        }
        let filters = try SearchFilterQuery(query)
        let latest = query["order_by"] == "latest"
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        var scored: [(item: SandboxCatalog.FeedItem, score: Int, position: Int)] = []
        for (position, item) in catalog.feed.enumerated() where filters.admits(item.entry) {
            let author = catalog.user(username: item.entry.author)
            let fields: [(String, Int)] = [
                (item.entry.tags.joined(separator: " "), 3), (item.description ?? "", 2),
                (item.entry.altDescription ?? "", 1), (author?.name ?? "", 1), (item.entry.author, 1),
            ]
            var score = 0
            var matchedAll = true
            for word in words {
                let hits = fields.filter { $0.0.lowercased().contains(word) }.map(\.1).reduce(0, +)
                if hits == 0 { matchedAll = false; break }
                score += hits
            }
            if matchedAll { scored.append((item, score, position)) }
        }
        if latest {
            scored.sort { $0.item.createdAt > $1.item.createdAt }
        } else {
            scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.position < $1.position }
        }
        let liked = caller.username.map(state.likes(of:)) ?? []
        let held = heldCollections(of: caller.username)
        return try searchPage(scored.map(\.item), request: request) {
            photoDocument($0, request: request, liked: liked, held: held, detailed: false)
        }
    }

    /// A photo file, resized as the query asks (`w`, `h`); `sizeQuery` stands in for the request's query.
    /// `contentType`: the file goes as it is, with that type (an animation); otherwise a JPEG at the size asked.
    func image(_ request: Request, file: URL, sizeQuery: [String: String]? = nil, contentType: String? = nil) async -> Response {
        let faults = state.takeFaults(for: "image")
        await waitOutLatency(faults)
        if let status = faults.first(where: { $0.kind == .status })?.argument {
            return Self.errors(Self.status(status), [Self.status(status).reasonPhrase])
        }
        // Only plain file names from the catalog's folders are served.
        let name = file.lastPathComponent
        guard !name.hasPrefix("."), !name.contains("/"), FileManager.default.fileExists(atPath: file.path) else {
            return Self.errors(.notFound, ["Couldn't find image"])
        }
        let query = sizeQuery ?? Self.query(request)
        do {
            var data = contentType != nil ? try Data(contentsOf: file) : try images.jpeg(for: SandboxImages.request(path: file.path, query: query), file: file)
            if faults.contains(where: { $0.kind == .corrupt }) { data = SandboxImages.corrupt(data) }
            if faults.contains(where: { $0.kind == .bomb }) { data = try SandboxImages.bomb() }
            var response = Response(status: .ok, headers: [.contentType: contentType ?? "image/jpeg", .cacheControl: "public, max-age=31536000"],
                                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
            response = await applyBodyFaults(faults, to: response)
            return response
        } catch {
            return Self.errors(.internalServerError, ["the image could not be prepared: \(error)"])
        }
    }

    private func photoPage(id: String, request: Request) -> Response {
        guard let item = catalog.item(id: id) else { return Self.html(.notFound, title: "Not found", body: "<p>No such photo.</p>") }
        let author = catalog.user(username: item.entry.author)
        let body = """
            <img src="/images/photos/\(HTML.escape(item.entry.file))?w=1080" alt="\(HTML.escape(item.entry.altDescription ?? ""))" style="max-width:100%">
            <p>\(HTML.escape(item.description ?? item.entry.altDescription ?? ""))</p>
            <p>Photo by \(HTML.escape(author?.name ?? item.entry.author)) on the ImageFeed sandbox</p>
            """
        return Self.html(.ok, title: "Photo \(item.id)", body: body)
    }

    // MARK: Documents

    func baseURL(_ request: Request) -> String {
        let host = request.head.authority ?? "127.0.0.1"
        return "http://\(host)"
    }

    /// For each photo, the collections of `username` that hold it (`current_user_collections`).
    func heldCollections(of username: String?) -> [String: [APIDocuments.CollectionLink]] {
        guard let username else { return [:] }
        var held: [String: [APIDocuments.CollectionLink]] = [:]
        for collection in catalog.collections(of: username) {
            for item in photos(in: collection) {
                held[item.id, default: []].append(APIDocuments.CollectionLink(id: collection.id, title: collection.title))
            }
        }
        return held
    }

    func photoDocument(_ item: SandboxCatalog.FeedItem, request: Request, liked: Set<String>,
                       held: [String: [APIDocuments.CollectionLink]] = [:], detailed: Bool) -> APIDocuments.Photo {
        let base = baseURL(request)
        let raw = "\(base)/images/photos/\(item.entry.file)?ixid=\(item.id)"
        let entry = item.entry
        let author = catalog.user(username: entry.author) ?? SandboxCatalog.UserEntry(username: entry.author)
        let stamp = APIDocuments.timestamp(item.createdAt)
        return APIDocuments.Photo(
            id: item.id,
            slug: (entry.altDescription ?? "photo").lowercased().split(separator: " ").joined(separator: "-") + "-" + item.id,
            createdAt: stamp, updatedAt: stamp, promotedAt: stamp,
            width: entry.width, height: entry.height, color: entry.color, blurHash: entry.blurHash,
            description: item.description, altDescription: entry.altDescription,
            urls: APIDocuments.URLs(
                raw: raw, full: raw + "&q=85&fm=jpg", regular: raw + "&q=80&fm=jpg&w=1080&fit=max",
                small: raw + "&q=80&fm=jpg&w=400&fit=max", thumb: raw + "&q=80&fm=jpg&w=200&fit=max"),
            links: APIDocuments.PhotoLinks(
                self: "\(base)/photos/\(item.id)", html: "\(base)/p/\(item.id)",
                download: "\(base)/images/photos/\(entry.file)?ixid=\(item.id)&fm=jpg&dl=1",
                downloadLocation: "\(base)/photos/\(item.id)/download?ixid=\(item.id)"),
            likes: item.baseLikes + state.likeCount(photoID: item.id),
            likedByUser: liked.contains(item.id),
            currentUserCollections: held[item.id] ?? [],
            user: userDocument(author, request: request),
            exif: detailed ? entry.exif.map {
                APIDocuments.Exif(make: $0.make, model: $0.model, name: [$0.make, $0.model].compactMap { $0 }.joined(separator: ", "),
                                  exposureTime: $0.exposureTime, aperture: $0.aperture, focalLength: $0.focalLength, iso: $0.iso)
            } : nil,
            location: detailed ? entry.location.map {
                APIDocuments.Location(name: $0.name, city: $0.city, country: $0.country,
                                      position: $0.position.map { APIDocuments.Position(latitude: $0.latitude, longitude: $0.longitude) })
            } : nil,
            tags: detailed ? entry.tags.map { APIDocuments.Tag(title: $0) } : nil,
            downloads: detailed ? item.baseLikes * 3 + state.downloads(of: item.id) : nil,
            views: detailed ? item.baseLikes * 97 + 1_000 : nil,
            topics: detailed ? catalog.topics(of: entry).map { APIDocuments.TopicLink(id: $0.id, slug: $0.slug, title: $0.title) } : nil
        )
    }

    func userDocument(_ username: String, request: Request) throws -> APIDocuments.User {
        guard let user = catalog.user(username: username) else { throw APIFailure(status: .notFound, message: "Couldn't find User") }
        return userDocument(user, request: request)
    }

    func userDocument(_ user: SandboxCatalog.UserEntry, request: Request) -> APIDocuments.User {
        let base = baseURL(request)
        let avatar = user.avatar.map { "\(base)/images/avatars/\($0)?ixid=\(user.id)&fm=jpg&crop=faces&fit=crop" }
        return APIDocuments.User(
            id: user.id, updatedAt: APIDocuments.timestamp(Date(timeIntervalSince1970: 1_763_726_400)),
            username: user.username, name: user.name, firstName: user.firstName, lastName: user.lastName,
            bio: user.bio, location: user.location, portfolioUrl: user.portfolioURL,
            totalLikes: state.likedPhotoIDs(of: user.username).count,
            totalPhotos: catalog.feed.filter { $0.entry.author == user.username }.count,
            totalCollections: catalog.collections(of: user.username).count,
            profileImage: APIDocuments.ProfileImage(
                small: avatar.map { $0 + "&h=32&w=32" }, medium: avatar.map { $0 + "&h=64&w=64" },
                large: avatar.map { $0 + "&h=128&w=128" }),
            links: APIDocuments.UserLinks(
                self: "\(base)/users/\(user.username)", html: "\(base)/@\(user.username)",
                photos: "\(base)/users/\(user.username)/photos", likes: "\(base)/users/\(user.username)/likes"))
    }

    /// The query as a form decodes it: `+` is a space, `%XX` a byte; the first of repeated names wins.
    static func query(_ request: Request) -> [String: String] {
        formValues(request.uri.query ?? "")
    }

    /// A status with its reason phrase, for statuses given as numbers (faults).
    static func status(_ code: Int) -> HTTPResponse.Status {
        let known: [HTTPResponse.Status] = [.badRequest, .unauthorized, .forbidden, .notFound, .tooManyRequests,
                                            .internalServerError, .badGateway, .serviceUnavailable, .gatewayTimeout]
        return known.first { $0.code == code } ?? HTTPResponse.Status(code: code, reasonPhrase: "Error \(code)")
    }

    func json<T: Encodable>(_ value: T) throws -> Response {
        Self.response(.ok, body: APIDocuments.encode(value))
    }

    static func response(_ status: HTTPResponse.Status, body: Data, contentType: String = "application/json") -> Response {
        Response(status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func errors(_ status: HTTPResponse.Status, _ messages: [String]) -> Response {
        response(status, body: APIDocuments.encode(APIDocuments.Errors(errors: messages)))
    }

    static func html(_ status: HTTPResponse.Status, title: String, body: String) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title))</title>
            <style>body{font-family:sans-serif;max-width:40em;margin:3em auto;padding:0 1em}
            button{font-size:1.1em;padding:.5em 1.5em;margin-right:1em}code{font-size:1.3em}</style></head>
            <body><h1>\(HTML.escape(title))</h1>
            \(body)
            </body></html>
            """
        return response(status, body: Data(page.utf8), contentType: "text/html; charset=utf-8")
    }

    private func setFaults(_ request: Request) async -> Response {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 65_536) else {
            return Self.errors(.badRequest, ["the body could not be read"])
        }
        let data = Data(buffer.readableBytesView)
        let decoder = JSONDecoder()
        if let rules = try? decoder.decode([FaultRule].self, from: data) {
            state.setFaults(rules)
        } else if let rule = try? decoder.decode(FaultRule.self, from: data) {
            state.addFault(rule)
        } else if let text = String(data: data, encoding: .utf8) {
            do {
                let rules = try text.split(whereSeparator: { $0 == "\n" || $0 == "," })
                    .map { try FaultRule(parsing: $0.trimmingCharacters(in: .whitespaces)) }
                state.setFaults(rules)
            } catch {
                return Self.errors(.badRequest, ["\(error)"])
            }
        }
        return Self.response(.ok, body: APIDocuments.encode(state.faults))
    }
}

enum HTML {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
