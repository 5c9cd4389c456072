import Foundation
import ImageFeedCore
import TerminalImage

/// The pages opened over a pane: a photographer's (avatar, name, @username, location, portfolio, counts and bio,
/// then their photos, likes or collections), a collection's (its title, owner and description, then its photos),
/// and the topics the feed can show. The header stays; the list under it scrolls. Photos are cards as in the feed,
/// collections and topics tiles with their cover photo.
struct SheetScreen: Screen {
    let theme: Theme
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    /// A page's keys.
    static let keys: [KeyRecord] = [
        SharedKeys.grid, SharedKeys.pages, SharedKeys.lines, SharedKeys.ends,
        KeyRecord([(.previousSection, [.character("[")]), (.nextSection, [.character("]")])],
                  "a photographer's photos, likes, collections", hint: "sections", rank: 35),
        SharedKeys.open("open the photo, the collection or the topic"),
        SharedKeys.details, SharedKeys.like, SharedKeys.sort, SharedKeys.photographer("the photographer of the photo"),
        KeyRecord([(.takeOut, [.character("X"), .delete])], "your collections: take the photo out", hint: "take out", rank: 36),
        SharedKeys.reload("retry what failed", hint: "retry"),
        SharedKeys.back(),
    ]

    static let avatarColumns = 12
    static let avatarRows = 6

    static let photoTexts = ListTexts(loading: "Loading the photos", failed: "Couldn't load the photos",
                                      empty: ["No photos here yet."], end: "That's all the photos.")

    // MARK: Geometry

    /// The header's lines, beside the avatar for a photographer.
    func headerLines(_ page: ExploreSheet, width: Int) -> [(String, CellStyle)] {
        switch page {
        case let .photographer(photographer):
            let user = photographer.user
            var lines: [(String, CellStyle)] = []
            lines.append((user.map { UntrustedText.sanitize($0.displayName) } ?? photographer.username, theme.title))
            var handle = "@" + UntrustedText.sanitize(photographer.username)
            if let location = user?.location.map(UntrustedText.sanitize), !location.isEmpty { handle += "  " + location }
            lines.append((handle, theme.accent))
            if let user {
                var counts: [String] = []
                if let photos = user.totalPhotos { counts.append("\(photos) photo\(photos == 1 ? "" : "s")") }
                if let likes = user.totalLikes { counts.append("\(likes) like\(likes == 1 ? "" : "s")") }
                if let collections = user.totalCollections { counts.append("\(collections) collection\(collections == 1 ? "" : "s")") }
                if !counts.isEmpty { lines.append((counts.joined(separator: " · "), theme.muted)) }
                if let portfolio = user.portfolioURL { lines.append((UntrustedText.sanitize(portfolio.absoluteString), theme.muted)) }
            }
            if let error = photographer.userFailed {
                lines.append(("Couldn't load the profile (\(error.summary)). \(theme.key(.reload)) tries again.", theme.error))
            } else if let bio = user?.bio.map(UntrustedText.sanitize), !bio.isEmpty {
                lines += Widgets.wrap(bio, width: max(10, width - Self.avatarColumns - 6)).prefix(2).map { ($0, CellStyle.plain) }
            } else if !photographer.userLoaded {
                lines.append(("Loading the profile\(theme.dots)", theme.muted))
            }
            return lines
        case let .collection(page):
            let collection = page.collection
            var lines: [(String, CellStyle)] = [(UntrustedText.sanitize(collection.title), theme.title)]
            var byline: [String] = []
            if let owner = collection.user { byline.append("by " + UntrustedText.sanitize(owner.displayName)) }
            if let count = collection.totalPhotos { byline.append("\(count) photo\(count == 1 ? "" : "s")") }
            if !byline.isEmpty { lines.append((byline.joined(separator: " · "), theme.muted)) }
            // Text below the title wraps to the width (the header grows by its rows; a description by three at most).
            if let description = collection.description.map(UntrustedText.sanitize), !description.isEmpty {
                lines += Widgets.wrap(description, width: max(10, width - 3)).prefix(3).map { ($0, CellStyle.plain) }
            }
            return lines
        case .topics:
            return [("Topics", theme.title)] + Widgets.wrap(
                theme.spell("{open} shows the topic in the feed instead of the editorial feed; the choice is kept."),
                width: max(10, width - 3)).map { ($0, theme.muted) }
        case let .collectionPicker(picker):
            let caption = picker.photo.caption.map(UntrustedText.sanitize) ?? "this photo"
            let text = theme.spell("{open} puts ") + theme.quoted(caption)
                + theme.spell(" in the collection picked, or takes it out of one marked \(holdsMark); {take-out} takes it out.")
            return [("Your collections", theme.title)] + Widgets.wrap(text, width: max(10, width - 3)).prefix(3).map { ($0, theme.muted) }
        }
    }

