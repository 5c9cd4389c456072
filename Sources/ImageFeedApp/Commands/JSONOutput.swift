import Foundation
import ImageFeedCore

/// The JSON the non-interactive commands print: snake_case keys, ISO 8601 dates, sorted keys.
public enum JSONOutput {
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        // RFC 3339 in UTC, "2016-05-03T15:00:28Z", as `.iso8601` writes it but without ICU.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(CivilTime.internet(date))
        }
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A listing as every listing command prints it (one shape: `feed`, `search`, `user`, `topics`, `topic`,
    /// `collection --photos`, `albums`, `album`): where it stands in the listing (`page`, `per_page`, `total`,
    /// `total_pages`, `next_page`, absent when unknown or last), `skipped` (items the service sent that could not be
    /// read and were left out, so a script can tell a short page from a damaged one), then its items under their
    /// own name (`photos`, `albums`, `users`, `collections`, `topics`).
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

        /// Several pages fetched one after another (`feed --pages N`), or a whole list that has no pages (an Imgur
        /// album): `page` is the first, `next_page` what follows the last, `skipped` their sum.
        public init(items: [Item], itemsName: String, firstPage: Int = 1, perPage: Int, nextPage: Int? = nil, skipped: Int = 0) {
            page = firstPage
            self.perPage = perPage
            total = nil
            totalPages = nil
            self.nextPage = nextPage
            self.skipped = skipped
            self.items = items
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
