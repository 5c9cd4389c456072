import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one writer of the terminal: curses' frames, the program's own sequences (links, modes, OSC 52) and the
/// pictures' chunks wait here, and go as fast as the terminal takes them, from the run loop's thread only.
///
/// Writes never block (a descriptor of the terminal's own with O_NONBLOCK): the run loop empties the queue when the
/// terminal can take more. curses' frames go first; a picture is cut only between its chunks. Where the terminal
/// answers DA1, a question follows each window of bytes, and its answer says what has crossed the link (over SSH the
/// program's writes never wait: sshd takes megabytes before the link pushes back). How fast the terminal takes bytes
/// when it pushes back is the link's rate (`LinkMeter`), which pictures are sized to.
final class OutputQueue {
    /// Where the bytes are written: the terminal, opened again without blocking.
    let descriptor: Int32
    /// The pictures whose chunks follow the text.
    let pictures: PictureLayer?

    /// Curses' frames and other text, waiting for the terminal, and how much of it has been written.
    private var text: [UInt8] = []
    private var textWritten = 0
    /// A picture chunk being written, and how much of it has gone.
    private var chunk: [UInt8]?
    private var chunkWritten = 0
    var meter: LinkMeter
    /// When the queue last became empty (nil: it is not).
    private(set) var idleSince: Double? = 0
    /// Whether the terminal answers DA1, which is asked behind pictures: its answers say what has crossed the link
    /// (over SSH the program's own writes never wait: sshd takes megabytes before the link pushes back).
    private(set) var asksTerminal: Bool
    /// DA1 questions written and not yet answered: when, and how many bytes had been written before each.
    private(set) var probes: [(sentAt: Double, bytesBefore: Int)] = []
    /// Every byte written to the terminal, and how many of them it has confirmed by its answers.
    private(set) var totalWritten = 0
    private var acknowledged = 0
    private var lastAcknowledgement = (time: 0.0, bytes: 0)
    /// Pictures were held back since the last answer (the link, not the program, set the pace).
    private var heldBack = false
    private var answersSeen = 0
    /// The rate the terminal's answers showed, while the program waited for them; nil until then.
    private var confirmedRate: Double?
    /// The terminal's answers take long enough to come from far away (not from a terminal on this machine that
    /// is merely slow to draw): its rate sizes pictures.
    private var terminalIsFar: Bool
    /// Each burst of writing (a frame, the pictures drawn with it) is one synchronized update (DEC mode 2026), where
    /// the terminal has it: begun before the burst's first byte, ended once nothing more waits to go (the terminal
    /// then shows it whole, never half drawn). A burst the link holds up stays one update until it has gone.
    /// Picture data the terminal keeps and shows nothing of by itself (a Kitty upload) goes between updates: it needs
    /// none, and kitty 0.26.5 lost pictures whose data crossed inside updates now and then.
    var synchronizes = false
    /// A synchronized update was begun and not yet ended.
    private(set) var updateOpen = false
    static let beginUpdate = Array("\u{1B}[?2026h".utf8)
    static let endUpdate = Array("\u{1B}[?2026l".utf8)
    /// Bytes the terminal took without pushing back, since `flowStart`.
    private var flowBytes = 0
    private var flowStart = 0.0

    init(descriptor: Int32, pictures: PictureLayer?, meter: LinkMeter, abilities: TerminalAbilities?) {
        self.descriptor = descriptor
        self.pictures = pictures
        self.meter = meter
        asksTerminal = abilities?.answered == true
        terminalIsFar = abilities?.isFar == true
        self.meter.near = abilities?.answered == true && abilities?.isFar == false
    }

    /// A write failed for good (EIO, EPIPE): the terminal is not there any more.
    private(set) var terminalGone = false
    /// Whether bytes wait for the terminal.
    var hasPending: Bool {
        !terminalGone && (textWritten < text.count || chunk != nil || pictures?.hasWork == true)
    }

