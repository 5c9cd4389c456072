import ArgumentParser
import Foundation
import ImageFeedApp
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashSandbox
#if canImport(Glibc)
import Glibc
#endif

/// Measures what a user feels: how fast a key press reaches the screen, how many bytes a frame costs,
/// how fast a photo becomes a thumbnail, how long the feed takes to appear. Run it in release:
/// `swift run -c release image-feed-bench`.
@main
struct ImageFeedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-feed-bench",
        abstract: "Benchmarks of ImageFeed's terminal front end, on a pseudo-terminal against the demo sandbox."
    )

    @Option(name: .long, help: "Terminal sizes to measure, as COLSxROWS (repeatable).")
    var size: [String] = ["200x60", "80x24"]

    @Option(name: .long, help: "Terminal types to measure (repeatable): xterm-256color draws with the 256-colour palette, xterm-direct with 24-bit colour.")
    var term: [String] = ["xterm-256color", "xterm-direct"]

    @Option(name: .long, help: "Picture protocols measured at the first size with xterm-256color, besides characters (repeatable): kitty, kitty-placeholders, sixel; none for characters only.")
    var graphics: [String] = ["kitty", "kitty-placeholders", "sixel"]

    @Option(name: .long, help: "Key presses measured per terminal.")
    var keys = 400

    @Option(name: .long, help: "Thumbnails measured.")
    var thumbnails = 300

    @Option(name: .long, help: "Feed photos the long-session benchmark scrolls through.")
    var scrollPhotos = 3_000

    @Option(name: .long, help: "Link speeds the slow-link benchmark reads the terminal at, in bytes a second (repeatable).")
    var linkRate: [Int] = [125_000, 250_000, 1_250_000]

    @Option(name: .long, help: "Picture modes the slow-link benchmark measures (repeatable; default all): cells, kitty, kitty-placeholders, sixel, iterm2.")
    var linkMode: [String] = []

    @Flag(name: .long, help: "The slow-link benchmark's far end as over SSH: the pseudo-terminal read at once into a buffer the link drains, and a terminal that answers DA1.")
    var linkBuffered = false

    @Option(name: .long, help: "Seconds the animation benchmark plays in each picture mode.")
    var animationSeconds = 4.0

    @Option(name: .long, help: "Which benchmarks to run (repeatable): feed, thumbnail, cache, scroll (the default: these four, a few minutes), and the long ones, run only when named: hostile, slowlink, animation.")
    var only: [String] = []

    static let quick = ["feed", "thumbnail", "cache", "scroll"]
    static let long = ["hostile", "slowlink", "animation"]

    @Option(name: .long, help: "The image-feed program the hostile benchmark runs (default: the one built beside this benchmark), to compare builds.")
    var program: String?

    mutating func run() async throws {
        // The app draws Unicode half blocks; the benchmark's terminal speaks UTF-8 whatever the caller's locale.
        setenv("LC_ALL", "C.UTF-8", 1)
        // Interrupted, the benchmark takes the programs it started with it.
        Children.killOnInterrupt()
        let runs = only.isEmpty ? Self.quick : only
        if let unknown = runs.first(where: { !(Self.quick + Self.long).contains($0) }) {
            throw ValidationError("--only is one of \((Self.quick + Self.long).joined(separator: ", ")): \(unknown)")
        }
        var report = Report()
        report.note("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB; \(Self.buildMode) build")
        report.note("running: \(runs.joined(separator: ", "))" + (only.isEmpty ? " (the long ones run when named: --only \(Self.long.joined(separator: " --only ")))" : ""))
        if runs.contains("thumbnail") {
            let partStarted = now()
            defer { report.part("thumbnail", since: partStarted) }
            try ThumbnailBenchmark(iterations: thumbnails).run(into: &report)
            try BlitterBenchmark(iterations: max(20, thumbnails / 5)).run(into: &report)
            try await CardBytesBenchmark().run(into: &report)
            try SixelBenchmark().run(into: &report)
        }
        if runs.contains("cache") {
            let partStarted = now()
            defer { report.part("cache", since: partStarted) }
            try await CacheBenchmark(iterations: 50).run(into: &report)
        }
        if runs.contains("scroll") {
            let partStarted = now()
            defer { report.part("scroll", since: partStarted) }
            try await ModelMemoryBenchmark().run(into: &report)
            try await ScrollBenchmark(photos: scrollPhotos).run(into: &report)
        }
        if runs.contains("hostile") {
            let partStarted = now()
            defer { report.part("hostile", since: partStarted) }
            try await HostileBenchmark(program: program.map { URL(fileURLWithPath: $0) }).run(into: &report)
        }
        if runs.contains("slowlink") {
            let partStarted = now()
            defer { report.part("slowlink", since: partStarted) }
            try await SlowLinkBenchmark(rates: linkRate, modeNames: linkMode, buffered: linkBuffered).run(into: &report)
        }
        if runs.contains("animation") {
            let partStarted = now()
            defer { report.part("animation", since: partStarted) }
            try AnimationBenchmark(seconds: animationSeconds, keys: min(keys, 100)).run(into: &report)
        }
        if runs.contains("feed") {
            let partStarted = now()
            defer { report.part("feed", since: partStarted) }
            for size in try size.map(Self.parseSize) {
                for term in term {
                    guard Self.terminfoExists(term) else {
                        report.note("\(term): no terminfo entry on this machine (Debian: ncurses-term); skipped")
                        continue
                    }
                    try await FeedBenchmark(width: size.0, height: size.1, term: term, keys: keys).run(into: &report)
                }
            }
            // Pictures in pixels: what they cost over the wire, at the first size.
            if let first = try size.first.map(Self.parseSize) {
                for name in graphics where name != "none" {
                    guard let mode = GraphicsMode(rawValue: name), [.kitty, .kittyPlaceholders, .sixel].contains(mode) else {
                        throw ValidationError("--graphics is kitty, kitty-placeholders or sixel: \(name)")
                    }
                    try await FeedBenchmark(width: first.0, height: first.1, term: "xterm-256color", keys: keys, graphics: mode)
                        .run(into: &report)
                }
            }
        }
        report.finish()
    }

    static var buildMode: String {
        #if DEBUG
        "debug (figures are only meaningful with -c release)"
        #else
        "release"
        #endif
    }

    static func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 40, parts[1] >= 12 else {
            throw ValidationError("A size is COLSxROWS, at least 40x12: \(text)")
        }
        return (parts[0], parts[1])
    }

    static func terminfoExists(_ term: String) -> Bool {
        guard let first = term.first else { return false }
        let hex = String(format: "%02x", first.asciiValue ?? 0)
        return ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"].contains { folder in
            FileManager.default.fileExists(atPath: "\(folder)/\(first)/\(term)")
                || FileManager.default.fileExists(atPath: "\(folder)/\(hex)/\(term)")
        }
    }
}

