import Foundation
import ImgurAPI
import TerminalImage
import TerminalUI
import TOMLKit
import UnsplashAPI
import UnsplashSandbox

/// Settings from the config file, overridden by the environment, overridden by flags.
public struct Settings: Sendable, Equatable {
    public static let defaultRedirectURI = "http://127.0.0.1:8765/callback"

    public var accessKey: String?
    public var secretKey: String?
    public var redirectURI = defaultRedirectURI
    public var apiBase = UnsplashConfiguration.defaultAPIBase
    public var oauthBase = UnsplashConfiguration.defaultOAuthBase
    /// `IMAGE_FEED_TOKEN`: use this token and store nothing.
    public var tokenOverride: String?
    public var downloadsDirectory: URL
    /// How old a saved feed (or favorites, or search) may be and still be shown offline.
    public var cacheMaximumAgeDays: Double = 7
    /// The image cache's size budget.
    public var imageCacheMegabytes: Int = 200
    /// The most pixels (in millions) a picture's header may claim and still be decoded.
    public var maximumImageMegapixels: Int = ImageCodec.defaultPixelBudget / 1_000_000
    /// The colours to draw with; nil: what the terminal says it has (`colors = "auto"`).
    public var colors: ColorMode?
    /// How photos reach the screen; nil: what the terminal answers when asked (`graphics = "auto"`).
    public var graphics: GraphicsMode?
    /// The characters photos are drawn with when the terminal does not draw pixels.
    public var blitter: BlitterKind = .half
    /// The link to the terminal: measured (`auto`), or taken to be fast or slow (pictures' size).
    public var link: LinkSetting = .auto
    /// Whether animations play: `hover` (the viewer's), `on`, `off` (stills until Space), `safe` (not one that flashes).
    public var animations: AnimationSetting = .hover
    /// The interface's colours: for dark terminal backgrounds, light ones, or the most contrast.
    public var theme: ThemeName = .dark
    /// Colours by role from `[colors]`, over the theme's.
    public var themeColors: [ThemeRole: ThemeColor] = [:]
    /// The keys, with `[keys]`'s rebindings.
    public var keyMap = KeyMap.standard
    /// Imgur's client id (`Authorization: Client-ID …`); the Albums tab shows when one is set.
    public var imgurClientID: String?
    /// Ask at login for the `write_collections` scope (adding photos to the user's collections); off unless set.
    public var writeCollections = false
    public var imgurAPIBase = ImgurConfiguration.defaultAPIBase
    public var imgurImageBase = ImgurConfiguration.defaultImageBase
    /// Where an Imgur image's page is (the link share copies); the demo points it at its sandbox.
    public var imgurPageBase = ImgurConfiguration.defaultPageBase
    public var paths: XDGPaths
    /// `IMAGE_FEED_DEMO_FAULTS`: what the demo's sandbox does wrong on purpose (`image=bomb photos=repeat`), to
    /// see how the app takes a hostile server.
    public var demoFaults: [FaultRule] = []
    /// Where the settings came from, for messages.
    public var configFile: URL
    /// Where each setting that is not a default came from, by its config file name ("access_key"; "token" for
    /// `IMAGE_FEED_TOKEN`): "FILE, line N", "environment NAME" or "flag --NAME". `image-feed doctor` shows them.
    public var origins: [String: String] = [:]
    /// What the user should know about the settings but that does not stop the program (shown at start).
    public var warnings: [String] = []

    /// The flags that override the file and the environment.
    public struct Overrides: Sendable, Equatable {
        public var apiBase: String?
        public var configFile: String?
        public init(apiBase: String? = nil, configFile: String? = nil) {
            self.apiBase = apiBase
            self.configFile = configFile
        }
    }

