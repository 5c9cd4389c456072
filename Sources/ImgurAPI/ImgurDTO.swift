import Foundation

/// Imgur wraps every answer: `{"data": …, "success": true, "status": 200}`; a failure carries
/// `{"data": {"error": "…", "request": "…", "method": "GET"}, "success": false, "status": 404}`.
struct ImgurEnvelope<Payload: Decodable>: Decodable {
    var data: Payload
    var success: Bool?
    var status: Int?
}

/// The envelope without its data: whether the call succeeded.
struct ImgurEnvelopeHead: Decodable {
    var success: Bool?
    var status: Int?
}

/// A failure's `data`; `error` is a string, or (on some endpoints) an object with a `message`.
struct ImgurErrorDTO: Decodable {
    var message: String?

    enum Keys: String, CodingKey { case error }
    enum Inner: String, CodingKey { case message }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let text = try? container.decode(String.self, forKey: .error) {
            message = text
        } else if let inner = try? container.nestedContainer(keyedBy: Inner.self, forKey: .error) {
            message = try? inner.decode(String.self, forKey: .message)
        }
    }
}

/// An album as the API sends it. Only `id` is required; anything else missing or of the wrong type is
/// treated as absent.
struct AlbumDTO: Decodable {
    var id: String
    var title: String?
    var description: String?
    var datetime: Int?
    var cover: String?
    var coverWidth: Int?
    var coverHeight: Int?
    var imagesCount: Int?
    var link: String?

    enum Keys: String, CodingKey {
        case id, title, description, datetime, cover, link
        case coverWidth = "cover_width", coverHeight = "cover_height", imagesCount = "images_count"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.identity(.id)
        title = container.lenient(.title)
        description = container.lenient(.description)
        datetime = container.lenient(.datetime)
        cover = container.lenient(.cover)
        coverWidth = container.lenient(.coverWidth)
        coverHeight = container.lenient(.coverHeight)
        imagesCount = container.lenient(.imagesCount)
        link = container.lenient(.link)
    }
}

/// An image in an album.
struct ImageDTO: Decodable {
    var id: String
    var title: String?
    var description: String?
    var datetime: Int?
    var type: String?
    var animated: Bool?
    var width: Int?
    var height: Int?
    var link: String?

    enum Keys: String, CodingKey {
        case id, title, description, datetime, type, animated, width, height, link
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.identity(.id)
        title = container.lenient(.title)
        description = container.lenient(.description)
        datetime = container.lenient(.datetime)
        type = container.lenient(.type)
        animated = container.lenient(.animated)
        width = container.lenient(.width)
        height = container.lenient(.height)
        link = container.lenient(.link)
    }
}

extension KeyedDecodingContainer {
    /// The value, or nil when it is missing, null or of the wrong type.
    func lenient<T: Decodable>(_ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// A required, non-empty identity: without it the whole item is unreadable.
    func identity(_ key: Key) throws -> String {
        let value = try decode(String.self, forKey: key)
        guard !value.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "empty id")
        }
        return value
    }
}

/// Decodes each element on its own: one unreadable album or image does not lose the others.
struct LossyArray<Element: Decodable>: Decodable {
    var elements: [Element] = []
    var failures = 0

    private struct Skip: Decodable {}

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                failures += 1
                // Step over the element that could not be read.
                guard (try? container.decode(Skip.self)) != nil || (try? container.decodeNil()) == true
                        || (try? container.decode(String.self)) != nil || (try? container.decode(Double.self)) != nil
                        || (try? container.decode(Bool.self)) != nil || (try? container.decode([Skip].self)) != nil else {
                    break
                }
            }
        }
    }
}
