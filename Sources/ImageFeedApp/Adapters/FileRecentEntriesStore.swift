import Foundation
import ImageFeedCore

/// The search history as a small JSON array in the state folder, written atomically, readable by its
/// owner only. A file that cannot be read counts as no history.
public struct FileRecentEntriesStore: RecentEntriesStore {
    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    public func loadHistory() throws -> [String] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        let data = try Data(contentsOf: file)
        return (try? JSONDecoder().decode([String].self, from: data)) ?? []
    }

    public func saveHistory(_ queries: [String]) throws {
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let data = try JSONEncoder().encode(queries)
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        if rename(temporary.path, file.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
