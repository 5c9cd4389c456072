import Foundation
import ImageFeedCore
import TerminalImage

/// The Albums pane (Imgur): a username field, the user's albums as tiles with their covers (a gray box
/// when an album has none), and an album's photos as tiles; Enter on a photo opens the viewer.
public struct AlbumsScreen {
    public let theme: Theme
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    public init(theme: Theme) {
        self.theme = theme
    }

    /// The albums' keys.
    static let keys: [KeyRecord] = [
        KeyRecord([(.username, [.character("e")])], "type an Imgur username", extra: ", click the field", hint: "user", rank: 25),
        SharedKeys.grid, SharedKeys.pages, SharedKeys.lines, SharedKeys.ends,
        SharedKeys.open("open the album, or the photo"),
        SharedKeys.reload("reload, or retry what failed", hint: "retry"),
        SharedKeys.back("back from an album"),
    ]

    /// The username field's keys: every other key is text.
    static let fieldKeys: [KeyRecord] = [
        KeyRecord(fixed: "Enter", "show the user's albums", hint: "show albums", rank: 0),
        KeyRecord(fixed: "Esc", "leave the field", hint: "done", rank: 1),
        KeyRecord(fixed: "Tab  Shift-Tab", "leave it for another pane", hint: "panes", hintKeys: "Tab", rank: 2),
        KeyRecord(fixed: "Ctrl-C", "quit"),
    ]

    /// Below the field line and the summary line.
    public func listArea(_ area: Rect) -> Rect {
        Rect(x: area.x, y: area.y + 2, width: area.width, height: max(1, area.height - 2))
    }

    /// Albums shown as tiles: the same geometry as photo tiles, the cover's size standing for the photo's.
    static func coverStandIns(_ albums: [Album]) -> [Photo] {
        albums.map { album in
            Photo(id: album.id, width: album.coverWidth > 0 ? album.coverWidth : 3, height: album.coverHeight > 0 ? album.coverHeight : 2,
                  urls: PhotoURLs(small: album.coverURL))
        }
    }

    public func albumsLayout(_ state: AlbumsState, area: Rect) -> TileLayout {
        let list = listArea(area)
        return TileLayout(photos: Self.coverStandIns(state.albums), width: list.width, viewportHeight: list.height, layout: .grid,
                          cellAspect: theme.cellAspect)
    }

    public func photosLayout(_ open: AlbumsState.OpenAlbum, area: Rect) -> TileLayout {
        let list = listArea(area)
        return TileLayout(photos: open.photos, width: list.width, viewportHeight: list.height, layout: .grid, cellAspect: theme.cellAspect)
    }

    // MARK: Rendering

