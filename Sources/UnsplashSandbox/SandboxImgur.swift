import Foundation
import HTTPTypes
import Hummingbird

/// The Imgur API v3 routes ImageFeed uses, served from the demo catalog: a user's albums and an album's
/// images, wrapped in Imgur's `{"data", "success", "status"}` envelope, and the image files on an
/// `i.imgur.com`-like path (`/imgur/i/<id>.jpg`, with Imgur's size letters: `<id>l.jpg` is 640 pixels).
///
/// The albums: every catalog user with photos has "<name>: all photos" (cover: the first photo) and, with
/// two photos or more, "Picks" (the same photos newest last, and no cover); `textures` also has an album
/// with no images. The demo account has no albums. Unknown users are a 404. Fault injection routes:
/// `imgur-albums`, `imgur-images`, and `image` for the files.
extension SandboxServer {
    public struct ImgurAlbum: Sendable, Equatable {
        public var id: String
        public var title: String
        public var description: String?
        public var coverImageID: String?
        public var imageIDs: [String]
        public var createdAt: Date
    }

    /// Albums per page, as Imgur sends them.
    public static let imgurAlbumsPerPage = 50

    /// The catalog's photos, once each (the feed repeats them), with their Imgur-style ids.
    var imgurImages: [(id: String, item: SandboxCatalog.FeedItem)] {
        var seen = Set<String>()
        var images: [(String, SandboxCatalog.FeedItem)] = []
        for item in catalog.feed where seen.insert(item.entry.file).inserted {
            images.append((Self.imgurID(seed: "image-" + item.entry.file), item))
        }
        return images
    }

    /// The animated items (`Assets/animations`, made from the catalog's photos by scripts/make-animations.sh): a GIF,
    /// an animated WebP and an MP4, as Imgur serves animations. `nasa` and `spacex` have them in "Moving pictures".
    struct ImgurAnimation {
        var file: String
        var title: String
        var type: String
        var width: Int
        var height: Int
        var id: String { SandboxServer.imgurID(seed: "animation-" + file) }
        var fileExtension: String { (file as NSString).pathExtension }
    }

    static let imgurAnimations = [
        ImgurAnimation(file: "rocket.gif", title: "Falcon 9 lifting off (GIF)", type: "image/gif", width: 320, height: 180),
        ImgurAnimation(file: "coffee.webp", title: "Across the cup (animated WebP)", type: "image/webp", width: 480, height: 270),
        ImgurAnimation(file: "hubble.mp4", title: "Into the deep field (MP4)", type: "video/mp4", width: 480, height: 270),
    ]

    /// The albums of a catalog user; nil for an unknown user.
    public func imgurAlbums(of username: String) -> [ImgurAlbum]? {
        guard let user = catalog.user(username: username) else { return nil }
        let images = imgurImages.filter { $0.item.entry.author == user.username }
        guard !images.isEmpty else { return [] }
        let name = user.name ?? user.username
        let newest = images.map(\.item.createdAt).max() ?? Date(timeIntervalSince1970: 1_700_000_000)
        var albums = [ImgurAlbum(id: Self.imgurID(seed: "album-all-" + user.username), title: "\(name): all photos",
                                 description: "Every photo \(name) has in the demo catalog.",
                                 coverImageID: images[0].id, imageIDs: images.map(\.id), createdAt: newest)]
        if images.count >= 2 {
            albums.append(ImgurAlbum(id: Self.imgurID(seed: "album-picks-" + user.username), title: "Picks", description: nil,
                                     coverImageID: nil, imageIDs: images.reversed().map(\.id),
                                     createdAt: newest.addingTimeInterval(-86_400)))
        }
        if ["nasa", "spacex"].contains(user.username) {
            albums.append(ImgurAlbum(id: Self.imgurID(seed: "album-moving-" + user.username), title: "Moving pictures",
                                     description: "Animations made from the demo's photos: a GIF, an animated WebP and an MP4.",
                                     coverImageID: Self.imgurAnimations[0].id, imageIDs: Self.imgurAnimations.map(\.id),
                                     createdAt: newest.addingTimeInterval(-129_600)))
        }
        if user.username == "textures" {
            albums.append(ImgurAlbum(id: Self.imgurID(seed: "album-empty-" + user.username), title: "Empty album",
                                     description: "Nothing here yet.", coverImageID: nil, imageIDs: [],
                                     createdAt: newest.addingTimeInterval(-172_800)))
        }
        return albums
    }

