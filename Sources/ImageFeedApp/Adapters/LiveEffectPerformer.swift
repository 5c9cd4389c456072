import Foundation
import ImageFeedCore
import LocalStore
import TerminalUI
import UnsplashAPI

/// Performs the app's effects with the real adapters: the API client, OAuth and the loopback listener,
/// the token store, the downloader, the browser.
public final class LiveEffectPerformer: EffectPerformer, @unchecked Sendable {
    /// The photo service and the session with it (the Unsplash client, or a stand-in).
    let client: any PhotoService & ServiceSession
    let downloader: PhotoDownloader
    let opener: any URLOpener
    let oauth: OAuthClient?
    let tokenStore: (any TokenStore)?
    let historyStore: (any RecentEntriesStore)?
    /// The album source (Imgur); nil when none is configured.
    let albums: (any AlbumService)?
    /// The Imgur usernames looked up before (the same kind of small list as the search history).
    let albumsRecentStore: (any RecentEntriesStore)?
    /// The offline store; nil runs without one.
    let saved: SavedLists?
    let redirectURI: String
    /// How long a login waits for the browser.
    let loginTimeout: TimeInterval
    /// A short pause on the splash when there is no token to check, so the logo is seen.
    let splashPause: TimeInterval
    /// Where the search's sort order is kept between runs (nil: not kept).
    let searchOrderFile: URL?
    /// Unsplash's routes for exploring (photographers, topics, collections); nil where the service has none.
    let explore: (any ExploreService)?
    /// Where the feed's topic is kept between runs (nil: not kept).
    let feedTopicFile: URL?
    private let lock = NSLock()
    /// Said once a session: the offline store could not keep what was shown (a full disk). Waits here until the
    /// effect's own events have gone, so that it comes after the page's notice, not under it.
    private var storeProblemReported = false
    private var pendingStoreProblem: String?

    private func storeProblem(_ error: any Error) {
        lock.withLock {
            guard !storeProblemReported else { return }
            storeProblemReported = true
            pendingStoreProblem = "The offline store cannot keep what is shown (\(SQLiteStore.reason(error))): it will not be there offline. ImageFeed goes on."
        }
    }
    private var listener: LoopbackRedirectListener?
    /// The demo's likes kept beside its token: logging out forgets them with it.
    let demoMemory: DemoMemory?

    public init(client: any PhotoService & ServiceSession, downloader: PhotoDownloader, opener: any URLOpener, oauth: OAuthClient? = nil,
                tokenStore: (any TokenStore)? = nil, historyStore: (any RecentEntriesStore)? = nil,
                saved: SavedLists? = nil, redirectURI: String = Settings.defaultRedirectURI,
                loginTimeout: TimeInterval = 600, splashPause: TimeInterval = 0.6, albums: (any AlbumService)? = nil,
                albumsRecentStore: (any RecentEntriesStore)? = nil, searchOrderFile: URL? = nil,
                explore: (any ExploreService)? = nil, feedTopicFile: URL? = nil, demoMemory: DemoMemory? = nil) {
        self.demoMemory = demoMemory
        self.searchOrderFile = searchOrderFile
        self.explore = explore
        self.feedTopicFile = feedTopicFile
        self.historyStore = historyStore
        self.albums = albums
        self.albumsRecentStore = albumsRecentStore
        self.saved = saved
        self.client = client
        self.downloader = downloader
        self.opener = opener
        self.oauth = oauth
        self.tokenStore = tokenStore
        self.redirectURI = redirectURI
        self.loginTimeout = loginTimeout
        self.splashPause = splashPause
    }

    /// Everything the app context provides.
    /// - Parameter savedLists: false leaves the offline store's lists out (after a start that crashed early).
    public convenience init(context: CompositionRoot, opener: any URLOpener, savedLists: Bool = true) {
        self.init(client: context.client,
                  downloader: PhotoDownloader(folder: context.configuration.downloadsDirectory, client: context.client),
                  opener: opener, oauth: context.oauth, tokenStore: context.tokenStore,
                  historyStore: FileRecentEntriesStore(file: context.isDemo
                      ? context.configuration.paths.state.appendingPathComponent("demo-search-history.json")
                      : context.configuration.paths.searchHistoryFile),
                  saved: savedLists ? context.savedLists : nil, redirectURI: context.configuration.redirectURI,
                  albums: context.albums,
                  albumsRecentStore: FileRecentEntriesStore(file: context.isDemo
                      ? context.configuration.paths.state.appendingPathComponent("demo-imgur-users.json")
                      : context.configuration.paths.imgurUsersFile),
                  searchOrderFile: context.configuration.paths.state
                      .appendingPathComponent(context.isDemo ? "demo-search-order" : "search-order"),
                  explore: context.client, feedTopicFile: context.feedTopicFile, demoMemory: context.demoMemory)
    }

