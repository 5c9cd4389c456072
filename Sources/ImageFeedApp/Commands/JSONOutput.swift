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

    /// A page as the commands print it: where it stands in the listing, then its items under their own name
    /// (`photos`, `albums`, `users`, `collections`, `topics`).
    public struct PageDocument<Item: Encodable & Sendable>: Encodable {
        public var page: Int
        public var perPage: Int
        public var total: Int?
        public var totalPages: Int?
        public var nextPage: Int?
        public var skipped: Int
        public var items: [Item]
        public let itemsName: String

        public init(_ page: Page<Item>, itemsName: String) {
            self.page = page.number
            perPage = page.perPage
            total = page.totalItems
            totalPages = page.totalPages
            nextPage = page.nextPage
            skipped = page.skippedItems
            items = page.items
            self.itemsName = itemsName
        }

        private enum Keys: String, CodingKey {
            case page, perPage, total, totalPages, nextPage, skipped
        }

        private struct ItemsKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(page, forKey: .page)
            try container.encode(perPage, forKey: .perPage)
            try container.encodeIfPresent(total, forKey: .total)
            try container.encodeIfPresent(totalPages, forKey: .totalPages)
            try container.encodeIfPresent(nextPage, forKey: .nextPage)
            try container.encode(skipped, forKey: .skipped)
            var items = encoder.container(keyedBy: ItemsKey.self)
            try items.encode(self.items, forKey: ItemsKey(stringValue: itemsName))
        }
    }
}
