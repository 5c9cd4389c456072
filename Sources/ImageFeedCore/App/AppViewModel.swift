import Foundation

/// The panes of the app.
public enum Tab: Int, CaseIterable, Sendable {
    case feed
    case search
    case profile
    /// Imgur albums: shown when an Imgur client id is configured, or in the demo.
    case albums

    public var title: String {
        switch self {
        case .feed: "Feed"
        case .search: "Search"
        case .profile: "Profile"
        case .albums: "Albums"
        }
    }
}

/// Whether the service answered lately.
public enum Connection: Equatable, Sendable {
    case unknown
    case online
    case offline(String)
    /// The service answers, but with errors (5xx, unreadable answers, the quota used up).
    case failing(String)
}

/// A line in the status bar about what a key just did: a failure the user must see where they are looking,
/// or news ("Reloaded"). It goes after a few seconds, or with the next notice.
public struct StatusNotice: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case info
        case error
    }

    public var text: String
    public var kind: Kind
    /// Tells notices apart, so that the timer of an old one does not clear a newer one.
    public var serial: Int

    public init(_ text: String, kind: Kind, serial: Int) {
        self.text = text
        self.kind = kind
        self.serial = serial
    }

    /// How long a notice stays, in seconds.
    public static let lifetime: Double = 6
}

/// A paged list a screen shows: the frame drawn says how far into it the user has come (`listShown`).
public enum ShownList: Equatable, Sendable {
    case feed
    case favorites
    case search
    /// The Albums pane's album tiles.
    case albums
    /// The page on top (a photographer's, a collection's, the topics).
    case page

    /// The paged list a viewer's photos come from (an album's come whole: none).
    public init?(_ source: ViewerState.Source) {
        switch source {
        case .feed: self = .feed
        case .favorites: self = .favorites
        case .search: self = .search
        case .page: self = .page
        case .album: return nil
        }
    }
}

/// Where the user is: the splash while a stored token is checked, the login screen, or the app.
public enum Session: Equatable, Sendable {
    case splash
    case loggedOut
    case loggedIn
}

/// The whole app's state: the session and login, the tabs and their panes, the viewer over them, the help overlay.
public struct AppState: Equatable, Sendable {
    public var session: Session
    public var login = LoginState()
    public var tab: Tab = .feed
    public var feed: PhotoListState
    public var profile = ProfileState()
    /// The photos the user liked, under the profile.
    public var favorites = PhotoListState()
    public var search = SearchState()
    public var viewer: ViewerState?
    /// The detail screen of a photo, over the pane of the list it came from.
    public var detail: PhotoDetail?
    public var helpVisible = false
    public var quitting = false
    public var connection: Connection = .unknown
    public var rateLimit: RateLimit?
    /// A request said the session ended: the login screen shows "Your session has expired" until OK.
    public var sessionExpiredNotice = false
    /// Running on the demo sandbox (the login screen offers to play the browser's part).
    public var isDemo = false
    /// Why logging in cannot work as configured (no access key): the first screen says so, and what to do.
    public var setupProblem: String?
    /// An album source (Imgur) is configured: the Albums tab shows.
    public var albumsEnabled = false
    public var albums = AlbumsState()
    /// Pages opened over a pane (a photographer's, a collection's, the topics).
    public var browse: Browse?
    /// The topic the feed pane shows instead of the editorial feed (kept across runs).
    public var feedTopic: Topic?
    /// How the topic's photos are ordered (`s` in the feed while a topic shows).
    public var feedTopicOrder: PhotoOrder = .latest
    /// The status line's notice, if one is showing.
    public var notice: StatusNotice?
    public var noticeSerial = 0
    /// The serial of the viewer's or the detail's own notice line ("Sent the link…", "Saved to…"), which fades too.
    public var screenNoticeSerial: Int?

    /// The tabs shown, in order.
    public var tabs: [Tab] {
        Tab.allCases.filter { $0 != .albums || albumsEnabled }
    }

    /// `session` is `.splash` when the app starts by checking its stored token, `.loggedIn` when it
    /// starts with a token known to be good.
    public init(feed: PhotoListState = PhotoListState(), session: Session = .loggedIn) {
        self.feed = feed
        self.session = session
    }