    /// Keys the config file may hold, and what each is.
    static let fileKeys: [String: String] = [
        "access_key": "the Unsplash application's access key",
        "secret_key": "the Unsplash application's secret key",
        "redirect_uri": "the OAuth redirect URI registered for the application",
        "api_base": "the API's base URL",
        "oauth_base": "where /oauth/authorize and /oauth/token live",
        "downloads_dir": "the folder downloads are saved to",
        "cache_max_age_days": "how many days a saved feed is shown offline (a number)",
        "image_cache_mb": "the image cache's size in megabytes (a whole number)",
        "max_image_megapixels": "the largest picture decoded, in megapixels (a whole number; 50 unless set)",
        "imgur_client_id": "the Imgur application's client id (shows the Albums tab)",
        "imgur_api_base": "the Imgur API's base URL",
        "imgur_image_base": "where Imgur's image files are (album covers); <imgur_api_base>/imgur/i when only that is set",
        "colors": "auto, truecolor, 256, 16, 8 or none; or a [colors] table with mode and colours by role",
        "theme": "dark, light or high-contrast",
        "keys": "a [keys] table: intent = \"key …\" (like = \"x\", \"viewer.zoom-in\" = \"+ =\")",
        "graphics": GraphicsMode.spoken(),
        "blitter": "half, quadrant, sextant or blocks (unset: the richest the terminal draws)",
        "link": "auto, fast or slow: how pictures are sized for the link to the terminal",
        "animations": "hover, on, off or safe: whether animations play (off: stills until Space; safe: not one that flashes more than three times a second)",
        "write_collections": "true to ask, at the next login, to add photos to your collections and take them out",
    ]

