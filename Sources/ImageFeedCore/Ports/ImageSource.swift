import Foundation

/// Fetches the bytes of an image (from the network, or from a cache in front of it).
public protocol ImageSource: Sendable {
    func imageData(at url: URL) async throws(ServiceError) -> Data
    /// The bytes of photo `photoID`'s image at `url`: a cache that serves them without asking the service says the
    /// photo was seen (`ViewBeacon`), as the service counts a view when it sends an image.
    func imageData(at url: URL, of photoID: String?) async throws(ServiceError) -> Data
    /// The bytes for `url` could not be read as a picture: a cache forgets them, so a retry fetches them anew.
    func discard(_ url: URL)
}

extension ImageSource {
    public func imageData(at url: URL, of photoID: String?) async throws(ServiceError) -> Data {
        try await imageData(at: url)
    }

    public func discard(_ url: URL) {}
}
