import Foundation
import HTTPTransport
import ImageFeedCore

/// The Imgur API v3 calls ImageFeed makes, as Imgur shapes them. Every request carries
/// `Authorization: Client-ID <client id>`; answers are unwrapped from Imgur's envelope and failures become
/// `ServiceError`s. `ImgurRepository` turns the shapes into the app's models.
public struct ImgurClient: Sendable {
    public let configuration: ImgurConfiguration
    private let http: any HTTPClient
    /// The client id's credits as Imgur's answers count them.
    let credits = ImgurCredits()

    public init(configuration: ImgurConfiguration, http: any HTTPClient) {
        self.configuration = configuration
        self.http = http
    }

    /// `GET /3/account/{username}/albums/{page}`: a page of the user's albums (0-based pages at Imgur).
    func albums(username: String, page: Int) async throws(ServiceError) -> LossyArray<AlbumDTO> {
        let body = try await get(["3", "account", username, "albums", String(max(0, page))])
        return try decode(LossyArray<AlbumDTO>.self, from: body)
    }

    /// `GET /3/album/{albumHash}/images`: the images of an album, in its order.
    func images(albumID: String) async throws(ServiceError) -> LossyArray<ImageDTO> {
        let body = try await get(["3", "album", albumID, "images"])
        return try decode(LossyArray<ImageDTO>.self, from: body)
    }

    private func get(_ path: [String]) async throws(ServiceError) -> Data {
        guard !configuration.clientID.isEmpty else {
            throw .notConfigured("No Imgur client id is configured. Set IMGUR_CLIENT_ID, or run with --demo."
                + " Imgur registers no new applications (since mid-2025): only an existing application's client id works.")
        }
        // Each element (a username, an album id) is one percent-encoded segment.
        let url = PathSegments.url(configuration.apiBase, path)
        let request = HTTPRequest(url: url, headers: [
            "Authorization": "Client-ID \(configuration.clientID)",
            "Accept": "application/json",
            "User-Agent": configuration.userAgent,
        ])
        if let left = credits.current, left.remaining <= ImgurCredits.reserve(of: left.limit) {
            throw .creditsKept(service: "Imgur", remaining: left.remaining, limit: left.limit)
        }
        let response = try await http.sendForService(request)
        credits.note(response)
        guard (200..<300).contains(response.status) else { throw Self.error(for: response) }
        return response.body
    }

    private func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(ServiceError) -> T {
        let envelope = try? JSONDecoder().decode(ImgurEnvelope<T>.self, from: body)
        if let envelope, envelope.success != false { return envelope.data }
        // A 200 whose envelope says it failed is still a failure, whatever its data holds (an error object,
        // not what was asked for): its status and message say which. Read only when the answer is not one.
        if let head = try? JSONDecoder().decode(ImgurEnvelopeHead.self, from: body), head.success == false {
            let status = head.status.flatMap { (400..<600).contains($0) ? $0 : nil }
            guard let status else {
                let message = (try? JSONDecoder().decode(ImgurEnvelope<ImgurErrorDTO>.self, from: body))?.data.message
                throw .http(status: head.status ?? 200, message: message ?? "the service reported a failure")
            }
            throw Self.error(for: HTTPResponse(status: status, headers: [:], body: body))
        }
        throw .malformedResponse(field: (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) == nil
                                 ? "body" : "data")
    }

    /// Whether a 403's message is Imgur's refusal to serve the caller's country.
    static func isRegionBlock(_ message: String) -> Bool {
        let lowered = message.lowercased()
        return lowered.contains("region") || lowered.contains("country") || lowered.contains("not available in")
    }

    /// The typed error for a failed answer. Imgur sends 429 when a quota is spent, with
    /// `X-RateLimit-ClientRemaining` / `X-RateLimit-UserRemaining` and `X-RateLimit-UserReset` (epoch seconds).
    static func error(for response: HTTPResponse) -> ServiceError {
        let message = (try? JSONDecoder().decode(ImgurEnvelope<ImgurErrorDTO>.self, from: response.body))?.data.message ?? ""
        let remaining = [response.header("X-RateLimit-ClientRemaining"), response.header("X-RateLimit-UserRemaining")]
            .compactMap { $0.flatMap { Int($0) } }
        switch response.status {
        case 429, 403 where remaining.contains(0):
            let limit = response.header("X-RateLimit-ClientLimit").flatMap { Int($0) }
            let reset = response.header("X-RateLimit-UserReset").flatMap { TimeInterval($0) }.map { Date(timeIntervalSince1970: $0) }
            return .rateLimited(limit: limit, resetsAt: reset)
        case 401:
            // Not .applicationKeyRefused: that one tells the user about Unsplash's key.
            return .forbidden("the Imgur client id was refused (check IMGUR_CLIENT_ID or imgur_client_id)")
        case 403 where Self.isRegionBlock(message):
            // Imgur is not served in some countries (the United Kingdom since September 2025): its words alone
            // ("not available in your region") read as a fault of the program.
            return .forbidden("Imgur is not available where you are (it said: \(UntrustedText.sanitize(message)))")
        case 403:
            return .forbidden(message.isEmpty ? "access denied" : message)
        case 404:
            return .notFound
        case 500...599:
            return .server(status: response.status)
        default:
            return .http(status: response.status, message: message)
        }
    }
}

/// Imgur's credits for a client id, as every answer counts them (`X-RateLimit-ClientLimit`, `-ClientRemaining`):
/// about 12,500 requests a day for the application, all its users together. Going over the daily limit five times
/// in a month blocks the application for the rest of the month, so the client stops asking well before
/// (`reserve`), and the Albums pane shows what is left.
final class ImgurCredits: @unchecked Sendable {
    private let lock = NSLock()
    private var last: RateLimit?

    /// What the last answer that counted said; nil before one.
    var current: RateLimit? { lock.withLock { last } }

    /// Kept back from the daily limit: a tenth of it, and at least 50.
    static func reserve(of limit: Int) -> Int { max(50, limit / 10) }

    func note(_ response: HTTPResponse) {
        guard let limit = response.header("X-RateLimit-ClientLimit").flatMap({ Int($0) }), limit > 0,
              let remaining = response.header("X-RateLimit-ClientRemaining").flatMap({ Int($0) }) else { return }
        lock.withLock { last = RateLimit(limit: limit, remaining: min(max(0, remaining), limit)) }
    }
}