    /// The paged list a pane shows photos from (nil for the Albums pane: album photos come whole).
    public func photos(in tab: Tab) -> PhotoListState? {
        pagedList(ViewerState.Source(tab: tab))
    }

    /// The paged list behind the photos of a source (an album's photos come whole, without paging).
    public func pagedList(_ source: ViewerState.Source) -> PhotoListState? {
        switch source {
        case .feed: feed
        case .favorites: favorites
        case .search: search.results
        case .album: nil
        case .page: shownPage?.photoList?.list
        }
    }

    /// The photos a source shows, in order: its list's, or the open album's.
    public func photos(from source: ViewerState.Source) -> [Photo] {
        pagedList(source)?.photos ?? (source == .album ? albums.open?.photos ?? [] : [])
    }

    /// The detail screen, when one is open over what is shown: over a page when opened from its photos, else over
    /// the pane it was opened from (a page opened over it hides it).
    public var shownDetail: PhotoDetail? {
        guard let detail else { return nil }
        if shownPage != nil { return detail.source == .page ? detail : nil }
        return detail.source == ViewerState.Source(tab: tab) ? detail : nil
    }

    /// Where photos shown now come from: the page on top, else the pane.
    public var shownSource: ViewerState.Source {
        shownPage != nil ? .page : ViewerState.Source(tab: tab)
    }

    /// How many favorites the user has: what the service said, kept up to date with likes made here.
    public var favoritesCount: Int? {
        favorites.totalItems ?? profile.profile?.totalLikes
    }
}

extension ViewerState.Source {
    /// The list a pane shows photos from.
    public init(tab: Tab) {
        switch tab {
        case .feed: self = .feed
        case .profile: self = .favorites
        case .search: self = .search
        case .albums: self = .album
        }
    }
}

/// Routes events to the pane they belong to, and keeps what panes share in step: a like or unlike that
/// succeeds anywhere is applied to the feed, the favorites, the viewer and the profile's count at once.
public enum AppViewModel {
    public enum Event: Equatable, Sendable {
        case start
        /// The stored token was checked: nil when there is none.
        case sessionChecked(Result<Profile, ServiceError>?)
        /// A token is stored: into the app at once (the saved feed shows while the service is asked);
        /// the profile request checks the token, and a 401 ends the session.
        case sessionStored
        case login(LoginViewModel.Event)
        case feed(PhotoListViewModel.Event)
        case favorites(PhotoListViewModel.Event)
        case profile(ProfileViewModel.Event)
        case search(SearchViewModel.Event)
        case albums(AlbumsViewModel.Event)
        /// The pages over a pane: a photographer's, a collection's, the topics.
        case browse(BrowseViewModel.Event)
        case viewer(ViewerViewModel.Event)
        case selectTab(Tab)
        /// The frame just drawn shows `list` up to `lastIndex` (its last item in view, the selection, or the
        /// photo the viewer shows): the list's own rule decides whether its next page is due. Sent once a frame.
        case listShown(ShownList, lastIndex: Int)
        /// `/` from anywhere: the search pane, with the keyboard in its field.
        case focusSearch
        /// A photo's tag: the search pane searches for it.
        case searchFor(String)
        case nextTab
        case previousTab
        case openViewer(photoID: String)
        /// The detail screen of a photo of the pane shown (description, location, camera, author).
        case openDetail(photoID: String)
        case detail(PhotoDetailViewModel.Event)
        case closeDetail
        /// n/p in the viewer: the next or previous photo of the list it was opened from.
        case stepViewer(by: Int)
        case closeViewer
        case toggleHelp
        case dismissSessionExpired
        case quit
        case rateLimit(RateLimit?)
        /// A notice's time is up.
        case noticeExpired(serial: Int)
        /// Something the user should know, in the status line for a while (a TERM that was not known, ...).
        case notify(String)
    }

