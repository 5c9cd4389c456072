import Foundation

/// Links back to Unsplash as its API guidelines ask: each carries `utm_source=image_feed&utm_medium=referral`,
/// so Unsplash can tell where its visitors came from.
public enum Referral {
    public static let source = "image_feed"
    public static let medium = "referral"

    /// `url` with the referral parameters (replacing any it had), its other parameters kept.
    public static func link(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "utm_source" && $0.name != "utm_medium" }
        items += [URLQueryItem(name: "utm_source", value: source), URLQueryItem(name: "utm_medium", value: medium)]
        components.queryItems = items
        return components.url ?? url
    }

    /// Unsplash's home page, for the "Unsplash" of "Photo by NAME on Unsplash".
    public static let unsplash = link(URL(string: "https://unsplash.com/")!)

    /// The photographer's page: the one the API gave, else `https://unsplash.com/@USERNAME`.
    public static func profile(_ user: User) -> URL? {
        if let page = user.htmlLink { return link(page) }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-"))
        guard !user.username.isEmpty, user.username.unicodeScalars.allSatisfy(allowed.contains),
              let page = URL(string: "https://unsplash.com/@\(user.username)") else { return nil }
        return link(page)
    }
}
