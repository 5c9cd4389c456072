import Foundation

/// Fetches the bytes of an image (from the network, or from a cache in front of it).
public protocol ImageSource: Sendable {
    func imageData(at url: URL) async throws(ServiceError) -> Data
    /// The bytes for `url` could not be read as a picture: a cache forgets them, so a retry fetches them anew.
    func discard(_ url: URL)
}

extension ImageSource {
    public func discard(_ url: URL) {}
}