    public enum Effect: Equatable, Sendable {
        /// See whether a token is stored (`.sessionStored`), or report that there is none.
        case checkSession
        /// Read the saved feed, to show at once.
        case loadSavedFeed
        case login(LoginViewModel.Effect)
        case feed(PhotoListViewModel.Effect)
        case favorites(username: String, PhotoListViewModel.Effect)
        case profile(ProfileViewModel.Effect)
        case search(SearchViewModel.Effect)
        case albums(AlbumsViewModel.Effect)
        case browse(BrowseViewModel.Effect)
        /// Read the search history from disk.
        case loadSearchHistory
        /// Read the Imgur usernames looked up before.
        case loadAlbumsRecent
        case viewer(ViewerViewModel.Effect)
        case detail(PhotoDetailViewModel.Effect)
        /// The service said the token is no good: remove it.
        case forgetSession
        /// Log out: remove the token and everything stored about the user.
        case logOut
        /// After `seconds`, send `.noticeExpired(serial)`.
        case expireNotice(serial: Int, after: Double)

        /// Only waits (a notice's timer): nothing is on its way while it runs.
        public var isTimer: Bool {
            if case .expireNotice = self { return true }
            return false
        }
    }

    public static func update(_ state: inout AppState, _ event: Event) -> [Effect] {
        let viewerNotice = state.viewer?.notice
        let detailNotice = state.detail?.viewer.notice
        var effects = route(&state, event)
        // A 401 ends the session where the answer arrives, whichever pane asked.
        if event.failure == .sessionExpired { effects += endSession(&state) }
        // A new notice in the viewer or the detail goes after a while, as the status line's do.
        if let notice = state.viewer?.notice ?? state.detail?.viewer.notice, notice != viewerNotice, notice != detailNotice {
            state.noticeSerial += 1
            state.screenNoticeSerial = state.noticeSerial
            effects.append(.expireNotice(serial: state.noticeSerial, after: StatusNotice.lifetime))
        }
        return effects
    }

