import Foundation
import ImageFeedCore
import TerminalUI
import UnsplashAPI

/// Performs the app's effects with the real adapters: the API client, the downloader, the browser.
public struct AppEffectPerformer: EffectPerformer {
    let client: UnsplashClient
    let downloader: PhotoDownloader
    let opener: any URLOpener

    public init(client: UnsplashClient, downloader: PhotoDownloader, opener: any URLOpener) {
        self.client = client
        self.downloader = downloader
        self.opener = opener
    }

    public func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event] {
        var events: [AppViewModel.Event]
        switch effect {
        case let .feed(feedEffect):
            events = [.feed(await FeedEffectRunner(service: client).perform(feedEffect))]
        case let .viewer(.setLike(photoID, liked)):
            do {
                events = [.viewer(.likeFinished(liked: liked, .success(try await client.setLike(liked, photoID: photoID))))]
            } catch {
                events = [.viewer(.likeFinished(liked: liked, .failure(error)))]
            }
        case let .viewer(.share(url)):
            events = [.viewer(.shared(opened: await opener.open(url)))]
        case let .viewer(.download(photo)):
            do {
                let path = try await downloader.download(photo) { post(.viewer(.downloadProgress($0))) }
                events = [.viewer(.downloadFinished(.success(path)))]
            } catch {
                events = [.viewer(.downloadFinished(.failure(error)))]
            }
        case .viewer(.reloadImage):
            events = []
        }
        return events + [.rateLimit(client.rateLimit)]
    }
}

/// Opens URLs with `xdg-open` when there is a graphical display; over SSH there is none, and the link
/// is only copied.
public struct DesktopURLOpener: URLOpener {
    let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func open(_ url: URL) async -> Bool {
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty,
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus == 0) }
        }
    }
}
