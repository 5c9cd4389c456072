import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal standing in for the user's terminal emulator (in the benchmarks and the backend's tests): the app draws on its slave side; a
/// thread reads the master side as a terminal would, counting bytes.
///
/// A frame is over when the reader has seen every byte of it: after the frame, `endFrame` writes a marker
/// byte (GS, which no curses output or sanitized text contains) behind it and waits for the reader to reach
/// it. So a frame's time includes the kernel handing its bytes to the terminal, and its byte count is exact.
public final class PseudoTerminal: @unchecked Sendable {
    public let master: Int32
    public let slave: Int32
    private let lock = NSCondition()
    private var bytesSinceMarker = 0
    private var totalBytes = 0
    private var completedFrames: [Int] = []
    private var received: [UInt8] = []
    /// Whether what the terminal receives is kept (for tests; the benchmarks only count).
    public let keepsOutput: Bool
    private var reader: Thread?
    private static let marker: UInt8 = 0x1D
    /// `close` was called: the reader stops once nothing more is waiting, and closes the master side.
    private var closing = false
    // TIOCSPTLCK = _IOW('T', 0x31, int) and TIOCGPTN = _IOR('T', 0x30, unsigned int), Linux's generic
    // ioctl encoding; C macros Swift cannot import.
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// How fast the far end reads, in bytes a second (nil: as fast as it can): a slow link, as seen from the
    /// program's side of an SSH connection. When the reader falls behind, the kernel's buffer fills and the
    /// program's writes wait (or, non-blocking, are refused), as they would over a slow link.
    public let readRate: Int?

    /// The far end as over SSH: the pseudo-terminal is read at once into a buffer (as sshd does, up to its
    /// channel window), and the terminal behind takes that buffer at `readRate`, so the program's writes never
    /// wait. And the terminal answers DA1 (`ESC [ c`) when it reaches it, as a terminal does, 50 ms later (the
    /// way back).
    public let buffered: Bool
    private var backlog: [UInt8] = []
    private var backlogStart = 0
    private var readerDone = false
    private var da1Match = 0

