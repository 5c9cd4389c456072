import Foundation
import ImageFeedCore
import ImgurAPI
import LocalStore
import TerminalImage
import UnsplashAPI
import UnsplashSandbox

/// The composition root: real adapters wired into the ports, once, for the whole run.
public final class CompositionRoot: Sendable {
    public let configuration: Settings
    public let client: UnsplashClient
    public let oauth: OAuthClient
    /// Where the token lives; nil when `IMAGE_FEED_TOKEN` supplies it or in the demo (nothing is stored).
    public let tokenStore: FileTokenStore?
    /// The in-process sandbox of `--demo`.
    public let sandbox: RunningSandbox?
    public let http: any HTTPClient
    /// The offline store and the image cache, under `$XDG_CACHE_HOME/image-feed/`; nil when the folder
    /// cannot be used (the app then runs without them).
    public let store: SQLiteStore?
    public let imageCache: DiskImageCache?
    /// Imgur's albums, when a client id is configured (or the demo's sandbox serves them).
    public let albums: (any AlbumService)?
    /// The demo's likes and collection changes, kept beside its token across runs.
    let demoMemory: DemoMemory?
    /// Tells Unsplash of the photos shown from the image cache; none for the demo.
    let viewBeacon: ViewBeacon?

    init(configuration: Settings, client: UnsplashClient, oauth: OAuthClient, tokenStore: FileTokenStore?,
         sandbox: RunningSandbox?, http: any HTTPClient, store: SQLiteStore? = nil, imageCache: DiskImageCache? = nil,
         albums: (any AlbumService)? = nil, demoMemory: DemoMemory? = nil) {
        self.demoMemory = demoMemory
        self.albums = albums
        self.store = store
        self.imageCache = imageCache
        self.configuration = configuration
        self.client = client
        self.oauth = oauth
        self.tokenStore = tokenStore
        self.sandbox = sandbox
        self.http = http
        viewBeacon = sandbox == nil ? ViewBeacon(http: http) : nil
    }

