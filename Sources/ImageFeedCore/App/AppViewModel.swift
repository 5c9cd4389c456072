import Foundation

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
        case explore(ExploreViewModel.Event)
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
        /// `i` in the viewer: the photo's detail over the pane, and Esc there goes back to the viewer.
        case openDetailFromViewer(photoID: String)
        case detail(PhotoDetailViewModel.Event)
        case closeDetail
        /// n/p in the viewer: the next or previous photo of the list it was opened from.
        case stepViewer(by: Int)
        case closeViewer
        case toggleHelp
        case dismissSessionExpired
        /// `q`: quits, or asks first while a download runs.
        case quit
        /// Ctrl-C, or "Quit" in the question: quits whatever runs (a download's part file is removed).
        case quitNow
        /// "Keep downloading" in the question.
        case quitCancelled
        case rateLimit(RateLimit?)
        /// What is left of the album service's daily credits.
        case albumCredits(RateLimit?)
        /// A notice's time is up.
        case noticeExpired(serial: Int)
        /// The time the quota was used up until has passed.
        case rateLimitPassed(Date)
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
        case explore(ExploreViewModel.Effect)
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
        /// At `at`, send `.rateLimitPassed(at)`.
        case endRateLimit(at: Date)

        /// Only waits (a notice's timer): nothing is on its way while it runs.
        public var isTimer: Bool {
            switch self {
            case .expireNotice, .endRateLimit: true
            default: false
            }
        }
    }

    public static func update(_ state: inout AppState, _ event: Event) -> [Effect] {
        let viewerNotice = state.viewer?.notice
        let detailNotice = state.detail?.viewer.notice
        // Any list's answer says whether the service is reached: back online from a search or a page too.
        var effects: [Effect] = []
        switch event {
        case let .search(.results(answer)), let .search(.answer(_, _, _, answer)), let .explore(.photosAnswer(_, answer)):
            effects += noteConnection(answer, in: &state)
        default:
            break
        }
        effects += route(&state, event)
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
            let exchanging = state.login.phase == .exchanging
            let effects = LoginViewModel.update(&state.login, loginEvent).map(Effect.login)
            if case let .exchangeFinished(.success(profile)) = loginEvent, state.session == .loggedOut {
                // The user cancelled while the token was on its way: it is not kept.
                guard exchanging else { return effects + [.forgetSession] }
                return effects + logIn(&state, profile: profile)
            }
            return effects

        case let .feed(feedEvent):
            let connection = noteConnection(feedEvent, in: &state)
            let before = state.feed
            var effects = connection + feedEffects(PhotoListViewModel.update(&state.feed, feedEvent), state)
            effects += listNotice(feedEvent, before: before, name: state.feedTopic.map { "the \($0.title) topic" } ?? "the feed", tab: .feed, in: &state)
            if case let .likeFinished(photoID, liked, .success(answer)) = feedEvent,
               let photo = state.feed.photo(id: photoID) ?? Optional(answer) {
                return effects + likeChanged(photo, liked: liked, likes: answer.likes, in: &state)
            }
            return effects

        case let .favorites(favoritesEvent):
            let connection = noteConnection(favoritesEvent, in: &state)
            let before = state.favorites.photo(id: likedPhotoID(favoritesEvent) ?? "")
            let listBefore = state.favorites
            var effects = connection + favoritesEffects(PhotoListViewModel.update(&state.favorites, favoritesEvent), state)
            effects += listNotice(favoritesEvent, before: listBefore, name: "your favorites", tab: .profile, in: &state)
            if case let .likeFinished(photoID, liked, .success(answer)) = favoritesEvent,
               let photo = state.favorites.photo(id: photoID) ?? before ?? Optional(answer) {
                return effects + likeChanged(photo, liked: liked, likes: answer.likes, inFavorites: true, in: &state)
            }
            return effects

        case let .profile(profileEvent):
            let refreshing = state.profile.refreshing
            var effects = ProfileViewModel.update(&state.profile, profileEvent).map(Effect.profile)
            switch profileEvent {
            case let .loaded(.failure(error)) where refreshing && error != .sessionExpired:
                effects += notify(error.couldNot("refresh the profile"), kind: .error, retry: error.retryHelpsNow, in: &state)
                effects += noteFailure(error, in: &state)
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

        case let .explore(browseEvent):
            return explore(&state, browseEvent)

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
                noteConnection(.pageLoaded(page: 1, result), in: &state) // its timer is asked for in `update`
                if case let .failure(error) = result, page > 1, error != .sessionExpired {
                    effects += notify(error.couldNot("load more results"), kind: .error, retry: error.retryHelpsNow, in: &state)
                }
            case let .answer(_, _, _, .servedFromSaved(savedAt)):
                // The saved search's own time, as the feed's: the update reads no clock.
                noteConnection(.servedFromSaved(savedAt), in: &state)
            default:
                break
            }
            return effects

        case .searchFor, .focusSearch, .selectTab, .nextTab, .previousTab, .openViewer, .stepViewer, .openDetail, .openDetailFromViewer,
             .closeDetail, .closeViewer, .toggleHelp:
            return Navigation.update(&state, event)

        case let .viewer(viewerEvent):
            let told = followDownload(viewerEvent, &state)
            guard var viewer = state.viewer else { return told }
            // The photo's file is already on its way (started before the viewer was last opened): one download.
            if case .download = viewerEvent, let running = state.downloads.first(where: { $0.photoID == viewer.photo.id }) {
                state.viewer?.download = .running(running.fraction)
                return []
            }
            let effects = ViewerViewModel.update(&viewer, viewerEvent)
            state.viewer = viewer
            noteDownloads(effects, &state)
            if !told.isEmpty { return told + effects.map(Effect.viewer) }
            if case let .likeFinished(liked, .success(answer)) = viewerEvent {
                return effects.map(Effect.viewer) + likeChanged(viewer.photo, liked: liked, likes: answer.likes, in: &state)
            }
            return effects.map(Effect.viewer)

        case let .listShown(list, index):
            switch list {
            case .feed: return feedEffects(PhotoListViewModel.update(&state.feed, .showedItem(index: index)), state)
            case .favorites: return favoritesEffects(PhotoListViewModel.update(&state.favorites, .showedItem(index: index)), state)
            case .search: return SearchViewModel.update(&state.search, .showedItem(index: index)).map(Effect.search)
            case .albums: return AlbumsViewModel.update(&state.albums, .showedAlbum(index: index)).map(Effect.albums)
            case .sheet: return explore(&state, .showedItem(index: index))
            }
        case let .detail(detailEvent):
            var told: [Effect] = []
            if case let .viewer(viewerEvent) = detailEvent { told = followDownload(viewerEvent, &state) }
            guard var detail = state.detail else { return told }
            let before = detail.photo
            let detailEffects = PhotoDetailViewModel.update(&detail, detailEvent)
            let effects = told + detailEffects.map(Effect.detail)
            state.detail = detail
            noteDownloads(detailEffects.compactMap { if case let .viewer(effect) = $0 { effect } else { nil } }, &state)
            if case let .viewer(.likeFinished(liked, .success(answer))) = detailEvent {
                return effects + likeChanged(before, liked: liked, likes: answer.likes, in: &state)
            }
            return effects
        case .dismissSessionExpired:
            state.sessionExpiredNotice = false
        case .quit:
            if state.downloads.isEmpty || state.quitAsked { state.quitting = true } else { state.quitAsked = true }
        case .quitNow:
            state.quitting = true
        case .quitCancelled:
            state.quitAsked = false
        case let .rateLimit(limit):
            state.rateLimit = limit
        case let .albumCredits(credits):
            state.albumCredits = credits
        case let .rateLimitPassed(time):
            // The quota has refilled: neither the state nor the count used up is true any more.
            if state.connection == .rateLimited(until: time) {
                state.connection = .unknown
                state.rateLimit = nil
            }
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

    /// A download the viewer (or the detail) started joins the app's list, which the status line shows everywhere.
    private static func noteDownloads(_ effects: [ViewerViewModel.Effect], _ state: inout AppState) {
        for case let .download(photo, _) in effects where !state.downloads.contains(where: { $0.photoID == photo.id }) {
            state.downloads.append(RunningDownload(photoID: photo.id))
        }
    }

    /// A download's progress and end, wherever the user is now: the list follows it, and its end is said on the
    /// status line of the pane shown, or on the screen in front when that is a viewer or a detail of another
    /// photo (the viewer of the same photo says it itself).
    private static func followDownload(_ event: ViewerViewModel.Event, _ state: inout AppState) -> [Effect] {
        switch event {
        case let .downloadProgress(photoID, fraction):
            if let index = state.downloads.firstIndex(where: { $0.photoID == photoID }) { state.downloads[index].fraction = fraction }
            return []
        case let .downloadFinished(photoID, result, replaced):
            state.downloads.removeAll { $0.photoID == photoID }
            if state.downloads.isEmpty { state.quitAsked = false }
            let shownHere = state.viewer?.photo.id == photoID || state.detail?.viewer.photo.id == photoID
            guard !shownHere else { return [] }
            let text: String
            switch result {
            case let .success(path): text = ViewerViewModel.savedNotice(path: path, replaced: replaced)
            case .failure(.sessionExpired): return []
            case let .failure(error): text = "The download failed: \(error.message)"
            }
            if state.viewer != nil {
                state.viewer?.notice = text
            } else if state.detail != nil {
                state.detail?.viewer.notice = text
            }
            if case .failure = result { return notify(text, kind: .error, in: &state) }
            return notify(text, kind: .info, in: &state)
        default:
            return []
        }
    }

    private static func likedPhotoID(_ event: PhotoListViewModel.Event) -> String? {
        if case let .likeFinished(photoID, _, _) = event { return photoID }
        return nil
    }

    private static func favoritesEffects(_ effects: [PhotoListViewModel.Effect], _ state: AppState) -> [Effect] {
        guard let username = state.profile.profile?.username else { return [] }
        return effects.map { Effect.favorites(username: username, $0) }
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
        case let .explore(event): event.failure
        default: nil
        }
    }
}
