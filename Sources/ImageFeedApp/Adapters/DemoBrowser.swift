import Foundation
import ImageFeedCore
import UnsplashAPI

/// The browser's part of a demo login: open the sandbox's authorize page and press its Login button,
/// as a person would, with the same HTTP requests a browser sends. Only for the demo sandbox.
enum DemoBrowser {
    /// Returns the address the authorize page sends the browser to (the redirect URI with the code).
    static func approve(_ authorizeURL: URL, http: any HTTPClient) async throws(OAuthError) -> String {
        let page = try await send(HTTPRequest(url: authorizeURL))
        if (300..<400).contains(page.status), let location = page.header("Location") {
            return location // the sandbox approves at once when told to
        }
        guard page.status == 200 else { throw .service(.http(status: page.status, message: "The authorize page did not open.")) }
        let html = String(decoding: page.body, as: UTF8.self)
        guard let form = formFields(html) else { throw .missingCode }
        var fields = form.fields
        fields.append(("decision", "approve"))
        let body = fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        guard let action = URL(string: form.action, relativeTo: authorizeURL)?.absoluteURL else { throw .missingCode }
        let answer = try await send(HTTPRequest(method: .post, url: action,
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                body: Data(body.utf8)))
        guard (300..<400).contains(answer.status), let location = answer.header("Location") else {
            throw .service(.http(status: answer.status, message: "The authorize page did not redirect."))
        }
        return location
    }

    private static func send(_ request: HTTPRequest) async throws(OAuthError) -> HTTPResponse {
        do {
            return try await DemoBrowserTransport.send(request)
        } catch {
            throw .service(.fromTransport(error))
        }
    }

    /// The first form's action and its hidden inputs (the sandbox's page is simple, well-formed HTML).
    static func formFields(_ html: String) -> (action: String, fields: [(String, String)])? {
        guard let formStart = html.range(of: "<form") else { return nil }
        let rest = html[formStart.lowerBound...]
        let action = attribute("action", in: String(rest.prefix { $0 != ">" })) ?? ""
        var fields: [(String, String)] = []
        var cursor = rest.startIndex
        while let input = rest.range(of: "<input", range: cursor..<rest.endIndex) {
            let tag = String(rest[input.lowerBound...].prefix { $0 != ">" })
            if attribute("type", in: tag) == "hidden", let name = attribute("name", in: tag) {
                fields.append((name, unescape(attribute("value", in: tag) ?? "")))
            }
            cursor = input.upperBound
        }
        return (action, fields)
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let start = tag.range(of: "\(name)=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return String(value)
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: "%20", with: "+")
    }
}

/// A transport that does not follow redirects (the browser stand-in reads them itself).
enum DemoBrowserTransport {
    static let http = CurlHTTPClient(followRedirects: false)

    static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await http.send(request)
    }
}
