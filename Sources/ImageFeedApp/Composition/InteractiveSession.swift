import Foundation
import Logging
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI
import UnsplashSandbox

/// The full-screen interface on the real terminal, wired to the app's adapters.
public enum InteractiveSession {
    /// Runs until the user quits; returns a message to print after the terminal is restored, if any.
    /// `colors`: what to draw with (nil: what the terminal says it has).
    /// `graphics`: how photos are drawn (nil: as the terminal answers when asked).
    /// `blitter`: the characters photos are drawn with when they are not pixels (nil: the setting's).
    /// `themeName`: the interface's colours (nil: the setting's).
    /// `link`: how pictures are sized for the link (nil: the setting's).
    /// What the terminal is, decided once from its answers, the environment and the settings (flags first): the
    /// session opens the screen from it, and doctor prints the same value. `colors` and `graphics`: the settings as the
    /// flags left them (nil: decided from the terminal); `blitter` and `link`: the flags (nil: the settings').
    public static func profile(_ configuration: Settings, environment: [String: String], abilities: TerminalAbilities?,
                               tmux: TmuxClient?, isTerminal: Bool = true, colors: ColorMode?, graphics: GraphicsMode?,
                               blitter: BlitterKind? = nil, link: LinkSetting? = nil) -> TerminalProfile {
        let blitterSetting = blitter.map { (kind: $0, origin: "--blitter") }
            ?? configuration.origins["blitter"].map { (kind: configuration.blitter, origin: $0) }
        let settings = TerminalProfile.Settings(colors: colors, graphics: graphics,
                                                blitter: blitterSetting, link: link ?? configuration.link)
        return TerminalProfile.decide(environment: environment, abilities: abilities, tmux: tmux, settings: settings,
                                      unicode: TerminalEnvironment.isUTF8(environment), isTerminal: isTerminal)
    }

