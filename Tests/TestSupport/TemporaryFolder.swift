import Foundation

/// A fresh folder under the system's temporary folder, removed when the test ends.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("image-feed-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// XDG variables and HOME pointed inside this folder, so nothing touches the real home.
    public var environment: [String: String] {
        ["HOME": url.path,
         "XDG_CONFIG_HOME": url.appendingPathComponent("config").path,
         "XDG_STATE_HOME": url.appendingPathComponent("state").path,
         "XDG_CACHE_HOME": url.appendingPathComponent("cache").path]
    }

    /// Writes `text` at `relativePath` inside the folder (making the folders on the way); returns its URL.
    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
