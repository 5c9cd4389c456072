import Foundation
import TerminalUI
import UnsplashSandbox
#if canImport(Glibc)
import Glibc
#endif

/// The program as a far-away user meets it over SSH: the real `image-feed` on a pseudo-terminal whose far end
/// reads at a set rate (1 Mbit/s is 125,000 bytes a second), keys arriving 50 ms after they are pressed. For each
/// way of drawing photos, four steps, each timed from the key until the output went quiet, with the bytes it
/// took: ten `j` a tenth of a second apart, Enter (the viewer), Escape (back to the feed), and Enter with Escape
/// 0.3 s later (a user who changed their mind). Then the animated item (the demo's Imgur album "Moving pictures", its
/// GIF of 10 frames a second): Enter on it, how it plays for five seconds (frames written a second, and how late, from
/// the program's log), Space answered while it plays (pause, play: until the far end read the status line's "❚❚" or
/// "▶"), Escape, and ten moves between the album's tiles after it (`l` `l` `h` `h` …: they stand in one row).
struct SlowLinkBenchmark {
    struct Mode {
        var name: String
        var graphics: String
        var trueColor: Bool
    }

    static let modes = [
        Mode(name: "cells 256", graphics: "cells", trueColor: false),
        Mode(name: "cells 24-bit", graphics: "cells", trueColor: true),
        Mode(name: "kitty", graphics: "kitty", trueColor: true),
        Mode(name: "kitty placeholders", graphics: "kitty-placeholders", trueColor: true),
        Mode(name: "sixel", graphics: "sixel", trueColor: true),
        Mode(name: "iterm2", graphics: "iterm2", trueColor: true),
    ]

    let rates: [Int]
    let modeNames: [String]
    /// The far end as over SSH: the pseudo-terminal read at once into a buffer the link then drains, and a
    /// terminal that answers DA1.
    var buffered = false
    let width = 120
    let height = 40
    /// How long without a byte counts as quiet.
    let quiet = 1.0
    let keyDelay = 0.05

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func run(into report: inout Report) async throws {
        guard let program = ScrollBenchmark.sibling("image-feed") else {
            report.note("slow link: skipped, image-feed is not built beside the benchmark (make bench builds both)")
            return
        }
        for rate in rates {
            for mode in Self.modes where modeNames.isEmpty || modeNames.contains(mode.graphics) || modeNames.contains(mode.name) {
                try await measure(program: program, mode: mode, rate: rate, into: &report)
            }
        }
    }

    static func rateName(_ rate: Int) -> String {
        let bits = Double(rate) * 8
        return bits >= 1_000_000 ? String(format: "%g Mbit/s", bits / 1_000_000) : String(format: "%g kbit/s", bits / 1_000)
    }