    static func route(_ state: inout AppState, _ event: Event) -> [Effect] {
        switch event {
        case .start:
            let histories: [Effect] = [.loadSearchHistory] + (state.albumsEnabled ? [.loadAlbumsRecent] : [])
            if state.session == .splash { return [.checkSession] + histories }
            return feedEffects(PhotoListViewModel.update(&state.feed, .load), state) + histories

        case .sessionStored:
            guard state.session == .splash else { return [] }
            // The saved feed is the editorial one: a topic waits for its own answer.
            return (state.feedTopic == nil ? [.loadSavedFeed] : []) + logIn(&state, profile: nil)

        case let .sessionChecked(result):
            guard state.session == .splash else { return [] }
            switch result {
            case nil:
                state.session = .loggedOut
                return []
            case .failure(.sessionExpired):
                state.session = .loggedOut
                return [.forgetSession]
            case let .success(profile):
                return logIn(&state, profile: profile)
            case let .failure(error):
                // Offline, or the service is down: the token may well be good; the panes show the error.
                var effects = logIn(&state, profile: nil)
                state.profile.phase = .failed(error)
                effects.removeAll { $0 == .profile(.loadProfile) }
                return effects
            }

        case let .login(loginEvent):
            let effects = LoginViewModel.update(&state.login, loginEvent).map(Effect.login)
            if case let .exchangeFinished(.success(profile)) = loginEvent, state.session == .loggedOut {
                return effects + logIn(&state, profile: profile)
            }
            return effects

        case let .feed(feedEvent):
            noteConnection(feedEvent, in: &state)
            let before = state.feed
            var effects = feedEffects(PhotoListViewModel.update(&state.feed, feedEvent), state)
            effects += listNotice(feedEvent, before: before, name: state.feedTopic.map { "the \($0.title) topic" } ?? "the feed", in: &state)
            if case let .likeFinished(photoID, liked, .success(answer)) = feedEvent,
               let photo = state.feed.photo(id: photoID) ?? Optional(answer) {
                return effects + likeChanged(photo, liked: liked, likes: answer.likes, in: &state)
            }
            return effects

        case let .favorites(favoritesEvent):
            noteConnection(favoritesEvent, in: &state)
            let before = state.favorites.photo(id: likedPhotoID(favoritesEvent) ?? "")
            let listBefore = state.favorites
            var effects = favoritesEffects(PhotoListViewModel.update(&state.favorites, favoritesEvent), state)
            effects += listNotice(favoritesEvent, before: listBefore, name: "your favorites", in: &state)
            if case let .likeFinished(photoID, liked, .success(answer)) = favoritesEvent,
               let photo = state.favorites.photo(id: photoID) ?? before ?? Optional(answer) {
                return effects + likeChanged(photo, liked: liked, likes: answer.likes, in: &state)
            }
            return effects

        case let .profile(profileEvent):
            let refreshing = state.profile.refreshing
            var effects = ProfileViewModel.update(&state.profile, profileEvent).map(Effect.profile)
            switch profileEvent {
            case let .loaded(.failure(error)) where refreshing && error != .sessionExpired:
                effects += notify("Couldn't refresh the profile (\(error.summary)).\(retryHint(error))", kind: .error, in: &state)
                noteFailure(error, in: &state)
            case .loaded(.success) where refreshing:
                effects += notify("Profile refreshed.", kind: .info, in: &state)
            default:
                break
            }
            switch profileEvent {
            case .loaded(.success):
                // The favorites follow the profile (they are listed by username).
                if state.favorites.photos.isEmpty {
                    effects += favoritesEffects(PhotoListViewModel.update(&state.favorites, .load), state)
                }
            case .retry:
                if case .failed = state.favorites.phase, state.profile.profile != nil {
                    effects += favoritesEffects(PhotoListViewModel.update(&state.favorites, .retry), state)
                }
            case .refresh:
                // The favorites reload with the profile (their failure has its own notice).
                if state.profile.profile != nil {
                    effects += favoritesEffects(PhotoListViewModel.update(&state.favorites, .load), state)
                }
            case .logOutAnswered(true):
                logOut(&state)
                effects += [.logOut, .search(.saveHistory([]))]
                effects += AlbumsViewModel.update(&state.albums, .forgetRecent).map(Effect.albums)
            default:
                break
            }
            return effects

        case let .albums(albumsEvent):
            return AlbumsViewModel.update(&state.albums, albumsEvent).map(Effect.albums)

        case let .browse(browseEvent):
            return browse(&state, browseEvent)

        case let .search(searchEvent):
            var effects = SearchViewModel.update(&state.search, searchEvent).map(Effect.search)
            // A new search closes the detail of an old result.
            if searchEvent == .submit, state.detail?.source == .search { state.detail = nil }
            switch searchEvent {
            case let .answer(_, _, _, .likeFinished(photoID, liked, .success(answer))),
                 let .results(.likeFinished(photoID, liked, .success(answer))):
                if let photo = state.search.results.photo(id: photoID) ?? Optional(answer) {
                    effects += likeChanged(photo, liked: liked, likes: answer.likes, in: &state)
                }
            case let .answer(_, _, _, .pageLoaded(page, result)):
                noteConnection(.pageLoaded(page: 1, result), in: &state)
                if case let .failure(error) = result, page > 1, error != .sessionExpired {
                    effects += notify("Couldn't load more results (\(error.summary)).\(retryHint(error))", kind: .error, in: &state)
                }
            case let .answer(_, _, _, .servedFromSaved(savedAt)):
                // The saved search's own time, as the feed's: the update reads no clock.
                noteConnection(.servedFromSaved(savedAt), in: &state)
            default:
                break
            }
            return effects

        case let .searchFor(text):
            state.tab = .search
            state.viewer = nil
            state.helpVisible = false
            if state.detail?.source == .search { state.detail = nil }
            return route(&state, .search(.searchFor(text)))

        case .focusSearch:
            state.tab = .search
            state.viewer = nil
            state.helpVisible = false
            return SearchViewModel.update(&state.search, .focus).map(Effect.search)

        case let .viewer(viewerEvent):
            guard var viewer = state.viewer else { return [] }
            let effects = ViewerViewModel.update(&viewer, viewerEvent)
            state.viewer = viewer
            if case let .likeFinished(liked, .success(answer)) = viewerEvent {
                return effects.map(Effect.viewer) + likeChanged(viewer.photo, liked: liked, likes: answer.likes, in: &state)
            }
            return effects.map(Effect.viewer)

        case let .selectTab(tab):
            guard state.tabs.contains(tab) else { return [] }
            state.tab = tab
            state.viewer = nil
            state.helpVisible = false
            if tab == .profile, state.session == .loggedIn {
                return ProfileViewModel.update(&state.profile, .appear).map(Effect.profile)
            }
        case .nextTab:
            let tabs = state.tabs
            let index = tabs.firstIndex(of: state.tab) ?? 0
            return route(&state, .selectTab(tabs[(index + 1) % tabs.count]))
        case .previousTab:
            let tabs = state.tabs
            let index = tabs.firstIndex(of: state.tab) ?? 0
            return route(&state, .selectTab(tabs[(index + tabs.count - 1) % tabs.count]))
        case let .openViewer(photoID):
            let source = state.shownDetail?.source ?? state.shownSource
            let detailPhoto = state.detail?.photo.id == photoID ? state.detail?.photo : nil
            guard let photo = detailPhoto ?? state.photos(from: source).first(where: { $0.id == photoID })
                ?? state.feed.photo(id: photoID) else { return [] }
            var viewer = ViewerState(photo: photo)
            viewer.source = source
            // An album's photo is not an Unsplash photo: no like, and no download tracking.
            viewer.isFromAlbum = source == .album
            state.viewer = viewer
        case let .stepViewer(offset):
            return stepViewer(by: offset, in: &state)
        case let .listShown(list, index):
            switch list {
            case .feed: return feedEffects(PhotoListViewModel.update(&state.feed, .showedItem(index: index)), state)
            case .favorites: return favoritesEffects(PhotoListViewModel.update(&state.favorites, .showedItem(index: index)), state)
            case .search: return SearchViewModel.update(&state.search, .showedItem(index: index)).map(Effect.search)
            case .albums: return AlbumsViewModel.update(&state.albums, .showedAlbum(index: index)).map(Effect.albums)
            case .page: return pageShown(index, in: &state)
            }
        case let .openDetail(photoID):
            // Album photos have no detail of their own (no Unsplash photo to ask for): their source has no list.
            guard let photo = state.pagedList(state.shownSource)?.photo(id: photoID) else { return [] }
            state.detail = PhotoDetail(photo: photo, source: state.shownSource)
            return [.detail(.load(photoID: photoID))]
        case let .detail(detailEvent):
            guard var detail = state.detail else { return [] }
            let before = detail.photo
            let effects = PhotoDetailViewModel.update(&detail, detailEvent).map(Effect.detail)
            state.detail = detail
            if case let .viewer(.likeFinished(liked, .success(answer))) = detailEvent {
                return effects + likeChanged(before, liked: liked, likes: answer.likes, in: &state)
            }
            return effects
        case .closeDetail:
            state.detail = nil
        case .closeViewer:
            state.viewer = nil
        case .toggleHelp:
            state.helpVisible.toggle()
        case .dismissSessionExpired:
            state.sessionExpiredNotice = false
        case .quit:
            state.quitting = true
        case let .rateLimit(limit):
            state.rateLimit = limit
        case let .noticeExpired(serial):
            if state.notice?.serial == serial { state.notice = nil }
            if state.screenNoticeSerial == serial {
                state.screenNoticeSerial = nil
                state.viewer?.notice = nil
                state.detail?.viewer.notice = nil
            }
        case let .notify(text):
            return notify(text, kind: .info, in: &state)
        }
        return []
    }