    deinit {
        listener?.stop()
    }

    public func perform(_ effect: AppViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [AppViewModel.Event] {
        var events: [AppViewModel.Event]
        switch effect {
        case .checkSession:
            if client.isLoggedIn {
                // Into the app at once; the profile request that follows checks the token.
                events = [.sessionStored]
            } else {
                try? await Task.sleep(nanoseconds: UInt64(splashPause * 1e9))
                events = [.sessionChecked(nil)]
            }
        case .loadSavedFeed:
            if let list = saved?.load(.feed), !list.photos.isEmpty {
                events = [.feed(.showSaved(photos: list.photos, savedAt: list.timestamp))]
            } else {
                events = []
            }
        case let .login(loginEffect):
            events = await performLogin(loginEffect, post: post).map(AppViewModel.Event.login)
        case let .feed(listEffect):
            events = await performList(listEffect, saving: .feed) { [client] page, perPage throws(ServiceError) in
                try await client.feed(page: page, perPage: perPage)
            }.map(AppViewModel.Event.feed)
        case let .favorites(username, listEffect):
            events = await performList(listEffect, saving: .favorites) { [client] page, perPage throws(ServiceError) in
                try await client.likes(username: username, page: page, perPage: perPage)
            }.map(AppViewModel.Event.favorites)
        case .profile(.loadProfile):
            do {
                let profile = try await client.me()
                saved?.saveProfile(profile)
                events = [.profile(.loaded(.success(profile)))]
            } catch {
                if error.isConnectivity, let profile = saved?.loadProfile() {
                    events = [.profile(.loaded(.success(profile)))]
                } else {
                    events = [.profile(.loaded(.failure(error)))]
                }
            }
        case let .viewer(viewerEffect):
            events = await performViewer(viewerEffect) { post(.viewer($0)) }.map(AppViewModel.Event.viewer)
        case .loadAlbumsRecent:
            events = [.albums(.recentLoaded((try? albumsRecentStore?.loadHistory()) ?? []))]
        case let .albums(albumsEffect):
            events = await performAlbums(albumsEffect).map(AppViewModel.Event.albums) + [.albumCredits(albums?.credits)]
        case let .explore(browseEffect):
            events = await performBrowse(browseEffect).map(AppViewModel.Event.explore)
        case .loadSearchHistory:
            events = [.search(.historyLoaded((try? historyStore?.loadHistory()) ?? []))]
            if let file = searchOrderFile, let text = try? String(contentsOf: file, encoding: .utf8),
               let order = SearchOrder(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                events.append(.search(.orderLoaded(order)))
            }
        case let .search(.saveOrder(order)):
            if let file = searchOrderFile { Self.keep(Data(order.rawValue.utf8), in: file) }
            events = []
        case let .search(.saveHistory(queries)):
            try? historyStore?.saveHistory(queries)
            events = []
        case let .search(.findPeople(query, page)):
            events = [.search(.peopleFound(query: query, page: page, await answer { () async throws(ServiceError) in
                try await self.exploreService().searchUsers(query: query, page: page, perPage: maximumPageSize)
            }))]
        case let .search(.findCollections(query, page)):
            events = [.search(.collectionsFound(query: query, page: page, await answer { () async throws(ServiceError) in
                try await self.exploreService().searchCollections(query: query, page: page, perPage: maximumPageSize)
            }))]
        case let .search(.results(query, order, filters, listEffect)):
            events = await performList(listEffect, saving: .search, note: query + (filters.isEmpty ? "" : " (\(filters.summary))")) {
                [client] page, perPage throws(ServiceError) in
                try await client.search(query: query, page: page, perPage: perPage, order: order, filters: filters)
            }.map { AppViewModel.Event.search(.answer(query: query, order: order, filters: filters, $0)) }
        case let .detail(.load(photoID)):
            events = [.detail(.loaded(await answer { () async throws(ServiceError) in try await self.client.photo(id: photoID) }))]
        case let .detail(.viewer(viewerEffect)):
            events = await performViewer(viewerEffect) { post(.detail(.viewer($0))) }.map { AppViewModel.Event.detail(.viewer($0)) }
        case .forgetSession:
            // The token goes; what is saved stays for after the next login.
            client.setToken(nil)
            try? tokenStore?.removeToken()
            stopListening()
            events = []
        case .logOut:
            client.setToken(nil)
            try? tokenStore?.removeToken()
            demoMemory?.forget()
            try? saved?.cache.deleteUserData()
            stopListening()
            events = []
        case let .expireNotice(serial, seconds):
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return [.noticeExpired(serial: serial)]
        case let .endRateLimit(time):
            let wait = min(2 * 3600, max(0, time.timeIntervalSinceNow))
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
            return [.rateLimitPassed(time)]
        }
        let storeNotice = lock.withLock { () -> String? in
            defer { pendingStoreProblem = nil }
            return pendingStoreProblem
        } ?? demoMemory?.unsaidProblem()
        return events + [.rateLimit(client.rateLimit)] + (storeNotice.map { [.notify($0)] } ?? [])
    }

    /// Keeps a small state file for the next run, in the owner-only state folder, written whole.
    static func keep(_ data: Data, in file: URL) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // Written owner-only (0600, as the folder's other files) beside it, then renamed over it: a reader never sees
        // half a file, and a symlink there is replaced rather than followed.
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        try? FileManager.default.removeItem(at: temporary)
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary.path, file.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    }

