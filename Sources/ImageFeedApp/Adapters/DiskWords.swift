import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTPTransport

/// Why a file the user wanted kept could not be written, in their words rather than Foundation's ("You don't have
/// permission to save the file “x” in the folder “y”") or the system's ("Read-only file system").
enum DiskWords {
    static func reason(errno code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EDQUOT: "your disk quota is used up"
        case EROFS: "the disk is read-only"
        case EACCES, EPERM: "you may not write there"
        case ENOTDIR, EEXIST: "a file stands where the folder should be"
        case ELOOP: "a link stands where the folder should be"
        default: String(cString: strerror(code))
        }
    }

    /// The system's reason under a Foundation error (the number the transport reads from it), in the same words;
    /// Foundation's own sentence where it names no reason.
    static func reason(_ error: any Error) -> String {
        let code = FileWriteFailure.errno(of: error)
        return code == 0 ? (error as NSError).localizedDescription : reason(errno: code)
    }

    /// Whether a folder can take a new file now: creates and removes one (a read-only or full disk says so here,
    /// before anything is fetched). Returns the reason it cannot.
    static func problemWriting(in folder: URL) -> String? {
        let probe = folder.appendingPathComponent(".image-feed-probe-\(getpid())-\(UUID().uuidString)")
        let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return reason(errno: errno) }
        close(descriptor)
        unlink(probe.path)
        return nil
    }
}
