import Foundation
import XCTest

/// A program the tests run beside the one under test (ImageMagick, ffmpeg, screen, xdotool…): one way to find it, to
/// run it to its end and to read what it wrote. A tool that is not installed skips the test with its name
/// (`make test` installs every one); one that fails throws with what it said, so nothing traps later on output that
/// is not there.
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

    /// Whether `name` is an executable on PATH.
    public static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// Skips the test, naming the first of `names` that is not installed.
    public static func require(_ names: String...) throws {
        for name in names where !isInstalled(name) {
            throw XCTSkip("\(name) is not installed (make test installs it)")
        }
    }

    /// Runs `arguments` (the first is looked up on PATH) in `folder`, to its end or for at most `timeout` seconds; its
    /// status and what it wrote on standard output (standard error goes with it when `errors`). The output goes
    /// through a file, so a tool that leaves a child behind cannot hold the wait open.
    public static func outcome(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                               errors: Bool = false, timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        guard let name = arguments.first else { return (0, "") }
        try require(name)
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: capture.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: capture) }
        let handle = try FileHandle(forWritingTo: capture)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = errors ? handle : FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return (-1, (try? String(contentsOf: capture, encoding: .utf8)) ?? "")
        }
        return (process.terminationStatus, (try? String(contentsOf: capture, encoding: .utf8)) ?? "")
    }

    /// `outcome`, failing (by throwing what the tool said) unless it ended with status 0; its output.
    @discardableResult
    public static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String]? = nil,
                           timeout: TimeInterval = 300) throws -> String {
        let (status, output) = try outcome(arguments, in: folder, environment: environment, errors: true, timeout: timeout)
        guard status == 0 else { throw Failed(arguments: arguments, status: status, said: output) }
        return output
    }
}
