import Foundation
import ImageFeedCore

/// The JSON the non-interactive commands print: snake_case keys, ISO 8601 dates, sorted keys.
public enum JSONOutput {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A page as the commands print it.
    public struct PageDocument: Encodable {
        public var page: Int
        public var perPage: Int
        public var total: Int?
        public var totalPages: Int?
        public var nextPage: Int?
        public var skipped: Int
        public var photos: [Photo]

        public init(_ page: Page<Photo>) {
            self.page = page.number
            perPage = page.perPage
            total = page.totalItems
            totalPages = page.totalPages
            nextPage = page.nextPage
            skipped = page.skippedItems
            photos = page.items
        }
    }

    /// A page of albums as the commands print it.
    public struct AlbumPageDocument: Encodable {
        public var page: Int
        public var perPage: Int
        public var nextPage: Int?
        public var skipped: Int
        public var albums: [Album]

        public init(_ page: Page<Album>) {
            self.page = page.number
            perPage = page.perPage
            nextPage = page.nextPage
            skipped = page.skippedItems
            albums = page.items
        }
    }
}
