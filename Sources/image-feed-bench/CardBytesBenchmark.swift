import Foundation
import HTTPTransport
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox

/// Bytes a feed card's picture costs over the network: the preset the app asked for before (`small`, 400 px,
/// up to 200 pixels of picture; `regular`, 1080 px, above) against the width the card's cells need
/// (`PhotoURLs.sized`: `w`, `fit=max`, `q=80`, `fm=jpg` on `raw`), for the demo feed's photos from the sandbox,
/// which sizes images as Unsplash's image service does.
struct CardBytesBenchmark {
    /// Cards measured: a name, and the picture's width in the pixels the terminal draws it with.
    static let cards: [(String, Int)] = [
        ("80x24, half blocks (card about 40 columns)", 40),
        ("200x60, half blocks (card about 100 columns)", 100),
        ("200x60, sextants (2 pixels a column)", 200),
        ("80x24, kitty (40 columns of 10 pixels)", 400),
        ("200x60, kitty (100 columns of 10 pixels)", 1000),
    ]

    func run(into report: inout Report) async throws {
        let sandbox = try await RunningSandbox.start(try SandboxServer())
        let http = CurlHTTPClient()
        let client = UnsplashClient(configuration: UnsplashConfiguration(apiBase: sandbox.baseURL, accessKey: SandboxSettings.demoAccessKey),
                                    http: http)
        let photos: [Photo]
        do {
            photos = try await client.feed(page: 1, perPage: maximumPageSize).items
        } catch {
            await sandbox.stop()
            throw error
        }
        var sizes: [URL: Int] = [:]
        func bytes(_ url: URL?) async throws -> Int {
            guard let url else { return 0 }
            if let known = sizes[url] { return known }
            let answer = try await http.send(HTTPRequest(url: url))
            sizes[url] = answer.body.count
            return answer.body.count
        }
        for (name, pixels) in Self.cards {
            var before = 0
            var after = 0
            for photo in photos {
                before += try await bytes(pixels <= 200 ? (photo.urls.small ?? photo.urls.regular) : (photo.urls.regular ?? photo.urls.small))
                after += try await bytes(photo.urls.sized(width: pixels))
            }
            let count = max(1, photos.count)
            report.add("card picture bytes, \(name): preset before, per card", "\(before / count / 1024) KiB")
            report.add("card picture bytes, \(name): sized to the cells, per card", "\(after / count / 1024) KiB (\(after * 100 / max(1, before))%)")
        }
        await sandbox.stop()
    }
}
