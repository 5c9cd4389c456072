import Foundation
import HTTPTransport
import ImageFeedCore

/// Tells Unsplash of the photos this program showed from its own image cache: Unsplash counts a view when its image
/// servers send a photo, and a kept copy never reaches them. Unsplash's own client library reports such views
/// through its views beacon (`https://views.unsplash.com/v?photo_id=ID1,ID2&app_id=APP`, at most 20 photos a
/// call); this does the same, at most once a minute, never for the demo (which has no beacon) and never for a photo
/// that is not Unsplash's.
///
/// The application's number is the one Unsplash puts in its image addresses: the second field of the `ixid`
/// parameter, base64 of `version|app|…`.
public final class ViewBeacon: @unchecked Sendable {
    /// At most this many photos a call (Unsplash's limit).
    public static let perCall = 20
    /// Photos waiting past this are dropped, the oldest first: a long time offline does not grow the list.
    static let waitingLimit = 400

    private let http: any HTTPClient
    private let base: URL
    private let interval: TimeInterval
    private let gather: TimeInterval
    private let lock = NSLock()
    private var waiting: [String] = []
    private var waitingSet: Set<String> = []
    private var appID: String?
    private var lastSent: Date?
    private var scheduled = false

    /// `interval`: the least time between two calls (a minute; tests shorten it); `gather`: how long the first
    /// call waits for the photos of the same screen.
    public init(http: any HTTPClient, base: URL = URL(string: "https://views.unsplash.com/v")!, interval: TimeInterval = 60,
                gather: TimeInterval = 3) {
        self.http = http
        self.base = base
        self.interval = interval
        self.gather = gather
    }

    /// Photo `photoID` was shown from the cache; `url` is the image's address (which says the application).
    public func served(photoID: String, url: URL) {
        guard Self.isUnsplashImage(url), Self.isPhotoID(photoID) else { return }
        let due: TimeInterval? = lock.withLock {
            if appID == nil { appID = Self.applicationID(in: url) }
            guard appID != nil else { return nil }
            if waitingSet.insert(photoID).inserted {
                waiting.append(photoID)
                if waiting.count > Self.waitingLimit { waitingSet.remove(waiting.removeFirst()) }
            }
            guard !scheduled else { return nil }
            scheduled = true
            return max(gather, (lastSent.map { interval - Date().timeIntervalSince($0) }) ?? 0)
        }
        if let due { schedule(after: due) }
    }

    /// The ids waiting to be told (for tests and the log).
    var pending: [String] { lock.withLock { waiting } }

    private func schedule(after seconds: TimeInterval) {
        Task.detached(priority: .background) { [self] in
            if seconds > 0 { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
            await sendDue()
        }
    }

    private func sendDue() async {
        let batch: (ids: [String], app: String)? = lock.withLock {
            guard let appID, !waiting.isEmpty else {
                scheduled = false
                return nil
            }
            lastSent = Date()
            return (Array(waiting.prefix(Self.perCall)), appID)
        }
        guard let batch, let url = Self.address(base: base, photoIDs: batch.ids, appID: batch.app) else { return }
        let told = (try? await http.send(HTTPRequest(url: url)))?.status
        let more: Bool = lock.withLock {
            // Told (any answer from the beacon): those go. Not reached (offline): they wait for the next minute.
            if told != nil {
                for id in batch.ids { waitingSet.remove(id) }
                waiting.removeAll { batch.ids.contains($0) }
            }
            scheduled = !waiting.isEmpty
            return scheduled
        }
        if more { schedule(after: interval) }
    }

    // MARK: Facts

    /// `https://views.unsplash.com/v?photo_id=A,B&app_id=N`.
    static func address(base: URL, photoIDs: [String], appID: String) -> URL? {
        guard var parts = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        parts.queryItems = [URLQueryItem(name: "photo_id", value: photoIDs.prefix(perCall).joined(separator: ",")),
                            URLQueryItem(name: "app_id", value: appID)]
        return parts.url
    }

    /// The application's number in an Unsplash image address: the second `|` field of the base64 `ixid`.
    static func applicationID(in url: URL) -> String? {
        guard let ixid = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first(where: { $0.name == "ixid" })?.value, !ixid.isEmpty, ixid.utf8.count <= 200 else { return nil }
        var text = ixid.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text), let decoded = String(data: data, encoding: .utf8) else { return nil }
        let fields = decoded.split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count > 1, !fields[1].isEmpty, fields[1].count <= 12, fields[1].allSatisfy(\.isASCII),
              fields[1].allSatisfy(\.isNumber) else { return nil }
        return String(fields[1])
    }

    /// An image Unsplash's servers send (not an album's, not the demo's).
    static func isUnsplashImage(_ url: URL) -> Bool {
        guard url.scheme == "https", let host = url.host?.lowercased() else { return false }
        return host == "images.unsplash.com" || host == "plus.unsplash.com"
    }

    /// A photo id as Unsplash writes them (letters, digits, - and _): nothing else goes into the address.
    static func isPhotoID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }
}
