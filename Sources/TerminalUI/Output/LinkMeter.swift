import Foundation

/// What the link to the terminal is taken to be: measured (`auto`), or set by the user.
public enum LinkSetting: String, Sendable, CaseIterable {
    /// Measured from how fast the terminal takes what is written.
    case auto
    /// Every picture at full resolution at once, whatever the link (the way it was before links were measured).
    case fast
    /// As a 1 Mbit/s link: pictures first in a size that crosses it quickly.
    case slow

    /// The rate `slow` stands for: 1 Mbit/s.
    public static let slowRate = 125_000.0
}

/// How fast the terminal drains what the program writes, measured from back-pressure: while output waits
/// because the terminal (or the SSH connection behind the pseudo-terminal) has not taken the last bytes yet,
/// the bytes it does take per second are the link's throughput. A link that never pushes back is fast.
///
/// Pure bookkeeping: the backend tells it what each non-blocking write did and when.
public struct LinkMeter: Sendable {
    public let setting: LinkSetting
    /// The terminal answered from this machine (its round trip was a few milliseconds): a terminal slow to take
    /// what is written is slow at drawing, not a slow link, and `auto` sizes nothing down.
    public var near = false
    /// The measured throughput in bytes a second; nil until the terminal has pushed back.
    public private(set) var measured: Double?
    /// Since when the writes have been held back, and how many bytes had been taken by then.
    private var saturatedSince: (time: Double, taken: Int)?
    private var taken = 0
    /// When output last waited for the terminal; a link that has not pushed back for a while while pictures
    /// flowed may have grown faster.
    private var lastPushBack = 0.0
    /// The shortest spell of back-pressure a rate is taken from.
    static let window = 0.25

    public init(setting: LinkSetting = .auto) {
        self.setting = setting
    }

    /// The rate pictures are sized for: nil for a fast link (full resolution).
    public var rate: Double? {
        switch setting {
        case .fast: nil
        case .slow: min(measured ?? LinkSetting.slowRate, LinkSetting.slowRate)
        case .auto: near ? nil : measured.flatMap { $0 < Self.fastRate ? $0 : nil }
        }
    }

    /// From this rate on (40 Mbit/s) a link counts as fast: every picture at full resolution takes a moment.
    public static let fastRate = 5_000_000.0

    /// `count` bytes were taken by the terminal at `time`; `blocked`: the write stopped because the terminal
    /// took no more (output is still waiting).
    public mutating func wrote(_ count: Int, at time: Double, blocked: Bool) {
        taken += count
        if blocked {
            lastPushBack = time
            if let since = saturatedSince {
                let elapsed = time - since.time
                if elapsed >= Self.window {
                    let sample = Double(taken - since.taken) / elapsed
                    measured = measured.map { $0 * 0.5 + sample * 0.5 } ?? sample
                    saturatedSince = (time, taken)
                }
            } else {
                saturatedSince = (time, taken)
            }
        }
    }

    /// Everything waiting went out at `time`: the spell of back-pressure (if any) is over. A spell shorter than
    /// `window` but of at least `shortWindow` is a sample too (frames of an animation each wait a little, never long).
    public mutating func idle(at time: Double? = nil) {
        // At least `shortBytes` written in it: a few bytes that waited behind a full buffer say nothing of the rate.
        if let since = saturatedSince, let time, time - since.time >= Self.shortWindow, taken - since.taken >= Self.shortBytes {
            let sample = Double(taken - since.taken) / (time - since.time)
            measured = measured.map { $0 * 0.5 + sample * 0.5 } ?? sample
        }
        saturatedSince = nil
    }

    /// The shortest spell of back-pressure that ends in an empty queue a rate is taken from.
    static let shortWindow = 0.1
    static let shortBytes = 8_000

    /// The terminal confirmed (answering a question asked behind them) `count` bytes over `elapsed` seconds while
    /// pictures waited for its answers: what crossed the whole way, whatever buffers lie between.
    public mutating func confirmed(_ count: Int, over elapsed: Double) {
        guard count > 0, elapsed > 0 else { return }
        let sample = Double(count) / elapsed
        measured = measured.map { $0 * 0.5 + sample * 0.5 } ?? sample
    }

