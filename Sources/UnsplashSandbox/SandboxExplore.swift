import Foundation
import HTTPTypes
import Hummingbird

/// The Unsplash routes for exploring, served from the demo catalog in the API's shapes: a photographer's photos
/// (`order_by` latest, oldest or popular) and collections, topics and their photos, collections and their photos
/// (adding and removing a photo with the `write_collections` scope), and the search for users and collections.
/// Fault injection routes: `user-photos`, `user-collections`, `topics`, `topic`, `topic-photos`, `collection`,
/// `collection-photos`, `collection-change`, `search-users`, `search-collections`.
extension SandboxServer {
    func addExploreRoutes(to router: Router<BasicRequestContext>) {
        router.get("/users/:username/photos") { request, context in await self.api(request, route: "user-photos") { caller in
            let user = try self.knownUser(context.parameters.get("username") ?? "")
            let items = try self.ordered(self.catalog.photos(by: user.username), request)
            return self.paged(items, request: request, caller: caller)
        } }
        router.get("/users/:username/collections") { request, context in await self.api(request, route: "user-collections") { _ in
            let user = try self.knownUser(context.parameters.get("username") ?? "")
            return self.listPage(self.catalog.collections(of: user.username), request: request) { self.collectionDocument($0, request: request) }
        } }
        router.get("/collections/:id") { request, context in await self.api(request, route: "collection") { _ in
            try self.json(self.collectionDocument(try self.knownCollection(context.parameters.get("id") ?? ""), request: request))
        } }
        router.get("/collections/:id/photos") { request, context in await self.api(request, route: "collection-photos") { caller in
            let collection = try self.knownCollection(context.parameters.get("id") ?? "")
            return self.paged(self.photos(in: collection), request: request, caller: caller)
        } }
        router.post("/collections/:id/add") { request, context in await self.api(request, route: "collection-change") { caller in
            try self.changeCollection(true, id: context.parameters.get("id") ?? "", request: request, caller: caller)
        } }
        router.delete("/collections/:id/remove") { request, context in await self.api(request, route: "collection-change") { caller in
            try self.changeCollection(false, id: context.parameters.get("id") ?? "", request: request, caller: caller)
        } }
        router.get("/topics") { request, _ in await self.api(request, route: "topics") { _ in
            self.listPage(self.catalog.topics, request: request) { self.topicDocument($0, request: request) }
        } }
        router.get("/topics/:slug") { request, context in await self.api(request, route: "topic") { _ in
            try self.json(self.topicDocument(try self.knownTopic(context.parameters.get("slug") ?? ""), request: request))
        } }
        router.get("/topics/:slug/photos") { request, context in await self.api(request, route: "topic-photos") { caller in
            let topic = try self.knownTopic(context.parameters.get("slug") ?? "")
            let items = try self.ordered(self.catalog.photos(in: topic), request)
            return self.paged(items, request: request, caller: caller)
        } }
        router.get("/search/users") { request, _ in await self.api(request, route: "search-users") { _ in
            let words = try self.searchWords(request)
            let users = self.catalog.users.filter { user in
                let text = [user.username, user.name ?? "", user.bio ?? "", user.location ?? ""].joined(separator: " ").lowercased()
                return words.allSatisfy(text.contains)
            }
            return try self.searchPage(users, request: request) { self.userDocument($0, request: request) }
        } }
        router.get("/search/collections") { request, _ in await self.api(request, route: "search-collections") { _ in
            let words = try self.searchWords(request)
            let found = self.catalog.collections.filter { collection in
                let text = ([collection.title, collection.description ?? "", collection.owner] + collection.tags)
                    .joined(separator: " ").lowercased()
                return words.allSatisfy(text.contains)
            }
            return try self.searchPage(found, request: request) { self.collectionDocument($0, request: request) }
        } }
    }

    // MARK: Lookups

    private func knownUser(_ username: String) throws -> SandboxCatalog.UserEntry {
        guard let user = catalog.user(username: username) else { throw APIFailure(status: .notFound, message: "Couldn't find User") }
        return user
    }

