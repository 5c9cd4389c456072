import Foundation
import ImageFeedCore
import UnsplashAPI

/// Image bytes over HTTP(S): https anywhere, plain http only on loopback (the sandbox).
public struct HTTPImageSource: ImageSource {
    private let http: any HTTPClient

    public init(http: any HTTPClient) {
        self.http = http
    }

    public func imageData(at url: URL) async throws(ServiceError) -> Data {
        guard let scheme = url.scheme?.lowercased(),
              scheme == "https" || (scheme == "http" && UnsplashConfiguration.isLoopback(host: url.host ?? "")) else {
            // Say what was refused: a `file:` or `data:` link has no host to name.
            let what = url.host.map { "\(url.scheme ?? "a link") to \($0)" } ?? "a \(url.scheme ?? "schemeless") link"
            throw .other("Images are fetched over https only, not \(what).")
        }
        let response = try await http.sendForService(HTTPRequest(url: url, headers: ["Accept": "image/jpeg,image/png,image/*"],
                                                                 bodyLimit: BodyLimit.image))
        switch response.status {
        case 200..<300: return response.body
        case 404: throw .notFound
        case 500...599: throw .server(status: response.status)
        default: throw .http(status: response.status, message: "")
        }
    }
}