    public func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let state = app.albums
        renderHeader(state, area: area, into: &buffer)
        let list = listArea(area)
        let parts = PhotoParts(theme: theme)
        guard let username = state.username else {
            var lines: [(String, CellStyle)] = [("Imgur albums", theme.title)]
            if state.isEditing {
                lines.append(("Type a username and press Enter to see their albums.", theme.muted))
            } else {
                lines.append(("Press \(keys.hintKeys(.username, in: .albums)) (or click the field) to type a username; \(keys.hintKeys(.nextPane, in: .albums)) goes to the other panes.", theme.muted))
            }
            if state.fieldIsOffered, state.isEditing {
                lines.append(("Enter shows \(UntrustedText.sanitize(state.field))'s albums again; typing replaces the name.", theme.muted))
            }
            if state.recent.count > 1 || (state.recent.count == 1 && !state.fieldIsOffered) {
                lines.append(("Looked up before: " + state.recent.map(UntrustedText.sanitize).joined(separator: ", "), theme.muted))
            }
            if app.isDemo { lines.append(("In the demo, try labs, nasa, stefan or textures.", theme.muted)) }
            parts.centred(lines, in: list, into: &buffer)
            return
        }
        if let open = state.open {
            renderAlbum(open, ui: ui, area: area, pictures: pictures, into: &buffer)
            return
        }
        switch state.phase {
        case .loading:
            parts.centred([("\(theme.spinner(ui.tick)) Loading the albums of \(UntrustedText.sanitize(username))\(theme.dots)", theme.accent)],
                          in: list, into: &buffer)
            return
        case let .failed(error):
            let headline = error == .notFound ? "No Imgur user \(UntrustedText.sanitize(username))." : "Couldn't load the albums"
            parts.centred([(headline, theme.error), (error == .notFound ? "Check the name (press \(keys.hintKeys(.username, in: .albums)) to change it)." : error.message(from: "Imgur"), .plain)]
                          + (theme.retryAdvice(error).map { [($0, theme.muted)] } ?? []), in: list, into: &buffer)
            return
        case .content:
            break
        }
        if state.albums.isEmpty {
            parts.centred([("\(UntrustedText.sanitize(username)) has no albums.", theme.title),
                           ("Press \(keys.hintKeys(.username, in: .albums)) to look up someone else.", theme.muted)], in: list, into: &buffer)
            return
        }
        let layout = albumsLayout(state, area: area)
        let standIns = Self.coverStandIns(state.albums)
        let top = ui.albumsList.top
        let tiles: [CoverTiles.Entry] = state.albums.enumerated().map { index, album in
            var details: [String] = []
            if let count = album.photoCount { details.append("\(count) photo\(count == 1 ? "" : "s")") }
            if let date = album.createdAt { details.append(CivilTime.day(date)) }
            return (album.displayTitle, details.joined(separator: "  "), album.coverURL == nil ? nil : standIns[index])
        }
        CoverTiles(theme: theme).render(tiles, phase: .content, empty: "", position: ui.albumsList, list: list, tick: ui.tick,
                                        layout: layout, noCover: "No cover", pictures: pictures, into: &buffer)
        let footerLine = layout.totalHeight - TileLayout.footerRows
        if footerLine >= top, footerLine < top + list.height {
            let y = list.y + footerLine - top
            if state.loadingMore {
                buffer.write("\(theme.spinner(ui.tick)) Loading more albums\(theme.dots)", x: 2, y: y, style: theme.accent)
            } else if let error = state.moreFailed {
                buffer.write("Couldn't load more: \(error.message(from: "Imgur")) Press \(theme.key(.reload)) to retry.", x: 2, y: y, style: theme.error,
                             maxWidth: list.width - 4, ellipsis: theme.ellipsis)
            } else if state.list.waitsForAsk {
                buffer.write("The last page brought nothing new. Press \(theme.key(.reload)) for more.", x: 2, y: y, style: theme.muted,
                             maxWidth: list.width - 4, ellipsis: theme.ellipsis)
            } else if state.nextPage == nil {
                buffer.write("That's all the albums.", x: 2, y: y, style: theme.muted)
            }
        }
    }

    private func renderHeader(_ state: AlbumsState, area: Rect, into buffer: inout CellBuffer) {
        let y = area.y
        // An offered name shows selected, as text that typing will replace.
        TextFieldView(theme: theme).drawLabelled("Imgur user ", text: state.field, cursor: state.isEditing ? state.fieldCursor : nil,
                                                 selected: state.fieldIsOffered && state.isEditing, hint: "press \(keys.hintKeys(.username, in: .albums)) to type a name",
                                                 x: area.x + 1, y: y, fieldWidth: { max(8, min(40, area.width - $0 - 2)) }, into: &buffer)
        var summary: String?
        if let open = state.open {
            var text = UntrustedText.sanitize(open.album.displayTitle)
            if open.phase == .content { text += "  \(open.photos.count) photo\(open.photos.count == 1 ? "" : "s")" }
            // The album's description, when it has one, as far as the line goes.
            if let description = open.album.description.map(UntrustedText.sanitize), !description.isEmpty {
                text += "  · " + description
            }
            summary = text
        } else if let username = state.username, state.phase == .content {
            summary = "Albums of \(UntrustedText.sanitize(username))" + (state.albums.isEmpty ? "" : " (\(state.albums.count)\(state.nextPage == nil ? "" : "+"))")
        }
        if let summary {
            buffer.write(summary, x: area.x + 2, y: y + 1, style: theme.muted, maxWidth: area.width - 3, ellipsis: theme.ellipsis)
        }
    }

    private func renderAlbum(_ open: AlbumsState.OpenAlbum, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let list = listArea(area)
        let parts = PhotoParts(theme: theme)
        switch open.phase {
        case .loading:
            parts.centred([("\(theme.spinner(ui.tick)) Loading the album\(theme.dots)", theme.accent)], in: list, into: &buffer)
            return
        case let .failed(error):
            parts.centred([("Couldn't load the album", theme.error), (error.message(from: "Imgur"), .plain),
                           (theme.retryAdvice(error).map { "\($0.dropLast()), \(theme.key(.back)) to go back." } ?? "\(theme.key(.back)) goes back.", theme.muted)],
                          in: list, into: &buffer)
            return
        case .content:
            break
        }
        if open.photos.isEmpty {
            parts.centred([("This album has no photos.", theme.title), ("Press \(theme.key(.back)) to go back.", theme.muted)], in: list, into: &buffer)
            return
        }
        let layout = photosLayout(open, area: area)
        let top = ui.albumPhotosList.top
        for (index, tile) in layout.tiles.enumerated() where tile.top < top + list.height && tile.top + tile.boxRows + TileLayout.textRows > top {
            let photo = open.photos[index]
            let boxTop = tile.top + list.y - top
            let pictureRect = Rect(x: tile.pictureX, y: boxTop + (tile.boxRows - tile.pictureRows) / 2,
                                   width: tile.pictureColumns, height: tile.pictureRows)
            let slot = pictures.picture(for: photo, url: photo.urls.sized(width: pictures.pixelWidth(columns: tile.pictureColumns)),
                                        columns: tile.pictureColumns, rows: tile.pictureRows,
                                        selected: index == ui.albumPhotosList.selected)
            parts.drawPicture(slot, in: pictureRect, clip: list, tick: ui.tick, into: &buffer)
            let textY = boxTop + tile.boxRows
            if textY >= list.y, textY < list.maxY, let caption = photo.caption.map(UntrustedText.sanitize), !caption.isEmpty {
                buffer.write(caption, x: tile.x, y: textY, style: .plain, maxWidth: tile.width, ellipsis: theme.ellipsis)
            }
            if textY + 1 >= list.y, textY + 1 < list.maxY {
                var details: [String] = []
                if photo.isAnimated == true { details.append("animated") }
                if photo.width > 0, photo.height > 0 { details.append("\(photo.width)x\(photo.height)") }
                if let date = photo.createdAt { details.append(CivilTime.day(date)) }
                buffer.write(details.joined(separator: "  "), x: tile.x, y: textY + 1, style: theme.muted,
                             maxWidth: tile.width, ellipsis: theme.ellipsis)
            }
            if index == ui.albumPhotosList.selected {
                parts.tileSelectionBar(tile, boxTop: boxTop, rows: tile.boxRows + 2, clip: list, into: &buffer)
            }
        }
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        let state = app.albums
        if state.isEditing {
            switch input {
            case let .key(key):
                switch key {
                case .enter:
                    ui.albumsList = ListPosition()
                    return [.albums(.submit)]
                case .escape: return [.albums(.cancelEditing)]
                // Tab leaves the field for the next pane, as it does everywhere else.
                case .tab: return [.albums(.cancelEditing), .nextTab]
                case .backTab: return [.albums(.cancelEditing), .previousTab]
                // An offered name is replaced by what is typed, and cleared by Backspace.
                default: return TextFieldView.edit(for: key).map { [.albums(.editText($0))] } ?? []
                }
            case let .mouse(mouse) where mouse.kind == .press && mouse.y != area.y:
                return [.albums(.cancelEditing)] // a click away from the field leaves it
            default:
                return []
            }
        }
        if intent == .username { return [.albums(.editUsername)] }
        // Over the albums list, a letter that is no key here starts a new name, as the search's field takes typing.
        if state.open == nil, intent == nil, case let .key(.character(character)) = input, character != " ",
           character.isLetter || character.isNumber || "_-.".contains(character), !(character.wholeNumberValue.map { (1...9).contains($0) } ?? false),
           let edit = TextFieldView.edit(for: .character(character)) {
            return [.albums(.editUsername), .albums(.editText(edit))]
        }
        if case let .mouse(mouse) = input, mouse.kind == .press, mouse.y == area.y { return [.albums(.editUsername)] }
        let list = listArea(area)
        if let open = state.open {
            let layout = photosLayout(open, area: area)
            var position = ui.albumPhotosList
            defer { ui.albumPhotosList = position }
            switch intent {
            case .back:
                position = ListPosition()
                return [.albums(.closeAlbum)]
            case .reload:
                if case .failed = open.phase { return [.albums(.retry)] }
                return []
            case .open:
                guard let photo = open.photos[safe: position.selected] else { return [] }
                return [.openViewer(photoID: photo.id)]
            default:
                switch CoverTiles(theme: theme).handle(input, intent: intent, layout: layout, count: open.photos.count, list: list,
                                                       position: &position, pageRows: 2) {
                case .none: return []
                case .moved: return [.albums(.selectPhoto(index: position.selected))]
                case let .open(index): return [.albums(.selectPhoto(index: index)), .openViewer(photoID: open.photos[index].id)]
                }
            }
        }
        let layout = albumsLayout(state, area: area)
        var position = ui.albumsList
        defer { ui.albumsList = position }
        switch intent {
        case .reload:
            return [.albums(.retry)]
        case .open:
            guard state.albums.indices.contains(position.selected) else { return [] }
            ui.albumPhotosList = ListPosition()
            return [.albums(.openAlbum(index: position.selected))]
        case .back:
            return []
        default:
            switch CoverTiles(theme: theme).handle(input, intent: intent, layout: layout, count: state.albums.count, list: list,
                                                   position: &position, pageRows: 2) {
            case .none:
                return []
            case .moved:
                return [.albums(.selectAlbum(index: position.selected))]
            case let .open(index):
                ui.albumPhotosList = ListPosition()
                return [.albums(.selectAlbum(index: index)), .albums(.openAlbum(index: index))]
            }
        }
    }
}