    /// A graphics setting's value: nil for "auto".
    public static func graphicsSetting(_ text: String, from source: String) throws(ConfigurationError) -> GraphicsMode? {
        let lowered = text.lowercased()
        if lowered == "auto" { return nil }
        guard let mode = GraphicsMode(rawValue: lowered) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of \(GraphicsMode.spoken(last: ", ")).")
        }
        return mode
    }

    /// An animations setting's value.
    public static func animationSetting(_ text: String, from source: String) throws(ConfigurationError) -> AnimationSetting {
        guard let setting = AnimationSetting(rawValue: text.lowercased()) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of \(AnimationSetting.spoken).")
        }
        return setting
    }

    /// A link setting's value.
    public static func linkSetting(_ text: String, from source: String) throws(ConfigurationError) -> LinkSetting {
        guard let setting = LinkSetting(rawValue: text.lowercased()) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of auto, fast, slow.")
        }
        return setting
    }

    /// A blitter setting's value.
    public static func blitterSetting(_ text: String, from source: String) throws(ConfigurationError) -> BlitterKind {
        guard let kind = BlitterKind(rawValue: text.lowercased()) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of half, quadrant, sextant, blocks.")
        }
        return kind
    }

    /// A theme setting's value.
    public static func themeSetting(_ text: String, from source: String) throws(ConfigurationError) -> ThemeName {
        guard let theme = ThemeName(rawValue: text.lowercased()) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of dark, light, high-contrast.")
        }
        return theme
    }

    /// A colour setting's value: nil for "auto".
    static func colorSetting(_ text: String, from source: String) throws(ConfigurationError) -> ColorMode? {
        let lowered = text.lowercased()
        if lowered == "auto" { return nil }
        if lowered == "24bit" { return .truecolor }
        guard let mode = ColorMode(rawValue: lowered) else {
            throw ConfigurationError(message: "\(source): \(text) is not one of auto, truecolor, 256, 16, 8, none.")
        }
        return mode
    }

    /// The most a config file may hold.
    public static let configFileLimit = 1024 * 1024

    /// The config file the settings are read from: `--config`, else `IMAGE_FEED_CONFIG`, else the XDG one.
    static func configFile(environment: [String: String], overrides: Overrides) -> URL {
        (overrides.configFile ?? environment["IMAGE_FEED_CONFIG"]).map { URL(fileURLWithPath: $0) }
            ?? XDGPaths(environment: environment).configFile
    }

    /// The words no log may hold: the keys, the Imgur client id, a token given in the environment.
    var secrets: [String] {
        [accessKey, secretKey, imgurClientID, tokenOverride].compactMap { $0 }
    }

    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment,
                            overrides: Overrides = Overrides()) throws(ConfigurationError) -> Settings {
        let paths = XDGPaths(environment: environment)
        let file = configFile(environment: environment, overrides: overrides)
        var configuration = Settings(downloadsDirectory: paths.pictures, paths: paths, configFile: file)

        if FileManager.default.fileExists(atPath: file.path) {
            // A config file is a few lines: one past the limit (or a device that never ends) is refused.
            let data: Data
            do {
                data = try BoundedFile.read(file, limit: configFileLimit)
            } catch {
                throw ConfigurationError(message: error.message + " A config file has at most \(configFileLimit / 1024) KB.")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ConfigurationError(message: "\(file.path): is not UTF-8 text.")
            }
            try configuration.apply(fileText: text, file: file)
            if let warning = secretKeyExposure(file: file, configuration: configuration) { configuration.warnings.append(warning) }
        }

        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        // Each variable, and the setting of the config file it stands in for.
        func from(_ variable: String, _ key: String) -> String? {
            guard let found = value(variable) else { return nil }
            configuration.origins[key] = "environment \(variable)"
            return found
        }
        if let key = from("UNSPLASH_ACCESS_KEY", "access_key") { configuration.accessKey = key }
        if let key = from("UNSPLASH_SECRET_KEY", "secret_key") { configuration.secretKey = key }
        if let uri = from("UNSPLASH_REDIRECT_URI", "redirect_uri") { configuration.redirectURI = uri }
        if let base = from("IMAGE_FEED_API_BASE", "api_base") { configuration.apiBase = try url(base, from: "IMAGE_FEED_API_BASE") }
        if let base = from("IMAGE_FEED_OAUTH_BASE", "oauth_base") { configuration.oauthBase = try url(base, from: "IMAGE_FEED_OAUTH_BASE") }
        if let token = from("IMAGE_FEED_TOKEN", "token") { configuration.tokenOverride = token }
        if let clientID = from("IMGUR_CLIENT_ID", "imgur_client_id") { configuration.imgurClientID = clientID }
        if let flag = from("IMAGE_FEED_WRITE_COLLECTIONS", "write_collections") {
            guard let value = ["true": true, "1": true, "yes": true, "false": false, "0": false, "no": false][flag.lowercased()] else {
                throw ConfigurationError(message: "IMAGE_FEED_WRITE_COLLECTIONS: \(flag) is not true or false.")
            }
            configuration.writeCollections = value
        }
        if let text = from("IMAGE_FEED_MAX_IMAGE_MEGAPIXELS", "max_image_megapixels") {
            guard let checked = Int(text).flatMap(megapixels) else {
                throw ConfigurationError(message: "IMAGE_FEED_MAX_IMAGE_MEGAPIXELS: \(text) is not a whole number of megapixels from 1 to \(ImageCodec.largestPixelBudget / 1_000_000).")
            }
            configuration.maximumImageMegapixels = checked
        }
        if let base = from("IMGUR_API_BASE", "imgur_api_base") { configuration.imgurAPIBase = try url(base, from: "IMGUR_API_BASE") }
        if let base = from("IMGUR_IMAGE_BASE", "imgur_image_base") { configuration.imgurImageBase = try url(base, from: "IMGUR_IMAGE_BASE") }
        // Another API than Imgur's own (the sandbox) serves the files too, where the sandbox keeps them: the covers that
        // albums name by id only are built there, never on Imgur's real host.
        if configuration.origins["imgur_image_base"] == nil, configuration.imgurAPIBase != ImgurConfiguration.defaultAPIBase {
            configuration.imgurImageBase = configuration.imgurAPIBase.appendingPathComponent("imgur/i")
        }
        if let folder = from("IMAGE_FEED_DOWNLOADS", "downloads_dir") { configuration.downloadsDirectory = expand(folder, environment: environment) }
        if let colors = from("IMAGE_FEED_COLORS", "colors") { configuration.colors = try colorSetting(colors, from: "IMAGE_FEED_COLORS") }
        if let blitter = from("IMAGE_FEED_BLITTER", "blitter") { configuration.blitter = try blitterSetting(blitter, from: "IMAGE_FEED_BLITTER") }
        if let theme = from("IMAGE_FEED_THEME", "theme") { configuration.theme = try themeSetting(theme, from: "IMAGE_FEED_THEME") }
        if let link = from("IMAGE_FEED_LINK", "link") { configuration.link = try linkSetting(link, from: "IMAGE_FEED_LINK") }
        if let animations = from("IMAGE_FEED_ANIMATIONS", "animations") {
            configuration.animations = try animationSetting(animations, from: "IMAGE_FEED_ANIMATIONS")
        }
        if let graphics = from("IMAGE_FEED_GRAPHICS", "graphics") {
            configuration.graphics = try graphicsSetting(graphics, from: "IMAGE_FEED_GRAPHICS")
        }

        if let text = value("IMAGE_FEED_DEMO_FAULTS") {
            do {
                configuration.demoFaults = try text.split(whereSeparator: { $0 == " " || $0 == "," }).map { try FaultRule(parsing: String($0)) }
            } catch {
                throw ConfigurationError(message: "IMAGE_FEED_DEMO_FAULTS: \(error)")
            }
        }
        if let base = overrides.apiBase {
            configuration.apiBase = try url(base, from: "--api-base")
            configuration.origins["api_base"] = "flag --api-base"
        }
        try configuration.unsplash.validate()
        try UnsplashConfiguration.checkTransport(configuration.imgurAPIBase, name: "Imgur API base")
        return configuration
    }

    /// The API client's part of the settings.
    public var unsplash: UnsplashConfiguration {
        UnsplashConfiguration(apiBase: apiBase, oauthBase: oauthBase, accessKey: accessKey, secretKey: secretKey,
                              redirectURI: redirectURI, writeCollections: writeCollections)
    }

    /// A warning when `file` holds the secret key and users other than its owner may read it.
    static func secretKeyExposure(file: URL, configuration: Settings) -> String? {
        guard configuration.origins["secret_key"]?.hasPrefix(file.path + ",") == true,
              let mode = try? FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int,
              mode & 0o077 != 0 else { return nil }
        return "chmod 600 \(file.path): it holds the secret key and other users can read it"
    }

    /// The settings a config file's text gives over the defaults (no environment, no flags);
    /// `file` only names the file in messages.
    public static func parse(fileText text: String, file: URL,
                             environment: [String: String]) throws(ConfigurationError) -> Settings {
        let paths = XDGPaths(environment: environment)
        var configuration = Settings(downloadsDirectory: paths.pictures, paths: paths, configFile: file)
        try configuration.apply(fileText: text, file: file)
        try configuration.unsplash.validate()
        return configuration
    }

    mutating func apply(fileText original: String, file: URL) throws(ConfigurationError) {
        // A byte order mark some editors write is not part of the settings.
        let text = original.hasPrefix("\u{FEFF}") ? String(original.dropFirst()) : original
        try ConfigFileSyntax.check(text, file: file)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(message: "\(file.path), line \(error.source.begin.line): \(error.description).")
        } catch {
            throw ConfigurationError(message: "\(file.path): \(error).")
        }
        for key in table.keys.sorted() {
            let line = Self.line(of: key, in: text)
            let place = "\(file.path), line \(line), key \(key)"
            guard Self.fileKeys[key] != nil else {
                let known = Self.fileKeys.keys.sorted().joined(separator: ", ")
                throw ConfigurationError(message: "\(place): unknown setting. Known settings: \(known).")
            }
            origins[key] = "\(file.path), line \(line)"
            switch key {
            case "keys":
                guard let keyTable = table[key]?.table else {
                    throw ConfigurationError(message: "\(place): expected a [keys] table.")
                }
                // `viewer.like = "x"` (a dotted key: a table in TOML) and `"viewer.like" = "x"` mean the same.
                var entries: [(String, (any TOMLValueConvertible)?)] = []
                for name in keyTable.keys.sorted() {
                    if let inner = keyTable[name]?.table {
                        for sub in inner.keys.sorted() { entries.append(("\(name).\(sub)", inner[sub])) }
                    } else {
                        entries.append((name, keyTable[name]))
                    }
                }
                for (name, item) in entries {
                    let entry = "\(file.path), line \(Self.line(of: name, in: text)), key keys.\(name)"
                    guard let value = item?.string else {
                        throw ConfigurationError(message: "\(entry): expected the keys in quotes (\"x\", \"Ctrl-E\", \"Space\").")
                    }
                    do {
                        try keyMap.bind(name, to: value)
                    } catch {
                        throw ConfigurationError(message: "\(entry): \(error.message)")
                    }
                }
                do {
                    try keyMap.checkConflicts()
                } catch {
                    // The entry as the user wrote it: "viewer.like", or "like" for every context.
                    let intent = error.entry.split(separator: ".").last.map(String.init) ?? error.entry
                    let written = entries.first { $0.0 == error.entry }?.0 ?? entries.first { $0.0 == intent }?.0 ?? error.entry
                    throw ConfigurationError(message: "\(file.path), line \(Self.line(of: written, in: text)), key keys.\(written): \(error.message)")
                }
                continue
            case "colors" where table[key]?.table != nil:
                try applyColorTable(table[key]!.table!, text: text, file: file)
                continue
            case "cache_max_age_days":
                guard let days = table[key]?.double ?? table[key]?.int.map(Double.init), days > 0 else {
                    throw ConfigurationError(message: "\(place): expected a number of days above 0.")
                }
                cacheMaximumAgeDays = days
                continue
            case "write_collections":
                guard let flag = table[key]?.bool else { throw ConfigurationError(message: "\(place): expected true or false.") }
                writeCollections = flag
                continue
            case "max_image_megapixels":
                guard let megapixels = table[key]?.int, let checked = Self.megapixels(megapixels) else {
                    throw ConfigurationError(message: "\(place): expected a whole number of megapixels from 1 to \(ImageCodec.largestPixelBudget / 1_000_000).")
                }
                maximumImageMegapixels = checked
                continue
            case "image_cache_mb":
                guard let megabytes = table[key]?.int, megabytes >= 0 else {
                    throw ConfigurationError(message: "\(place): expected a whole number of megabytes.")
                }
                imageCacheMegabytes = megabytes
                continue
            default:
                break
            }
            guard let string = table[key]?.string else {
                throw ConfigurationError(message: "\(place): expected a string in quotes (\(Self.fileKeys[key]!)).")
            }
            switch key {
            case "access_key": accessKey = string
            case "secret_key": secretKey = string
            case "redirect_uri": redirectURI = string
            case "api_base": apiBase = try Self.url(string, from: place)
            case "oauth_base": oauthBase = try Self.url(string, from: place)
            case "imgur_client_id": imgurClientID = string
            case "imgur_api_base": imgurAPIBase = try Self.url(string, from: place)
            case "imgur_image_base": imgurImageBase = try Self.url(string, from: place)
            case "downloads_dir": downloadsDirectory = Self.expand(string, environment: ProcessInfo.processInfo.environment)
            case "colors": colors = try Self.colorSetting(string, from: place)
            case "graphics": graphics = try Self.graphicsSetting(string, from: place)
            case "blitter": blitter = try Self.blitterSetting(string, from: place)
            case "link": link = try Self.linkSetting(string, from: place)
            case "animations": animations = try Self.animationSetting(string, from: place)
            case "theme": theme = try Self.themeSetting(string, from: place)
            default: break
            }
        }
    }

    /// `[colors]`: `mode` (as `colors = "…"`), and a colour ("#RRGGBB" or 0–255) for any of the theme's roles.
    mutating func applyColorTable(_ colorTable: TOMLTable, text: String, file: URL) throws(ConfigurationError) {
        let roles = ThemeRole.allCases.map(\.rawValue)
        for key in colorTable.keys.sorted() {
            let place = "\(file.path), line \(Self.line(of: key, in: text)), key colors.\(key)"
            guard let value = colorTable[key]?.string ?? colorTable[key]?.int.map(String.init) else {
                throw ConfigurationError(message: "\(place): expected a string in quotes.")
            }
            if key == "mode" {
                colors = try Self.colorSetting(value, from: place)
                continue
            }
            guard let role = ThemeRole(rawValue: key) else {
                throw ConfigurationError(message: "\(place): unknown colour. Known: mode, \(roles.joined(separator: ", ")).")
            }
            guard let color = ThemeColor(value) else {
                throw ConfigurationError(message: "\(place): \(value) is not a colour: \"#RRGGBB\" or a palette number 0-255.")
            }
            themeColors[role] = color
        }
    }

    /// A pixel budget in megapixels, if it is one the decoders can keep.
    public static func megapixels(_ value: Int) -> Int? {
        (1...ImageCodec.largestPixelBudget / 1_000_000).contains(value) ? value : nil
    }

    /// The 1-based line where a top-level key is set; 1 when it cannot be found.
    static func line(of key: String, in text: String) -> Int {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("["), trimmed.dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix(key + "]") { return index + 1 }
            for spelling in [key, "\"\(key)\"", "'\(key)'"] where trimmed.hasPrefix(spelling) {
                let rest = trimmed.dropFirst(spelling.count).trimmingCharacters(in: .whitespaces)
                if rest.hasPrefix("=") { return index + 1 }
            }
        }
        return 1
    }

    static func url(_ text: String, from source: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
            throw ConfigurationError(message: "\(source): \(text) is not a URL.")
        }
        return url
    }

    static func expand(_ path: String, environment: [String: String]) -> URL {
        if path == "~" || path.hasPrefix("~/") {
            let home = environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home + path.dropFirst())
        }
        return URL(fileURLWithPath: path)
    }
}
