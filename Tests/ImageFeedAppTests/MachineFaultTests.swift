import Foundation
@testable import ImageFeedApp
import TerminalImage
import TestSupport
import XCTest

/// Faults a real machine has, made real: a full disk (a small tmpfs as the home), a terminal whose other end
/// closes, a standard output that is full or closed, Ctrl-Z and fg, a start-up answer that never ends, a download
/// cut short by quitting. Nothing crashes, nothing is lost, the terminal is given back.
final class MachineFaultTests: XCTestCase {
    var folder: TemporaryFolder!
    var mounts: [URL] = []
    var tmux: Tmux?

    override func setUpWithError() throws {
        TestWatchdog.install(current: self)
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        tmux?.stop()
        tmux = nil
        for mount in mounts { _ = runShell("umount -l '\(mount.path)'") }
        mounts = []
    }


    /// A home on a tmpfs of `kilobytes`, filled to the last block when `full`.
    func smallHome(kilobytes: Int = 512, full: Bool) throws -> URL {
        guard getuid() == 0 else { throw XCTSkip("needs root to mount a tmpfs") }
        let home = folder.url.appendingPathComponent("home-\(mounts.count)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        guard runShell("mount -t tmpfs -o size=\(kilobytes)k tmpfs '\(home.path)'") == 0 else { throw XCTSkip("cannot mount a tmpfs here") }
        mounts.append(home)
        if full { fill(home) }
        return home
    }

    func fill(_ home: URL) {
        runShell("dd if=/dev/zero of='\(home.path)/filler' bs=4k 2>/dev/null; true")
    }

    func environment(home: URL) -> [String: String] {
        ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    func run(_ arguments: [String], environment: [String: String], stdout: String) -> (status: Int32, stderr: String) {
        let errors = folder.url.appendingPathComponent("stderr-\(UUID().uuidString)")
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        let settings = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let status = runShell("env -i \(settings) '\(CommandLineTests.executable.path)' \(quoted) \(stdout) 2>'\(errors.path)'")
        return (status, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    // MARK: A full disk

    func test_aFullDisk_everyCommandStillRuns_andSaysOnceThatTheLogCannotBeWritten() throws {
        let home = try smallHome(full: true)
        let result = run(["feed", "--demo"], environment: environment(home: home), stdout: "> '\(folder.url.path)/feed.json'")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "cannot be written (No space left on device)").count - 1, 1, result.stderr)
        let feed = try Data(contentsOf: folder.url.appendingPathComponent("feed.json"))
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: feed) as? [String: Any])
        // What the log had written stays whole (no half line).
        let log = home.appendingPathComponent(".local/state/image-feed/image-feed.log")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(text.isEmpty || text.hasSuffix("\n"), text)
    }

    func test_aDiskThatFillsMidSession_theAppGoesOn_theDownloadSaysWhy_andLeavesNoPartialFile() throws {
        guard Tmux.isAvailable else { throw XCTSkip("tmux is not installed") }
        let home = try smallHome(kilobytes: 2048, full: false)
        let tmux = Tmux(folder: folder.url, environment: environment(home: home))
        self.tmux = tmux
        try tmux.start("'\(CommandLineTests.executable.path)' --demo; echo \"exit status $?\"; exec sh", width: 100, height: 30)
        try tmux.waitFor(text: "Log in")
        try tmux.send("Enter")
        try tmux.waitFor(text: "No account needed")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Photo by")
        fill(home)
        // A like is taken, and the demo says once that it cannot be kept past this run.
        try tmux.send("f")
        var screen = try tmux.waitFor(text: "likes cannot be kept")
        XCTAssertTrue(screen.contains("(the disk is full)"), screen)
        try tmux.waitFor("the notice gone") { !$0.contains("likes cannot be kept") }
        try tmux.send("f")
        let quiet = try tmux.waitForQuiet("the unlike answered", quiet: 1.5)
        XCTAssertFalse(quiet.contains("likes cannot be kept"), "said once\n\(quiet)")
        try tmux.send("Enter")
        try tmux.waitFor(text: "d download")
        try tmux.send("d")
        // The folder as the user reads it and the reason in a few words, not Foundation's or the system's.
        screen = try tmux.waitFor(text: "Couldn't save the photo in ~/Pictures/image-feed")
        let words = screen.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(words.contains("image-feed: the disk is full."), screen)
        try tmux.send("Escape")
        try tmux.send("Escape")
        try tmux.send("C-c")
        try tmux.waitFor(text: "exit status 0")
        let downloads = home.appendingPathComponent("Pictures/image-feed")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []
        XCTAssertEqual(left, [], "nothing partial is left")
    }