    /// What marks a collection that holds the photo, in the picker and in its header.
    private var holdsMark: String { theme.unicode ? "✓" : "*" }

    /// The rows the header takes (the section bar included, for a photographer).
    func headerRows(_ page: ExploreSheet, width: Int) -> Int {
        switch page {
        case .photographer: max(Self.avatarRows, headerLines(page, width: width).count) + 2
        case .collection, .topics, .collectionPicker: headerLines(page, width: width).count + 1
        }
    }

    func listArea(_ page: ExploreSheet, area: Rect) -> Rect {
        let rows = min(headerRows(page, width: area.width), max(0, area.height - 4))
        return Rect(x: area.x, y: area.y + rows, width: area.width, height: area.height - rows)
    }

    /// The tiles of a page's grid (collections, topics): a stand-in photo per tile for the layout and the cover.
    func tiles(_ page: ExploreSheet) -> [CoverTiles.Entry]? {
        switch page {
        case let .photographer(photographer) where photographer.section == .collections:
            return photographer.collections.items.map { collection in
                (collection.title, collection.totalPhotos.map { "\($0) photo\($0 == 1 ? "" : "s")" } ?? "", collection.coverPhoto)
            }
        case let .topics(topics):
            return [("Editorial", "the feed's own choice", nil)] + topics.topics.items.map { topic in
                (topic.title, topic.totalPhotos.map { "\($0) photo\($0 == 1 ? "" : "s")" } ?? "", topic.coverPhoto)
            }
        case let .collectionPicker(picker):
            return picker.collections.items.map { collection in
                let count = collection.totalPhotos.map { "\($0) photo\($0 == 1 ? "" : "s")" } ?? ""
                let holds = picker.holds(collection) == true
                let title = holds ? holdsMark + " " + collection.title : collection.title
                let line = picker.changing == collection.id ? "changing\(theme.dots)" : holds ? "holds it · " + count : count
                return (title, line, collection.coverPhoto)
            }
        default:
            return nil
        }
    }

    func tileLayout(_ tiles: [CoverTiles.Entry], list: Rect) -> TileLayout {
        CoverTiles(theme: theme).layout(tiles, list: list)
    }

    func cardLayout(_ photos: PhotoListState, list: Rect) -> CardLayout {
        CardLayout(photos: photos.photos, width: list.width, viewportHeight: list.height, cellAspect: theme.cellAspect)
    }

    /// The selection of a grid page (the list's own for photos).
    private func gridSelection(_ page: ExploreSheet) -> Int {
        switch page {
        case let .photographer(photographer): photographer.collections.selected
        case let .topics(topics): topics.topics.selected
        case let .collectionPicker(picker): picker.collections.selected
        case .collection: 0
        }
    }

    // MARK: Drawing