extension AlbumsScreen: Screen {
    func keyContext(_ app: AppState) -> KeyContext { app.albums.isEditing ? .albumField : .albums }
    func title(_ app: AppState) -> String { app.albums.isEditing ? "Keys: the username field" : "Keys: Imgur albums" }
    func isSubScreen(_ app: AppState) -> Bool { app.albums.open != nil }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        if app.albums.isEditing { return keys.hints(.albumField) }
        // r retries what failed; where nothing did, it reloads, and says so.
        var failed = app.albums.moreFailed != nil
        if case .failed = app.albums.open?.phase ?? app.albums.phase { failed = true }
        let reload = failed ? "retry" : "reload"
        if app.albums.open != nil {
            return keys.hints(.albums, labels: [.open: "full screen", .reload: reload]) { ![.quit, .nextPane, .search].contains($0) }
        }
        return keys.hints(.albums, labels: [.reload: reload]) { $0 != .back && $0 != .search }
    }

    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        guard app.albums.open == nil else { return nil }
        let layout = albumsLayout(app.albums, area: area)
        guard let last = layout.lastShown(top: ui.albumsList.top) else { return nil }
        // Album tiles are few to a screen: two rows below what shows are asked for with it.
        return (.albums, min(app.albums.albums.count - 1, max(last, ui.albumsList.selected) + layout.columns * 2))
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let open = app.albums.open, let index = open.photos.firstIndex(where: { $0.id == photoID }) else { return }
        photosLayout(open, area: area).select(index, in: &ui.albumPhotosList)
    }

    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        _ = handle(.resize, intent: nil, app: app, ui: &ui, area: area)
    }
}
