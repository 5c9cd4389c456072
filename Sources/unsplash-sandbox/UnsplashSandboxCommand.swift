import ArgumentParser
import Foundation
import UnsplashSandbox

/// `unsplash-sandbox --port N`: the Unsplash API sandbox alone, for tests, demos and other clients.
@main
struct UnsplashSandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsplash-sandbox",
        abstract: "Serve the Unsplash API subset ImageFeed uses, on loopback, from the demo catalog in Assets/.")

    /// Not 8765: that is the port of ImageFeed's default redirect URI, where its login listens.
    @Option(help: "The port to listen on (0 picks a free one; 8765 is ImageFeed's login listener's).")
    var port: Int = 8_780

    @Option(help: "The address to listen on; keep it on loopback.")
    var host: String = "127.0.0.1"

    @Option(help: "The access key (client id) the sandbox accepts.")
    var accessKey: String = SandboxSettings.demoAccessKey

    @Option(help: "The secret key the token endpoint accepts.")
    var secretKey: String = SandboxSettings.demoSecretKey

    @Flag(help: "Approve logins at once, without the authorize page.")
    var autoApprove = false

    @Option(help: "Requests an hour per access key or token.")
    var rateLimit: Int = 5_000

    @Option(name: .customLong("fault"), help: ArgumentHelp(
        "Inject a fault: ROUTE=KIND[:ARG][xCOUNT], e.g. photos=status:500, image=corrupt, search=latency:2000, '*=drop'. Repeatable.",
        valueName: "rule"))
    var faults: [String] = []

    func validate() throws {
        guard ["127.0.0.1", "localhost", "::1"].contains(host) || host.hasPrefix("127.") else {
            throw ValidationError("The sandbox listens on loopback only (127.0.0.1, ::1 or localhost).")
        }
    }

    func run() async throws {
        let rules = try faults.map { try FaultRule(parsing: $0) }
        let settings = SandboxSettings(accessKey: accessKey, secretKey: secretKey, autoApprove: autoApprove,
                                       rateLimit: rateLimit, faults: rules)
        let server = try SandboxServer(settings: settings)
        let app = server.application(host: host, port: port) { bound in
            // Written unbuffered: scripts wait for this line to know the port.
            let line = "unsplash-sandbox listening on http://\(host):\(bound) (\(server.catalog.feed.count) feed photos)\n"
            try? FileHandle.standardOutput.write(contentsOf: Data(line.utf8))
        }
        try await app.runService()
    }
}