    private func knownCollection(_ id: String) throws -> SandboxCatalog.CollectionEntry {
        guard let collection = catalog.collection(id: id) else { throw APIFailure(status: .notFound, message: "Couldn't find Collection") }
        return collection
    }

    private func knownTopic(_ slug: String) throws -> SandboxCatalog.TopicEntry {
        guard let topic = catalog.topic(slug: slug) else { throw APIFailure(status: .notFound, message: "Couldn't find Topic") }
        return topic
    }

    /// A collection's photos as they are now (with what users added and took out).
    func photos(in collection: SandboxCatalog.CollectionEntry) -> [SandboxCatalog.FeedItem] {
        state.collectionPhotoIDs(collection.id, catalog: catalog.photos(in: collection).map(\.id)).compactMap(catalog.item(id:))
    }

    /// `order_by`: latest (the default), oldest or popular; anything else is a 400, as Unsplash answers.
    private func ordered(_ items: [SandboxCatalog.FeedItem], _ request: Request) throws -> [SandboxCatalog.FeedItem] {
        switch Self.query(request)["order_by"] ?? "latest" {
        case "latest": return items.sorted { $0.createdAt > $1.createdAt }
        case "oldest": return items.sorted { $0.createdAt < $1.createdAt }
        case "popular": return items.sorted { $0.baseLikes != $1.baseLikes ? $0.baseLikes > $1.baseLikes : $0.createdAt > $1.createdAt }
        case let other: throw APIFailure(status: .badRequest, message: "order_by is invalid: \(other)")
        }
    }

    private func searchWords(_ request: Request) throws -> [String] {
        guard let text = Self.query(request)["query"], !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIFailure(status: .badRequest, message: "query is missing")
        }
        return text.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
    }

    // MARK: Answers

    private func changeCollection(_ add: Bool, id: String, request: Request, caller: Caller) throws -> Response {
        guard let username = caller.username else {
            throw APIFailure(status: .unauthorized, message: "OAuth error: The access token is invalid")
        }
        guard caller.scope.contains("write_collections") else {
            throw APIFailure(status: .forbidden, message: "OAuth error: The access token does not have the write_collections scope")
        }
        let collection = try knownCollection(id)
        guard collection.owner.lowercased() == username.lowercased() else {
            throw APIFailure(status: .forbidden, message: "You can only change your own collections")
        }
        guard let photoID = Self.query(request)["photo_id"], let item = catalog.item(id: photoID) else {
            throw APIFailure(status: .notFound, message: "Couldn't find Photo")
        }
        state.setInCollection(add, photoID: photoID, collectionID: id)
        let answer = APIDocuments.CollectionAnswer(
            photo: photoDocument(item, request: request, liked: state.likes(of: username), held: heldCollections(of: username),
                                 detailed: false),
            collection: collectionDocument(collection, request: request), user: try userDocument(username, request: request))
        return Self.response(add ? .created : .ok, body: APIDocuments.encode(answer))
    }

    // MARK: Documents

    private static let epoch = APIDocuments.timestamp(Date(timeIntervalSince1970: 1_763_726_400))

    func collectionDocument(_ collection: SandboxCatalog.CollectionEntry, request: Request) -> APIDocuments.Collection {
        let base = baseURL(request)
        let photos = photos(in: collection)
        let owner = catalog.user(username: collection.owner) ?? SandboxCatalog.UserEntry(username: collection.owner)
        return APIDocuments.Collection(
            id: collection.id, title: collection.title, description: collection.description, publishedAt: Self.epoch,
            lastCollectedAt: Self.epoch, updatedAt: Self.epoch, totalPhotos: photos.count, private: false,
            shareKey: SandboxCatalog.identifier(seed: "share-" + collection.id),
            coverPhoto: photos.first.map { photoDocument($0, request: request, liked: [], detailed: false) },
            user: userDocument(owner, request: request),
            links: APIDocuments.CollectionLinks(self: "\(base)/collections/\(collection.id)", html: "\(base)/collections/\(collection.id)",
                                                photos: "\(base)/collections/\(collection.id)/photos"))
    }

    func topicDocument(_ topic: SandboxCatalog.TopicEntry, request: Request) -> APIDocuments.Topic {
        let base = baseURL(request)
        let photos = catalog.photos(in: topic)
        return APIDocuments.Topic(
            id: topic.id, slug: topic.slug, title: topic.title, description: topic.description, publishedAt: Self.epoch,
            updatedAt: Self.epoch, featured: true, totalPhotos: photos.count, status: "open",
            coverPhoto: photos.first.map { photoDocument($0, request: request, liked: [], detailed: false) },
            links: APIDocuments.TopicLinks(self: "\(base)/topics/\(topic.slug)", html: "\(base)/t/\(topic.slug)",
                                           photos: "\(base)/topics/\(topic.slug)/photos"))
    }
}