    /// The next or previous photo in the viewer (the frame that shows it asks for the list's next page in time,
    /// as a scrolled list's frame does).
    private static func stepViewer(by offset: Int, in state: inout AppState) -> [Effect] {
        guard let viewer = state.viewer, let source = viewer.source, viewer.modal == nil else { return [] }
        let list = state.pagedList(source)
        let photos = state.photos(from: source)
        guard let index = photos.firstIndex(where: { $0.id == viewer.photo.id }) else { return [] }
        let target = index + offset
        var effects: [Effect] = []
        guard photos.indices.contains(target) else {
            let loading: Bool = if case .loading = list?.nextPage { true } else { false }
            state.viewer?.notice = offset < 0 ? "This is the first photo."
                : loading ? "Loading more photos\u{2026} press n again in a moment." : "This is the last photo."
            return effects
        }
        var next = ViewerState(photo: photos[target])
        next.source = source
        next.isFromAlbum = viewer.isFromAlbum
        next.barHidden = viewer.barHidden
        state.viewer = next
        if source == .album { effects += AlbumsViewModel.update(&state.albums, .selectPhoto(index: target)).map(Effect.albums) }
        return effects
    }

    /// Shows a notice in the status line, and asks for it to go after a while.
    static func notify(_ text: String, kind: StatusNotice.Kind, in state: inout AppState) -> [Effect] {
        state.noticeSerial += 1
        state.notice = StatusNotice(text, kind: kind, serial: state.noticeSerial)
        return [.expireNotice(serial: state.noticeSerial, after: StatusNotice.lifetime)]
    }

