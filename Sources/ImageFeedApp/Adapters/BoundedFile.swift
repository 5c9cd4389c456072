import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file of the user's home without trusting it: never more than a limit, only a regular file, and
/// where asked, not through a symlink and only if it is the user's own (as OpenSSH treats private keys).
public enum BoundedFile {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The file's bytes, at most `limit` of them.
    /// - Parameters:
    ///   - noFollow: refuse a symlink at `url` (O_NOFOLLOW), and a file another user owns.
    ///   - narrowModeTo: a mode to set on the opened file when it lets more than that (`fchmod`).
    public static func read(_ url: URL, limit: Int, noFollow: Bool = false, narrowModeTo: mode_t? = nil) throws(Failure) -> Data {
        try read(path: url.path, limit: limit, noFollow: noFollow, narrowModeTo: narrowModeTo)
    }

    /// The same, for a path as the user gave it (relative to the working directory, as the messages say it).
    public static func read(path: String, limit: Int, noFollow: Bool = false, narrowModeTo: mode_t? = nil) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (noFollow ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP && noFollow {
                throw Failure(message: "\(path) is a symbolic link; it is not followed. Put the file itself there.")
            }
            throw Failure(message: "\(path) cannot be read (\(String(cString: strerror(code)))).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(message: "\(path) cannot be read (\(String(cString: strerror(errno)))).")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(message: "\(path) is not a regular file.")
        }
        if noFollow, status.st_uid != geteuid() {
            throw Failure(message: "\(path) belongs to another user (uid \(status.st_uid)); it is not used.")
        }
        if let narrowModeTo, status.st_mode & 0o777 & ~narrowModeTo != 0 {
            _ = fchmod(descriptor, narrowModeTo)
        }
        guard Int64(status.st_size) <= Int64(limit) else {
            throw Failure(message: "\(path) is \(status.st_size) bytes, more than the \(limit) this file may have.")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "\(path) cannot be read (\(String(cString: strerror(errno)))).")
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            // A file that grows while it is read (or a device that never ends) stops at the limit.
            guard data.count <= limit else {
                throw Failure(message: "\(path) is more than the \(limit) bytes this file may have.")
            }
        }
        return data
    }

    /// The mode bits of the file at `url` itself (not what a symlink there points to); nil if there is none.
    public static func ownMode(_ url: URL) -> (mode: mode_t, isLink: Bool)? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        return (status.st_mode & 0o7777, (status.st_mode & S_IFMT) == S_IFLNK)
    }
}