    /// `cache info` and `cache clear` on a store another program wrote: values of other types, then a table of the
    /// same name with other columns. Neither crashes; clear sets the store aside and starts afresh.
    func test_cacheInfoAndClear_onAStoreAnotherProgramWrote() throws {
        let home = folder.url.appendingPathComponent("home")
        let store = home.appendingPathComponent(".cache/image-feed/store.sqlite")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        let environment = ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        // Tables of the program's shape, with values of other types in them, as another program may write them.
        func python(_ lines: [String]) throws -> Int32 {
            let script = folder.url.appendingPathComponent("store-\(UUID().uuidString).py")
            try (["import sqlite3", "c = sqlite3.connect('\(store.path)')"] + lines.map { "c.execute(\"\($0)\")" } + ["c.commit()"])
                .joined(separator: "\n").write(to: script, atomically: true, encoding: .utf8)
            return runShell("python3 '\(script.path)'")
        }
        XCTAssertEqual(try python([
            "CREATE TABLE cached_list (name TEXT PRIMARY KEY, saved_at DOUBLE, note TEXT)",
            "CREATE TABLE cached_photo (list TEXT, position INTEGER, photo_id TEXT, json BLOB)",
            "CREATE TABLE cached_value (name TEXT PRIMARY KEY, saved_at DOUBLE, json BLOB)",
            "CREATE TABLE image_entry (key TEXT PRIMARY KEY, bytes INTEGER, last_used DOUBLE)",
            "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
            "INSERT INTO grdb_migrations VALUES ('v1: lists, profile, images'), ('v2: find a saved photo by id')",
            "INSERT INTO cached_list VALUES ('feed', '2024-01-01', NULL)",
            "INSERT INTO cached_value VALUES ('profile', NULL, NULL)",
        ]), 0)
        let info = run(["cache", "info"], environment: environment, stdout: "> '\(folder.url.path)/info.txt'")
        XCTAssertEqual(info.status, 0, info.stderr)
        let text = try String(contentsOf: folder.url.appendingPathComponent("info.txt"), encoding: .utf8)
        XCTAssertTrue(text.contains("Feed: none"), text)
        XCTAssertTrue(text.contains("2 rows with values ImageFeed does not write"), text)
        // Now a table of the same name with other columns: clear sets the file aside and starts afresh.
        XCTAssertEqual(try python(["DROP TABLE cached_list", "CREATE TABLE cached_list (id INTEGER)"]), 0)
        let clear = run(["cache", "clear"], environment: environment, stdout: "> '\(folder.url.path)/clear.txt'")
        XCTAssertEqual(clear.status, 0, clear.stderr)
        let cleared = try String(contentsOf: folder.url.appendingPathComponent("clear.txt"), encoding: .utf8)
        XCTAssertTrue(cleared.contains("Cache cleared"), cleared)
        let aside = try FileManager.default.contentsOfDirectory(atPath: store.deletingLastPathComponent().path)
        XCTAssertTrue(aside.contains { $0.hasPrefix("store.sqlite.foreign-") }, "\(aside)")
        XCTAssertEqual(run(["cache", "info"], environment: environment, stdout: ">/dev/null").status, 0)
    }

    // MARK: Standard output

