import Foundation
import ImageFeedCore

/// Keeps the access token in a file readable by its owner only (0600, folder 0700), written
/// atomically so that a crash never leaves half a token.
public struct FileTokenStore: TokenStore {
    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    /// The most a token file may hold (a token is some 50 characters).
    static let sizeLimit = 16 * 1024

    /// The stored token. The file is opened without following a symlink and read only if it is the
    /// user's own regular file, as OpenSSH treats private keys; a mode that lets others read it is narrowed
    /// to 0600 on the file that was opened (`fchmod`), never on a path that could have changed since.
    public func loadToken() throws -> String? {
        guard BoundedFile.ownMode(file) != nil else { return nil }
        try repairFolderPermissions()
        let data: Data
        do {
            data = try BoundedFile.read(file, limit: Self.sizeLimit, noFollow: true, narrowModeTo: 0o600)
        } catch {
            throw TokenFileError(message: "The stored login cannot be used: \(error.message) Log in again to replace it.")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        Logs.addSecrets([token])
        // A token is printable ASCII: anything else would reach a request header.
        guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        return token
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
        // Written whole or not at all: a full disk leaves no half token, and says so in plain words.
        func failure(_ reason: String) -> TokenFileError {
            TokenFileError(message: "the login could not be saved in \(folder.path) (\(reason))")
        }
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        var problem = LogFile.writeAll(descriptor, Array(token.utf8))
        if problem == nil, fsync(descriptor) != 0 { problem = String(cString: strerror(errno)) }
        close(descriptor)
        if problem == nil, rename(temporary.path, file.path) != 0 { problem = String(cString: strerror(errno)) }
        if let problem {
            unlink(temporary.path)
            throw failure(problem)
        }
    }

    public func removeToken() throws {
        // The link itself, if the path is one: never what it points to.
        if BoundedFile.ownMode(file) != nil {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Puts the folder's mode back to 0700 if something widened it (the folder itself, not a link's target).
    func repairFolderPermissions() throws {
        let folder = file.deletingLastPathComponent()
        if let own = BoundedFile.ownMode(folder), !own.isLink, own.mode & 0o077 != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        }
    }
}

/// The token file is there but is not one to trust (a symlink, another user's, too large).
public struct TokenFileError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
