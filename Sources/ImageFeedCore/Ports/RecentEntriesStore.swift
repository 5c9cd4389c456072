/// Where the last search queries are kept between runs.
public protocol RecentEntriesStore: Sendable {
    func loadHistory() throws -> [String]
    func saveHistory(_ queries: [String]) throws
}
