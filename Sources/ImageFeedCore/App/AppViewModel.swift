/// The panes of the app.
public enum Tab: Int, CaseIterable, Sendable {
    case feed
    case search
    case profile

    public var title: String {
        switch self {
        case .feed: "Feed"
        case .search: "Search"
        case .profile: "Profile"
        }
    }
}

/// Whether the service answered lately.
public enum Connection: Equatable, Sendable {
    case unknown
    case online
    case offline(String)
}

/// The whole app's state: the tabs, the feed, the viewer over them, the help overlay.
public struct AppState: Equatable, Sendable {
    public var tab: Tab = .feed
    public var feed: FeedState
    public var viewer: ViewerState?
    public var helpVisible = false
    public var quitting = false
    public var connection: Connection = .unknown
    public var rateLimit: RateLimit?

    public init(feed: FeedState = FeedState()) {
        self.feed = feed
    }

    /// The session ended (a 401 anywhere): the shell takes the user to log in again.
    public var sessionExpired: Bool {
        feed.sessionExpired || viewer?.sessionExpired == true
    }
}

/// Routes events to the pane they belong to, and keeps what panes share (like state) in step.
public enum AppViewModel {
    public enum Event: Equatable, Sendable {
        case start
        case feed(FeedViewModel.Event)
        case viewer(ViewerViewModel.Event)
        case selectTab(Tab)
        case nextTab
        case previousTab
        case openViewer(photoID: String)
        case closeViewer
        case toggleHelp
        case quit
        case rateLimit(RateLimit?)
    }

    public enum Effect: Equatable, Sendable {
        case feed(FeedViewModel.Effect)
        case viewer(ViewerViewModel.Effect)
    }

    public static func update(_ state: inout AppState, _ event: Event) -> [Effect] {
        switch event {
        case .start:
            return FeedViewModel.update(&state.feed, .load).map(Effect.feed)

        case let .feed(feedEvent):
            noteConnection(feedEvent, in: &state)
            let effects = FeedViewModel.update(&state.feed, feedEvent)
            // A like that finished in the feed updates the viewer showing the same photo.
            if case let .likeFinished(photoID, liked, .success(photo)) = feedEvent, state.viewer?.photo.id == photoID {
                state.viewer?.photo.likedByUser = liked
                state.viewer?.photo.likes = photo.likes
            }
            return effects.map(Effect.feed)

        case let .viewer(viewerEvent):
            guard var viewer = state.viewer else { return [] }
            let effects = ViewerViewModel.update(&viewer, viewerEvent)
            state.viewer = viewer
            if case let .likeFinished(liked, .success(photo)) = viewerEvent {
                _ = FeedViewModel.update(&state.feed, .likeChangedElsewhere(photoID: viewer.photo.id, liked: liked, likes: photo.likes))
            }
            return effects.map(Effect.viewer)

        case let .selectTab(tab):
            state.tab = tab
            state.viewer = nil
            state.helpVisible = false
        case .nextTab:
            return update(&state, .selectTab(Tab(rawValue: (state.tab.rawValue + 1) % Tab.allCases.count)!))
        case .previousTab:
            return update(&state, .selectTab(Tab(rawValue: (state.tab.rawValue + Tab.allCases.count - 1) % Tab.allCases.count)!))
        case let .openViewer(photoID):
            guard let photo = state.feed.photo(id: photoID) else { return [] }
            state.viewer = ViewerState(photo: photo)
        case .closeViewer:
            state.viewer = nil
        case .toggleHelp:
            state.helpVisible.toggle()
        case .quit:
            state.quitting = true
        case let .rateLimit(limit):
            state.rateLimit = limit
        }
        return []
    }

    private static func noteConnection(_ event: FeedViewModel.Event, in state: inout AppState) {
        switch event {
        case .pageLoaded(_, .success), .likeFinished(_, _, .success):
            state.connection = .online
        case let .pageLoaded(_, .failure(error)), let .likeFinished(_, _, .failure(error)):
            switch error {
            case .noConnection, .timeout: state.connection = .offline(error.message)
            default: break
            }
        default:
            break
        }
    }
}
