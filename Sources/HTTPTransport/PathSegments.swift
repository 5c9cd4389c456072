import Foundation

/// Builds request URLs whose path is made of values from outside (photo ids, usernames, slugs, album ids):
/// each value is one percent-encoded segment, so `../x`, `a/b`, `?`, `#`, `%`, NUL, spaces and letters beyond
/// ASCII reach the server as that one segment and can never name another path of the API.
public enum PathSegments {
    /// RFC 3986's unreserved characters, the only ones left as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~.")

    /// One segment, percent-encoded. A segment of dots only ("." or "..", which servers and curl resolve
    /// as "this" and "up") has its dots encoded too.
    public static func encode(_ segment: String) -> String {
        if !segment.isEmpty, segment.allSatisfy({ $0 == "." }) {
            return String(repeating: "%2E", count: segment.count)
        }
        var encoded = ""
        for byte in segment.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, unreserved.contains(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded
    }

    /// `base` with `segments` appended, each one segment, and the query if there is one. A literal "+" in
    /// a query value is sent as %2B ("+" means a space to most servers).
    public static func url(_ base: URL, _ segments: [String], query: [URLQueryItem] = []) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        for segment in segments { path += "/" + encode(segment) }
        components.percentEncodedPath = path
        if !query.isEmpty {
            components.queryItems = query
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        return components.url ?? base
    }
}
