import Foundation
import ImageFeedCore
import UnsplashAPI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Saves a photo's full-size file to the downloads folder, after telling Unsplash about the download
/// (`links.download_location`), as the API guidelines require.
public struct PhotoDownloader: Sendable {
    public let folder: URL
    private let client: any PhotoService

    public init(folder: URL, client: any PhotoService) {
        self.folder = folder
        self.client = client
    }

    /// Downloads and returns the path of the saved file; `progress` gets fractions as bytes arrive.
    public func download(_ photo: Photo, tracked: Bool = true,
                         progress: @escaping @Sendable (Double?) -> Void) async throws(ServiceError) -> String {
        try await save(photo, tracked: tracked, progress: progress).path
    }

    /// Downloads the photo; says where it went and whether it replaced a file of the same name (the same
    /// photo downloaded before).
    /// - Parameter tracked: ask the service for the file's address (Unsplash counts downloads that way);
    ///   otherwise the photo's full-size file is fetched as it is (an album photo).
    public func save(_ photo: Photo, tracked: Bool = true,
                     progress: @escaping @Sendable (Double?) -> Void) async throws(ServiceError) -> (path: String, replaced: Bool) {
        let fileURL: URL
        if tracked {
            fileURL = try await client.trackDownload(of: photo)
        } else {
            // The original: an animation itself, not the still it is shown by.
            guard let file = photo.links.download ?? photo.urls.full ?? photo.urls.regular else {
                throw .other("The photo has no file to download.")
            }
            fileURL = file
        }
        guard let scheme = fileURL.scheme?.lowercased(),
              scheme == "https" || (scheme == "http" && UnsplashConfiguration.isLoopback(host: fileURL.host ?? "")) else {
            throw .other("The download address is not https.")
        }
        let data = try await ProgressFetch.fetch(fileURL, progress: progress)
        // Without an author, the source names the file: an untracked download is an album's (Imgur) photo.
        let name = Self.fileName(for: photo, data: data, source: tracked ? "unsplash" : "imgur")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let target = folder.appendingPathComponent(name)
            let replaced = FileManager.default.fileExists(atPath: target.path)
            try data.write(to: target, options: .atomic)
            return (target.path, replaced)
        } catch {
            throw .other("The photo could not be saved in \(folder.path): \(error.localizedDescription)")
        }
    }

    /// "author-photoid.jpg" (".png", ".gif", ".mp4", ".webm" for those), or "source-photoid.jpg" without an
    /// author, with only safe characters.
    static func fileName(for photo: Photo, data: Data, source: String = "unsplash") -> String {
        let author = photo.user?.username ?? source
        let base = "\(author)-\(photo.id)".map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
        return String(base) + "." + fileExtension(data)
    }

    /// The file's kind by its first bytes: png, gif, mp4, webm, else jpg.
    static func fileExtension(_ data: Data) -> String {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if data.starts(with: Array("GIF8".utf8)) { return "gif" }
        if data.count >= 8, data.dropFirst(4).prefix(4).elementsEqual(Array("ftyp".utf8)) { return "mp4" }
        if data.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return "webm" }
        return "jpg"
    }
}

/// A GET whose progress is reported as the body arrives.
enum ProgressFetch {
    static func fetch(_ url: URL, progress: @escaping @Sendable (Double?) -> Void) async throws(ServiceError) -> Data {
        let delegate = ProgressDelegate(progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<(Data, Int), Error> = await withCheckedContinuation { continuation in
            delegate.finish = { continuation.resume(returning: $0) }
            session.dataTask(with: URLRequest(url: url, timeoutInterval: 60)).resume()
        }
        switch result {
        case let .success((data, status)):
            guard (200..<300).contains(status) else {
                throw status >= 500 ? .server(status: status) : status == 404 ? .notFound : .http(status: status, message: "")
            }
            return data
        case let .failure(error as URLError):
            throw URLSessionHTTPClient.serviceError(for: error)
        case let .failure(error):
            throw .noConnection(error.localizedDescription)
        }
    }

    private final class ProgressDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private var expected: Int64 = -1
        private var status = 0
        private var lastReported = -1.0
        let progress: @Sendable (Double?) -> Void
        var finish: ((Result<(Data, Int), Error>) -> Void)?

        init(progress: @escaping @Sendable (Double?) -> Void) {
            self.progress = progress
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            lock.withLock {
                expected = response.expectedContentLength
                status = (response as? HTTPURLResponse)?.statusCode ?? 0
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive chunk: Data) {
            let fraction: Double? = lock.withLock {
                data.append(chunk)
                guard expected > 0 else { return nil }
                let value = min(1, Double(data.count) / Double(expected))
                // Report in steps of 2% at most, so the screen is not flooded.
                guard value - lastReported >= 0.02 || value == 1 else { return -1 }
                lastReported = value
                return value
            }
            if fraction != -1 { progress(fraction) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            let outcome: Result<(Data, Int), Error> = lock.withLock {
                if let error { return .failure(error) }
                return .success((data, status))
            }
            finish?(outcome)
            finish = nil
        }
    }
}