    static func clock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Bytes for the terminal outside curses' picture of the screen (modes curses does not set), after what
    /// curses wrote before them.
    /// `draws`: false for a question to the terminal, which needs no update of its own.
    func queue(_ string: String, draws: Bool = true) {
        queue(Array(string.utf8), draws: draws)
    }

    func queue(_ bytes: [UInt8], draws: Bool = true) {
        if textWritten > 0, textWritten == text.count {
            text.removeAll(keepingCapacity: true)
            textWritten = 0
        }
        if synchronizes, draws, !updateOpen, !bytes.isEmpty {
            text += Self.beginUpdate
            updateOpen = true
        }
        text += bytes
    }

    /// The bytes that may be on their way, unconfirmed: a quarter of a second of the link as its answers showed
    /// it, at least 32 KB; 64 KB until they have.
    private var pictureWindow: Int {
        confirmedRate.map { max(32_000, Int($0 * 0.25)) } ?? 64_000
    }

    /// Bytes written or queued that the terminal has not confirmed yet.
    private var unconfirmed: Int { totalWritten + (text.count - textWritten) - acknowledged }

    /// Whether another picture chunk may go: the terminal has confirmed enough of what was written (where it
    /// answers; elsewhere the link's back-pressure paces the pictures).
    private var pictureWindowOpen: Bool {
        guard asksTerminal, !probes.isEmpty else { return true }
        if Self.clock() - probes[0].sentAt > 5 {
            // No answer in five seconds: the terminal stopped answering (or the link all but stopped).
            probes.removeAll()
            acknowledged = totalWritten
            if lastAcknowledgement.time == 0 { asksTerminal = false }
            return true
        }
        let open = unconfirmed < pictureWindow
        if !open { heldBack = true }
        return open
    }

    /// After a frame or a picture chunk: DA1, whose answer says when the bytes before it have crossed.
    func askBehindPictures() {
        guard asksTerminal else { return }
        let queued = totalWritten + (text.count - textWritten)
        // Once every half window: a question per frame would cost the terminal an answer per spinner's turn.
        if queued - (probes.last?.bytesBefore ?? lastAcknowledgement.bytes) < pictureWindow / 2 { return }
        probes.append((Self.clock(), queued))
        queue("\u{1B}[c", draws: false)
    }

    /// The terminal has answered DA1 `count` times in all: what was written before each question has crossed.
    func noteAnswers(_ count: Int) {
        let now = Self.clock()
        while answersSeen < count {
            answersSeen += 1
            guard !probes.isEmpty else { continue }
            let probe = probes.removeFirst()
            acknowledged = max(acknowledged, probe.bytesBefore)
            if terminalIsFar, now - probe.sentAt < TerminalAbilities.farRoundTrip {
                // No far link answers this soon: the start-up round trip was slowed by this machine (a busy one),
                // not by a link. From now on the terminal is near.
                terminalIsFar = false
                meter.near = true
            }
            if heldBack, lastAcknowledgement.time > 0, now - lastAcknowledgement.time >= 0.05 {
                let sample = Double(probe.bytesBefore - lastAcknowledgement.bytes) / (now - lastAcknowledgement.time)
                confirmedRate = confirmedRate.map { $0 * 0.5 + sample * 0.5 } ?? sample
                if terminalIsFar { meter.confirmed(probe.bytesBefore - lastAcknowledgement.bytes, over: now - lastAcknowledgement.time) }
            }
            heldBack = false
            lastAcknowledgement = (now, probe.bytesBefore)
        }
    }

