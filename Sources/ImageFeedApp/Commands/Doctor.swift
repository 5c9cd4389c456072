import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI
import UnsplashSandbox

/// `image-feed doctor`: what ImageFeed finds in front of it (the terminal, the settings and where each came
/// from, the login, the API, the files it keeps), each problem with its fix in one line.
public struct DoctorReport: Encodable, Sendable {
    public enum Status: String, Encodable, Sendable {
        /// As it should be.
        case ok
        /// Worth knowing; nothing to fix.
        case info
        /// Works, but not as well as it could: the fix says how.
        case warning
        /// Keeps ImageFeed from working: `doctor` exits with status 1.
        case problem
    }

    public struct Check: Encodable, Sendable, Equatable {
        public var section: String
        public var name: String
        public var status: Status
        public var detail: String
        public var fix: String?
    }

    public var version: String
    public var checks: [Check]
    /// Something keeps ImageFeed from working.
    public let blocked: Bool

    public init(version: String, checks: [Check]) {
        self.version = version
        self.checks = checks
        blocked = checks.contains { $0.status == .problem }
    }

    public func check(_ name: String) -> Check? { checks.first { $0.name == name } }

    /// The report for people: sections, a mark per check, the fix under it, a summary at the end.
    /// `width`: the terminal's columns, to wrap each detail and fix under itself (a word, such as a path, is never
    /// broken, so it can be copied whole); nil leaves every line whole (a pipe, a file).
    public func text(width terminalWidth: Int? = nil) -> String {
        var lines = [version]
        var section = ""
        let width = (checks.map(\.name.count).max() ?? 0) + 2
        for check in checks {
            if check.section != section {
                section = check.section
                lines.append("")
                lines.append(section)
            }
            let mark = switch check.status {
            case .ok: "ok  "
            case .info: "    "
            case .warning: "warn"
            case .problem: "FAIL"
            }
            let name = check.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let indent = String(repeating: " ", count: 7 + width)
            let room = terminalWidth.map { max(20, $0 - indent.count) }
            for (index, part) in Self.wrap(check.detail, width: room).enumerated() {
                lines.append(index == 0 ? "  \(mark) \(name)\(part)" : indent + part)
            }
            if let fix = check.fix {
                for (index, part) in Self.wrap(fix, width: room.map { $0 - 5 }).enumerated() {
                    lines.append(indent + (index == 0 ? "fix: " : "     ") + part)
                }
            }
        }
        let problems = checks.filter { $0.status == .problem }.count
        let warnings = checks.filter { $0.status == .warning }.count
        lines.append("")
        switch (problems, warnings) {
        case (0, 0): lines.append("Nothing to fix.")
        case (0, _): lines.append("\(warnings) warning\(warnings == 1 ? "" : "s"); nothing keeps ImageFeed from working.")
        default: lines.append("\(problems) problem\(problems == 1 ? "" : "s") keep\(problems == 1 ? "s" : "") ImageFeed from working"
                              + (warnings > 0 ? ", and \(warnings) warning\(warnings == 1 ? "" : "s")." : "."))
        }
        return lines.joined(separator: "\n")
    }
}