    /// Builds the app on the configured service, or with `demo`, on a sandbox started in this process
    /// on a free loopback port with the demo application's keys.
    /// `store`: false leaves the offline store and the image cache unopened (and so uncreated): `doctor` only looks.
    public static func make(configuration: Settings, demo: Bool, store opensStore: Bool = true) async throws -> CompositionRoot {
        var configuration = configuration
        // The decoders' pixel budget is the process's: every picture decoded from here on keeps to it.
        ImageCodec.pixelBudget = configuration.maximumImageMegapixels * 1_000_000
        var sandbox: RunningSandbox?
        if demo {
            // The authorize page asks, as Unsplash's does; the demo's login presses its button.
            let server = try SandboxServer(settings: SandboxSettings(autoApprove: false, faults: configuration.demoFaults))
            let running = try await RunningSandbox.start(server)
            configuration.apiBase = running.baseURL
            configuration.oauthBase = running.baseURL
            configuration.accessKey = SandboxSettings.demoAccessKey
            configuration.secretKey = SandboxSettings.demoSecretKey
            configuration.tokenOverride = nil
            configuration.imgurAPIBase = running.baseURL
            configuration.imgurImageBase = running.baseURL.appendingPathComponent("imgur/i")
            configuration.imgurPageBase = running.baseURL.appendingPathComponent("imgur")
            configuration.imgurClientID = SandboxSettings.demoImgurClientID
            sandbox = running
        }
        // Every request and its answer's status and time go to the log (never headers or bodies).
        let http = LoggingHTTPClient(CurlHTTPClient(followRedirects: false))
        // The demo keeps its own token (owner-only, as the real one), so its login is remembered too.
        let store = configuration.tokenOverride != nil ? nil
            : FileTokenStore(file: demo ? configuration.paths.demoTokenFile : configuration.paths.tokenFile)
        var storedToken: String?
        do {
            storedToken = try store?.loadToken()
        } catch {
            // Not a file to trust (a symlink, another user's): the app runs logged out and says why.
            configuration.warnings.append(String(describing: error))
        }
        let token = configuration.tokenOverride ?? storedToken
        Logs.addSecrets(configuration.secrets + [token].compactMap { $0 })
        if demo, let token, let sandbox {
            sandbox.server.state.adoptToken(token, username: sandbox.server.catalog.demoUsername,
                                            scope: OAuthClient(configuration: configuration.unsplash, http: http).scope)
        }
        // What the user did in the demo (likes, collections) is kept beside its token, as the login is.
        let demoMemory = sandbox.map { DemoMemory(file: configuration.paths.demoMemoryFile, state: $0.server.state) }
        if let warning = demoMemory?.start() { configuration.warnings.append(warning) }
        let client = UnsplashClient(configuration: configuration.unsplash, http: http, token: token)
        let oauth = OAuthClient(configuration: configuration.unsplash, http: http)
        // The demo keeps its own cache, so its photos never stand in for the real service's.
        let cacheFolder = demo ? configuration.paths.cache.appendingPathComponent("demo") : configuration.paths.cache
        var local: SQLiteStore?
        if opensStore { do {
            local = try SQLiteStore(file: cacheFolder.appendingPathComponent("store.sqlite"))
            if let local { configuration.warnings += CacheCommands.notes(local) }
        } catch {
            // Held by another copy past the wait, or unusable: the session goes on without it, and says so.
            configuration.warnings.append(String(describing: error))
        } }
        let images = local.flatMap {
            try? DiskImageCache(folder: cacheFolder.appendingPathComponent("images"), store: $0,
                                budget: configuration.imageCacheMegabytes * 1024 * 1024)
        }
        let albums = configuration.imgurClientID.flatMap { clientID in
            clientID.isEmpty ? nil : ImgurRepository(configuration: ImgurConfiguration(
                apiBase: configuration.imgurAPIBase, imageBase: configuration.imgurImageBase,
                pageBase: configuration.imgurPageBase, clientID: clientID), http: http)
        }
        return CompositionRoot(configuration: configuration, client: client, oauth: oauth, tokenStore: store,
                          sandbox: sandbox, http: http, store: local, imageCache: images, albums: albums, demoMemory: demoMemory)
    }

    /// The cache's use cases over the store, with the configured max age.
    public var savedLists: SavedLists? {
        store.map { SavedLists(cache: $0, policy: CachePolicy(maximumAge: configuration.cacheMaximumAgeDays * 24 * 3600)) }
    }

    /// Where photos come from: the image cache first, then the network.
    public var imageSource: any ImageSource {
        let network = HTTPImageSource(http: http)
        guard let imageCache else { return network }
        var told: (@Sendable (String, URL) -> Void)?
        if let beacon = viewBeacon {
            told = { photoID, url in beacon.served(photoID: photoID, url: url) }
        }
        return CachingImageSource(upstream: network, cache: imageCache, freshSince: imageCacheFreshSince, servedFromCache: told)
    }

    public var isDemo: Bool { sandbox != nil }

    /// Where the feed's topic is kept between runs (the demo keeps its own).
    public var feedTopicFile: URL {
        configuration.paths.state.appendingPathComponent(isDemo ? "demo-feed-topic.json" : "feed-topic.json")
    }

    /// Kept images from before this are fetched again when online (Unsplash counts views as its servers send
    /// images): the start of the day the program started.
    public let imageCacheFreshSince = CachingImageSource.startOfDay()

    /// The demo's login for the JSON commands: the same OAuth client code as a real login, against the
    /// sandbox, with the authorize page's Login button pressed by `DemoBrowser`.
    @discardableResult
    public func logInToDemo() async throws(OAuthError) -> String {
        let state = OAuthClient.makeState()
        let authorize = try oauth.authorizeURL(state: state)
        let location = try await DemoBrowser.approve(authorize, http: http)
        let code = try OAuthClient.code(fromRedirect: location, expectedState: state)
        let token = try await oauth.exchange(code: code)
        Logs.addSecrets([token.accessToken])
        client.setToken(token.accessToken)
        return token.accessToken
    }

    public func stop() async {
        await sandbox?.stop()
    }
}