    /// A service call's outcome, as the events carry it.
    func answer<Value>(_ call: () async throws(ServiceError) -> Value) async -> Result<Value, ServiceError> {
        do {
            return .success(try await call())
        } catch {
            return .failure(error)
        }
    }

    /// Likes or unlikes a photo: the one path for every list, the viewer and the detail screen.
    private func like(_ liked: Bool, photoID: String) async -> Result<Photo, ServiceError> {
        let result = await answer { () async throws(ServiceError) in try await client.setLike(liked, photoID: photoID) }
        // The answer was lost on its way back (the connection dropped, the time ran out): the service may have applied
        // the like all the same. The photo's own state, read again, decides; only if that cannot be read either is it
        // a failure.
        if case let .failure(error) = result, error.isConnectivity,
           let photo = try? await client.photo(id: photoID), photo.likedByUser == liked {
            return .success(photo)
        }
        return result
    }

    /// A list's effect (any list of photos: the feed, the favorites, search results): its pages come from
    /// `fetch`, its likes from the one like path.
    func performList(_ effect: PhotoListViewModel.Effect, saving name: CachedListName, note: String? = nil,
                             _ fetch: @escaping @Sendable (_ page: Int, _ perPage: Int) async throws(ServiceError) -> Page<Photo>)
        async -> [PhotoListViewModel.Event] {
        switch effect {
        case let .loadPage(page, perPage):
            return await loadPage(page, perPage: perPage, saving: name, note: note) { () async throws(ServiceError) in
                try await fetch(page, perPage)
            }
        case let .setLike(photoID, liked):
            return [.likeFinished(photoID: photoID, liked: liked, await like(liked, photoID: photoID))]
        }
    }

    /// A page from the service, saved for offline use; when the service cannot be reached, page 1 comes
    /// from the offline store if it has a young enough copy (with the time it was saved).
    private func loadPage(_ page: Int, perPage: Int, saving name: CachedListName, note: String? = nil,
                          _ fetch: @escaping @Sendable () async throws(ServiceError) -> Page<Photo>) async -> [PhotoListViewModel.Event] {
        do {
            let loaded = try await fetch()
            if let problem = saved?.save(loaded, as: name, note: note) { storeProblem(problem) }
            return [.pageLoaded(page: page, .success(loaded))]
        } catch {
            if page == 1, error.isConnectivity, let list = saved?.load(name, note: note) {
                return [.pageLoaded(page: 1, .success(SavedLists.page(list, perPage: perPage))), .servedFromSaved(list.timestamp)]
            }
            return [.pageLoaded(page: page, .failure(error))]
        }
    }