extension DoctorReport {
    /// Lines of at most `width` characters, broken at spaces only.
    static func wrap(_ text: String, width: Int?) -> [String] {
        guard let width, text.count > width else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

public enum Doctor {
    /// What is known of the terminal without curses: whether standard input and output are one, what it
    /// answered when asked, what tmux said, its size.
    public struct TerminalFacts: Sendable {
        public var isTerminal: Bool
        public var abilities: TerminalAbilities?
        public var tmux: TmuxClient?
        public var size: (columns: Int, rows: Int)?
        /// The link to the terminal, timed from its answers.
        public var link: LinkProbe?

        public init(isTerminal: Bool, abilities: TerminalAbilities? = nil, tmux: TmuxClient? = nil,
                    size: (columns: Int, rows: Int)? = nil, link: LinkProbe? = nil) {
            self.isTerminal = isTerminal
            self.abilities = abilities
            self.tmux = tmux
            self.size = size
            self.link = link
        }

        /// Asks the terminal, as a session does before curses starts: the one on standard input and output, or
        /// the controlling terminal (`/dev/tty`) when the user at it sends the report to a pipe
        /// (`image-feed doctor | less`).
        public static func ask(environment: [String: String]) -> TerminalFacts {
            var input = STDIN_FILENO
            var output = STDOUT_FILENO
            var opened: Int32 = -1
            // Standard input not a terminal: a script runs it, and nobody's terminal is asked anything.
            guard isatty(STDIN_FILENO) == 1 else { return TerminalFacts(isTerminal: false) }
            if isatty(STDOUT_FILENO) != 1 {
                opened = open("/dev/tty", O_RDWR | O_NOCTTY)
                guard opened >= 0 else { return TerminalFacts(isTerminal: false) }
                input = opened
                output = opened
            }
            defer { if opened >= 0 { close(opened) } }
            let (abilities, tmux) = TerminalProbe.ask(input: input, output: output, environment: environment)
            var size = winsize()
            let known = ioctl(output, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 && size.ws_row > 0
            // Only a terminal that answered the probe is timed (one that does not would keep the report waiting).
            let link = abilities?.answered == true ? LinkProbe.measure(input: input, output: output) : nil
            return TerminalFacts(isTerminal: true, abilities: abilities, tmux: tmux,
                                 size: known ? (Int(size.ws_col), Int(size.ws_row)) : nil, link: link)
        }
    }

    /// The whole report. `overrides`: the `--config` and `--api-base` flags. `demo`: checks the demo sandbox's
    /// set-up instead of Unsplash's. `network`: false leaves out the checks that ask the API (each costs a
    /// request of the hour's quota).
    public static func report(environment: [String: String], overrides: Settings.Overrides = .init(),
                              demo: Bool = false, network: Bool = true, terminal: TerminalFacts) async -> DoctorReport {
        var checks = program(environment: environment)
        var configuration: Settings?
        var settingsChecks: [DoctorReport.Check]
        (configuration, settingsChecks) = settings(environment: environment, overrides: overrides, demo: demo)
        checks += self.terminal(environment: environment, configuration: configuration, facts: terminal)
        checks += settingsChecks
        if let configuration {
            checks += await account(configuration: configuration, demo: demo, network: network)
            checks += storage(configuration: configuration, demo: demo)
        }
        return DoctorReport(version: ImageFeedVersion.line, checks: checks)
    }

    // MARK: - The program

    static func program(environment: [String: String]) -> [DoctorReport.Check] {
        var checks: [DoctorReport.Check] = []
        let program = Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments.first ?? "image-feed"
        checks.append(.init(section: "Program", name: "Program", status: .info, detail: program))
        if let assets = SandboxCatalog.locateAssets(environment: environment) {
            checks.append(.init(section: "Program", name: "Demo catalog", status: .ok, detail: assets.path))
        } else {
            checks.append(.init(section: "Program", name: "Demo catalog", status: .warning,
                                detail: "not found: image-feed --demo and the splash's logo need it",
                                fix: "run make install again, or set IMAGE_FEED_ASSETS to the Assets folder"))
        }
        return checks
    }

    // MARK: - The terminal

    static func terminal(environment: [String: String], configuration: Settings?,
                         facts: TerminalFacts) -> [DoctorReport.Check] {
        let section = "Terminal"
        var checks: [DoctorReport.Check] = []
        func add(_ name: String, _ status: DoctorReport.Status, _ detail: String, fix: String? = nil) {
            checks.append(.init(section: section, name: name, status: status, detail: detail, fix: fix))
        }
        if !facts.isTerminal {
            add("Terminal", .info, "standard input or output is not a terminal: it was not asked what it can draw")
        }
        let term = environment["TERM"] ?? ""
        // The very value the session opens the screen from (without a readable config file, the defaults').
        let profile = configuration.map {
            InteractiveSession.profile($0, environment: environment, abilities: facts.abilities, tmux: facts.tmux,
                                       isTerminal: facts.isTerminal, colors: $0.colors, graphics: $0.graphics)
        } ?? TerminalProfile.decide(environment: environment, abilities: facts.abilities, tmux: facts.tmux, settings: .init(),
                                    unicode: TerminalEnvironment.isUTF8(environment), isTerminal: facts.isTerminal)
        let choice = profile.graphics
        let plan = profile.terminfo
        if term.isEmpty || term == "dumb" {
            add("TERM", facts.isTerminal ? .problem : .info, term.isEmpty ? "not set" : "dumb",
                fix: facts.isTerminal ? "set TERM to your terminal's type (xterm-256color suits most)" : nil)
        } else if plan.termKnown {
            add("TERM", .ok, "\(term), known to terminfo")
        } else if plan.entry != nil {
            add("TERM", .warning, "\(term) is not known to this machine's terminfo: the screen is drawn as xterm-256color",
                fix: "install its terminfo entry (infocmp -x \(term) on the terminal's machine, then tic -x here), or apt install ncurses-term")
        } else {
            add("TERM", .problem, "\(term) is not known to terminfo, nor is xterm-256color",
                fix: "apt install ncurses-base ncurses-term")
        }
        let colorterm = environment["COLORTERM"] ?? ""
        add("COLORTERM", .info, colorterm.isEmpty ? "not set (over SSH it rarely arrives; the terminal is asked instead)" : colorterm)
        if plan.entry != nil {
            let origin = configuration?.origins["colors"].map { ", colors set by \($0)" } ?? ""
            var detail = "\(describe(plan.colorMode)) (terminfo entry \(plan.entry!)\(origin))"
            if !(environment["NO_COLOR"] ?? "").isEmpty { detail = "none: NO_COLOR is set" }
            if profile.between == .gnuScreen, configuration?.colors == nil {
                detail += "; GNU screen draws 256 colours unless it is screen 5 with truecolor on"
            }
            if let advice = profile.colorsAdvice {
                // Inside GNU screen nothing is wrong: screen cannot be asked whether it is screen 5 with truecolor on.
                let screen = profile.between == .gnuScreen
                add("Colours", screen ? .info : .warning, detail + (screen ? "; the terminal outside has 24-bit colour" : "; the terminal has 24-bit colour"),
                    fix: advice)
            } else {
                add("Colours", .ok, detail)
            }
        }
        let name = facts.abilities?.version ?? facts.tmux.map { $0.terminalType.isEmpty ? $0.terminalName : $0.terminalType }
        if let name, !name.isEmpty {
            let known = profile.terminal.map { " (decided as \($0))" } ?? ""
            add("Terminal", .info, UntrustedText.sanitize(name) + known)
        } else if let known = profile.terminal {
            add("Terminal", .info, "\(known), by its environment")
        }
        let cell = choice.mode == .cells ? "" : ", cell \(choice.cellWidth)x\(choice.cellHeight) pixels"
        var graphicsStatus = DoctorReport.Status.ok
        var graphicsFix: String?
        if choice.mode == .cells, let tmux = facts.tmux, tmux.drawsPlaceholders, !tmux.passthrough {
            graphicsStatus = .warning
            graphicsFix = "set -g allow-passthrough on (in ~/.tmux.conf), then tmux source-file ~/.tmux.conf"
        }
        // Only what the terminal answered is checked: without its answer, the choice is a guess, not an "ok".
        if graphicsStatus == .ok, facts.abilities == nil, facts.tmux == nil { graphicsStatus = .info }
        add("Pictures", graphicsStatus, "\(choice.mode.rawValue): \(choice.reason)\(cell)", fix: graphicsFix)
        if choice.mode == .cells {
            add("Blitter", .info, "\(profile.blitter.value.rawValue): \(profile.blitter.reason)")
        }
        if choice.mode != .cells {
            add("Animation", .info, choice.playbackReason)
        }
        if choice.mode != .cells {
            let setting = configuration?.link ?? .auto
            let origin = configuration?.origins["link"].map { " (set by \($0))" } ?? ""
            var detail: String
            if let link = facts.link {
                detail = "measured \(link.summary)"
                let slow = link.rate.map { $0 < LinkMeter.fastRate } ?? false
                switch setting {
                case .auto: detail += slow ? "; pictures are sized to what the session measures" : "; pictures at full resolution"
                case .fast: detail += "; link = fast\(origin): pictures at full resolution whatever the link"
                case .slow: detail += "; link = slow\(origin): pictures sized for 1 Mbit/s"
                }
            } else {
                detail = "not measured (the terminal did not answer); link = \(setting.rawValue)\(origin)"
            }
            add("Link", .info, detail)
        }
        switch profile.between {
        case .tmux:
            if let tmux = facts.tmux {
                let client = tmux.terminalName.isEmpty ? "no terminal attached" : "attached to \(UntrustedText.sanitize(tmux.terminalName))"
                add("tmux", .info, "inside tmux, \(client); allow-passthrough \(tmux.passthrough ? "on" : "off")"
                    + (tmux.hasRGB ? "; it draws 24-bit colour there (RGB among the client's features)" : "")
                    + (tmux.drawsSixel ? "; built with Sixel, which the terminal draws" : ""))
            } else {
                add("tmux", .info, "inside tmux or screen (tmux was not asked)")
            }
        case .gnuScreen:
            add("tmux", .info, "inside GNU screen: 256 colours unless it is screen 5 with truecolor on (screen 4 has no 24-bit colour, "
                + "whatever COLORTERM says), no mouse (screen holds a lone Esc while the mouse is reported), the screen cleared on quitting")
        case .zellij:
            add("Zellij", .info, "inside Zellij: pictures as Kitty graphics it draws itself, or Sixel it passes to a terminal that "
                + "draws it (0.45 and later), never placeholders; links go to the terminal outside, sextants are left to its font")
        case .herdr:
            add("herdr", .info, "inside herdr: its panes are drawn into the terminal as text, so pictures are characters "
                + "(its Kitty graphics are experimental, off by default); links go to the terminal outside")
        case .nothing:
            break
        }
        add("Links", .info, "OSC 8 links \(profile.hyperlinks.value ? "on" : "off"): \(profile.hyperlinks.reason)")
        add("Frames", .info, (profile.synchronizedFrames.value ? "synchronized: " : "not synchronized: ") + profile.synchronizedFrames.reason)
        let themeSet = configuration.map { $0.origins["theme"] != nil } ?? false
        add("Theme changes", .info, profile.themeChanges.value
            ? (themeSet ? "reported, but a theme is set, which stays: " : "followed (light and dark as the terminal switches): ")
                + profile.themeChanges.reason
            : "not followed: " + profile.themeChanges.reason)
        // Where `y` (copy the link) goes from here, asked as the session asks when it copies.
        let clipboard = ClipboardRoute.decide(environment: environment) { TmuxClient.run($0, environment: environment) }.summary
        add("Clipboard", clipboard.fix == nil ? .info : .warning, clipboard.detail, fix: clipboard.fix)
        if let mosh = facts.abilities?.mosh {
            let version = mosh.isEmpty ? "mosh (its version could not be read)" : "mosh \(mosh)"
            add("mosh", .info, "through \(version): "
                + (Terminals.moshDrawsDirectColour(mosh) ? "24-bit colour crosses it" : "256 colours at most (24-bit from mosh 1.4)")
                + "; no pictures in pixels (mosh passes no Sixel or Kitty graphics)")
        }
        if TerminalEnvironment.isUTF8(environment) {
            add("UTF-8", .ok, "yes")
        } else {
            add("UTF-8", .warning, "the locale is not UTF-8: photos and frames are drawn in ASCII",
                fix: "export LANG=C.UTF-8 (or another UTF-8 locale)")
        }
        if let size = facts.size {
            if size.columns < AppFrame.minimumWidth || size.rows < AppFrame.minimumHeight {
                add("Size", .warning, "\(size.columns)x\(size.rows): ImageFeed needs \(AppFrame.minimumWidth)x\(AppFrame.minimumHeight)",
                    fix: "make the window larger")
            } else {
                add("Size", .ok, "\(size.columns)x\(size.rows)")
            }
        }
        return checks
    }

    /// How the report names a colour mode ("24-bit", "256 colours").
    public static func describe(_ mode: ColorMode) -> String {
        switch mode {
        case .truecolor: "24-bit"
        case .palette256: "256 colours"
        case .palette16: "16 colours"
        case .palette8: "8 colours"
        case .none: "none"
        }
    }

    // MARK: - Settings

    /// The settings that are secrets: the report says whether they are set, never what they are.
    static let secretSettings: Set<String> = ["access_key", "secret_key", "imgur_client_id", "token"]

    static func settings(environment: [String: String], overrides: Settings.Overrides,
                         demo: Bool) -> (Settings?, [DoctorReport.Check]) {
        let section = "Settings"
        var checks: [DoctorReport.Check] = []
        func add(_ name: String, _ status: DoctorReport.Status, _ detail: String, fix: String? = nil) {
            checks.append(.init(section: section, name: name, status: status, detail: detail, fix: fix))
        }
        let file = Settings.configFile(environment: environment, overrides: overrides).path
        let named = overrides.configFile != nil ? " (--config)" : environment["IMAGE_FEED_CONFIG"].map { $0.isEmpty ? "" : " (IMAGE_FEED_CONFIG)" } ?? ""
        let configuration: Settings
        do {
            configuration = try Settings.load(environment: environment, overrides: overrides)
        } catch {
            add("Config file", .problem, "\(file)\(named): \(error.message)", fix: "correct the file (or the variable) as the message says")
            return (nil, checks)
        }
        if FileManager.default.fileExists(atPath: file) {
            add("Config file", .ok, "\(file)\(named), valid")
            let mode = (try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) ?? 0
            if Settings.secretKeyExposure(file: URL(fileURLWithPath: file), configuration: configuration) != nil {
                add("Config file mode", .warning,
                    String(format: "%o: the file holds the secret key and other users can read it", mode),
                    fix: "chmod 600 \(file)")
            }
        } else {
            add("Config file", .info, "\(file)\(named): none (every setting has its default)")
        }
        if demo {
            add("Demo", .info, "--demo: the sandbox's keys and addresses stand in for the keys and API settings below")
        }
        for key in Settings.fileKeys.keys.sorted() + ["token"] {
            let origin = configuration.origins[key]
            guard let value = display(key, configuration) else {
                if key != "token" { add(key, .info, "not set") }
                continue
            }
            add(key, .info, value + " (" + (origin ?? "default") + ")")
        }
        let hasKey = !(configuration.accessKey ?? "").isEmpty || !(configuration.tokenOverride ?? "").isEmpty
        if !hasKey, !demo {
            add("Access key", .problem, "no Unsplash access key: nothing can be asked of Unsplash",
                fix: "put access_key and secret_key in the config file (above), or set UNSPLASH_ACCESS_KEY and UNSPLASH_SECRET_KEY, or try image-feed --demo")
        } else if (configuration.secretKey ?? "").isEmpty, (configuration.tokenOverride ?? "").isEmpty, !demo {
            add("Secret key", .warning, "no secret key: logging in needs it (browsing does not)",
                fix: "put secret_key in \(file) (or set UNSPLASH_SECRET_KEY)")
        }
        return (configuration, checks)
    }

    /// What doctor shows of a setting: secrets only as "set"; nil when it is not set.
    static func display(_ key: String, _ configuration: Settings) -> String? {
        let value: String? = switch key {
        case "access_key": configuration.accessKey
        case "secret_key": configuration.secretKey
        case "imgur_client_id": configuration.imgurClientID
        case "token": configuration.tokenOverride
        case "redirect_uri": configuration.redirectURI
        case "api_base": configuration.apiBase.absoluteString
        case "oauth_base": configuration.oauthBase.absoluteString
        case "imgur_api_base": configuration.imgurAPIBase.absoluteString
        case "downloads_dir": configuration.downloadsDirectory.path
        case "cache_max_age_days": String(format: "%g", configuration.cacheMaximumAgeDays)
        case "image_cache_mb": String(configuration.imageCacheMegabytes)
        case "max_image_megapixels": String(configuration.maximumImageMegapixels)
        case "write_collections": configuration.writeCollections ? "true (logins ask for write_collections)" : nil
        case "colors": configuration.colors?.rawValue ?? "auto"
        case "graphics": configuration.graphics?.rawValue ?? "auto"
        case "animations": configuration.animations.rawValue + [
            AnimationSetting.hover: ": the viewer's animation plays", .on: ": animations play", .off: ": stills until Space plays them",
            .safe: ": they play, but one that flashes more than three times a second stands still",
        ][configuration.animations, default: ""]
        // Unset, the terminal decides (the Terminal section's Blitter line says what it chose).
        case "blitter": configuration.origins["blitter"] == nil ? "auto (the richest the terminal draws: see Blitter above)" : configuration.blitter.rawValue
        case "keys": configuration.keyMap == .standard ? nil
            : configuration.keyMap.bindings.flatMap { context, intents in intents.keys.map { "\(context.rawValue).\($0)" } }.sorted().joined(separator: ", ")
            + " rebound"
        case "theme": configuration.theme.rawValue
            + (configuration.themeColors.isEmpty ? "" : ", with " + configuration.themeColors.keys.map(\.rawValue).sorted().joined(separator: ", ")
               + " from [colors]")
        default: nil
        }
        guard let value, !value.isEmpty else { return nil }
        return secretSettings.contains(key) ? "set" : UntrustedText.sanitize(value)
    }

    // MARK: - The account and the API

    static func account(configuration: Settings, demo: Bool, network: Bool) async -> [DoctorReport.Check] {
        let section = "Account"
        var checks: [DoctorReport.Check] = []
        func add(_ name: String, _ status: DoctorReport.Status, _ detail: String, fix: String? = nil) {
            checks.append(.init(section: section, name: name, status: status, detail: detail, fix: fix))
        }
        // The token file's mode is read before anything loads it (loading puts a wrong mode right).
        let tokenFile = demo ? configuration.paths.demoTokenFile : configuration.paths.tokenFile
        if configuration.tokenOverride != nil, !demo {
            add("Token", .info, "from IMAGE_FEED_TOKEN (nothing is stored)")
        } else if let attributes = try? FileManager.default.attributesOfItem(atPath: tokenFile.path) {
            let mode = attributes[.posixPermissions] as? Int ?? 0
            if mode & 0o077 != 0 {
                add("Token", .warning, String(format: "%@, mode %o: other users can read it", tokenFile.path, mode),
                    fix: "chmod 600 \(tokenFile.path) (ImageFeed also does so when it next reads it)")
            } else {
                add("Token", .ok, String(format: "%@, mode %o", tokenFile.path, mode))
            }
        } else {
            add("Token", .info, "not logged in (\(tokenFile.path) is not there)",
                fix: demo ? nil : "image-feed login, or log in from the full-screen interface")
        }
        guard network else {
            add("Unsplash API", .info, "\(configuration.apiBase.absoluteString): not asked (--offline)")
            return checks + imgur(configuration: configuration, demo: demo)
        }
        let context: CompositionRoot
        do {
            context = try await CompositionRoot.make(configuration: configuration, demo: demo, store: false)
        } catch {
            add("Unsplash API", .problem, "cannot be set up: \(error)")
            return checks
        }
        let api = context.configuration.apiBase.absoluteString
        func quota() -> String {
            guard let limit = context.client.rateLimit else { return "" }
            return "; \(limit.remaining) of \(limit.limit) requests left this hour"
        }
        if context.client.isLoggedIn {
            do {
                let user = try await context.client.me()
                add("Login", .ok, "the token is valid: @\(UntrustedText.sanitize(user.username))")
                add("Unsplash API", .ok, "\(api) answers\(quota())")
            } catch ServiceError.sessionExpired {
                add("Login", .problem, "the token was refused (revoked, or from another application)",
                    fix: "image-feed logout, then image-feed login")
                add("Unsplash API", .ok, "\(api) answers\(quota())")
            } catch {
                checks += apiFailure(error, api: api, section: section)
            }
        } else if !(context.configuration.accessKey ?? "").isEmpty {
            do {
                _ = try await context.client.feed(page: 1, perPage: 1)
                add("Unsplash API", .ok, "\(api) answers, the access key is accepted\(quota())")
            } catch {
                checks += apiFailure(error, api: api, section: section)
            }
        }
        await context.stop()
        return checks + imgur(configuration: context.configuration, demo: demo)
    }

    static func apiFailure(_ error: any Error, api: String, section: String) -> [DoctorReport.Check] {
        switch error {
        case ServiceError.applicationKeyRefused:
            return [.init(section: section, name: "Unsplash API", status: .problem, detail: "\(api) refused the access key",
                          fix: "check access_key against your application at https://unsplash.com/oauth/applications")]
        case ServiceError.rateLimited:
            return [.init(section: section, name: "Unsplash API", status: .warning,
                          detail: "\(api) answers, but this hour's requests are used up",
                          fix: "wait for the next hour (Unsplash counts requests per hour)")]
        case let error as ServiceError:
            return [.init(section: section, name: "Unsplash API", status: .warning,
                          detail: "\(api): \(error.message)", fix: "check the network; offline, ImageFeed shows what it saved")]
        default:
            return [.init(section: section, name: "Unsplash API", status: .warning, detail: "\(api): \(error)")]
        }
    }

    static func imgur(configuration: Settings, demo: Bool) -> [DoctorReport.Check] {
        if demo {
            return [.init(section: "Account", name: "Imgur", status: .ok, detail: "the demo sandbox serves its albums: the Albums tab shows")]
        }
        if !(configuration.imgurClientID ?? "").isEmpty {
            return [.init(section: "Account", name: "Imgur", status: .ok,
                          detail: "client id set: the Albums tab shows (\(configuration.imgurAPIBase.absoluteString))")]
        }
        return [.init(section: "Account", name: "Imgur", status: .info, detail: "no client id: the Albums tab is hidden",
                      fix: "set imgur_client_id in the config file (or IMGUR_CLIENT_ID) to explore Imgur albums; Imgur registers no new "
                          + "applications (since mid-2025): only an existing one's client id works")]
    }

    // MARK: - Files

    static func storage(configuration: Settings, demo: Bool) -> [DoctorReport.Check] {
        let section = "Files"
        var checks: [DoctorReport.Check] = []
        let cache = CacheCommands.folder(configuration, demo: demo)
        for (name, folder) in [("Cache", cache), ("State", configuration.paths.state)] {
            let size = FileManager.default.fileExists(atPath: folder.path)
                ? CacheCommands.bytes(folderSize(folder)) : "not created yet"
            checks.append(.init(section: section, name: name, status: .info, detail: "\(folder.path): \(size)"))
        }
        let log = configuration.paths.logFile
        let logSize = (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int).map(CacheCommands.bytes) ?? "not written yet"
        checks.append(.init(section: section, name: "Log", status: .info, detail: "\(log.path): \(logSize)"))
        let downloads = configuration.downloadsDirectory
        var parent = downloads
        while !FileManager.default.fileExists(atPath: parent.path), parent.path != "/" { parent = parent.deletingLastPathComponent() }
        if FileManager.default.isWritableFile(atPath: parent.path) {
            checks.append(.init(section: section, name: "Downloads", status: .ok, detail: downloads.path))
        } else {
            checks.append(.init(section: section, name: "Downloads", status: .warning,
                                detail: "\(downloads.path): \(parent.path) cannot be written to",
                                fix: "set downloads_dir in the config file (or IMAGE_FEED_DOWNLOADS) to a folder you may write to"))
        }
        return checks
    }

    /// The bytes of the files under `folder`.
    static func folderSize(_ folder: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total = 0
        for case let file as URL in walker {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
        }
        return total
    }
}