    func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        guard let page = app.shownSheet else { return }
        let position = ui.sheetPosition(app)
        renderHeader(page, you: app.profile.profile?.username, ui: ui, area: area, pictures: pictures, into: &buffer)
        let list = listArea(page, area: area)
        if let (_, photos) = page.photoList {
            CardList(theme: theme, texts: Self.photoTexts, wrap: { .explore(.list($0)) })
                .render(photos, layout: cardLayout(photos, list: list), position: position, tick: ui.tick, modalFocus: ui.modalFocus,
                        area: list, pictures: pictures, into: &buffer)
            return
        }
        guard let tiles = tiles(page) else { return }
        var grid = position
        grid.selected = gridSelection(page)
        let what = if case .topics = page { "the topics" } else { "the collections" }
        CoverTiles(theme: theme).render(tiles, phase: tilesPhase(page), empty: "No collections yet.", what: what, position: grid, list: list,
                                        tick: ui.tick, pictures: pictures, into: &buffer)
    }

    private func tilesPhase(_ page: ExploreSheet) -> PhotoListState.Phase {
        switch page {
        case let .photographer(photographer): photographer.collections.phase
        case let .topics(topics): topics.topics.phase
        case let .collectionPicker(picker): picker.collections.phase
        case .collection: .content
        }
    }

    private func renderHeader(_ page: ExploreSheet, you: String?, ui: UIState, area: Rect, pictures: PictureProvider,
                              into buffer: inout CellBuffer) {
        // On a short terminal the header gets the rows above the list and no more: the list keeps its rows, and a
        // photographer's section bar stays right above it.
        let listTop = listArea(page, area: area).y
        let sectionBar: Bool = if case .photographer = page { true } else { false }
        let header = Rect(x: area.x, y: area.y, width: area.width, height: max(0, listTop - area.y - (sectionBar ? 1 : 0)))
        var textX = area.x + 2
        if case let .photographer(photographer) = page, header.height > 0 {
            let avatar = Rect(x: area.x + 2, y: area.y, width: Self.avatarColumns, height: min(Self.avatarRows, header.height))
            let image = photographer.user?.profileImage
            if let url = image?.large ?? image?.medium ?? image?.small,
               case let .ready(picture) = pictures.picture(for: Photo(id: "avatar:\(photographer.username)", width: 1, height: 1,
                                                                       urls: PhotoURLs(small: url)),
                                                            url: url, columns: avatar.width, rows: avatar.height) {
                buffer.draw(picture, x: avatar.x, y: avatar.y, clip: header)
            } else {
                for y in avatar.y..<avatar.maxY {
                    buffer.fill(Rect(x: avatar.x, y: y, width: avatar.width, height: 1), with: Cell(" ", style: theme.placeholder))
                }
            }
            textX = avatar.maxX + 3
        }
        for (index, line) in headerLines(page, width: area.width).enumerated() where area.y + index < header.maxY {
            buffer.write(line.0, x: textX, y: area.y + index, style: line.1, maxWidth: area.maxX - textX - 1, ellipsis: theme.ellipsis)
        }
        guard case let .photographer(photographer) = page else { return }
        // The sections, the one shown highlighted; the photos' order at the right.
        let y = listTop - 1
        guard y >= area.y, y < area.maxY else { return }
        var x = area.x + 2
        for section in PhotographerSheet.Section.allCases {
            let count: Int? = switch section {
            case .photos: photographer.user?.totalPhotos
            case .likes: photographer.user?.totalLikes
            case .collections: photographer.user?.totalCollections
            }
            // Your own likes are your favorites, named as the profile names them.
            let own = photographer.username.lowercased() == you?.lowercased()
            let title = section == .likes && own ? "Favorites" : section.title
            let label = " \(title)\(count.map { " \($0)" } ?? "") "
            x += buffer.write(label, x: x, y: y, style: section == photographer.section ? theme.activeTab : theme.muted) + 1
        }
        // The keys that switch them, said as keys ("[ ]" alone reads as a box to tick).
        x += buffer.write(" \(keys.hintKeys(.previousSection, in: .sheet)) and \(keys.hintKeys(.nextSection, in: .sheet)) switch ", x: x, y: y,
                          style: theme.muted)
        if photographer.section == .photos {
            let order = "sort: \(photographer.order.rawValue) (\(keys.hintKeys(.sort, in: .sheet)))"
            if area.maxX - DisplayWidth.of(order) - 1 > x { buffer.write(order, x: area.maxX - DisplayWidth.of(order) - 1, y: y, style: theme.muted) }
        }
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        guard let page = app.shownSheet else { return [] }
        var position = ui.sheetPosition(app)
        defer { ui.setSheetPosition(position, app) }
        if !dialogIsOpen(app) {
            switch intent {
            case .back:
                return [.explore(.back)]
            case .nextSection:
                position = ListPosition()
                return [.explore(.stepSection(1))]
            case .previousSection:
                position = ListPosition()
                return [.explore(.stepSection(-1))]
            case .sort:
                guard case let .photographer(photographer) = page, photographer.section == .photos else { return [] }
                position = ListPosition()
                return [.explore(.cycleOrder)]
            case .reload where page.photoList == nil || isPhotographerFailing(page):
                return [.explore(.retry)]
            case .takeOut:
                switch page {
                case .collectionPicker:
                    return [.explore(.changeCollection(add: false, index: gridSelection(page)))]
                case .collection:
                    return [.explore(.takeOutOfShownCollection(photoIndex: position.selected))]
                default:
                    break
                }
            default:
                break
            }
        }
        let list = listArea(page, area: area)
        if let (_, photos) = page.photoList {
            return CardList(theme: theme, texts: Self.photoTexts, wrap: { .explore(.list($0)) })
                .handle(input, intent: intent, feed: photos, layout: cardLayout(photos, list: list), position: &position,
                        modalFocus: &ui.modalFocus, area: list)
        }
        guard let tiles = tiles(page) else { return [] }
        position.selected = gridSelection(page)
        switch CoverTiles(theme: theme).handle(input, intent: intent, entries: tiles, list: list, position: &position) {
        case .none:
            return []
        case .moved:
            return [.explore(.select(index: position.selected))]
        case let .open(index):
            switch page {
            case let .photographer(photographer):
                guard let collection = photographer.collections.items[safe: index] else { return [] }
                return [.explore(.select(index: index)), .explore(.openCollection(collection))]
            case let .topics(topics):
                return [.explore(.chooseTopic(index == 0 ? nil : topics.topics.items[safe: index - 1]))]
            case let .collectionPicker(picker):
                // Enter puts the photo in, or takes it out of a collection marked as holding it.
                guard let collection = picker.collections.items[safe: index] else { return [] }
                return [.explore(.select(index: index)), .explore(.changeCollection(add: picker.holds(collection) != true, index: index))]
            case .collection:
                return []
            }
        }
    }

    func keyContext(_ app: AppState) -> KeyContext { .sheet }
    func title(_ app: AppState) -> String { "Keys: " + Self.pageTitle(app.shownSheet) }

    static func pageTitle(_ page: ExploreSheet?) -> String {
        switch page {
        case .photographer: "a photographer's page"
        case .collection: "a collection"
        case .collectionPicker: "your collections"
        case .topics, nil: "topics"
        }
    }

    /// The like-failed dialog of the page's photos.
    func dialogIsOpen(_ app: AppState) -> Bool { app.shownSheet?.photoList?.list.modal != nil }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { app.shownSheet?.photoList.flatMap { PhotoParts.dialogHints($0.list, ui: ui) } }

    private func isPhotographerFailing(_ page: ExploreSheet) -> Bool {
        if case let .photographer(photographer) = page { return photographer.userFailed != nil }
        return false
    }

    /// The page's keys that apply to the page shown: a topics page has no sections, likes or photographer, the
    /// collection picker adds and takes out. The help lists these (and, on a photographer's photos or likes, `u` for
    /// the photographer of the photo, which the hints leave out there), with the moves every page has.
    func helpShows(_ app: AppState) -> Set<Intent>? {
        var shown = shownIntents(app).union([.pageUp, .pageDown, .lineUp, .lineDown, .first, .last, .reload])
        if case let .photographer(photographer) = app.shownSheet, photographer.section != .collections { shown.insert(.photographer) }
        return shown
    }

    /// The intents the status line's hints offer on the page shown.
    private func shownIntents(_ app: AppState) -> Set<Intent> {
        var shown: Set<Intent> = [.back, .help, .open, .up, .down, .left, .right]
        switch app.shownSheet {
        case let .photographer(photographer):
            shown.formUnion([.previousSection, .nextSection])
            if photographer.section != .collections { shown.formUnion([.sort, .like, .details]) }
        case let .collection(sheet):
            shown.formUnion([.like, .photographer, .details])
            if let owner = sheet.collection.user?.username, owner.lowercased() == app.profile.profile?.username.lowercased() {
                shown.insert(.takeOut)
            }
        case .collectionPicker:
            shown.insert(.takeOut)
        case .topics, nil:
            break
        }
        return shown
    }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        let shown = shownIntents(app)
        var labels: [Intent: String] = [:]
        switch app.shownSheet {
        case let .collectionPicker(picker):
            let selected = picker.collections.items[safe: picker.collections.selected]
            labels[.open] = selected.map { picker.holds($0) == true } == true ? "take out" : "add"
        case .topics, nil:
            labels[.open] = "show in the feed"
        default:
            break
        }
        return keys.hints(.sheet, labels: labels) { shown.contains($0) }
    }

    /// How far into its list the page's frame shows.
    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        guard let page = app.shownSheet else { return nil }
        let position = ui.sheetPosition(app)
        let list = listArea(page, area: area)
        if let (_, photos) = page.photoList {
            return cardLayout(photos, list: list).lastShown(top: position.top).map { (.sheet, max($0, position.selected)) }
        }
        guard let tiles = tiles(page) else { return nil }
        return tileLayout(tiles, list: list).lastShown(top: position.top).map { (.sheet, max($0, gridSelection(page))) }
    }

    /// Back from the viewer: the page's list selects the photo the viewer was on.
    /// After a resize, the selected card or tile is in view at the new size (as the panes' are).
    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        guard let page = app.shownSheet else { return }
        var position = ui.sheetPosition(app)
        let list = listArea(page, area: area)
        if let (_, photos) = page.photoList {
            position.top = cardLayout(photos, list: list).scroll(toShow: position.selected, from: position.top)
        } else if let tiles = tiles(page) {
            position.selected = gridSelection(page)
            _ = CoverTiles(theme: theme).handle(.resize, intent: nil, entries: tiles, list: list, position: &position)
        }
        ui.setSheetPosition(position, app)
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let page = app.shownSheet, let (_, photos) = page.photoList,
              let index = photos.photos.firstIndex(ofID: photoID) else { return }
        var position = ui.sheetPosition(app)
        position.selected = index
        position.top = cardLayout(photos, list: listArea(page, area: area)).scroll(toShow: index, from: position.top)
        ui.setSheetPosition(position, app)
    }
}

extension UIState {
    /// Where the list of the page on top is (each page keeps its own, by its depth).
    func sheetPosition(_ app: AppState) -> ListPosition {
        let depth = (app.explore?.sheets.count ?? 1) - 1
        return sheetLists.indices.contains(depth) ? sheetLists[depth] : ListPosition()
    }

    mutating func setSheetPosition(_ position: ListPosition, _ app: AppState) {
        let depth = (app.explore?.sheets.count ?? 1) - 1
        guard depth >= 0 else { return }
        while sheetLists.count <= depth { sheetLists.append(ListPosition()) }
        sheetLists[depth] = position
    }

    /// A page about to open starts at its top.
    mutating func startSheet(atDepth depth: Int) {
        while sheetLists.count <= depth { sheetLists.append(ListPosition()) }
        sheetLists[depth] = ListPosition()
        sheetLists.removeSubrange((depth + 1)...)
    }
}
