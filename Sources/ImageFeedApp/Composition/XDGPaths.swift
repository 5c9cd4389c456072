import Foundation

/// Where ImageFeed keeps its files, by the XDG base-directory rules.
public struct XDGPaths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/image-feed` (default `~/.config/image-feed`): config.toml.
    public var config: URL
    /// `$XDG_STATE_HOME/image-feed` (default `~/.local/state/image-feed`): the token.
    public var state: URL
    /// `$XDG_CACHE_HOME/image-feed` (default `~/.cache/image-feed`): the feed and image caches.
    public var cache: URL
    /// `$XDG_PICTURES_DIR` or `~/Pictures`, then `image-feed`: downloads.
    public var pictures: URL

    public init(environment: [String: String]) {
        let home = URL(fileURLWithPath: environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory())
        func base(_ variable: String, _ fallback: String) -> URL {
            // The spec says relative paths are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        config = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("image-feed")
        state = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("image-feed")
        cache = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("image-feed")
        pictures = base("XDG_PICTURES_DIR", "Pictures").appendingPathComponent("image-feed")
    }

    public var configFile: URL { config.appendingPathComponent("config.toml") }
    public var tokenFile: URL { state.appendingPathComponent("token") }
    /// The demo's login, kept apart from the real one.
    public var demoTokenFile: URL { state.appendingPathComponent("demo-token") }
    /// The demo's likes and collection changes, beside its token.
    public var demoMemoryFile: URL { state.appendingPathComponent("demo-likes.json") }
    public var searchHistoryFile: URL { state.appendingPathComponent("search-history.json") }
    /// The Imgur usernames looked up in the Albums tab.
    public var imgurUsersFile: URL { state.appendingPathComponent("imgur-users.json") }
    /// The log (`image-feed.log`, and the one before it as `image-feed.log.1`).
    public var logFile: URL { state.appendingPathComponent("image-feed.log") }
}
