import Foundation
#if canImport(Glibc)
import Glibc
#endif
import UnsplashSandbox

/// What the demo keeps beside its token: the likes and collection changes made in it, so that a newcomer's
/// favorites are still there at the next start (the sandbox itself forgets everything when the program ends).
/// Owner-only, written whole (a private file renamed over the old one) after each change; a file that cannot be
/// read or was not written by the demo is set aside with a word, never trusted.
public final class DemoMemory: @unchecked Sendable {
    let file: URL
    private let state: SandboxState
    private let lock = NSLock()
    /// The first write that failed (a full disk): the log has it, and the session goes on.
    private(set) var problem: String?
    /// Whether the user has been told (once a session) that the likes cannot be kept.
    private var problemSaid = false

    /// The most the file may hold.
    static let sizeLimit = 4 * 1024 * 1024

    init(file: URL, state: SandboxState) {
        self.file = file
        self.state = state
    }

    /// Takes up what an earlier run kept, then keeps every change. Returns a warning when the file was unusable.
    func start() -> String? {
        var warning: String?
        if BoundedFile.ownMode(file) != nil {
            do {
                let data = try BoundedFile.read(file, limit: Self.sizeLimit, noFollow: true, narrowModeTo: 0o600)
                let remembered = try JSONDecoder().decode(SandboxState.Remembered.self, from: data)
                guard remembered.isPlausible else { throw CocoaError(.coderInvalidValue) }
                state.restore(remembered)
            } catch {
                let aside = file.appendingPathExtension("unreadable")
                _ = rename(file.path, aside.path)
                warning = "The demo's likes in \(file.path) could not be read; they were set aside as \(aside.lastPathComponent) and the demo starts without them."
            }
        }
        state.whenChanged { [weak self] in self?.save() }
        return warning
    }

    /// Writes what the sandbox holds now (the latest, whichever change called).
    func save() {
        lock.withLock {
            let data = (try? JSONEncoder().encode(state.remembered)) ?? Data()
            if let failure = Self.write(data, to: file), problem == nil {
                problem = failure
                Logs.failure("The demo's likes could not be kept in \(file.path) (\(failure)); they last until ImageFeed ends.")
            }
        }
    }

    /// What to tell the user, once a session, when the likes made in the demo cannot be kept.
    func unsaidProblem() -> String? {
        lock.withLock {
            guard let problem, !problemSaid else { return nil }
            problemSaid = true
            return "The demo's likes cannot be kept (\(problem)): they last until ImageFeed ends."
        }
    }

    /// Logging out of the demo forgets its likes with its token.
    func forget() {
        lock.withLock { _ = unlink(file.path) }
    }

    private static func write(_ data: Data, to file: URL) -> String? {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return DiskWords.reason(error)
        }
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return DiskWords.reason(errno: errno) }
        var problem = LogFile.writeAll(descriptor, Array(data)).map { _ in DiskWords.reason(errno: errno) }
        if problem == nil, fsync(descriptor) != 0 { problem = DiskWords.reason(errno: errno) }
        close(descriptor)
        if problem == nil, rename(temporary.path, file.path) != 0 { problem = DiskWords.reason(errno: errno) }
        if problem != nil { unlink(temporary.path) }
        return problem
    }
}
