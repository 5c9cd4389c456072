import CNcursesw
import Foundation
import TerminalImage
#if canImport(Glibc)
import Glibc
#endif

/// Input: characters from curses one at a time (it decodes UTF-8 and reports resizes), escape sequences put together
/// by `InputDecoder`, the terminal's DA1 answers handed to the output queue, and the signals the loop must see.
extension NcursesBackend {
    // MARK: Input

    public func readInput(timeout: Int) -> InputEvent? {
        if SignalTrap.suspendRequested != 0 {
            SignalTrap.suspendRequested = 0
            return .key(.suspend)
        }
        if let event = nextEvent() { return event }
        output.pump()
        if staged, readyForFrame, let frame = lastFrame, !restored {
            draw(frame)
        } else if let pictures, let frame = lastFrame, !restored, pictures.wantsFrame(link: linkState(frame)) {
            // The link has had room: what was sent small (or in characters) goes again in full.
            draw(frame)
        }
        var wait = timeout
        // While pictures may still go in full once the link is idle, look again a little later.
        if pictures != nil, output.meter.rate != nil { wait = wait < 0 ? 250 : min(wait, 250) }
        if pictures?.wantsFrameSoon == true { wait = wait < 0 ? 20 : min(wait, 20) }
        let waitingOutput = output.hasPending
        var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0),
                           pollfd(fd: writeDescriptor, events: Int16(POLLOUT), revents: 0)]
        _ = poll(&descriptors, waitingOutput ? 3 : 2, Int32(wait))
        if descriptors[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wakePipe[0], &drain, drain.count) > 0 {}
        }
        if waitingOutput, descriptors[2].revents != 0 { output.pump() }
        if let event = nextEvent() { return event }
        // The terminal is gone (its window closed, the SSH connection dropped) and no SIGHUP came: poll would
        // answer at once for ever. Quitting is all that is left (as Ctrl-C does: the state is saved as usual).
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 || output.terminalGone {
            inputGone = true
            return .key(.interrupt)
        }
        return nil
    }

    public func invalidate() {
        guard !restored else { return }
        previous = nil
        clearok(window, true)
    }

    /// One byte into the wake-up pipe's write end (async-signal-safe, so the signal trap writes there too).
    public var waker: Waker {
        let descriptor = wakePipe[1]
        return Waker {
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
        }
    }

    public func trapSignals() {
        SignalTrap.install(wakeDescriptor: wakePipe[1])
    }

    public func releaseSignals() {
        SignalTrap.uninstall()
        // The terminal hung up: a SIGHUP still on its way must not end the program while it saves and leaves.
        if output.terminalGone || inputGone || SignalTrap.received == SIGHUP { signal(SIGHUP, SIG_IGN) }
    }

    public var quitSignal: Int32? {
        SignalTrap.received != 0 ? SignalTrap.received : nil
    }

    /// The next decoded event: characters come from curses one at a time (it decodes UTF-8 and reports
    /// resizes), and InputDecoder puts escape sequences together.
    func nextEvent() -> InputEvent? {
        if Self.resizeSignalled != 0 {
            Self.resizeSignalled = 0
            var rows: Int32 = 0
            var columns: Int32 = 0
            // resizeterm hands curses a KEY_RESIZE, which is read below as the resize.
            if imagefeed_window_size(terminalCopy, &rows, &columns) == 1 { resizeterm(rows, columns) }
        }
        while true {
            if !decoded.isEmpty { return decoded.removeFirst() }
            var value: wint_t = 0
            let status = wget_wch(window, &value)
            if status == ERR {
                guard decoder.isPending else { return nil }
                // The rest of a sequence may still be on its way (a slow link): wait a little, then a lone
                // Esc is the key.
                // Inside a control string (a terminal's reply) the rest is waited for longer than after a lone Esc: a
                // reply's bytes can be held up on a busy machine or link, and letters that come after the pause would be
                // read as keys.
                if waitForInput(milliseconds: decoder.openString != nil ? stringWait : escapeWait) { continue }
                decoded += decoder.flush()
                if decoded.isEmpty { return nil }
                continue
            }
            if status == KEY_CODE_YES {
                if Int32(value) == KEY_RESIZE {
                    decoded += decoder.flush()
                    decoded.append(.resize)
                }
                continue
            }
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            decoded += decoder.feed(scalar)
            output.noteAnswers(decoder.deviceAttributesAnswers)
            if let visible = decoder.takeVisibility() { terminalVisible = visible }
            if let light = decoder.takeScheme() { reportedLightScheme = light }
        }
    }

    func waitForInput(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    // MARK: The window's size

    /// Set by the SIGWINCH handler; the run loop reads the new size.
    nonisolated(unsafe) static var resizeSignalled: Int32 = 0
    nonisolated(unsafe) static var resizeWakeDescriptor: Int32 = -1

    static func installResizeTrap(wakeDescriptor: Int32) {
        resizeWakeDescriptor = wakeDescriptor
        signal(SIGWINCH) { _ in
            NcursesBackend.resizeSignalled = 1
            var byte: UInt8 = 1
            _ = write(NcursesBackend.resizeWakeDescriptor, &byte, 1)
        }
    }

}
