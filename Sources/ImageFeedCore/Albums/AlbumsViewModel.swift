import Foundation

/// The Albums pane: a prompt for a username, the user's albums as tiles (paged), and an album's photos,
/// each screen with its three states (loading, content, error) and an empty state of its own.
public struct AlbumsState: Equatable, Sendable {
    public typealias Phase = PhotoListState.Phase

    /// The text in the username field.
    public var field = ""
    /// Where the cursor is in the field, in characters (clamped to its length).
    public var fieldCursor = 0
    /// Whether the field has the keyboard (on first showing, and after `/` or `u`).
    public var isEditing = true
    /// The field holds a name offered, not typed (the last one looked up): Enter takes it, typing replaces it.
    public var fieldIsOffered = false
    /// The username whose albums are shown; nil before the first.
    public var username: String?
    /// The user's albums, paged as every list of things is (nothing is asked for before a name is given).
    public var list = ItemList<Album>(phase: .content)
    public var phase: Phase {
        get { list.phase }
        set { list.phase = newValue }
    }
    public var albums: [Album] {
        get { list.items }
        set { list.items = newValue }
    }
    public var nextPage: Int? {
        get { list.nextPage }
        set { list.nextPage = newValue }
    }
    /// Loading the next page of albums: the row at the end of the tiles.
    public var loadingMore: Bool {
        get { list.loadingMore }
        set { list.loadingMore = newValue }
    }
    public var moreFailed: ServiceError? {
        get { list.moreFailed }
        set { list.moreFailed = newValue }
    }
    public var selected: Int {
        get { list.selected }
        set { list.selected = newValue }
    }
    /// The album whose photos are shown, if one is open.
    public var open: OpenAlbum?
    /// Usernames looked up before, newest first (at most `AlbumsViewModel.recentLimit`).
    public var recent: [String] = []

    public struct OpenAlbum: Equatable, Sendable {
        public var album: Album
        public var phase: Phase = .loading
        public var photos: [Photo] = []
        public var selected = 0

        public init(album: Album) {
            self.album = album
        }
    }

    public init() {}

    /// The photos on screen now: the open album's.
    public var selectedPhoto: Photo? {
        guard let open, open.photos.indices.contains(open.selected) else { return nil }
        return open.photos[open.selected]
    }
}

public enum AlbumsViewModel {
    public enum Event: Equatable, Sendable {
        /// The field's text changed.
        case edit(String)
        /// A key edited the field (typing, the cursor keys, Ctrl-U, Ctrl-W).
        case editText(TextEdit)
        /// Enter in the field: show this user's albums.
        case submit
        /// Back to the field (keeps what is shown until a new name is submitted).
        case editUsername
        case cancelEditing
        case albumsLoaded(username: String, page: Int, Result<Page<Album>, ServiceError>)
        /// The tile at this index is in view: near the end, the next page is asked for.
        case showedAlbum(index: Int)
        case selectAlbum(index: Int)
        /// Enter on a tile.
        case openAlbum(index: Int)
        case photosLoaded(albumID: String, Result<[Photo], ServiceError>)
        case selectPhoto(index: Int)
        case closeAlbum
        /// "Try again" (r): whatever failed last, or the current screen again.
        case retry
        /// The usernames looked up in earlier runs, newest first.
        case recentLoaded([String])
        /// Log out: the pane starts afresh, and the usernames looked up are forgotten.
        case forgetRecent
    }

    public enum Effect: Equatable, Sendable {
        case loadAlbums(username: String, page: Int)
        case loadPhotos(albumID: String)
        /// Keep the usernames looked up, newest first, for the next run.
        case saveRecent([String])
    }

    /// How many usernames are remembered.
    public static let recentLimit = 5

    /// How close to the end of the tiles the next page is asked for.

    public static func update(_ state: inout AlbumsState, _ event: Event) -> [Effect] {
        switch event {
        case let .edit(text):
            // One line of a reasonable length; Imgur's names are short.
            state.field = String(text.filter { !$0.isNewline }.prefix(64))
            state.fieldCursor = state.field.count
            state.fieldIsOffered = false
            return []

        case let .editText(edit):
            edit.apply(to: &state.field, cursor: &state.fieldCursor, selected: &state.fieldIsOffered, maximumLength: 64)
            return []

        case .submit:
            let name = state.field.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { return [] }
            state.isEditing = false
            state.fieldIsOffered = false
            state.username = name
            state.list.restart()
            state.open = nil
            // Remembered newest first, once whatever the case.
            let lowered = name.lowercased()
            state.recent = Array(([name] + state.recent.filter { $0.lowercased() != lowered }).prefix(recentLimit))
            return [.loadAlbums(username: name, page: 1), .saveRecent(state.recent)]

        case .editUsername:
            state.isEditing = true
            // The name shown is offered: Enter looks it up again, typing starts a new one.
            state.fieldIsOffered = !state.field.isEmpty
            state.fieldCursor = state.field.count
            state.open = nil
            return []

        case .cancelEditing:
            // Esc always leaves the field, even before the first look-up (the pane then says how to come back).
            state.isEditing = false
            if state.username == nil {
                // Nothing looked up yet: what was typed goes; an offered name stays offered for `u`.
                if !state.fieldIsOffered { state.field = "" }
            } else {
                state.field = state.username ?? state.field
                state.fieldIsOffered = false
            }
            return []

        case let .albumsLoaded(username, page, result):
            // An answer for a name no longer shown is dropped.
            guard username == state.username else { return [] }
            state.list.apply(page: page, result)
            return []

        case let .showedAlbum(index):
            guard let username = state.username, let next = state.list.pageDue(showing: index) else { return [] }
            return [.loadAlbums(username: username, page: next)]

        case let .selectAlbum(index):
            state.list.select(index)
            return []

        case let .openAlbum(index):
            guard state.albums.indices.contains(index) else { return [] }
            state.selected = index
            let album = state.albums[index]
            state.open = AlbumsState.OpenAlbum(album: album)
            // Imgur says how many photos an album holds: an empty one needs no request.
            if album.photoCount == 0 {
                state.open?.phase = .content
                return []
            }
            return [.loadPhotos(albumID: album.id)]

        case let .photosLoaded(albumID, result):
            guard state.open?.album.id == albumID else { return [] }
            switch result {
            case let .success(photos):
                state.open?.photos = photos
                state.open?.phase = .content
                state.open?.selected = 0
            case let .failure(error):
                state.open?.phase = .failed(error)
            }
            return []

        case let .selectPhoto(index):
            guard let count = state.open?.photos.count, count > 0 else { return [] }
            state.open?.selected = min(max(0, index), count - 1)
            return []

        case .closeAlbum:
            state.open = nil
            return []

        case let .recentLoaded(names):
            let cleaned = names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            state.recent = Array(cleaned.prefix(recentLimit))
            // The prompt offers the last one: Enter shows that user's albums again.
            if state.username == nil, state.field.isEmpty, let last = state.recent.first {
                state.field = last
                state.fieldCursor = last.count
                state.fieldIsOffered = true
            }
            return []

        case .forgetRecent:
            state = AlbumsState()
            return [.saveRecent([])]

        case .retry:
            if let open = state.open {
                state.open?.phase = .loading
                return [.loadPhotos(albumID: open.album.id)]
            }
            guard let username = state.username else { return [] }
            if let page = state.list.retryPage() { return [.loadAlbums(username: username, page: page)] }
            // A reload from the first page: a next page still on its way is dropped when it comes.
            state.list.restart()
            return [.loadAlbums(username: username, page: 1)]
        }
    }
}
