import Foundation
import ImageFeedCore

/// A photo as Unsplash's JSON has it, read leniently, mapped to the app's `Photo`.
struct PhotoDTO: Decodable {
    private(set) var photo: Photo

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        let urls = json.nested("urls")
        let links = json.nested("links")
        let tags: [String] = (json.optional("tags", as: [TagDTO].self) ?? []).compactMap(\.title)
        photo = Photo(
            id: try json.required("id"),
            createdAt: json.date("created_at"),
            updatedAt: json.date("updated_at"),
            width: json.integer("width") ?? 0,
            height: json.integer("height") ?? 0,
            color: json.text("color"),
            blurHash: json.text("blur_hash"),
            likes: json.integer("likes") ?? 0,
            likedByUser: json.optional("liked_by_user", as: Bool.self) ?? false,
            description: json.text("description"),
            altDescription: json.text("alt_description"),
            urls: PhotoURLs(raw: urls?.url("raw"), full: urls?.url("full"), regular: urls?.url("regular"),
                            small: urls?.url("small"), thumb: urls?.url("thumb")),
            links: PhotoLinks(html: links?.url("html"), download: links?.url("download"),
                              downloadLocation: links?.url("download_location")),
            user: json.optional("user", as: UserDTO.self)?.user,
            exif: json.nested("exif").map(Self.exif).flatMap { $0.isEmpty ? nil : $0 },
            location: json.nested("location").flatMap(Self.location),
            tags: tags
        )
        // A photo's own answer (`GET /photos/:id`) says how often it was seen and downloaded, and its topics.
        photo.views = json.integer("views")
        photo.downloads = json.integer("downloads")
        let topics = (json.optional("topics", as: LossyList<TopicLinkDTO>.self)?.elements ?? []).map(\.link)
        photo.topics = topics.isEmpty ? nil : topics
        // The user's collections that hold the photo (objects with an id, a string or a number); a malformed entry
        // is left out, and a list that is not there leaves it unknown.
        photo.inCollections = json.optional("current_user_collections", as: LossyList<CollectionIDDTO>.self)?
            .elements.map(\.id)
        photo = photo.checked()
    }

    private static func exif(_ json: KeyedDecodingContainer<AnyKey>) -> Exif {
        Exif(make: json.text("make"), model: json.text("model"), name: json.text("name"),
             exposureTime: json.text("exposure_time"), aperture: json.text("aperture"),
             focalLength: json.text("focal_length"), iso: json.integer("iso"))
    }

    private static func location(_ json: KeyedDecodingContainer<AnyKey>) -> PhotoLocation? {
        let position = json.nested("position")
        let location = PhotoLocation(name: json.text("name"), city: json.text("city"), country: json.text("country"),
                                     latitude: position?.double("latitude"), longitude: position?.double("longitude"))
        return location == PhotoLocation() ? nil : location
    }

    private struct CollectionIDDTO: Decodable {
        let id: String
        init(from decoder: Decoder) throws {
            let json = try decoder.container(keyedBy: AnyKey.self)
            guard let id = json.text("id") ?? json.integer("id").map(String.init) else {
                throw DecodingError.dataCorruptedError(forKey: AnyKey("id"), in: json, debugDescription: "no id")
            }
            self.id = id
        }
    }

    private struct TagDTO: Decodable {
        let title: String?
        init(from decoder: Decoder) throws {
            title = try decoder.container(keyedBy: AnyKey.self).text("title")
        }
    }
}

struct UserDTO: Decodable {
    let user: User

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        let image = json.nested("profile_image")
        let links = json.nested("links")
        user = User(
            id: try json.required("id"),
            username: try json.required("username"),
            name: json.text("name"),
            firstName: json.text("first_name"),
            lastName: json.text("last_name"),
            bio: json.text("bio"),
            location: json.text("location"),
            portfolioURL: json.url("portfolio_url"),
            profileImage: ProfileImage(small: image?.url("small"), medium: image?.url("medium"), large: image?.url("large")),
            totalLikes: json.integer("total_likes"),
            totalPhotos: json.integer("total_photos"),
            htmlLink: links?.url("html"),
            totalCollections: json.integer("total_collections")
        ).checked()
    }
}

/// A topic as a photo names it: `{"id", "slug", "title"}`.
struct TopicLinkDTO: Decodable {
    let link: TopicLink

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        let slug = try json.required("slug")
        link = TopicLink(id: json.text("id") ?? slug, slug: slug, title: json.text("title") ?? slug)
    }
}

/// A collection: `{"id", "title", "description", "total_photos", "private", "cover_photo", "user", "links"}`.
struct CollectionDTO: Decodable {
    let collection: PhotoCollection

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        // Ids are strings in the API's answers; some older ones sent numbers.
        let id = try json.text("id") ?? json.integer("id").map(String.init) ?? json.required("id")
        collection = PhotoCollection(
            id: id, title: json.text("title") ?? "Untitled", description: json.text("description"),
            totalPhotos: json.integer("total_photos"), isPrivate: json.optional("private", as: Bool.self) ?? false,
            publishedAt: json.date("published_at"), coverPhoto: json.optional("cover_photo", as: PhotoDTO.self)?.photo,
            user: json.optional("user", as: UserDTO.self)?.user, htmlLink: json.nested("links")?.url("html")).checked()
    }
}

/// A topic: `{"id", "slug", "title", "description", "total_photos", "cover_photo", "links"}`.
struct TopicDTO: Decodable {
    let topic: Topic

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        let slug = try json.required("slug")
        topic = Topic(id: json.text("id") ?? slug, slug: slug, title: json.text("title") ?? slug,
                      description: json.text("description"), totalPhotos: json.integer("total_photos"),
                      coverPhoto: json.optional("cover_photo", as: PhotoDTO.self)?.photo,
                      htmlLink: json.nested("links")?.url("html")).checked()
    }
}

/// `GET /search/photos`, `/search/users` and `/search/collections`: `{"total", "total_pages", "results": […]}`.
struct SearchAnswerDTO<Item: Decodable>: Decodable {
    let total: Int?
    let totalPages: Int?
    let results: LossyList<Item>

    init(from decoder: Decoder) throws {
        let json = try decoder.container(keyedBy: AnyKey.self)
        total = json.integer("total")
        totalPages = json.integer("total_pages")
        results = try json.decode(LossyList<Item>.self, forKey: AnyKey("results"))
    }
}

/// `POST`/`DELETE /photos/:id/like`: `{"photo": {…}, "user": {…}}`.
struct LikeResponseDTO: Decodable {
    let photo: PhotoDTO
}

/// The download trigger's answer: `{"url": "…"}`.
struct DownloadDTO: Decodable {
    let url: String
}

/// Unsplash's error body: `{"errors": ["…", …]}`.
struct ErrorsDTO: Decodable {
    let errors: [String]
}
