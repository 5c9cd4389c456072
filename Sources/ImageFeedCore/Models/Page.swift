/// One page of a paged listing, with what the service said about the pages around it.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    /// The 1-based number of this page.
    public var number: Int
    public var perPage: Int
    /// How many items the whole listing has, when the service says.
    public var totalItems: Int?
    public var totalPages: Int?
    /// The next page's number, or nil when this is the last page.
    public var nextPage: Int?
    /// Items the service sent that could not be read; the others are delivered all the same.
    public var skippedItems: Int

    /// The numbers are checked as they come in (`Checked`): a next page that is not after this one (a
    /// listing that loops back) or past any real listing ends the listing here.
    public init(items: [Item], number: Int, perPage: Int, totalItems: Int? = nil, totalPages: Int? = nil,
                nextPage: Int?, skippedItems: Int = 0) {
        self.items = items
        let number = Checked.page(number) ?? 1
        self.number = number
        self.perPage = min(max(1, perPage), 1_000)
        self.totalItems = Checked.count(totalItems)
        self.totalPages = Checked.page(totalPages)
        self.nextPage = Checked.page(nextPage).flatMap { $0 > number ? $0 : nil }
        self.skippedItems = max(0, skippedItems)
    }

    public var isLast: Bool { nextPage == nil }
}

extension Page: Equatable where Item: Equatable {}

/// How search results are ordered.
public enum SearchOrder: String, Sendable, Codable, CaseIterable {
    case relevant
    case latest
}
