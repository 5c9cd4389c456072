import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// A program the tests run beside the one under test (ImageMagick, ffmpeg, screen, xdotool, the app itself…): one way
/// to find it, to run it to its end and to read what it wrote. A tool that is not installed skips the test with its
/// name (`make test` installs every one); one that fails throws with what it said, so nothing traps later on output
/// that is not there.
///
/// A tool is spawned with nothing of the test process but the files it is given: Foundation's `Process` watches a
/// child through a descriptor the child inherits, which a server it starts (sshd, a tmux server) keeps open, and the
/// wait never ends. Its output goes through files, so a large output cannot block it and a child it leaves behind
/// cannot hold the wait open.
public enum Tool {
    /// A tool that ended with a status other than 0, or was stopped at its time limit.
    public struct Failed: Error, CustomStringConvertible {
        public let arguments: [String]
        public let status: Int32
        public let said: String
        public var description: String {
            "\(arguments.joined(separator: " ")) ended with status \(status): \(said.suffix(2000))"
        }

        public init(arguments: [String], status: Int32, said: String) {
            self.arguments = arguments
            self.status = status
            self.said = said
        }
    }

    /// A tool that could not be started.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// How a tool ended: its exit status (-1 when it was killed, at its time limit or by a signal), what it wrote on
    /// standard output and on standard error (empty when that went with the output).
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: Data
        public var errors: Data
        public var text: String { String(decoding: output, as: UTF8.self) }
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Whether `name` is an executable on PATH (or, with a slash, that file).
    public static func isInstalled(_ name: String) -> Bool {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) }
        return (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// Skips the test, naming the first of `names` that is not installed.
    public static func require(_ names: String...) throws {
        for name in names where !isInstalled(name) {
            throw XCTSkip("\(name) is not installed (make test installs it)")
        }
    }

    /// Runs `arguments` (the first looked up on PATH, or a path) in `folder`, with `input` on standard input (else
    /// /dev/null), to its end or for at most `timeout` seconds (then it is killed).
    /// `errorsWithOutput`: standard error goes into the output, in the order written; else it is kept apart.
    public static func execute(_ arguments: [String], input: Data? = nil, in folder: URL? = nil,
                               environment: [String: String]? = nil, errorsWithOutput: Bool = false,
                               timeout: TimeInterval = 300) throws -> Outcome {
        guard let name = arguments.first else { return Outcome(status: 0, output: Data(), errors: Data()) }
        try require(name)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        let outputFile = base.appendingPathExtension("out"), errorsFile = base.appendingPathExtension("err")
        let inputFile = base.appendingPathExtension("in")
        defer { for file in [outputFile, errorsFile, inputFile] { try? FileManager.default.removeItem(at: file) } }
        if let input { try input.write(to: inputFile) }
        let pid = try spawn(arguments, input: input == nil ? "/dev/null" : inputFile.path, output: outputFile.path,
                            errors: errorsWithOutput ? nil : errorsFile.path, in: folder,
                            environment: environment ?? ProcessInfo.processInfo.environment)
        let status = waitForEnd(of: pid, seconds: timeout)
        let exit: Int32 = status.map { $0 & 0x7F == 0 ? ($0 >> 8) & 0xFF : -1 } ?? -1
        return Outcome(status: exit, output: (try? Data(contentsOf: outputFile)) ?? Data(),
                       errors: errorsWithOutput ? Data() : (try? Data(contentsOf: errorsFile)) ?? Data())
    }

    /// `execute`'s status and output as text (standard error with it when `errors`, else dropped).
    public static func outcome(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                               errors: Bool = false, timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        let outcome = try execute(arguments, in: folder, environment: environment, errorsWithOutput: errors, timeout: timeout)
        return (outcome.status, outcome.text)
    }

    /// `outcome`, failing (by throwing what the tool said) unless it ended with status 0; its output.
    @discardableResult
    public static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                           timeout: TimeInterval = 300) throws -> String {
        let (status, output) = try outcome(arguments, in: folder, environment: environment, errors: true, timeout: timeout)
        guard status == 0 else { throw Failed(arguments: arguments, status: status, said: output) }
        return output
    }

    /// Starts `arguments` (the first found on PATH, or a path) with standard input from `input`, output to `output`,
    /// errors to `errors` (nil: with the output), in `folder`, and no other descriptor of this process; its process id.
    public static func spawn(_ arguments: [String], input: String = "/dev/null", output: String = "/dev/null",
                             errors: String? = "/dev/null", in folder: URL? = nil,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws -> pid_t {
        guard let name = arguments.first else { throw Unavailable(description: "no program to run") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let folder { _ = changeDirectory(&actions, folder.path) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        _ = closeFrom(&actions, 3)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let status = posix_spawnp(&pid, name, &actions, nil, argv, envp)
        guard status == 0 else { throw Unavailable(description: "cannot run \(name): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits for the child `pid` to end, at most `seconds`; then kills it. Its wait status, or nil when it was killed.
    public static func waitForEnd(of pid: pid_t, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        var pause = 0.001
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return nil
            }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.02)
        }
        return status
    }
}

/// glibc (2.34+) declares these only for _GNU_SOURCE, which Swift's Glibc module does not define.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
