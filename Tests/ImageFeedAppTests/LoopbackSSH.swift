import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// What stands between a terminal and the app: a shell command that runs `command` there.
struct TerminalPath {
    var name: String
    var wrap: (String) -> String
}

/// A loopback sshd of the test's own (its own host key and user key, on a free port), as a far box is reached.
final class LoopbackSSH {
    let folder: URL
    let port: Int
    private var pid: pid_t = 0

    struct Unavailable: Error, CustomStringConvertible { var description: String }

    init(folder: URL) throws {
        self.folder = folder.appendingPathComponent("ssh")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        // sshd wants its privilege separation folder (made by the package's service, which no one started here).
        try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true)
        for key in ["host", "user"] {
            try Self.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", self.folder.appendingPathComponent(key).path])
        }
        port = 20_000 + Int.random(in: 0..<20_000)
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(self.folder.appendingPathComponent("host").path)
            AuthorizedKeysFile \(self.folder.appendingPathComponent("user.pub").path)
            PidFile \(self.folder.appendingPathComponent("sshd.pid").path)
            StrictModes no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            PermitRootLogin prohibit-password
            """
        let configFile = self.folder.appendingPathComponent("sshd_config")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        pid = try Tool.spawn(["/usr/sbin/sshd", "-D", "-e", "-f", configFile.path])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? Self.run(sshCommand + ["true"], timeout: 5)) != nil { return }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == 0 else { break }
            Thread.sleep(forTimeInterval: 0.3)
        }
        stop()
        throw Unavailable(description: "the loopback sshd did not take a login on port \(port)")
    }

    /// ssh to the loopback sshd, without asking anything.
    var sshCommand: [String] {
        ["ssh", "-p", "\(port)", "-i", folder.appendingPathComponent("user").path, "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "127.0.0.1"]
    }

    /// `command` run over ssh with a terminal (as `ssh host command` from a shell); COLORTERM does not cross.
    var ssh: TerminalPath {
        let prefix = (sshCommand.prefix(sshCommand.count - 1) + ["-t", "127.0.0.1"]).map(Self.quoted).joined(separator: " ")
        return TerminalPath(name: "ssh") { command in "\(prefix) \(Self.quoted(command))" }
    }

    /// `command` run through mosh, which logs in over this sshd.
    var mosh: TerminalPath {
        let ssh = sshCommand.prefix(sshCommand.count - 1).joined(separator: " ")
        return TerminalPath(name: "mosh") { command in
            "mosh --ssh=\(Self.quoted(ssh)) 127.0.0.1 -- sh -c \(Self.quoted(command))"
        }
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        _ = Tool.waitForEnd(of: pid, seconds: 5)
        pid = 0
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a tool to its end (at most `timeout` seconds), through `Tool`: spawned with no descriptor of this process,
    /// so an sshd (or a server it starts) cannot hold the wait open.
    @discardableResult
    static func run(_ arguments: [String], timeout: Double = 15) throws -> String {
        let outcome = try Tool.execute(arguments, timeout: timeout)
        guard outcome.status == 0 else {
            throw Unavailable(description: "\(arguments.first ?? "") failed (status \(outcome.status)): \(outcome.errorText.suffix(300))")
        }
        return outcome.text
    }
}