    /// Output has been flowing without the terminal pushing back for `elapsed` seconds at `rate` bytes a
    /// second: the link is at least that fast.
    public mutating func flowed(_ count: Int, over elapsed: Double) {
        guard elapsed >= 0.5, let known = measured else { return }
        let sample = Double(count) / elapsed
        if sample > known { measured = sample }
    }

    /// What `doctor` and the help overlay say of the link.
    public var summary: String {
        let what: String
        switch setting {
        case .fast: what = "set to fast: pictures at full resolution"
        case .slow: what = "set to slow: pictures sized for \(Self.describe(rate ?? LinkSetting.slowRate))"
        case .auto:
            if near {
                what = "the terminal answers from this machine: pictures at full resolution"
            } else if let measured {
                what = measured >= Self.fastRate ? "measured \(Self.describe(measured)): pictures at full resolution"
                    : "measured \(Self.describe(measured)): pictures sized to it"
            } else {
                what = "no back-pressure seen: pictures at full resolution"
            }
        }
        return "Link: \(what)."
    }

    /// "1 Mbit/s", "12 Mbit/s", "640 kbit/s".
    public static func describe(_ rate: Double) -> String {
        let bits = rate * 8
        if bits >= 995_000 { return String(format: bits >= 9_950_000 ? "%.0f Mbit/s" : "%.1f Mbit/s", bits / 1_000_000) }
        return String(format: "%.0f kbit/s", bits / 1_000)
    }

    /// The share of a picture's pixels (each way) to send first on this link: 1 on a fast link. A picture that fills
    /// the screen gets two seconds of the link, a card (a tenth of it) about 0.4 s: what the link moves in
    /// that time, at about two bytes a pixel once compressed and encoded.
    public static func scale(pixels: Int, screenShare share: Double, rate: Double?) -> Double {
        guard let rate, pixels > 0 else { return 1 }
        let seconds = 0.2 + 1.8 * min(1, max(0, share))
        let budget = rate * seconds / 2
        guard Double(pixels) > budget else { return 1 }
        return max(0.1, (budget / Double(pixels)).squareRoot())
    }
}

/// Bytes a picture layer wants sent, as jobs of whole escape sequences: a job not begun can be withdrawn, and
/// one under way is cut only between its chunks, and ended with its own closing bytes (a Kitty upload's last
/// chunk and a delete), so the terminal never sees half a sequence.
struct ChunkQueue<Key: Hashable> {
    struct Job {
        var key: Key
        var chunks: [[UInt8]]
        var next = 0
        /// What ends the job cleanly if it is cut after it began.
        var abort: [UInt8]
        /// Control jobs (a delete) always go.
        var withdrawable: Bool
        /// The job hands the terminal picture data to keep and shows nothing by itself (a Kitty upload).
        var stores = false
    }

    private(set) var jobs: [Job] = []
    /// The chunk handed out and not yet acknowledged.
    private var handedOut = false

    var isEmpty: Bool { jobs.isEmpty }

    func contains(_ key: Key) -> Bool { jobs.contains { $0.key == key } }

    /// Whether a job under `key` waits with not a byte of it handed out yet.
    func waits(_ key: Key) -> Bool {
        jobs.enumerated().contains { index, job in job.key == key && job.next == 0 && !(index == 0 && handedOut) }
    }

    mutating func append(_ key: Key, chunks: [[UInt8]], abort: [UInt8] = [], withdrawable: Bool = true, stores: Bool = false) {
        guard !chunks.isEmpty else { return }
        jobs.append(Job(key: key, chunks: chunks, abort: abort, withdrawable: withdrawable, stores: stores))
    }

    /// Whether the chunk `next` gives (or gave) only stores picture data in the terminal.
    var nextOnlyStores: Bool { jobs.first?.stores ?? false }

    /// Takes back the jobs `unwanted` names: those not begun go without a byte; the one under way ends after
    /// its current chunk with its closing bytes. Returns the keys taken back (whatever was sent of them is void).
    mutating func withdraw(where unwanted: (Key) -> Bool) -> [Key] {
        var taken: [Key] = []
        var kept: [Job] = []
        for (index, job) in jobs.enumerated() {
            guard job.withdrawable, unwanted(job.key) else {
                kept.append(job)
                continue
            }
            taken.append(job.key)
            let begun = job.next > 0 || (index == 0 && handedOut)
            if begun {
                // The chunk in the terminal's hands goes on; then the closing bytes.
                var cut = job
                let last = handedOut && index == 0 ? job.next + 1 : job.next
                cut.chunks = Array(job.chunks[..<min(last, job.chunks.count)]) + (job.abort.isEmpty ? [] : [job.abort])
                cut.withdrawable = false
                kept.append(cut)
            }
        }
        jobs = kept
        return taken
    }

