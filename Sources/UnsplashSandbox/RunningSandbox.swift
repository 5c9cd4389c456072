import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A sandbox running in this process on a free loopback port, as `image-feed --demo` and the tests use it.
public final class RunningSandbox: Sendable {
    public let server: SandboxServer
    public let port: Int
    private let task: Task<Void, Error>
    private let group: ServiceGroup

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(server: SandboxServer, port: Int, task: Task<Void, Error>, group: ServiceGroup) {
        self.server = server
        self.port = port
        self.task = task
        self.group = group
    }

    /// Starts the server and returns once it accepts connections.
    public static func start(_ server: SandboxServer, host: String = "127.0.0.1", port: Int = 0) async throws -> RunningSandbox {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = server.application(host: host, port: port) { bound in
            continuation.yield(bound)
            continuation.finish()
        }
        // Run in a service group, so that stopping is a graceful shutdown: cancelling the server's task
        // outright tears down connections that are still answering, and NIO traps on that.
        var quiet = Logger(label: "unsplash-sandbox", factory: { _ in SwiftLogNoOpLogHandler() })
        quiet.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: [app], logger: quiet))
        let task = Task {
            do {
                try await group.run()
            } catch {
                continuation.finish()
                throw error
            }
        }
        for await bound in ports {
            return RunningSandbox(server: server, port: bound, task: task, group: group)
        }
        // The stream ended without a port: the server did not start. Say why.
        try await task.value
        throw SandboxError.catalog("the server stopped before it started listening")
    }

    /// Stops the server: no new connections, open requests are answered, then it ends. A connection
    /// that does not finish within `grace` seconds is cut (stopping never hangs).
    public func stop(grace: TimeInterval = 5) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let deadline = Task {
            try await Task.sleep(nanoseconds: UInt64(grace * 1e9))
            task.cancel()
        }
        _ = try? await task.value
        deadline.cancel()
    }
}