    func imgurAlbum(id: String) -> ImgurAlbum? {
        for user in catalog.users {
            if let album = imgurAlbums(of: user.username)?.first(where: { $0.id == id }) { return album }
        }
        return nil
    }

    /// Seven letters and digits, as Imgur's ids are, the same for the same seed on every run.
    static func imgurID(seed: String) -> String {
        String(SandboxCatalog.identifier(seed: seed).map { $0 == "-" ? "x" : $0 == "_" ? "y" : $0 }.prefix(7))
    }

    func addImgurRoutes(to router: Router<BasicRequestContext>) {
        router.get("/3/account/:username/albums/:page") { request, context in
            await self.imgur(request, route: "imgur-albums") {
                try self.imgurAlbumsDocument(username: context.parameters.get("username") ?? "",
                                             page: Int(context.parameters.get("page") ?? "") ?? 0, request: request)
            }
        }
        router.get("/3/account/:username/albums") { request, context in
            await self.imgur(request, route: "imgur-albums") {
                try self.imgurAlbumsDocument(username: context.parameters.get("username") ?? "", page: 0, request: request)
            }
        }
        router.get("/3/album/:id/images") { request, context in
            await self.imgur(request, route: "imgur-images") {
                try self.imgurImagesDocument(albumID: context.parameters.get("id") ?? "", request: request)
            }
        }
        router.get("/imgur/i/:file") { request, context in
            await self.imgurFile(request, name: context.parameters.get("file") ?? "")
        }
        // The pages people open: an image's (what share copies) and an album's.
        router.get("/imgur/a/:id") { _, context in
            self.imgurAlbumPage(id: context.parameters.get("id") ?? "")
        }
        router.get("/imgur/:id") { _, context in
            self.imgurImagePage(id: context.parameters.get("id") ?? "")
        }
    }

    struct ImgurFailure: Error {
        var status: Int
        var message: String
    }

    /// Checks the client id, applies the route's faults, and wraps the answer in Imgur's envelope.
    private func imgur(_ request: Request, route: String, _ handler: () throws -> Any) async -> Response {
        let faults = state.takeFaults(for: route)
        await waitOutLatency(faults)
        let path = request.uri.path
        var response: Response
        if request.headers[.authorization] != "Client-ID \(settings.imgurClientID)" {
            response = Self.imgurError(403, "Invalid client_id", path: path)
        } else if faults.contains(where: { $0.kind == .rateLimit }) {
            response = Self.imgurError(429, "Too Many Requests", path: path)
            response.headers[HTTPField.Name("X-RateLimit-ClientRemaining")!] = "0"
        } else if let status = faults.first(where: { $0.kind == .status })?.argument {
            response = Self.imgurError(status, Self.status(status).reasonPhrase, path: path)
        } else {
            do {
                let data = try handler()
                let body = try JSONSerialization.data(withJSONObject: ["data": data, "success": true, "status": 200],
                                                      options: [.sortedKeys])
                response = Self.response(.ok, body: body)
            } catch let failure as ImgurFailure {
                response = Self.imgurError(failure.status, failure.message, path: path)
            } catch {
                response = Self.imgurError(500, "\(error)", path: path)
            }
        }
        response.headers[HTTPField.Name("X-RateLimit-ClientLimit")!] = "12500"
        if response.headers[HTTPField.Name("X-RateLimit-ClientRemaining")!] == nil {
            response.headers[HTTPField.Name("X-RateLimit-ClientRemaining")!] = "12400"
        }
        return await applyBodyFaults(faults, to: response)
    }

    static func imgurError(_ status: Int, _ message: String, path: String) -> Response {
        let document: [String: Any] = ["data": ["error": message, "request": path, "method": "GET"],
                                       "success": false, "status": status]
        let body = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return Self.response(Self.status(status), body: body)
    }

    private func imgurAlbumsDocument(username: String, page: Int, request: Request) throws -> Any {
        guard let albums = imgurAlbums(of: username) else {
            throw ImgurFailure(status: 404, message: "Unable to find account")
        }
        let start = max(0, page) * Self.imgurAlbumsPerPage
        let slice = albums.dropFirst(start).prefix(Self.imgurAlbumsPerPage)
        let base = baseURL(request)
        return slice.map { album -> [String: Any] in
            let cover = album.coverImageID.flatMap { id in imgurImages.first { $0.id == id } }
            return [
                "id": album.id, "title": album.title, "description": album.description ?? NSNull(),
                "datetime": Int(album.createdAt.timeIntervalSince1970),
                "cover": album.coverImageID ?? NSNull(),
                "cover_width": cover?.item.entry.width ?? 0, "cover_height": cover?.item.entry.height ?? 0,
                "account_url": username, "privacy": "public", "layout": "blog", "views": 0,
                "link": "\(base)/imgur/a/\(album.id)", "images_count": album.imageIDs.count,
            ]
        }
    }