    public init(width: Int, height: Int, keepsOutput: Bool = false, readRate: Int? = nil, cellWidth: Int = 0, cellHeight: Int = 0,
                buffered: Bool = false) throws {
        self.keepsOutput = keepsOutput
        self.readRate = readRate
        self.buffered = buffered && readRate != nil
        // What posix_openpt, unlockpt and ptsname do on Linux (Swift's Glibc module leaves them out).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw Failure(description: "cannot open /dev/pts/\(number)") }
        var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: UInt16(clamping: width * cellWidth),
                           ws_ypixel: UInt16(clamping: height * cellHeight))
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        let thread = Thread { self.buffered ? self.bufferLoop() : self.readLoop() } // ends when the descriptors close
        thread.name = "terminal"
        thread.start()
        reader = thread
        if self.buffered {
            let far = Thread { self.farTerminalLoop() }
            far.name = "far terminal"
            far.start()
        }
    }

    /// Closes the slave side now; the reader closes the master side itself once it has read what is left.
    /// (Closing the master here raced with the reader: a read that began after the close could land on a
    /// new terminal that had been given the same descriptor number, and steal that terminal's frames.)
    public func close() {
        lock.lock()
        closing = true
        lock.unlock()
        Glibc.close(slave)
    }

    private func readLoop() {
        // A slow reader takes small bites, so that its pace is even.
        var buffer = [UInt8](repeating: 0, count: readRate == nil ? 1 << 16 : 1_024)
        defer { Glibc.close(master) }
        var pace = readRate.map { Pace(rate: Double($0)) }
        while true {
            pace?.wait()
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 {
                if lock.withLock({ closing }) { return }
                continue
            }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                return
            }
            pace?.took(count)
            consume(buffer[0..<count])
        }
    }

    /// What the terminal does with bytes it read: counts them, keeps them, notes frame markers.
    private func consume(_ bytes: ArraySlice<UInt8>) {
        lock.lock()
        totalBytes += bytes.count
        lastByteTime = Self.clock()
        if keepsOutput { received.append(contentsOf: bytes.filter { $0 != Self.marker }) }
        if let watch = watched {
            let seen = watch.tail + bytes
            for (index, needle) in watch.needles.enumerated() where seen.count >= needle.count && watch.seen[index] == nil {
                if (0...(seen.count - needle.count)).contains(where: { seen[$0..<($0 + needle.count)].elementsEqual(needle) }) {
                    if watched?.found == nil { watched?.found = (index, lastByteTime) }
                    watched?.seen[index] = lastByteTime
                }
            }
            watched?.tail = Array(seen.suffix(max(0, (watch.needles.map(\.count).max() ?? 1) - 1)))
        }
        var sinceMarker = 0
        for byte in bytes {
            if byte == Self.marker {
                completedFrames.append(bytesSinceMarker + sinceMarker)
                bytesSinceMarker = 0
                sinceMarker = 0
            } else {
                sinceMarker += 1
            }
        }
        bytesSinceMarker += sinceMarker
        lock.broadcast()
        lock.unlock()
    }

    /// sshd's side: the pseudo-terminal read as fast as it gives, into the backlog.
    private func bufferLoop() {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        defer {
            lock.withLock { readerDone = true }
        }
        while true {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 {
                if lock.withLock({ closing }) { return }
                continue
            }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 {
                if count < 0, errno == EINTR { continue }
                return
            }
            lock.withLock { backlog += buffer[0..<count] }
        }
    }

    /// The terminal at the far end of a slow link: takes the backlog at `readRate`, answers DA1.
    private func farTerminalLoop() {
        var pace = Pace(rate: Double(readRate ?? 125_000))
        defer { Glibc.close(master) }
        while true {
            let bite: [UInt8]? = lock.withLock {
                guard backlogStart < backlog.count else { return readerDone ? nil : [] }
                let end = min(backlog.count, backlogStart + 1_024)
                defer {
                    backlogStart = end
                    if backlogStart > 1 << 20 {
                        backlog.removeFirst(backlogStart)
                        backlogStart = 0
                    }
                }
                return Array(backlog[backlogStart..<end])
            }
            guard let bite else { return }
            if bite.isEmpty {
                usleep(2_000)
                continue
            }
            pace.wait()
            pace.took(bite.count)
            consume(bite[...])
            for byte in bite {
                // ESC [ c: the terminal answers that it is a VT220 with Sixel.
                let expected: [UInt8] = [0x1B, 0x5B, 0x63]
                if byte == expected[da1Match] {
                    da1Match += 1
                    if da1Match == expected.count {
                        da1Match = 0
                        // The answer crosses back in 50 ms, as the keys do.
                        let master = self.master
                        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                            let answer = Array("\u{1B}[?62;4c".utf8)
                            _ = answer.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
                        }
                    }
                } else {
                    da1Match = byte == 0x1B ? 1 : 0
                }
            }
        }
    }

    private var lastByteTime = 0.0
    /// Runs of bytes looked for in what the terminal reads, and which came first, when.
    private var watched: (needles: [[UInt8]], tail: [UInt8], found: (index: Int, at: Double)?, seen: [Int: Double])?

    /// Looks for any of `texts` in what the terminal reads from now on (one watch at a time: the last asked for).
    public func watch(for texts: [String]) {
        lock.withLock { watched = (texts.map { Array($0.utf8) }, [], nil, [:]) }
    }

    /// When the terminal first read the text at `index` of those `watch` looks for (nil: not yet).
    public func watchedSeen(_ index: Int) -> Double? {
        lock.withLock { watched?.seen[index] }
    }

    /// Which of the texts `watch` looks for the terminal read first, and when (CLOCK_MONOTONIC seconds), waiting at
    /// most `timeout` seconds; nil if none came.
    public func waitForWatched(timeout: Double) -> (index: Int, at: Double)? {
        let deadline = Self.clock() + timeout
        while Self.clock() < deadline {
            if let found = lock.withLock({ watched?.found }) { return found }
            usleep(2_000)
        }
        return nil
    }

    /// A reader's pace on a link of `rate` bytes a second: each byte takes 1/rate seconds. After an idle spell
    /// the link starts afresh (it does not save up time to burst later).
    private struct Pace {
        let rate: Double
        private var taken = 0
        private var since = PseudoTerminal.clock()

        init(rate: Double) {
            self.rate = rate
        }

        /// Waits until the bytes taken so far have had their time.
        mutating func wait() {
            let due = since + Double(taken) / rate
            let now = PseudoTerminal.clock()
            if due > now {
                usleep(useconds_t((due - now) * 1_000_000))
            } else if now - due > 0.05 {
                taken = 0
                since = now
            }
        }

        mutating func took(_ count: Int) { taken += count }
    }

    static func clock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Bytes waiting in the buffer between the program and a `buffered` far terminal (what sshd holds).
    public var bufferedBytes: Int {
        lock.withLock { backlog.count - backlogStart }
    }

    /// When the terminal last read a byte (CLOCK_MONOTONIC seconds; 0 before the first).
    public var lastByteAt: Double {
        lock.lock()
        defer { lock.unlock() }
        return lastByteTime
    }

    /// Every byte the terminal has read so far (markers included).
    public var bytesReceived: Int {
        lock.lock()
        defer { lock.unlock() }
        return totalBytes
    }

    /// Waits until output has started and then paused for `quiet` seconds (the program answered and went
    /// idle), or `timeout` passed. For a program in another process, where no frame marker can be written.
    public func waitForQuiet(after count: Int, quiet: TimeInterval = 0.004, timeout: TimeInterval = 2) {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = count
        var lastChange = Date()
        while Date() < deadline {
            usleep(1_000)
            let now = bytesReceived
            if now != seen {
                seen = now
                lastChange = Date()
            } else if seen != count, Date().timeIntervalSince(lastChange) >= quiet {
                return
            }
        }
    }

    /// Sends keys `delay` seconds from now, as a far terminal's keys arrive late (from another thread).
    public func type(_ bytes: [UInt8], after delay: TimeInterval) {
        let master = self.master
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
        }
    }

    /// Sends keys as the terminal would (bytes on the master side).
    public func type(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// What the terminal received since the last call (with `keepsOutput`), after `endFrame`.
    public func takeOutput() -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        defer { received.removeAll() }
        return received
    }

    /// Marks the end of a frame and waits until the terminal has read all of it; returns its bytes.
    /// Gives up after `timeout` seconds (returning what arrived), so a stuck terminal fails a test or a
    /// benchmark instead of hanging it.
    public func endFrame(flushing backend: TerminalBackend? = nil, timeout: TimeInterval = 10) -> Int {
        backend?.flushOutput()
        var marker = Self.marker
        _ = write(slave, &marker, 1)
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while completedFrames.isEmpty {
            guard lock.wait(until: deadline) else {
                defer { bytesSinceMarker = 0 }
                return bytesSinceMarker
            }
        }
        return completedFrames.removeFirst()
    }
}