    /// Writes what waits, as much as the terminal takes now: a picture chunk under way first, then curses'
    /// frames and other text, then the pictures' next chunks.
    func pump() {
        while !terminalGone {
            if chunk == nil, textWritten >= text.count {
                text.removeAll(keepingCapacity: true)
                textWritten = 0
                guard pictureWindowOpen, let next = pictures?.nextChunk() else {
                    // Nothing more goes now: the update ends (and the terminal shows it).
                    guard updateOpen else { break }
                    updateOpen = false
                    text = Self.endUpdate
                    continue
                }
                let stores = pictures?.chunkOnlyStores == true
                if synchronizes, stores == updateOpen {
                    // Data to keep goes after the update is ended; what draws begins one.
                    chunk = (stores ? Self.endUpdate : Self.beginUpdate) + next
                    updateOpen = !stores
                } else {
                    chunk = next
                }
                chunkWritten = 0
            }
            let blocked: Bool
            if var current = chunk {
                let (count, stopped) = writeSome(&current, from: chunkWritten)
                chunkWritten += count
                blocked = stopped
                if chunkWritten >= current.count {
                    chunk = nil
                    pictures?.chunkSent()
                    askBehindPictures()
                }
            } else {
                let (count, stopped) = writeSome(&text, from: textWritten)
                textWritten += count
                blocked = stopped
            }
            if terminalGone {
                // Nothing more can be written: what waits is dropped (after the write above has let go of it).
                text.removeAll()
                textWritten = 0
                chunk = nil
                return
            }
            if blocked {
                idleSince = nil
                return
            }
        }
        if idleSince == nil {
            idleSince = Self.clock()
            meter.idle(at: idleSince)
        }
    }

    /// One non-blocking write of `bytes` from `offset`; returns what went and whether the terminal pushed back.
    private func writeSome(_ bytes: inout [UInt8], from offset: Int) -> (Int, Bool) {
        guard offset < bytes.count else { return (0, false) }
        let written = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        let now = Self.clock()
        if written > 0 {
            totalWritten += written
            let pushedBack = written < bytes.count - offset
            if flowStart == 0 || pushedBack { flowStart = now; flowBytes = 0 } else { flowBytes += written }
            meter.wrote(written, at: now, blocked: pushedBack)
            if !pushedBack, now - flowStart >= 0.5 { meter.flowed(flowBytes, over: now - flowStart) }
            return (written, pushedBack)
        }
        if written < 0, errno == EINTR { return (0, false) }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            flowStart = now
            flowBytes = 0
            meter.wrote(0, at: now, blocked: true)
            return (0, true)
        }
        // The terminal is gone (its window closed, the connection dropped): the caller drops what waits. The bytes
        // being written are the caller's, lent for this call: they are not touched here.
        terminalGone = true
        return (0, true)
    }

    /// The last frame went out, and (where the terminal answers) not more than a window of bytes is still
    /// crossing the link: over SSH, frames drawn faster than the link takes them would wait in sshd's buffer.
    var readyForFrame: Bool {
        guard textWritten >= text.count else { return false }
        guard asksTerminal, !probes.isEmpty else { return true }
        if unconfirmed < pictureWindow { return true }
        heldBack = true
        // Unanswered for five seconds: the window opens (`pictureWindowOpen` gives up on the answers).
        return pictureWindowOpen
    }

    /// Writes the text that waits (not the pictures), waiting for the terminal at most `seconds`.
    func flushText(within seconds: Double) {
        let deadline = Self.clock() + seconds
        while textWritten < text.count, Self.clock() < deadline {
            pump()
            guard textWritten < text.count else { break }
            waitWritable(milliseconds: 100)
        }
    }

    /// Waits until the terminal can take more, at most `milliseconds`.
    func waitWritable(milliseconds: Int32) {
        var pending = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&pending, 1, milliseconds)
    }

    /// What is under way ends cleanly (the chunk being written goes out whole); pictures still waiting are dropped,
    /// and the terminal is told to take away those it shows.
    func takePicturesAway() {
        guard let pictures else { return }
        if var current = chunk {
            current.removeFirst(chunkWritten)
            chunk = nil
            text.insert(contentsOf: current, at: textWritten)
            pictures.chunkSent()
        }
        queue(pictures.finish())
    }
}