    /// The next chunk to write (whole), or nil.
    mutating func next() -> [UInt8]? {
        guard let first = jobs.first, first.next < first.chunks.count else { return nil }
        handedOut = true
        return first.chunks[first.next]
    }

    /// The chunk `next` gave went out whole.
    mutating func sent() {
        guard handedOut, !jobs.isEmpty else { return }
        handedOut = false
        jobs[0].next += 1
        if jobs[0].next >= jobs[0].chunks.count {
            jobs.removeFirst()
        }
    }

}

/// The escape sequences in `bytes`, each whole (`ESC _ … ESC \`, `ESC P … ESC \`), as chunks a queue may cut
/// between; bytes between sequences stay with the sequence before them.
func escapeSequences(_ bytes: [UInt8]) -> [[UInt8]] {
    var chunks: [[UInt8]] = []
    var start = 0
    var index = 0
    while index + 1 < bytes.count {
        if bytes[index] == 0x1B, bytes[index + 1] == 0x5C {
            chunks.append(Array(bytes[start..<(index + 2)]))
            index += 2
            start = index
            continue
        }
        index += 1
    }
    if start < bytes.count {
        if chunks.isEmpty { chunks.append(Array(bytes[start...])) } else { chunks[chunks.count - 1] += bytes[start...] }
    }
    return chunks
}

/// The link to the terminal measured from the terminal's own answers (for `doctor`): the time a device
/// attributes question (DA1) takes to be answered, alone and behind a run of bytes the terminal ignores. The
/// difference is what the bytes took to cross, whatever buffers (sshd's, TCP's) lie between.
public struct LinkProbe: Sendable, Equatable {
    /// The answer's round trip, in seconds.
    public var roundTrip: Double
    /// Bytes a second, from the run of bytes; nil when they took no measurable time (a fast link).
    public var rate: Double?

    public init(roundTrip: Double, rate: Double?) {
        self.roundTrip = roundTrip
        self.rate = rate
    }

    /// "1.0 Mbit/s, 120 ms round trip".
    public var summary: String {
        let trip = String(format: "%.0f ms round trip", roundTrip * 1_000)
        guard let rate else { return "fast (\(LinkProbe.payload / 1_000) KB crossed at once), \(trip)" }
        return "\(LinkMeter.describe(rate)), \(trip)"
    }

    /// The run of bytes: carriage returns, which move the cursor to the start of its line and draw nothing.
    static let payload = 32_000

    /// Measures on the terminal at `input` and `output` (in raw mode here); nil when it did not answer in
    /// `deadline` seconds.
    public static func measure(input: Int32, output: Int32, deadline: Double = 5) -> LinkProbe? {
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(input, TCSANOW, &saved) }
        let question = Array("\u{1B}[c".utf8)
        guard let alone = answerTime(question, input: input, output: output, deadline: deadline) else { return nil }
        let run = [UInt8](repeating: 0x0D, count: payload) + question
        guard let behind = answerTime(run, input: input, output: output, deadline: deadline) else { return nil }
        let crossing = behind - alone
        // Under 5 ms (more than 50 Mbit/s here) is noise: fast.
        return LinkProbe(roundTrip: alone, rate: crossing > 0.005 ? Double(payload) / crossing : nil)
    }

    /// Writes `bytes` and reads until a DA1 answer (`ESC [ ? … c`) arrives: the seconds it took.
    private static func answerTime(_ bytes: [UInt8], input: Int32, output: Int32, deadline: Double) -> Double? {
        let start = OutputQueue.clock()
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBufferPointer { write(output, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { return nil }
            written += count
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let left = deadline - (OutputQueue.clock() - start)
            guard left > 0 else { return nil }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((left * 1_000).rounded(.up))) > 0 else { return nil }
            let count = read(input, &chunk, chunk.count)
            guard count > 0 else { return nil }
            answer += chunk[0..<count]
            if let end = answer.lastIndex(of: 0x63), answer[..<end].contains(0x3F) { return OutputQueue.clock() - start }
        }
    }
}