    /// A path as the user reads it: the home folder as `~` (as shells and file managers show it).
    static func shown(path: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> String {
        guard let home, home.count > 1 else { return path }
        let base = home.hasSuffix("/") ? String(home.dropLast()) : home
        return path.hasPrefix(base + "/") ? "~" + path.dropFirst(base.count) : path
    }

    /// The viewer's effects (also the search detail's): like, share, download.
    private func performViewer(_ effect: ViewerViewModel.Effect, post: @escaping @Sendable (ViewerViewModel.Event) -> Void) async -> [ViewerViewModel.Event] {
        switch effect {
        case let .setLike(photoID, liked):
            return [.likeFinished(liked: liked, await like(liked, photoID: photoID))]
        case let .share(url):
            return [.shared(opened: await opener.open(url))]
        case let .download(photo, tracked):
            do {
                let saved = try await downloader.save(photo, tracked: tracked) { post(.downloadProgress(photoID: photo.id, $0)) }
                return [.downloadFinished(photoID: photo.id, .success(Self.shown(path: saved.path)), replaced: saved.replaced)]
            } catch {
                return [.downloadFinished(photoID: photo.id, .failure(error))]
            }
        case .reloadImage:
            return []
        }
    }

    // MARK: Login

    private func performLogin(_ effect: LoginViewModel.Effect, post: @escaping @Sendable (AppViewModel.Event) -> Void) async -> [LoginViewModel.Event] {
        switch effect {
        case .prepare:
            guard let oauth else { return [.prepared(.failure(.notConfigured("Logging in is not available in this build.")))] }
            let state = OAuthClient.makeState()
            let url: URL
            do {
                url = try oauth.authorizeURL(state: state)
            } catch {
                return [.prepared(.failure(Self.loginFailure(error)))]
            }
            var problem: String?
            do {
                let listener = try LoopbackRedirectListener(redirectURI: redirectURI, expectedState: state)
                lock.withLock {
                    self.listener?.stop()
                    self.listener = listener
                }
                listener.start(timeout: loginTimeout) { outcome in
                    switch outcome {
                    case let .redirect(address): post(.login(.redirectReceived(address)))
                    case .timedOut: post(.login(.timedOut))
                    case .stopped: break
                    }
                }
            } catch {
                problem = error.description
            }
            return [.prepared(.success(LoginRequest(authorizeURL: url, state: state, listenerProblem: problem)))]
        case .stopListening:
            stopListening()
            return []
        case let .exchange(code):
            guard let oauth else { return [.exchangeFinished(.failure(.notConfigured("Logging in is not available in this build.")))] }
            do {
                let token = try await oauth.exchange(code: code)
                Logs.addSecrets([token.accessToken])
                do {
                    try tokenStore?.saveToken(token.accessToken)
                } catch {
                    // The login itself worked: it holds for this session, and the user is told it is not kept.
                    post(.notify("Logged in for this session only: \(error). The next start asks again."))
                }
                client.setToken(token.accessToken)
                let profile = try? await client.me()
                return [.exchangeFinished(.success(profile))]
            } catch {
                return [.exchangeFinished(.failure(Self.loginFailure(error)))]
            }
        case .copy:
            // The clipboard escape goes out on the terminal thread (the run loop does it).
            return []
        case let .open(url):
            return [.opened(await opener.open(url))]
        case let .approveInDemo(url):
            do {
                let location = try await DemoBrowser.approve(url, http: DemoBrowserTransport.http)
                let listening = lock.withLock { listener != nil }
                if listening, let callback = URL(string: location) {
                    // Like a browser: follow the redirect to the loopback listener, which reports it.
                    _ = try? await DemoBrowserTransport.send(HTTPRequest(url: callback))
                    return []
                }
                return [.redirectReceived(location)]
            } catch {
                return [.failed(Self.loginFailure(error))]
            }
        }
    }

    private func stopListening() {
        let current = lock.withLock { () -> LoopbackRedirectListener? in
            defer { listener = nil }
            return listener
        }
        current?.stop()
    }

    static func loginFailure(_ error: OAuthError) -> LoginFailure {
        switch error {
        case let .notConfigured(detail): .notConfigured(detail)
        case let .denied(reason): .denied(reason: reason)
        case .stateMismatch: .stateMismatch
        case .missingCode: .missingCode
        case let .tokenRefused(detail): .refused(detail)
        case let .service(error): .service(error)
        }
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