    private func imgurImagesDocument(albumID: String, request: Request) throws -> Any {
        guard let album = imgurAlbum(id: albumID) else { throw ImgurFailure(status: 404, message: "Unable to find album") }
        let base = baseURL(request)
        let images = imgurImages
        return album.imageIDs.compactMap { id -> [String: Any]? in
            if let animation = Self.imgurAnimations.first(where: { $0.id == id }) {
                var image: [String: Any] = [
                    "id": id, "title": animation.title, "description": NSNull(), "datetime": 1_700_000_000,
                    "type": animation.type, "animated": true, "width": animation.width, "height": animation.height, "views": 0,
                    "link": "\(base)/imgur/i/\(id).\(animation.fileExtension)",
                ]
                if animation.type == "video/mp4" { image["mp4"] = "\(base)/imgur/i/\(id).mp4"; image["gifv"] = "\(base)/imgur/i/\(id).gifv" }
                return image
            }
            guard let item = images.first(where: { $0.id == id })?.item else { return nil }
            return [
                "id": id, "title": item.entry.altDescription ?? NSNull(), "description": item.description ?? NSNull(),
                "datetime": Int(item.createdAt.timeIntervalSince1970), "type": "image/jpeg", "animated": false,
                "width": item.entry.width, "height": item.entry.height, "views": 0,
                "link": "\(base)/imgur/i/\(id).jpg",
            ]
        }
    }

    /// `<id>.jpg`, or `<id><letter>.jpg` for Imgur's sizes: s 90, b 160, t 160, m 320, l 640, h 1024 pixels.
    private func imgurImagePage(id: String) -> Response {
        guard let item = imgurImages.first(where: { $0.id == id })?.item else {
            return Self.html(.notFound, title: "Not found", body: "<p>No such image.</p>")
        }
        let body = """
            <img src="/imgur/i/\(HTML.escape(id)).jpg" alt="\(HTML.escape(item.entry.altDescription ?? ""))" style="max-width:100%">
            <p>\(HTML.escape(item.description ?? item.entry.altDescription ?? ""))</p>
            <p>An image on the ImageFeed sandbox's stand-in for Imgur</p>
            """
        return Self.html(.ok, title: "Image \(id)", body: body)
    }

    private func imgurAlbumPage(id: String) -> Response {
        guard let album = imgurAlbum(id: id) else { return Self.html(.notFound, title: "Not found", body: "<p>No such album.</p>") }
        let images = album.imageIDs.map { "<p><a href=\"/imgur/\($0)\"><img src=\"/imgur/i/\($0)m.jpg\" alt=\"\"></a></p>" }.joined()
        let body = "<p>\(HTML.escape(album.description ?? ""))</p>" + (images.isEmpty ? "<p>This album has no images.</p>" : images)
        return Self.html(.ok, title: album.title, body: body)
    }

    private func imgurFile(_ request: Request, name: String) async -> Response {
        // An animation's own file, as it is.
        if let animation = Self.imgurAnimations.first(where: { name == "\($0.id).\($0.fileExtension)" }) {
            return await image(request, file: catalog.assets.appendingPathComponent("animations").appendingPathComponent(animation.file),
                               sizeQuery: [:], contentType: animation.type)
        }
        guard name.hasSuffix(".jpg") else { return Self.imgurError(404, "Not found", path: request.uri.path) }
        var stem = String(name.dropLast(4))
        var size: String?
        let letters = ["s": "90", "b": "160", "t": "160", "m": "320", "l": "640", "h": "1024"]
        if stem.count == 8, let letter = stem.last.map(String.init), let pixels = letters[letter] {
            stem.removeLast()
            size = pixels
        }
        // An animation's still: its first frame, as Imgur serves a JPEG for every image id.
        if let animation = Self.imgurAnimations.first(where: { $0.id == stem }) {
            return await image(request, file: catalog.assets.appendingPathComponent("animations").appendingPathComponent(animation.file),
                               sizeQuery: size.map { ["w": $0] } ?? ["w": String(animation.width)])
        }
        guard let item = imgurImages.first(where: { $0.id == stem })?.item else {
            return Self.imgurError(404, "Not found", path: request.uri.path)
        }
        return await image(request, file: catalog.photoURL(file: item.entry.file), sizeQuery: size.map { ["w": $0] } ?? [:])
    }
}
