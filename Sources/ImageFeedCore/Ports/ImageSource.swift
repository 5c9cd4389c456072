import Foundation

/// Fetches the bytes of an image (from the network, or from a cache in front of it).
public protocol ImageSource: Sendable {
    func imageData(at url: URL) async throws(ServiceError) -> Data
}
