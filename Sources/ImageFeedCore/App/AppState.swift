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
    /// The service answers, but with errors (5xx, unreadable answers).
    case failing(String)
    /// The quota is used up until a time (nil: within the hour); the state ends then.
    case rateLimited(until: Date?)
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
    /// Trying again can help now: the status line adds the key that does it ("r tries again").
    public var retry: Bool
    /// Tells notices apart, so that the timer of an old one does not clear a newer one.
    public var serial: Int
    /// The pane it is about (a list's reload), where alone it shows; nil: wherever the user is.
    public var tab: Tab?

    public init(_ text: String, kind: Kind, retry: Bool = false, serial: Int, tab: Tab? = nil) {
        self.tab = tab
        self.text = text
        self.kind = kind
        self.retry = retry
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
    case sheet

    /// The paged list a viewer's photos come from (an album's come whole: none).
    public init?(_ source: ViewerState.Source) {
        switch source {
        case .feed: self = .feed
        case .favorites: self = .favorites
        case .search: self = .search
        case .sheet: self = .sheet
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

/// A photo's file being saved.
public struct RunningDownload: Equatable, Sendable {
    public var photoID: String
    /// How much has come, 0...1 (nil: the size is not known yet).
    public var fraction: Double?

    public init(photoID: String, fraction: Double? = nil) {
        self.photoID = photoID
        self.fraction = fraction
    }
}

extension [RunningDownload] {
    /// What the status line shows of them: "↓ 34%", "↓ 2 files 34%" (the least done), "↓ …" while no size is known.
    public func summary(unicode: Bool = true) -> String? {
        guard !isEmpty else { return nil }
        let arrow = unicode ? "↓" : "v"
        let least = compactMap(\.fraction).min()
        let done = least.map { "\(Int($0 * 100))%" } ?? (unicode ? "…" : "...")
        return count == 1 ? "\(arrow) \(done)" : "\(arrow) \(count) files \(done)"
    }
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
    /// The viewer a detail was opened from (`i` there): Esc in the detail goes back to it, one level.
    public var viewerUnderDetail: ViewerState?
    /// The pane whose detail a tag search came from: Esc in the results goes back to it.
    public var searchCameFrom: Tab?
    public var helpVisible = false
    public var quitting = false
    /// `q` while a download runs: the app asks before it quits (and stops the download).
    public var quitAsked = false
    /// The downloads under way, wherever they were started: the status line shows them on every screen
    /// (`↓ 34%`), and their end is said wherever the user is.
    public var downloads: [RunningDownload] = []
    public var connection: Connection = .unknown
    public var rateLimit: RateLimit?
    /// The album service's (Imgur's) daily credits left, as its last answer counted them.
    public var albumCredits: RateLimit?
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
    public var explore: ExploreStack?
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
        case .sheet: shownSheet?.photoList?.list
        }
    }

    /// The photos a source shows, in order: its list's, or the open album's.
    public func photos(from source: ViewerState.Source) -> PhotoList {
        pagedList(source)?.photos ?? (source == .album ? PhotoList(albums.open?.photos ?? []) : [])
    }

    /// The detail screen, when one is open over what is shown: over a page when opened from its photos, else over
    /// the pane it was opened from (a page opened over it hides it).
    public var shownDetail: PhotoDetail? {
        guard let detail else { return nil }
        if shownSheet != nil { return detail.source == .sheet ? detail : nil }
        return detail.source == ViewerState.Source(tab: tab) ? detail : nil
    }

    /// Where photos shown now come from: the page on top, else the pane.
    public var shownSource: ViewerState.Source {
        shownSheet != nil ? .sheet : ViewerState.Source(tab: tab)
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
