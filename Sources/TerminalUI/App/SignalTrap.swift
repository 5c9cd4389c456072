import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGTERM, SIGHUP and SIGINT into a quit request the run loop sees, and makes fatal signals
/// (a crash on any thread) give the terminal back before the process dies.
enum SignalTrap {
    nonisolated(unsafe) static var received: Int32 = 0
    nonisolated(unsafe) static var wakeDescriptor: Int32 = -1
    nonisolated(unsafe) static var savedTerminal = termios()
    nonisolated(unsafe) static var hasSavedTerminal = false

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
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber) { number in
                SignalTrap.restoreTerminalNow()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    static func uninstall() {
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// Only async-signal-safe calls: the saved terminal modes, and the sequences that leave the alternate
    /// screen, show the cursor, reset colours and stop mouse reporting.
    static func restoreTerminalNow() {
        if hasSavedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &savedTerminal) }
        let reset: StaticString = "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"
        _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
    }
}
