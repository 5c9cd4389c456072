import Foundation
import ImageFeedCore

/// What Unsplash says about a response in its headers.
public struct ResponseMetadata: Sendable, Equatable {
    /// `X-Ratelimit-Limit` / `X-Ratelimit-Remaining`.
    public var rateLimit: RateLimit?
    /// `X-Total`: how many items the whole listing has.
    public var total: Int?
    /// `X-Per-Page`.
    public var perPage: Int?
    /// `Link`: rel name ("first", "prev", "next", "last") to URL.
    public var links: [String: URL]
    /// `Age`: the answer came from a cache this many seconds old (its quota count is of then, not now).
    public var age: Int?

    /// An answer straight from the service, not from a cache along the way.
    public var isFresh: Bool { (age ?? 0) == 0 }

    public init(headers response: HTTPResponse) {
        if let limit = response.header("X-Ratelimit-Limit").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
           let remaining = response.header("X-Ratelimit-Remaining").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            rateLimit = RateLimit.checked(limit: limit, remaining: remaining)
        }
        // Numbers from headers are checked as any from the body (a total of 2^62 is no total).
        total = Checked.count(response.header("X-Total").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        perPage = response.header("X-Per-Page").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { (1...1_000).contains($0) ? $0 : nil }
        links = response.header("Link").map(Self.parseLinks) ?? [:]
        age = response.header("Age").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Parses an RFC 8288 `Link` header: `<https://…?page=3>; rel="next", <…>; rel="last"`.
    public static func parseLinks(_ header: String) -> [String: URL] {
        var links: [String: URL] = [:]
        var remainder = Substring(header)
        while let open = remainder.firstIndex(of: "<"), let close = remainder[open...].firstIndex(of: ">") {
            let target = remainder[remainder.index(after: open)..<close]
            let afterTarget = remainder[remainder.index(after: close)...]
            let end = afterTarget.firstIndex(of: "<") ?? afterTarget.endIndex
            let parameters = afterTarget[..<end]
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                let names = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\", ")).split(separator: " ")
                if let url = URL(string: String(target)) {
                    for name in names { links[String(name).lowercased()] = url }
                }
            }
            remainder = afterTarget[end...]
        }
        return links
    }

    /// The `page` number in the URL of the given relation, if there is one.
    public func pageNumber(of relation: String) -> Int? {
        guard let url = links[relation],
              let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return nil }
        return Checked.page(items.first { $0.name == "page" }?.value.flatMap { Int($0) })
    }
}
