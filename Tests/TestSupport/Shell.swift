import Foundation

/// Runs a shell command line (`/bin/sh -c`), its output and errors discarded; returns its exit status (-1 when it
/// cannot be started). For the tests that make a fault real: mounting a tmpfs, filling it, writing a store.
@discardableResult
public func runShell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