    public static func run(context: CompositionRoot, colors: ColorMode? = nil, graphics: GraphicsMode? = nil,
                           blitter: BlitterKind? = nil, themeName: ThemeName? = nil, link: LinkSetting? = nil) throws -> String? {
        let environment = ProcessInfo.processInfo.environment
        // One burst of questions before curses starts (their answers must not be read as keys).
        let (abilities, tmux) = TerminalProbe.ask(input: STDIN_FILENO, output: STDOUT_FILENO, environment: environment)
        let profile = profile(context.configuration, environment: environment, abilities: abilities, tmux: tmux,
                              colors: colors, graphics: graphics, blitter: blitter, link: link)
        let choice = profile.graphics
        let logger = Logger(label: "terminal")
        if let abilities {
            logger.info("""
                TERM=\(environment["TERM"] ?? "") COLORTERM=\(environment["COLORTERM"] ?? ""); the terminal answered: \
                \(abilities.answered ? "DA1" : "no DA1 in time"), kitty graphics \(abilities.kittyGraphics), sixel \(abilities.sixel), \
                RGB \(abilities.trueColor), version \(abilities.version ?? "none"), cell \(abilities.cellWidth ?? 0)x\(abilities.cellHeight ?? 0), \
                answered in \(abilities.roundTrip.map { String(format: "%.0f ms", $0 * 1_000) } ?? "-"), \
                background \(abilities.hasLightBackground.map { $0 ? "light" : "dark" } ?? "not said")
                """)
        }
        if let tmux {
            logger.info("tmux: allow-passthrough \(tmux.passthrough), client \(tmux.terminalName) \(tmux.terminalType)")
        }
        for line in profile.summary { logger.info("\(line)") }
        let backend = try NcursesBackend(profile: profile)
        defer { backend.restore() }
        logger.info("colours drawn: \(backend.colorMode.rawValue)\(backend.termFallback.map { "; \($0)" } ?? ""), UTF-8 \(backend.unicode)")
        // Unless a theme is set, a terminal that says its background is light gets the light theme (muted text in
        // the dark theme's grey would barely show on white).
        let configured = context.configuration.origins["theme"] != nil ? context.configuration.theme : nil
        let chosenTheme = themeName ?? configured ?? (profile.lightBackground ? .light : context.configuration.theme)
        let themeReason = themeName ?? configured == nil && profile.lightBackground ? " (the terminal's background is light)" : ""
        logger.info("theme: \(chosenTheme.rawValue)\(themeReason)")
        let theme = Theme(colorMode: backend.colorMode, unicode: backend.unicode, name: chosenTheme,
                          overrides: context.configuration.themeColors)
        let startGuard = StartGuard(marker: context.configuration.paths.state
            .appendingPathComponent(context.isDemo ? "demo-start-marker" : "start-marker"))
        let lastStartFailed = startGuard.lastStartFailed()
        if lastStartFailed { logger.warning("the last start did not reach its first screens: the saved lists are left out") }
        startGuard.begin()
        defer { startGuard.settled() }
        let performer = LiveEffectPerformer(context: context, opener: DesktopURLOpener(), savedLists: !lastStartFailed)
        var state = AppState(session: .splash)
        if let saved = LiveEffectPerformer.savedFeedTopic(context.feedTopicFile) {
            state.feedTopic = saved.topic
            state.feedTopicOrder = saved.order
        }
        state.isDemo = context.isDemo
        state.albumsEnabled = context.albums != nil
        state.setupProblem = setupProblem(context)
        let chosenBlitter = profile.blitter.value
        let app = TerminalApp(backend: backend, theme: theme, imageSource: context.imageSource,
                              performer: performer, state: state, logo: logo(), graphics: choice,
                              blitter: chosenBlitter, keyMap: context.configuration.keyMap,
                              animations: context.configuration.animations)
        // Unless a theme is set, a terminal that reports changes of its colour scheme (mode 2031) takes the theme with it.
        if themeName ?? configured == nil, profile.themeChanges.value {
            let overrides = context.configuration.themeColors, dark = context.configuration.theme
            let (colorMode, unicode) = (backend.colorMode, backend.unicode)
            app.themeFollowing = { light in Theme(colorMode: colorMode, unicode: unicode, name: light ? .light : dark, overrides: overrides) }
            app.themeObserver = { name in logger.info("theme: \(name.rawValue) (the terminal's colour scheme changed)") }
        }
        // Failures a key caused, as the status line told them, go to the log too.
        app.noticeObserver = { notice in
            if notice.kind == .error { logger.notice("shown: \(notice.text)") } else { logger.debug("shown: \(notice.text)") }
        }
        // Each frame of an animation the program draws, and how late it went out (at debug level: the slow-link
        // benchmark reads it).
        if logger.logLevel <= .debug {
            app.animationFrameObserver = { frame, late, link in
                logger.debug("animation: frame \(frame + 1) written \(Int((late * 1_000).rounded())) ms after it was due\(link.map { " (\($0))" } ?? "")")
            }
        }
        // A log that cannot be written (a full disk) is said once on the status line, not over the screen.
        let post = app.post
        Logs.reportProblems(to: { post(.notify($0)) })
        defer { Logs.reportProblems(to: Logs.printProblem) }
        if let fallback = backend.termFallback { app.dispatch(.notify(fallback)) }
        for warning in context.configuration.warnings { app.dispatch(.notify(warning)) }
        if lastStartFailed { app.dispatch(.notify(StartGuard.notice)) }
        let started = Date()
        app.frameObserver = { [startGuard] in
            guard Date().timeIntervalSince(started) >= StartGuard.settleTime else { return false }
            startGuard.settled()
            return true
        }
        crashLaterIfAsked(environment: environment)
        // What a download cut short by an earlier copy's end left (a kill, a crash) goes; so does this one's on the way out.
        PhotoDownloader.sweep(context.configuration.downloadsDirectory)
        defer { PhotoDownloader.removeUnfinished() }
        app.run()
        if let link = backend.linkSummary { logger.info("\(link)") }
        return nil
    }

    /// Without an access key nothing can be asked of Unsplash: the first screen says how to go on.
    static func setupProblem(_ context: CompositionRoot) -> String? {
        guard !context.isDemo, (context.configuration.accessKey ?? "").isEmpty,
              (context.configuration.tokenOverride ?? "").isEmpty else { return nil }
        return "No Unsplash access key is configured. To try ImageFeed without one, run image-feed --demo. "
            + "To use your Unsplash account, put access_key and secret_key in \(context.configuration.configFile.path) "
            + "(or set UNSPLASH_ACCESS_KEY and UNSPLASH_SECRET_KEY); the README says how to get them."
    }

    /// `IMAGE_FEED_CRASH_AFTER=<seconds>`: a background task traps after that long. It exists for the test
    /// that checks a crash on another thread still gives the terminal back (the fatal-signal handler).
    static func crashLaterIfAsked(environment: [String: String]) {
        guard let text = environment["IMAGE_FEED_CRASH_AFTER"], let seconds = Double(text), seconds >= 0 else { return }
        Task.detached {
            try? await Task.sleep(for: .seconds(seconds))
            fatalError("IMAGE_FEED_CRASH_AFTER: the crash this setting asks for, in a background task")
        }
    }

    /// The logo, from `Assets/logo.png` beside the demo catalog; nil when the assets are not installed.
    static func logo() -> RGBImage? {
        guard let assets = SandboxCatalog.locateAssets(),
              let data = try? Data(contentsOf: assets.appendingPathComponent("logo.png")) else { return nil }
        return try? ImageCodec.decode(data).image
    }
}
