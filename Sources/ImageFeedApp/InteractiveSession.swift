import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI

/// The full-screen interface on the real terminal, wired to the app's adapters.
public enum InteractiveSession {
    /// Runs until the user quits; returns a message to print after the terminal is restored, if any.
    public static func run(context: AppContext) throws -> String? {
        let backend = try NcursesBackend()
        defer { backend.restore() }
        let theme = Theme(colorMode: backend.colorMode, unicode: backend.unicode)
        let downloader = PhotoDownloader(folder: context.configuration.downloadsDirectory, client: context.client)
        let performer = AppEffectPerformer(client: context.client, downloader: downloader, opener: DesktopURLOpener())
        let app = TerminalApp(backend: backend, theme: theme, imageSource: HTTPImageSource(http: context.http),
                              performer: performer)
        let final = app.run()
        if final.sessionExpired {
            return "Your session has expired. Log in again (set IMAGE_FEED_TOKEN, or use --demo)."
        }
        return nil
    }
}
