import ImageFeedCore
import TerminalImage

/// Where a list or a grid is (photos, albums, collections, topics): which item is selected, and the first line of the list on screen.
public struct ListPosition: Equatable, Sendable {
    public var selected = 0
    public var top = 0
    /// What the list shows (a topic and its order, a search and its filters): another content starts at its first item.
    public var content: String?

    public init(selected: Int = 0, top: Int = 0) {
        self.selected = selected
        self.top = top
    }

    /// The list now shows `content`: if it is another than the list showed, the position is its first item (a topic
    /// picked in the feed, a tag searched from a detail), as lazygit, tig and ranger do; the same content keeps it.
    public mutating func follow(_ content: String) {
        guard content != self.content else { return }
        if self.content != nil { self = ListPosition() }
        self.content = content
    }
}

/// How far a detail's text column is scrolled, and for which photo (another photo's detail starts at the top).
public struct DetailScroll: Equatable, Sendable {
    public var photoID: String?
    public var top = 0

    public init(photoID: String? = nil, top: Int = 0) {
        self.photoID = photoID
        self.top = top
    }
}

/// The search filters being chosen, before one search asks for them: the row with the focus and the filters as
/// picked so far (cycling through eleven colours costs no request until Enter).
public struct FilterPicker: Equatable, Sendable {
    public enum Row: Int, CaseIterable, Sendable {
        case orientation, color, safe
    }

    public var row: Row
    public var draft: SearchFilters

    public init(row: Row, draft: SearchFilters) {
        self.row = row
        self.draft = draft
    }

    /// The focused row's next option (the one before, `backwards`).
    public mutating func change(backwards: Bool) {
        switch row {
        case .orientation: draft.cycleOrientation(backwards: backwards)
        case .color: draft.cycleColor(backwards: backwards)
        case .safe: draft.toggleContentFilter()
        }
    }

    public mutating func move(by step: Int) {
        let all = Row.allCases
        row = all[min(all.count - 1, max(0, row.rawValue + step))]
    }
}

/// What only the screen knows: which card is selected, how far the lists are scrolled, which button of a
/// dialog has the focus, the animation frame. The app's state (what is loaded, liked, open) is in `AppState`.
public struct UIState: Equatable, Sendable {
    public var feedList = ListPosition()
    /// The profile pane: its header and the favorites under it scroll as one list.
    public var favoritesList = ListPosition()
    public var searchList = ListPosition()
    /// The Albums pane: the album tiles, and the open album's photos.
    public var albumsList = ListPosition()
    public var albumPhotosList = ListPosition()
    /// The tag of the detail's photo that `t` picked (Enter searches it).
    public var detailTag: Int?
    /// How far the detail's text is scrolled (for the photo it was scrolled on).
    public var detailScroll = DetailScroll()
    /// The lists of the pages opened over a pane, by their depth.
    public var sheetLists: [ListPosition] = []
    /// The search's filter picker, while it is open.
    public var filterPicker: FilterPicker?
    public var modalFocus = 0
    /// The first line of the help shown (it scrolls on small terminals).
    public var helpTop = 0
    /// Advances while something animates (spinners).
    public var tick = 0
    /// The characters photos are drawn with (b in the viewer cycles them); nil: as the settings say.
    public var blitter: BlitterKind?
    /// What a key asked of the viewer's animation, for the run loop to hand to the player (Space, `.` and `,`).
    public var playbackRequest: PlaybackRequest?
    /// What the link to the terminal was found to be (the help overlay says it, under Pictures).
    public var linkNote: String?

    public init() {}

    public var feedSelected: Int {
        get { feedList.selected }
        set { feedList.selected = newValue }
    }

    /// The first line of the feed list on screen.
    public var feedTop: Int {
        get { feedList.top }
        set { feedList.top = newValue }
    }
}

/// What a key asks of an animation in the viewer.
public enum PlaybackRequest: Equatable, Sendable {
    /// Space: pause, or play on.
    case playPause
    /// A frame forward (1) or back (-1), paused there.
    case step(Int)
    /// `r`: the animation that could not be read (or was damaged) is fetched and read again.
    case retry
}