    /// " r tries again." when trying again can help now (not while the quota is used up).
    private static func retryHint(_ error: ServiceError) -> String {
        error.retryHelpsNow ? " r tries again." : ""
    }

    /// What a list's page answer means for the status line: a reload that failed over the photos shown, a
    /// next page that failed, or a reload the user asked for that worked.
    private static func listNotice(_ event: PhotoListViewModel.Event, before: PhotoListState, name: String,
                                   in state: inout AppState) -> [Effect] {
        guard case let .pageLoaded(page, result) = event, before.nextPage == .loading(page: page) else { return [] }
        switch result {
        case let .failure(error):
            guard error != .sessionExpired else { return [] }
            noteFailure(error, in: &state)
            if page == 1, !before.photos.isEmpty {
                return notify("Couldn't reload \(name) (\(error.summary)).\(retryHint(error))", kind: .error, in: &state)
            }
            if page > 1 {
                return notify("Couldn't load more of \(name) (\(error.summary)).\(retryHint(error))", kind: .error, in: &state)
            }
            return [] // the pane itself shows the error
        case .success:
            guard page == 1, before.reloading else { return [] }
            let capitalised = name.prefix(1).uppercased() + name.dropFirst()
            return notify("\(capitalised) reloaded.", kind: .info, in: &state)
        }
    }

    /// The service answered with an error that says it is in trouble (not the network's fault).
    private static func noteFailure(_ error: ServiceError, in state: inout AppState) {
        switch error {
        case .server, .malformedResponse, .http:
            state.connection = .failing("service failing")
        case let .rateLimited(_, resetsAt):
            // Unsplash sends no reset time: the client works out the end of the hour's window, and it is shown.
            state.connection = .failing(resetsAt.map { "rate limited until \(ServiceError.clockTime($0))" } ?? "rate limited")
        default:
            break
        }
    }

    /// Into the app: the feed loads, and the profile with it when it is not known yet.
    private static func logIn(_ state: inout AppState, profile: Profile?) -> [Effect] {
        state.session = .loggedIn
        state.sessionExpiredNotice = false
        state.login = LoginState()
        var effects = feedEffects(PhotoListViewModel.update(&state.feed, .load), state)
        if let profile {
            effects += route(&state, .profile(.loaded(.success(profile))))
        } else {
            state.profile.phase = .idle
            effects += ProfileViewModel.update(&state.profile, .appear).map(Effect.profile)
        }
        return effects
    }

    /// Everything about the user goes: profile, favorites, liked flags (the feed reloads after the next login).
    private static func logOut(_ state: inout AppState) {
        state.session = .loggedOut
        state.login = LoginState()
        state.profile = ProfileState()
        _ = PhotoListViewModel.update(&state.favorites, .reset)
        _ = PhotoListViewModel.update(&state.feed, .reset)
        _ = SearchViewModel.update(&state.search, .reset)
        state.viewer = nil
        state.detail = nil
        state.browse = nil
        state.tab = .feed
        state.helpVisible = false
    }

