import Foundation
import ImageFeedCore

/// Keeps the access token in a file readable by its owner only (0600, folder 0700), written
/// atomically so that a crash never leaves half a token.
public struct FileTokenStore: TokenStore {
    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    public func loadToken() throws -> String? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        try repairPermissions()
        let token = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        Logs.addSecrets([token])
        return token.isEmpty ? nil : token
    }

    public func saveToken(_ token: String) throws {
        // Whatever is logged from now on has the token taken out, word for word.
        Logs.addSecrets([token])
        let folder = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        // Write to a private temporary file beside the target, then rename over it.
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(token.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        if rename(temporary.path, file.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    public func removeToken() throws {
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Puts the modes back to 0600 (file) and 0700 (folder) if something widened them.
    public func repairPermissions() throws {
        let manager = FileManager.default
        let folder = file.deletingLastPathComponent()
        if let mode = try manager.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int, mode & 0o077 != 0 {
            try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        }
        if let mode = try manager.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, mode & 0o177 != 0 {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
    }
}