/// Unsplash's search filters as the sandbox reads them: `orientation`, `color` and `content_filter`.
struct SearchFilterQuery {
    var orientation: String?
    var color: String?

    static let orientations = ["landscape", "portrait", "squarish"]
    static let colors = ["black_and_white", "black", "white", "yellow", "orange", "red", "purple", "magenta", "green", "teal", "blue"]

    init(_ query: [String: String]) throws {
        orientation = query["orientation"]
        color = query["color"]
        if let orientation, !Self.orientations.contains(orientation) {
            throw SandboxServer.APIFailure(status: .badRequest, message: "orientation is invalid")
        }
        if let color, !Self.colors.contains(color) {
            throw SandboxServer.APIFailure(status: .badRequest, message: "color is invalid")
        }
        if let filter = query["content_filter"], filter != "low", filter != "high" {
            throw SandboxServer.APIFailure(status: .badRequest, message: "content_filter is invalid")
        }
        // Every photo of the catalog is safe for work: `content_filter=high` leaves them all in.
    }

    func admits(_ entry: SandboxCatalog.PhotoEntry) -> Bool {
        if let orientation, Self.orientation(width: entry.width, height: entry.height) != orientation { return false }
        if let color, !Self.colors(of: entry).contains(color) { return false }
        return true
    }

    /// Landscape or portrait when one side is more than a tenth longer, else squarish.
    static func orientation(width: Int, height: Int) -> String {
        if Double(width) > Double(height) * 1.1 { return "landscape" }
        if Double(height) > Double(width) * 1.1 { return "portrait" }
        return "squarish"
    }

    /// The named colours a photo matches: its dominant colour's hue (or black, white, gray), and black and white
    /// for gray photos and those tagged so.
    static func colors(of entry: SandboxCatalog.PhotoEntry) -> Set<String> {
        var names: Set<String> = []
        if entry.tags.contains("black and white") { names.insert("black_and_white") }
        let hex = entry.color.dropFirst()
        guard hex.count == 6, let value = Int(hex, radix: 16) else { return names }
        let red = Double(value >> 16 & 0xFF) / 255, green = Double(value >> 8 & 0xFF) / 255, blue = Double(value & 0xFF) / 255
        let high = max(red, green, blue), low = min(red, green, blue)
        let lightness = (high + low) / 2
        let chroma = high - low
        if chroma < 0.08 {
            names.insert("black_and_white")
            if lightness < 0.3 { names.insert("black") }
            if lightness > 0.8 { names.insert("white") }
            return names
        }
        if lightness < 0.15 { names.insert("black") }
        var hue: Double
        if high == red { hue = (green - blue) / chroma } else if high == green { hue = (blue - red) / chroma + 2 } else { hue = (red - green) / chroma + 4 }
        hue = (hue * 60).truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        switch hue {
        case ..<15, 345...: names.insert("red")
        case ..<45: names.insert("orange")
        case ..<70: names.insert("yellow")
        case ..<160: names.insert("green")
        case ..<200: names.insert("teal")
        case ..<260: names.insert("blue")
        case ..<290: names.insert("purple")
        default: names.insert("magenta")
        }
        return names
    }
}