    /// A 401 anywhere: the token is removed, the login screen opens with a notice, nothing else is lost.
    private static func endSession(_ state: inout AppState) -> [Effect] {
        guard state.session == .loggedIn else { return [] }
        state.session = .loggedOut
        state.sessionExpiredNotice = true
        state.login = LoginState()
        state.viewer = nil
        state.helpVisible = false
        return [.forgetSession]
    }

    /// One like or unlike that succeeded, everywhere it shows.
    static func likeChanged(_ photo: Photo, liked: Bool, likes: Int, in state: inout AppState) -> [Effect] {
        let wasFavorite = state.favorites.photo(id: photo.id) != nil
        // Every list that may hold the photo, then every photo shown on its own: one rule for all of them.
        state.changePhotoLists { _ = PhotoListViewModel.update(&$0, .likeChangedElsewhere(photoID: photo.id, liked: liked, likes: likes)) }
        state.changeShownPhoto(id: photo.id) { shown in
            shown.likedByUser = liked
            shown.likes = likes
        }
        // The favorites are the liked photos: a like adds the photo, an unlike takes it away.
        if liked {
            var favorite = photo
            favorite.likedByUser = true
            favorite.likes = likes
            _ = PhotoListViewModel.update(&state.favorites, .insertedElsewhere(favorite))
        } else {
            _ = PhotoListViewModel.update(&state.favorites, .removedElsewhere(photoID: photo.id))
        }
        // The profile's count follows when the favorites list could not (not loaded yet).
        if case var .content(profile) = state.profile.phase, state.favorites.totalItems == nil, liked != wasFavorite,
           let total = profile.totalLikes {
            profile.totalLikes = max(0, total + (liked ? 1 : -1))
            state.profile.phase = .content(profile)
        }
        return []
    }

    private static func likedPhotoID(_ event: PhotoListViewModel.Event) -> String? {
        if case let .likeFinished(photoID, _, _) = event { return photoID }
        return nil
    }

    private static func favoritesEffects(_ effects: [PhotoListViewModel.Effect], _ state: AppState) -> [Effect] {
        guard let username = state.profile.profile?.username else { return [] }
        return effects.map { Effect.favorites(username: username, $0) }
    }

    static func noteConnection(_ event: PhotoListViewModel.Event, in state: inout AppState) {
        switch event {
        case .pageLoaded(_, .success), .likeFinished(_, _, .success):
            state.connection = .online
        case let .pageLoaded(_, .failure(error)), let .likeFinished(_, _, .failure(error)):
            switch error {
            case .noConnection, .timeout: state.connection = .offline(error.message)
            default: noteFailure(error, in: &state)
            }
        case .servedFromSaved:
            // The page came from the offline store because the service could not be reached.
            state.connection = .offline("The photo service could not be reached.")
        default:
            break
        }
    }
}

extension AppState {
    /// Where lists of photos live: a like that succeeds anywhere reaches each of them. A new pane with a list of
    /// photos joins here, and only here.
    static var photoLists: [WritableKeyPath<AppState, PhotoListState>] { [\.feed, \.favorites, \.search.results] }

    /// Changes every list of photos: the panes' and those of the pages opened over them.
    mutating func changePhotoLists(_ change: (inout PhotoListState) -> Void) {
        for list in Self.photoLists { change(&self[keyPath: list]) }
        guard var browse else { return }
        for index in browse.pages.indices { browse.pages[index].changeLists(nil, change) }
        self.browse = browse
    }

    /// Changes the photo `id` wherever it is shown on its own (the viewer, the detail screen).
    mutating func changeShownPhoto(id: String, _ change: (inout Photo) -> Void) {
        if viewer?.photo.id == id { change(&viewer!.photo) }
        if detail?.viewer.photo.id == id { change(&detail!.viewer.photo) }
    }
}

extension AppViewModel.Event {
    /// The service's error, when this event is an answer that failed: each pane's events say which of theirs
    /// are answers, and a 401 among them ends the session in one place (`AppViewModel.update`).
    public var failure: ServiceError? {
        switch self {
        case let .feed(event), let .favorites(event): event.failure
        case let .search(event): event.failure
        case let .profile(event): event.failure
        case let .viewer(event): event.failure
        case let .detail(event): event.failure
        case let .browse(event): event.failure
        default: nil
        }
    }
}
