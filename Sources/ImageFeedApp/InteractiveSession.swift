import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI
import UnsplashSandbox

/// The full-screen interface on the real terminal, wired to the app's adapters.
public enum InteractiveSession {
    /// Runs until the user quits; returns a message to print after the terminal is restored, if any.
    public static func run(context: AppContext) throws -> String? {
        let backend = try NcursesBackend()
        defer { backend.restore() }
        let theme = Theme(colorMode: backend.colorMode, unicode: backend.unicode)
        let performer = AppEffectPerformer(context: context, opener: DesktopURLOpener())
        var state = AppState(session: .splash)
        state.isDemo = context.isDemo
        let app = TerminalApp(backend: backend, theme: theme, imageSource: context.imageSource,
                              performer: performer, state: state, logo: logo())
        app.run()
        return nil
    }

    /// The logo, from `Assets/logo.png` beside the demo catalog; nil when the assets are not installed.
    static func logo() -> RGBImage? {
        guard let assets = SandboxCatalog.locateAssets(),
              let data = try? Data(contentsOf: assets.appendingPathComponent("logo.png")) else { return nil }
        return try? ImageCodec.decode(data).image
    }
}