    func test_renderAndFeed_toAFullOrClosedOutput_sayItInOneLine_andFail() throws {
        let photo = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/photos/astronaut.jpg").path
        let plain = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.url.path]
        for (arguments, redirect, reason) in [
            (["render", photo, "--cols", "20", "--rows", "5"], ">/dev/full", "No space left on device"),
            (["render", photo, "--cols", "20", "--rows", "5"], ">&-", "Bad file descriptor"),
            (["render", photo, "--cols", "20", "--rows", "5"], "|", "Broken pipe"),
            (["feed", "--demo"], ">/dev/full", "No space left on device"),
            (["feed", "--demo"], ">&-", "Bad file descriptor"),
        ] {
            let result: (status: Int32, stderr: String)
            if redirect == "|" {
                // A pipe whose reader has already gone (its read end closed before the program starts).
                let errors = folder.url.appendingPathComponent("pipe-stderr")
                let quoted = ([CommandLineTests.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
                let status = runShell("""
                    HOME='\(folder.url.path)' python3 -c 'import os, subprocess, sys
                    r, w = os.pipe(); os.close(r)
                    sys.exit(subprocess.run(sys.argv[1:], stdout=w, stderr=open("\(errors.path)", "w")).returncode)' \(quoted)
                    """)
                result = (status, (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            } else {
                result = run(arguments, environment: plain, stdout: redirect)
            }
            let lines = result.stderr.split(separator: "\n")
            XCTAssertNotEqual(result.status, 0, "\(arguments) \(redirect)")
            XCTAssertLessThan(result.status, 128, "\(arguments) \(redirect): ended by a signal")
            XCTAssertEqual(lines.last, "image-feed: the output could not be written: \(reason)", "\(arguments) \(redirect): \(result.stderr)")
            XCTAssertLessThanOrEqual(lines.count, 2, "\(arguments) \(redirect): one line (a warning may come first): \(result.stderr)")
        }
    }

    // MARK: Bounds, under a watchdog

    /// `render` as a process of its own, killed past 1 GB of memory or 120 s: what it cost, and how it ended.
    func renderUnderAWatchdog(_ file: URL) throws -> (status: Int32, peakMB: Int, seconds: Double, stderr: String, killed: Bool) {
        let errors = folder.url.appendingPathComponent("render-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = CommandLineTests.executable
        process.arguments = ["render", file.path, "--cols", "40", "--rows", "20"]
        process.environment = ["HOME": folder.url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        let started = Date()
        try process.run()
        var peak = 0
        var killed = false
        while process.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") {
                peak = max(peak, kilobytes / 1024)
            }
            if peak > 1024 || Date().timeIntervalSince(started) > 120 {
                killed = true
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        process.waitUntilExit()
        return (process.terminationStatus, peak, Date().timeIntervalSince(started),
                (try? String(contentsOf: errors, encoding: .utf8)) ?? "", killed)
    }

    /// A 4000x4000 progressive JPEG of 200 KB with 2,000 scans: refused after the 64 allowed, well inside the
    /// watchdog's bounds (without the limit, about half a minute of CPU).
    func test_aJPEGOfThousandsOfScans_isRefused_withinTheWatchdogsBounds() throws {
        let file = folder.url.appendingPathComponent("scans.jpg")
        try ImageCodec.repeatingLastScan(side: 4000, copies: 2000).write(to: file)
        let outcome = try renderUnderAWatchdog(file)
        XCTAssertFalse(outcome.killed, "past 1 GB or 120 s: \(outcome)")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("more than 64 scans"), outcome.stderr)
        XCTAssertLessThan(outcome.peakMB, 400, "one 16-megapixel picture's coefficients at most")
    }

    // MARK: The terminal

    /// The pseudo-terminal's other end closes (the window closed, the connection dropped), six times: the program
    /// ends within a second each time, by itself, and the feed it showed is saved.
    func test_closingTheTerminal_endsTheProgramWithinASecond_neverByASignal() throws {
        let home = folder.url.appendingPathComponent("home")
        let environment = ["HOME": home.path]
        // The first run logs in to the demo; the others start on the feed.
        let login = try PtyDriver.run(["--demo"], environment: environment,
                                      steps: ["wait:Log in", "send:\r", "wait:No account needed", "send:\r", "wait:Photo by", "send:\u{3}"],
                                      folder: folder.url)
        XCTAssertNil(login.failedStep, login.text)
        var endings: [String] = []
        for _ in 0..<6 {
            let result = try PtyDriver.run(["--demo"], environment: environment, steps: ["wait:Photo by", "close"], exitWait: 5,
                                           folder: folder.url)
            XCTAssertNil(result.failedStep, result.text)
            endings.append("\(result.ending) in \(result.secondsToEnd.map { String(format: "%.2f s", $0) } ?? "-")")
            XCTAssertTrue(result.ending.hasPrefix("exit"), "\(endings): \(result.stderr)")
            XCTAssertLessThan(result.secondsToEnd ?? 99, 1, "\(endings)")
            XCTAssertFalse(result.stderr.contains("Fatal"), result.stderr)
        }
        // What the session saw is in the store.
        let store = home.appendingPathComponent(".cache/image-feed/demo/store.sqlite")
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.path))
    }

    /// An answer to the start-up questions that opens a control string and keeps sending letters (`q` among them)
    /// without ever ending it: none of them is a key, and the app draws its first screen.
    func test_aStartUpAnswerThatNeverEnds_turnsIntoNoKeys() throws {
        let flood = "\u{1B}[?62;22c\u{1B}P>|" + String(repeating: "quit q ", count: 30_000)
        let result = try PtyDriver.run(["--demo"], environment: ["HOME": folder.url.appendingPathComponent("home").path],
                                       steps: ["wait:Log in", "sleep:2"],
                                       answers: [(when: "\u{1B}[c", answer: flood)], exitWait: 0.5, folder: folder.url)
        XCTAssertNil(result.failedStep, "the app quit or never drew: \(result.text.suffix(500))")
        XCTAssertEqual(result.ending, "running", "q in the answer quit the app: \(result.stderr)")
    }

    /// Ctrl-Z in a shell with job control: the shell gets the terminal back ("Stopped"), `fg` and Enter typed out of
    /// habit do not like the photo, and the app draws everything again.
    func test_ctrlZ_suspendsAsInVim_andFgRedraws() throws {
        guard Tmux.isAvailable else { throw XCTSkip("tmux is not installed") }
        let home = folder.url.appendingPathComponent("home")
        let tmux = Tmux(folder: folder.url, environment: ["HOME": home.path])
        self.tmux = tmux
        try tmux.start("PS1='shell$ ' bash --norc --noprofile -i", width: 100, height: 30)
        try tmux.waitFor(text: "shell$")
        try tmux.type("'\(CommandLineTests.executable.path)' --demo")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Log in")
        try tmux.send("Enter")
        try tmux.waitFor(text: "No account needed")
        try tmux.send("Enter")
        // Steady: a capture can land while the line is still being drawn.
        let feed = try tmux.waitForSteady("the feed") { $0.contains("Photo by") }
        let likes = feed.split(separator: "\n").first { $0.contains("Photo by") }.map(String.init) ?? ""
        try tmux.send("C-z")
        let stopped = try tmux.waitFor(text: "Stopped")
        XCTAssertEqual(try tmux.format("#{alternate_on}"), "0", "the shell has the main screen back:\n\(stopped)")
        try tmux.type("fg")
        try tmux.send("Enter")
        let again = try tmux.waitForSteady("the feed drawn again") { $0.contains("Photo by") }
        XCTAssertEqual(again.split(separator: "\n").first { $0.contains("Photo by") }.map(String.init), likes,
                       "fg and Enter did nothing to the photo (no like, no viewer)")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertFalse(try tmux.capture().contains("no shell with job control"), "it was stopped and brought back")
        try tmux.send("q")
        try tmux.waitFor("the shell back after q") { _ in (try? tmux.format("#{pane_current_command}")) == "bash" }
        XCTAssertEqual(try tmux.format("#{alternate_on}"), "0")
    }

    /// With TERM dumb or unset, nothing is asked of the terminal: the first thing printed is the message.
    func test_aDumbTerminal_isToldSo_beforeAnyEscapeSequence() throws {
        for term in ["dumb", ""] {
            let result = try PtyDriver.run(["--demo"], environment: ["HOME": folder.url.path, "TERM": term], steps: [], folder: folder.url)
            XCTAssertTrue(result.stderr.contains("ImageFeed needs a terminal"), result.stderr)
            XCTAssertFalse(result.raw.contains("\u{1B}"), "TERM=\(term): \(result.raw.debugDescription)")
            XCTAssertTrue(result.ending.hasPrefix("exit"), result.ending)
        }
    }

    /// Started with no shell that has job control (its own session, as a pseudo-terminal's first program): a stop
    /// could never be undone, so Ctrl-Z says so and the app goes on.
    func test_ctrlZ_withoutJobControl_saysSo_andGoesOn() throws {
        let result = try PtyDriver.run(["--demo"], environment: ["HOME": folder.url.appendingPathComponent("home").path],
                                       steps: ["wait:Log in", "send:\u{1A}", "wait:no shell with job control", "send:\u{3}"],
                                       folder: folder.url)
        XCTAssertNil(result.failedStep, result.text.suffix(600).description)
        XCTAssertEqual(result.ending, "exit 0")
    }

    // MARK: Downloads cut short

    /// Quitting while a download runs leaves no `.part` file; one left by a copy that was killed is removed at the
    /// next start.
    func test_quittingDuringADownload_leavesNothingPartial_andAStartSweepsOldLeftovers() throws {
        guard Tmux.isAvailable else { throw XCTSkip("tmux is not installed") }
        let home = folder.url.appendingPathComponent("home")
        let downloads = home.appendingPathComponent("Pictures/image-feed")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        // Left by a killed copy (no such process), and by one from before parts were named for their process.
        for name in [".image-feed-999999999-\(UUID().uuidString).part", ".image-feed-\(UUID().uuidString).part"] {
            FileManager.default.createFile(atPath: downloads.appendingPathComponent(name).path, contents: Data("x".utf8))
        }
        var environment = ["HOME": home.path]
        // The photo's file arrives slowly: the download is still running when the user quits.
        environment["IMAGE_FEED_DEMO_FAULTS"] = "image=bandwidth:15000"
        let tmux = Tmux(folder: folder.url, environment: environment)
        self.tmux = tmux
        try tmux.start("'\(CommandLineTests.executable.path)' --demo; echo \"exit status $?\"; exec sh", width: 100, height: 30)
        try tmux.waitFor(text: "Log in")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloads.path), [], "the leftovers are swept at the start")
        try tmux.send("Enter")
        try tmux.waitFor(text: "No account needed")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Photo by")
        try tmux.send("Enter")
        try tmux.waitFor(text: "d download")
        try tmux.send("d")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: downloads.path)).isEmpty {
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: downloads.path).contains { $0.hasSuffix(".part") },
                      "the download is under way")
        try tmux.send("C-c")
        try tmux.waitFor(text: "exit status 0")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: downloads.path), [])
    }
}
