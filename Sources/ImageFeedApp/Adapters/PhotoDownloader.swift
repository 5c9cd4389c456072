import Foundation
import ImageFeedCore
import UnsplashAPI

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
        // The body goes to a temporary file beside the target as it arrives, renamed into place only when
        // it is complete: a download that fails or passes its limit leaves nothing, and no file is held in memory.
        // The folder as the user reads it (`~/Pictures/ImageFeed`), the reason in their words.
        let shownFolder = LiveEffectPerformer.shown(path: folder.path)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .other("Couldn't save the photo in \(shownFolder): \(DiskWords.reason(error)).")
        }
        if let problem = DiskWords.problemWriting(in: folder) {
            throw .other("Couldn't save the photo in \(shownFolder): \(problem).")
        }
        let partial = folder.appendingPathComponent(Self.partialName())
        Self.unfinished.begin(partial)
        defer {
            try? FileManager.default.removeItem(at: partial)
            Self.unfinished.end(partial)
        }
        try await ProgressFetch.fetch(fileURL, to: partial, progress: progress)
        let head = (try? FileHandle(forReadingFrom: partial)).map { handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 16)) ?? Data()
        } ?? Data()
        // Without an author, the source names the file: an untracked download is an album's (Imgur) photo.
        let name = Self.fileName(for: photo, data: head, source: tracked ? "unsplash" : "imgur")
        let target = folder.appendingPathComponent(name)
        let replaced = FileManager.default.fileExists(atPath: target.path)
        // rename(2) replaces an existing file of the same name in one step.
        guard rename(partial.path, target.path) == 0 else {
            throw .other("Couldn't save the photo in \(shownFolder): \(DiskWords.reason(errno: errno)).")
        }
        return (target.path, replaced)
    }

    // MARK: What a download leaves while it runs

    /// The temporary file a download writes before it is complete: hidden, named for this process
    /// (`.image-feed-PID-UUID.part`), so that a later start can tell a copy still running from one that ended
    /// without cleaning up.
    static func partialName(pid: Int32 = getpid()) -> String {
        ".image-feed-\(pid)-\(UUID().uuidString).part"
    }

    /// The downloads under way in this process.
    final class Unfinished: @unchecked Sendable {
        private let lock = NSLock()
        private var files: Set<URL> = []
        func begin(_ file: URL) { lock.withLock { _ = files.insert(file) } }
        func end(_ file: URL) { lock.withLock { _ = files.remove(file) } }
        func take() -> Set<URL> { lock.withLock { defer { files = [] }; return files } }
    }

    static let unfinished = Unfinished()

    /// Removes the temporary files of downloads still under way: the program is ending (q, Ctrl-C, SIGTERM,
    /// SIGHUP), and a download that did not finish leaves nothing behind.
    public static func removeUnfinished() {
        for file in unfinished.take() { unlink(file.path) }
    }

    /// Removes the temporary files in `folder` that no running copy of the program is writing: those of a
    /// process that is gone (killed, or from before this naming, which had no process id). Returns how many.
    @discardableResult
    public static func sweep(_ folder: URL) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(".image-feed-") && name.hasSuffix(".part") {
            let middle = name.dropFirst(".image-feed-".count).dropLast(".part".count)
            let fields = middle.split(separator: "-", maxSplits: 1)
            if fields.count == 2, let pid = Int32(fields[0]), fields[1].count == 36, isRunning(pid) { continue }
            // Only a regular file is removed: never a link, never what one points to.
            let path = folder.appendingPathComponent(name).path
            if BoundedFile.ownMode(URL(fileURLWithPath: path)).map({ !$0.isLink }) == true, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether a process with this id runs: this program's own, or another copy's.
    static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if pid == getpid() { return true }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        // A running process with that number: this program only if its name says so (the number may be reused).
        let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.map { $0.hasPrefix("image-feed") } ?? true
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

/// A GET whose body streams to a file, its progress reported as the body arrives.
enum ProgressFetch {
    /// How long a download may take in all: a server that sends a byte now and then does not hold it forever.
    static let deadline: TimeInterval = 60 * 60

    static func fetch(_ url: URL, to file: URL, limit: Int = BodyLimit.download,
                      progress: @escaping @Sendable (Double?) -> Void) async throws(ServiceError) {
        let client = CurlHTTPClient(timeout: 60, deadline: deadline, followRedirects: true)
        let response: HTTPResponse
        do {
            response = try await client.download(HTTPRequest(url: url, bodyLimit: limit), to: file, progress: progress)
        } catch let failure as FileWriteFailure {
            let reason = failure.code == 0 ? "it could not be written" : DiskWords.reason(errno: failure.code)
            let folder = failure.folder.isEmpty ? file.deletingLastPathComponent().path : failure.folder
            throw .other("Couldn't save the photo in \(LiveEffectPerformer.shown(path: folder)): \(reason).")
        } catch {
            throw .fromTransport(error)
        }
        let status = response.status
        guard (200..<300).contains(status) else {
            throw status >= 500 ? .server(status: status) : status == 404 ? .notFound : .http(status: status, message: "")
        }
    }
}
