import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Standard output as `cat` and `curl` treat it: a write that fails (a full device, a reader that went away)
/// is a one-line message and a non-zero exit, never a crash and never a success with the output lost.
enum StandardOutput {
    /// Standard output was closed when the program started (`>&-`).
    nonisolated(unsafe) private static var closedAtStart = false

    /// A closed pipe is an error a write returns, not a signal that ends the program without a word. A standard
    /// descriptor closed at start is held by /dev/null, so that no file the program opens takes its number (the
    /// picture would go into the log); output meant for a closed standard output is then a failure.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open takes the lowest free number: this one.
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == STDOUT_FILENO { closedAtStart = true }
        }
    }

    /// Every byte to standard output, or a failure saying why not.
    static func write(_ bytes: [UInt8]) throws(Failure) {
        // What `print` left in stdio's buffer goes first, in order.
        try flush()
        if closedAtStart { throw failure(EBADF) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            offset += written
        }
    }

    /// Writes what `print` left buffered; a failure if that, or anything printed before, could not be written.
    static func flush() throws(Failure) {
        // Standard output alone (fflush of every stream would wait on standard input while a thread reads it).
        // A write stdio could not finish is tried again here, and fails again; its error flag says the rest.
        guard let stream = standardOutputStream else { return }
        errno = 0
        let flushed = fflush(stream)
        let code = errno
        if flushed != 0 || ferror(stream) != 0 { throw failure(code) }
        if closedAtStart { throw failure(EBADF) }
    }

    /// stdio's `stdout`, which `print` writes to (Swift 6 does not let the C global be read directly).
    nonisolated(unsafe) private static let standardOutputStream: UnsafeMutablePointer<FILE>? = {
        guard let symbol = dlsym(nil, "stdout") else { return nil }
        return symbol.assumingMemoryBound(to: UnsafeMutablePointer<FILE>?.self).pointee
    }()

    static func failure(_ code: Int32) -> Failure {
        let reason = code == 0 ? "" : ": " + String(cString: strerror(code))
        return Failure(message: "the output could not be written\(reason)")
    }
}

/// Standard error for the program's own messages: a write that fails (a closed terminal, a full disk) is given up
/// quietly. `FileHandle.write` traps on such a failure, and a failing message would take the program down with it.
enum StandardError {
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
