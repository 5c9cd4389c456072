import Foundation
import Hummingbird

/// A sandbox running in this process on a free loopback port, as `image-feed --demo` and the tests use it.
public final class RunningSandbox: Sendable {
    public let server: SandboxServer
    public let port: Int
    private let task: Task<Void, Error>

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(server: SandboxServer, port: Int, task: Task<Void, Error>) {
        self.server = server
        self.port = port
        self.task = task
    }

    /// Starts the server and returns once it accepts connections.
    public static func start(_ server: SandboxServer, host: String = "127.0.0.1", port: Int = 0) async throws -> RunningSandbox {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = server.application(host: host, port: port) { bound in
            continuation.yield(bound)
            continuation.finish()
        }
        let task = Task {
            do {
                try await app.run()
            } catch {
                continuation.finish()
                throw error
            }
        }
        for await bound in ports {
            return RunningSandbox(server: server, port: bound, task: task)
        }
        // The stream ended without a port: the server did not start. Say why.
        try await task.value
        throw SandboxError.catalog("the server stopped before it started listening")
    }

    /// Stops the server (open requests are cancelled).
    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
