import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import XCTest

/// Drives a program in a real terminal, as a person would: a private tmux server, keys sent to its pane,
/// the pane read back as text.
///
/// Every tmux command runs with its standard streams on files and a deadline, and the server is killed
/// when the test ends, so a misbehaving program can fail a test but never hang the test run.
final class Tmux {
    let folder: URL
    let socket: URL
    let environment: [String: String]
    private(set) var started = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether tmux is installed (`make deps` installs it; a bare `swift test` may not have it).
    static var isAvailable: Bool { Tool.isInstalled("tmux") }

    init(folder: URL, environment: [String: String]) {
        self.folder = folder
        socket = folder.appendingPathComponent("tmux.sock")
        var environment = environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment["LANG"] = environment["LANG"] ?? "C.UTF-8"
        environment["TMUX"] = nil
        self.environment = environment
    }

    deinit {
        stop()
    }

    /// Kills the private server and everything in it. Tests call it in tearDown rather than counting on
    /// `deinit`: an async test can keep the instance alive past its end, and the server (with a shell
    /// that never exits) would outlive the test and its deleted socket.
    func stop() {
        guard started else { return }
        started = false
        let pid = (try? tmux(["display-message", "-p", "#{pid}"])).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        _ = try? tmux(["kill-server"])
        // kill-server has been seen to leave the server running; make sure it is gone.
        if let pid {
            let deadline = Date().addingTimeInterval(2)
            while kill(pid, 0) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }

    /// Starts `command` (a shell command line) in a detached session of the given size.
    func start(_ command: String, width: Int, height: Int, directory: URL? = nil) throws {
        var arguments = ["new-session", "-d", "-s", "e2e", "-x", "\(width)", "-y", "\(height)"]
        if let directory { arguments += ["-c", directory.path] }
        arguments.append(command)
        try tmux(arguments)
        started = true
        // Keep the window at the size asked for, whatever clients come and go.
        try tmux(["set-option", "-g", "window-size", "manual"])
    }

    /// Replaces what runs in the pane with `command` (a new run of the program, same terminal).
    func respawn(_ command: String, directory: URL? = nil) throws {
        var arguments = ["respawn-pane", "-k", "-t", "e2e"]
        if let directory { arguments += ["-c", directory.path] }
        arguments.append(command)
        try tmux(arguments)
    }

    /// Sends keys in tmux's notation (`Enter`, `Escape`, `C-c`, `Down`, or plain text with `-l`).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "e2e"] + keys)
    }

    /// Types text literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "e2e", "-l", text])
    }

    /// The pane's text now; `escapes`: with the colours as SGR sequences (`capture-pane -e`).
    func capture(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "e2e"])
    }

    /// A format of the pane (`#{alternate_on}`, `#{cursor_flag}`, `#{pane_pid}`, ...).
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "e2e", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the pane satisfies `condition`; returns the pane. Fails with the last screen seen.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        repeat {
            screen = try capture()
            if condition(screen) { return screen }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        throw Failure(description: "timed out waiting for \(what); the screen was:\n\(screen)")
    }

    /// Waits until the pane satisfies `condition` and stays the same for a moment (a capture can land in
    /// the middle of a frame being drawn).
    @discardableResult
    func waitForSteady(_ what: String, timeout: TimeInterval = 20, _ condition: @escaping (String) -> Bool) throws -> String {
        var previous = ""
        return try waitFor(what, timeout: timeout) { screen in
            defer { previous = screen }
            return condition(screen) && screen == previous
        }
    }

    /// Waits until the pane has stayed the same for `quiet` seconds (pictures drawn after their text have come);
    /// returns the pane.
    @discardableResult
    func waitForQuiet(_ what: String, quiet: TimeInterval = 1, timeout: TimeInterval = 20) throws -> String {
        var previous = try capture()
        var since = Date()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let screen = try capture()
            if screen != previous {
                previous = screen
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return screen
            }
        }
        throw Failure(description: "\(what) never settled; the screen was:\n\(previous)")
    }

    /// Waits until the pane shows `text`.
    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 20) throws -> String {
        try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Runs one tmux command and returns its standard output; throws if it fails or takes over 10 s.
    ///
    /// Spawned directly rather than with `Process`: Foundation watches its children through a descriptor
    /// the child inherits, and the tmux server (a grandchild that stays) would keep it open forever.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outputFile = folder.appendingPathComponent("tmux-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let argv = ["tmux", "-f", "/dev/null", "-S", socket.path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var pid: pid_t = 0
        let status = withCStrings(argv) { cArguments in
            withCStrings(envp) { cEnvironment in
                posix_spawnp(&pid, "tmux", &actions, nil, cArguments, cEnvironment)
            }
        }
        guard status == 0 else { throw Failure(description: "cannot run tmux: \(String(cString: strerror(status)))") }
        let shown = arguments.joined(separator: " ")
        let command = shown.count > 160 ? String(shown.prefix(160)) + "…" : shown
        let deadline = Date().addingTimeInterval(10)
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &exitStatus, 0)
                throw Failure(description: "tmux \(command) did not finish in 10 s")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        // WIFEXITED && WEXITSTATUS == 0
        guard exitStatus & 0x7F == 0, (exitStatus >> 8) & 0xFF == 0 else {
            throw Failure(description: "tmux \(command) failed: \(text)")
        }
        return text
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

/// glibc (2.34+) declares this only for _GNU_SOURCE, which Swift's Glibc module does not define.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func posix_spawn_file_actions_addclosefrom_np(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                                      _ from: Int32) -> Int32