    private func measure(program: URL, mode: Mode, rate: Int, into report: inout Report) async throws {
        let label = "slow link\(buffered ? " behind a buffer (ssh)" : "") \(Self.rateName(rate)) \(mode.name), \(width)x\(height)"
        let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(feedSize: 200)))
        let token = sandbox.server.state.issueToken(username: sandbox.server.catalog.demoUsername)
        var environment = ScrollBenchmark.programEnvironment(tag: "slowlink", sandbox: sandbox, token: token)
        if mode.trueColor { environment["COLORTERM"] = "truecolor" }
        environment["IMGUR_CLIENT_ID"] = SandboxSettings.demoImgurClientID
        environment["IMGUR_API_BASE"] = sandbox.baseURL.absoluteString
        // Each animation frame's lateness goes to the log at debug level.
        environment["IMAGE_FEED_LOG_LEVEL"] = "debug"
        let log = URL(fileURLWithPath: environment["XDG_STATE_HOME"]!).appendingPathComponent("image-feed/image-feed.log")
        environment["IMAGE_FEED_GRAPHICS"] = mode.graphics
        // The link and the characters may be set from outside, to compare.
        for key in ["IMAGE_FEED_LINK", "IMAGE_FEED_BLITTER"] {
            if let value = ProcessInfo.processInfo.environment[key] { environment[key] = value }
        }

        let terminal = try PseudoTerminal(width: width, height: height, readRate: rate, cellWidth: 9, cellHeight: 18,
                                          buffered: buffered)
        let pid = try ScrollBenchmark.spawn(program, environment: environment, terminal: terminal.slave)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            terminal.close()
        }
        func served(_ route: String) -> Int { sandbox.server.state.requestsByRoute[route] ?? 0 }
        let deadline = Date().addingTimeInterval(60)
        while served("photos") < 1 || served("image") < 2 {
            guard Date() < deadline else { throw Failure(description: "\(label): the feed did not start in 60 s") }
            sleepFor(0.01)
        }
        _ = waitForQuiet(terminal, since: now())

        /// Sends `keys` (each `spacing` seconds after the last, arriving `keyDelay` late), then waits for quiet:
        /// the seconds from the first key to the last byte, and the bytes.
        func step(_ keys: [[UInt8]], spacing: [Double]) -> (seconds: Double, bytes: Int) {
            let before = terminal.bytesReceived
            let start = now()
            var at = 0.0
            for (index, key) in keys.enumerated() {
                at += index == 0 ? 0 : spacing[index - 1]
                terminal.type(key, after: at + keyDelay)
            }
            sleepFor(at + keyDelay)
            let end = waitForQuiet(terminal, since: now())
            return (max(0, end - start), terminal.bytesReceived - before)
        }
        let j = Array("j".utf8), enter: [UInt8] = [13], escape: [UInt8] = [27]
        let scroll = step(Array(repeating: j, count: 10), spacing: Array(repeating: 0.1, count: 9))
        let open = step([enter], spacing: [])
        let back = step([escape], spacing: [])
        let changed = step([enter, escape], spacing: [0.3])
        let moving = try animatedItem(terminal, log: log, label: label, step: { step($0, spacing: $1) })
        await sandbox.stop()

        func figure(_ result: (seconds: Double, bytes: Int)) -> String {
            String(format: "%.1f s, %d KB", result.seconds, result.bytes / 1_000)
        }
        let slow = rate <= 125_000
        report.add("\(label): 10 x j, 100 ms apart", figure(scroll), target: slow ? "<= 3.5 s, <= 400 KB" : "")
        report.add("\(label): Enter (the viewer)", figure(open), target: slow ? "<= 3 s" : "")
        report.add("\(label): Escape (the feed)", figure(back), target: slow ? "<= 1 s" : "")
        report.add("\(label): Enter, Escape 0.3 s later", figure(changed), target: slow ? "<= 1.5 s" : "")
        let sized = rate <= 250_000
        report.add("\(label): animated item: Enter, until it plays (or says why not)", moving.opened, target: "")
        report.add("\(label): animated item: frames written a second", moving.framesPerSecond,
                   target: sized ? ">= 5, or held with the reason" : "")
        report.add("\(label): animated item: frames written after they were due, p95 / max", moving.late, target: sized ? "<= 250 ms" : "")
        report.add("\(label): animated item: Space while it plays, answered (worst of 6)", moving.keys, target: sized ? "<= 150 ms" : "")
        report.add("\(label): animated item: Escape, answered", moving.escape, target: "")
        report.add("\(label): animated item: 10 x l/h after Escape, 100 ms apart", figure(moving.scroll), target: "")
    }

    struct Moving {
        var opened = "-"
        var framesPerSecond = "-"
        var late = "-"
        var keys = "-"
        var escape = "-"
        var scroll = (seconds: 0.0, bytes: 0)
    }

    /// From the feed to the animated item of the demo's Imgur album, and what it does there (see the type's comment).
    private func animatedItem(_ terminal: PseudoTerminal, log: URL, label: String,
                              step: ([[UInt8]], [Double]) -> (seconds: Double, bytes: Int)) throws -> Moving {
        var moving = Moving()
        func press(_ text: String, until texts: String..., timeout: Double = 20) -> (index: Int, seconds: Double)? {
            terminal.watch(for: texts)
            let sent = now() + keyDelay
            terminal.type(Array(text.utf8), after: keyDelay)
            guard let found = terminal.waitForWatched(timeout: timeout) else { return nil }
            return (found.index, max(0, found.at - sent))
        }
        guard press("4", until: "username") != nil, press("nasa\r", until: "Moving pictures") != nil else {
            throw Failure(description: "\(label): the albums of nasa did not show")
        }
        _ = waitForQuiet(terminal, since: now())
        terminal.type(Array("j".utf8), after: keyDelay)
        sleepFor(0.5)
        guard press("\r", until: "Falcon 9") != nil else {
            throw Failure(description: "\(label): the album of animations did not open")
        }
        _ = waitForQuiet(terminal, since: now())
        func framesLogged() -> [Int] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: "animation: frame ") else { return nil }
                let words = line[range.upperBound...].split(separator: " ")
                return words.count >= 3 ? Int(words[2]) : nil
            }
        }
        let before = framesLogged().count
        guard let opened = press("\r", until: "▶", "link too slow", "paused: slow link", timeout: 30) else {
            moving.opened = "nothing in 30 s"
            return moving
        }
        let said = ["plays", "link too slow to play", "paused: slow link"][opened.index]
        moving.opened = String(format: "%.2f s: %@", opened.seconds, said)
        if opened.index == 0 {
            // Held after it began (the frames it measured could not cross in time even at a third each way): the watch
            // above sees it too.
            sleepFor(1)
            let start = framesLogged().count
            let watched = 5.0
            sleepFor(watched)
            let lates = Array(framesLogged().dropFirst(max(start, before))).sorted()
            moving.framesPerSecond = String(format: "%.1f", Double(lates.count) / watched)
            if terminal.watchedSeen(1) != nil {
                moving.opened += ", then held: link too slow"
            } else if lates.isEmpty {
                // No frame drawn by the program, and not held: the terminal plays the frames it was given.
                moving.opened += " (the terminal plays the frames)"
                moving.framesPerSecond = "the terminal's"
            }
            if !lates.isEmpty {
                moving.late = "\(lates[min(lates.count - 1, lates.count * 95 / 100)]) / \(lates.last!) ms"
            }
            var answers: [Double] = []
            // Space pauses ("❚❚") and plays on ("▶"); held meanwhile for the link, Space plays it ("▶"): any of them
            // is the answer, and a hold is said.
            var heldMeanwhile = false
            for _ in 0..<(moving.opened.contains("held") ? 0 : 6) {
                if let answer = press(" ", until: "❚❚", "▶", "link too slow", timeout: 5) {
                    answers.append(answer.seconds)
                    if answer.index == 2 { heldMeanwhile = true }
                } else {
                    answers.append(5)
                }
                sleepFor(0.5)
            }
            if heldMeanwhile { moving.opened += ", held while Space was pressed: link too slow" }
            moving.keys = answers.isEmpty ? "-" : milliseconds(answers.max() ?? 0)
        }
        if let back = press("\u{1B}", until: "3 photos", timeout: 30) {
            moving.escape = milliseconds(back.seconds)
        } else {
            moving.escape = "not in 30 s"
        }
        _ = waitForQuiet(terminal, since: now())
        // The album's three items stand in one row of tiles: `l` and `h` move between them.
        moving.scroll = step((0..<10).map { Array(($0 % 4 < 2 ? "l" : "h").utf8) }, Array(repeating: 0.1, count: 9))
        return moving
    }

    /// Waits until the terminal has read nothing for `quiet` seconds (at most 60 s); returns when it last read.
    private func waitForQuiet(_ terminal: PseudoTerminal, since start: Double) -> Double {
        let deadline = start + 60
        while now() < deadline {
            sleepFor(0.02)
            let last = terminal.lastByteAt
            if now() - max(last, start) >= quiet { return max(last, start) }
        }
        return terminal.lastByteAt
    }
}