/// Sorted samples and their summary figures.
struct Samples {
    private(set) var values: [Double] = []

    mutating func add(_ value: Double) { values.append(value) }

    var isEmpty: Bool { values.isEmpty }

    func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[index]
    }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

/// The printed table: each figure and note as soon as it is measured (a whole run takes minutes), then the notes
/// again, together, at the end.
struct Report {
    private var notes: [String] = []
    private let started = now()
    static let nameWidth = 64
    static let valueWidth = 14

    init() {
        Swift.print("ImageFeed benchmarks")
        fflush(nil)
    }

    mutating func add(_ name: String, _ value: String, target: String = "") {
        let line = name.padding(toLength: max(Self.nameWidth, name.count), withPad: " ", startingAt: 0) + "  "
            + value.padding(toLength: max(Self.valueWidth, value.count), withPad: " ", startingAt: 0)
            + (target.isEmpty ? "" : "  target \(target)")
        Swift.print(line)
        fflush(nil)
    }

    /// Says that a part of the run ended, and how long it took.
    mutating func part(_ name: String, since started: Double) {
        Swift.print("-- \(name) done in " + String(format: "%.0f s (%.0f s so far)", now() - started, now() - self.started))
        fflush(nil)
    }

    mutating func note(_ text: String) {
        notes.append(text)
        Swift.print("  \(text)")
        fflush(nil)
    }

    func finish() {
        Swift.print("")
        Swift.print("Notes:")
        for note in notes { Swift.print("  \(note)") }
        Swift.print(String(format: "Done in %.0f s.", now() - started))
    }
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1_000) }

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The calling thread's CPU time, in seconds (not counting the time other threads or programs had its core).
func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
