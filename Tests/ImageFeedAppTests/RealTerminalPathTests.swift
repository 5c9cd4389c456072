import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TerminalImage
import TestSupport
import XCTest

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
        pid = try Self.spawn(["/usr/sbin/sshd", "-D", "-e", "-f", configFile.path])
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
        _ = Self.waitForEnd(of: pid, seconds: 5)
        pid = 0
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a tool to its end (at most `timeout` seconds), its output through a file. Spawned directly, with no
    /// descriptor of this process: Foundation's `Process` watches a child through a descriptor it inherits, which
    /// an sshd (or a server it starts) keeps open, and the wait never ends.
    @discardableResult
    static func run(_ arguments: [String], timeout: Double = 15) throws -> String {
        let (status, output) = try runToEnd(arguments, timeout: timeout)
        guard let status else { throw Unavailable(description: "\(arguments.first ?? "") did not finish in \(Int(timeout)) s") }
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { throw Unavailable(description: "\(arguments.first ?? "") failed") }
        return String(decoding: output, as: UTF8.self)
    }

    /// `run`'s work, for any tool: its wait status (nil when it was killed at `timeout`) and its output.
    static func runToEnd(_ arguments: [String], timeout: Double,
                         environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (status: Int32?, output: Data) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        let pid = try spawn(arguments, output: file.path, environment: environment)
        let status = waitForEnd(of: pid, seconds: timeout)
        return (status, (try? Data(contentsOf: file)) ?? Data())
    }

    /// Waits for the child `pid` to end, at most `seconds`; then kills it. Its wait status, or nil when it was killed.
    static func waitForEnd(of pid: pid_t, seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return nil
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return status
    }

    /// Starts `arguments` (found on PATH) with standard input from /dev/null and output to `output`, and no other
    /// descriptor; its process id.
    static func spawn(_ arguments: [String], output: String = "/dev/null",
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        closeFrom(&actions, 3)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard status == 0 else { throw Unavailable(description: "cannot run \(arguments[0]): \(String(cString: strerror(status)))") }
        return pid
    }
}

/// The paths between a terminal and a headless box, each in a real terminal under Xvfb, photographed: the viewer's
/// photo against its source and against the tools of the field run the same way (chafa, img2sixel), and what each
/// path leaves behind.
extension RealTerminalTests {
    /// The app as it is started at the far end: its own home, a UTF-8 locale, pictures at full size (these tests
    /// judge what arrives, not the link).
    var appCommand: String {
        let settings = folder.environment.merging(["LANG": "C.UTF-8", "IMAGE_FEED_LINK": "fast"]) { $1 }
        return "env " + settings.sorted { $0.key < $1.key }.map { "\($0.key)=\(LoopbackSSH.quoted($0.value))" }.joined(separator: " ")
            + " " + LoopbackSSH.quoted(CommandLineTests.executable.path) + " --demo"
    }

    func loopbackSSH() throws -> LoopbackSSH {
        for tool in ["ssh", "ssh-keygen"] where !Self.which(tool) { throw XCTSkip("\(tool) is not installed (make test installs it)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd") else { throw XCTSkip("sshd is not installed (make test installs it)") }
        let ssh = try LoopbackSSH(folder: folder.url)
        addTeardownBlock { ssh.stop() }
        return ssh
    }

    /// Over SSH into xterm as a VT340: Sixel crosses, as good as img2sixel and chafa sent the same way.
    func test_overSSH_xterm_theSixelPhoto_asWellAsThePeers() throws {
        try againIfNoPhotograph {
            let path = try loopbackSSH().ssh
            let viewer = try viewerPhotograph(in: .xterm, through: path)
            try assertAsGoodAsThePeers(viewer, in: .xterm, sixel: true, through: path)
        }
    }

    /// Through mosh into alacritty: characters (mosh passes no pictures) in 24-bit colour, as good as chafa through
    /// the same mosh.
    func test_throughMosh_alacritty_charactersIn24BitColour_asWellAsChafa() throws {
        try againIfNoPhotograph {
            try XCTSkipUnless(Self.which("mosh"), "mosh is not installed (make test installs it)")
            let path = try loopbackSSH().mosh
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            let log = try String(contentsOf: folder.url.appendingPathComponent("state/image-feed/image-feed.log"), encoding: .utf8)
            XCTAssertTrue(log.contains("colours: truecolor"), "24-bit colour through mosh:\n\(log.suffix(2000))")
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }

    /// Inside tmux (as started with no configuration) in alacritty: characters, as good as chafa in the same tmux;
    /// after quitting, the pane's title is tmux's own.
    func test_insideTmux_alacritty_asWellAsChafa_andThePaneTitleStays() throws {
        try againIfNoPhotograph {
            try XCTSkipUnless(Self.which("tmux"), "tmux is not installed (make test installs it)")
            let socket = folder.url.appendingPathComponent("tmux.sock").path
            let path = TerminalPath(name: "tmux") { command in
                "tmux -S \(LoopbackSSH.quoted(socket)) -f /dev/null new-session \(LoopbackSSH.quoted(command + "; sleep 60"))"
            }
            addTeardownBlock { _ = try? LoopbackSSH.run(["tmux", "-S", socket, "kill-server"]) }
            let title = try LoopbackSSH.run(["hostname"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            try press(viewer.window, "Escape")
            try press(viewer.window, "q")
            // Its title is read once the app has ended.
            let ended = Date().addingTimeInterval(20)
            while appCPUTicks() != nil, Date() < ended { Thread.sleep(forTimeInterval: 0.1) }
            XCTAssertNil(appCPUTicks(), "the app ended after q")
            let paneTitle = try LoopbackSSH.run(["tmux", "-S", socket, "display-message", "-p", "#{pane_title}"])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(paneTitle, title, "the pane's title after quitting")
            _ = try? LoopbackSSH.run(["tmux", "-S", socket, "kill-server"])
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }

    /// Inside GNU screen in alacritty: 256 colours (screen 4 has no 24-bit), as good as chafa in the same screen.
    func test_insideGNUScreen_alacritty_asWellAsChafa() throws {
        try againIfNoPhotograph {
            try XCTSkipUnless(Self.which("screen"), "screen is not installed (make test installs it)")
            // Each window its own session, told to quit at the end (screen detaches when its terminal goes, and would stay).
            var sessions: [String] = []
            let path = TerminalPath(name: "GNU screen") { command in
                let session = "imagefeed-\(UUID().uuidString.prefix(8))"
                sessions.append(session)
                return "screen -q -S \(session) sh -c \(LoopbackSSH.quoted(command))"
            }
            addTeardownBlock { for session in sessions { _ = try? LoopbackSSH.run(["screen", "-S", session, "-X", "quit"]) } }
            let viewer = try viewerPhotograph(in: .alacritty, through: path)
            try assertAsGoodAsThePeers(viewer, in: .alacritty, sixel: false, through: path)
        }
    }
}

/// glibc (2.34+) declares this only for _GNU_SOURCE, which Swift's Glibc module does not define.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
