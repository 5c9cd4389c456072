import CMemory
import Foundation
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox

/// What one feed photo costs in memory once decoded (the feed keeps every photo it has shown): heap in
/// use before and after holding 3,000 photos read from the sandbox through the API client.
struct ModelMemoryBenchmark {
    let photos = 3_000

    func run(into report: inout Report) async throws {
        let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(feedSize: photos)))
        let client = UnsplashClient(configuration: UnsplashConfiguration(apiBase: sandbox.baseURL,
                                                                        accessKey: SandboxSettings.demoAccessKey),
                                    http: CurlHTTPClient())
        _ = try await client.feed(page: 1, perPage: maximumPageSize) // warm up the client and the decoder
        var held: [Photo] = []
        let before = ifm_heap_in_use()
        for page in 1...(photos / maximumPageSize) {
            held += try await client.feed(page: page, perPage: maximumPageSize).items
        }
        let after = ifm_heap_in_use()
        await sandbox.stop()
        guard before > 0 else {
            report.note("photo model memory: this C library cannot report heap use; skipped")
            return
        }
        let perPhoto = Double(after &- before) / Double(held.count)
        report.add("heap per feed photo held (\(held.count) photos)", String(format: "%.0f bytes", perPhoto))
    }
}
