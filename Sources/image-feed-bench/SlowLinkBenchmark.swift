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
/// 0.3 s later (a user who changed their mind).
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
        await sandbox.stop()

        func figure(_ result: (seconds: Double, bytes: Int)) -> String {
            String(format: "%.1f s, %d KB", result.seconds, result.bytes / 1_000)
        }
        let slow = rate <= 125_000
        report.add("\(label): 10 x j, 100 ms apart", figure(scroll), target: slow ? "<= 3.5 s, <= 400 KB" : "")
        report.add("\(label): Enter (the viewer)", figure(open), target: slow ? "<= 3 s" : "")
        report.add("\(label): Escape (the feed)", figure(back), target: slow ? "<= 1 s" : "")
        report.add("\(label): Enter, Escape 0.3 s later", figure(changed), target: slow ? "<= 1.5 s" : "")
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
