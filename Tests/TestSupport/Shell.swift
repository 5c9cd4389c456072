import Foundation

/// Runs a shell command line (`/bin/sh -c`, through `Tool`), its output and errors discarded; returns its exit status
/// (-1 when it cannot be started or was killed). For the tests that make a fault real: mounting a tmpfs, filling it,
/// writing a store.
@discardableResult
public func runShell(_ command: String) -> Int32 {
    (try? Tool.execute(["/bin/sh", "-c", command]))?.status ?? -1
}
