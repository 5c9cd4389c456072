import Foundation
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox

/// The composition root: real adapters wired into the ports, once, for the whole run.
public final class AppContext: Sendable {
    public let configuration: AppConfiguration
    public let client: UnsplashClient
    public let oauth: OAuthClient
    /// Where the token lives; nil when `IMAGE_FEED_TOKEN` supplies it or in the demo (nothing is stored).
    public let tokenStore: FileTokenStore?
    /// The in-process sandbox of `--demo`.
    public let sandbox: RunningSandbox?
    public let http: any HTTPClient

    init(configuration: AppConfiguration, client: UnsplashClient, oauth: OAuthClient, tokenStore: FileTokenStore?,
         sandbox: RunningSandbox?, http: any HTTPClient) {
        self.configuration = configuration
        self.client = client
        self.oauth = oauth
        self.tokenStore = tokenStore
        self.sandbox = sandbox
        self.http = http
    }

    /// Builds the app on the configured service, or with `demo`, on a sandbox started in this process
    /// on a free loopback port with the demo application's keys.
    public static func make(configuration: AppConfiguration, demo: Bool) async throws -> AppContext {
        var configuration = configuration
        var sandbox: RunningSandbox?
        if demo {
            // The authorize page asks, as Unsplash's does; the demo's login presses its button.
            let server = try SandboxServer(settings: SandboxSettings(autoApprove: false))
            let running = try await RunningSandbox.start(server)
            configuration.apiBase = running.baseURL
            configuration.oauthBase = running.baseURL
            configuration.accessKey = SandboxSettings.demoAccessKey
            configuration.secretKey = SandboxSettings.demoSecretKey
            configuration.tokenOverride = nil
            sandbox = running
        }
        let http = URLSessionHTTPClient(followRedirects: false)
        let store = demo || configuration.tokenOverride != nil ? nil : FileTokenStore(file: configuration.paths.tokenFile)
        let token = configuration.tokenOverride ?? (try? store?.loadToken()) ?? nil
        let client = UnsplashClient(configuration: configuration.unsplash, http: http, token: token)
        let oauth = OAuthClient(configuration: configuration.unsplash, http: http)
        return AppContext(configuration: configuration, client: client, oauth: oauth, tokenStore: store,
                          sandbox: sandbox, http: http)
    }

    public var isDemo: Bool { sandbox != nil }

    /// The demo's login for the JSON commands: the same OAuth client code as a real login, against the
    /// sandbox, with the authorize page's Login button pressed by `DemoBrowser`.
    public func logInToDemo() async throws(OAuthError) {
        let state = OAuthClient.makeState()
        let authorize = try oauth.authorizeURL(state: state)
        let location = try await DemoBrowser.approve(authorize, http: http)
        let code = try OAuthClient.code(fromRedirect: location, expectedState: state)
        let token = try await oauth.exchange(code: code)
        client.setToken(token.accessToken)
    }

    public func stop() async {
        await sandbox?.stop()
    }
}
