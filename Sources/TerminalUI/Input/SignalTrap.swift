import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM, SIGHUP and SIGINT into a quit request the run loop sees, and makes fatal signals
/// (a crash on any thread) give the terminal back before the process dies.
enum SignalTrap {
    nonisolated(unsafe) static var received: Int32 = 0
    /// A SIGTSTP came from outside (`kill -TSTP`; Ctrl-Z itself reaches the program as a key): the loop suspends
    /// the way Ctrl-Z does, terminal given back first.
    nonisolated(unsafe) static var suspendRequested: Int32 = 0
    nonisolated(unsafe) static var wakeDescriptor: Int32 = -1
    nonisolated(unsafe) static var savedTerminal = termios()
    nonisolated(unsafe) static var hasSavedTerminal = false
    /// The modes the session set that only some terminals have, for the crash path to end: 1 synchronized output
    /// (mode 2026), 2 colour-scheme reports (mode 2031).
    nonisolated(unsafe) static var modesSet: Int32 = 0

    /// Call before curses changes the terminal.
    static func saveTerminal() {
        hasSavedTerminal = tcgetattr(STDIN_FILENO, &savedTerminal) == 0
    }

    static func install(wakeDescriptor: Int32) {
        self.wakeDescriptor = wakeDescriptor
        for signalNumber in [SIGTERM, SIGHUP, SIGINT] {
            signal(signalNumber) { number in
                SignalTrap.received = number
                var byte: UInt8 = 1
                _ = write(SignalTrap.wakeDescriptor, &byte, 1)
            }
        }
        signal(SIGTSTP) { _ in
            SignalTrap.suspendRequested = 1
            var byte: UInt8 = 1
            _ = write(SignalTrap.wakeDescriptor, &byte, 1)
        }
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber) { number in
                SignalTrap.restoreTerminalNow()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func uninstall() {
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// A SIGCONT came: the stop really happened, and a shell brought the program back.
    nonisolated(unsafe) static var continued: Int32 = 0

    /// Stops the program as the shell's Ctrl-Z would (the default action of SIGTSTP); returns once it is continued,
    /// true, or at once, false, where the kernel drops the stop: a process group no shell with job control watches
    /// (an orphaned one) could never be brought back, so it is not stopped.
    static func stopUntilContinued() -> Bool {
        continued = 0
        let previousContinue = signal(SIGCONT) { _ in SignalTrap.continued = 1 }
        defer { signal(SIGCONT, previousContinue) }
        let handler = signal(SIGTSTP, SIG_DFL)
        // To the process, not this thread: the run loop's thread may be one that blocks signals (a task's), where a
        // raised SIGTSTP would wait unseen; the process stops as soon as any thread takes it.
        kill(getpid(), SIGTSTP)
        // Until the stop has happened (SIGCONT then wakes every thread), this thread goes no further.
        var pending = sigset_t()
        for _ in 0..<200 {
            sigpending(&pending)
            if sigismember(&pending, SIGTSTP) == 0 { break }
            usleep(5_000)
        }
        signal(SIGTSTP, handler)
        // SIGCONT's handler may run on another thread a moment after this one goes on: it is waited for a little. Where
        // the stop was dropped, no SIGCONT comes, and the wait is all it costs.
        for _ in 0..<40 where continued == 0 { usleep(5_000) }
        return continued != 0
    }

    /// Only async-signal-safe calls: the saved terminal modes, and the sequences that leave the alternate
    /// screen, show the cursor, reset colours and stop mouse reporting.
    static func restoreTerminalNow() {
        if hasSavedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal) }
        // A synchronized update the crash left open ends first (else the terminal would hold what follows a while).
        if modesSet & 1 != 0 {
            let end: StaticString = "\u{1B}[?2026l"
            _ = write(STDOUT_FILENO, end.utf8Start, end.utf8CodeUnitCount)
        }
        if modesSet & 2 != 0 {
            let end: StaticString = "\u{1B}[?2031l"
            _ = write(STDOUT_FILENO, end.utf8Start, end.utf8CodeUnitCount)
        }
        let reset: StaticString = "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?2033l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"
        _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
    }
}
