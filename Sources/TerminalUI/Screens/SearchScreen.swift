import Foundation
import ImageFeedCore
import TerminalImage

/// The search pane: the query field (with earlier queries as suggestions), the sort and layout, the results
/// as tiles, and the detail screen of one result.
public struct SearchScreen {
    public let theme: Theme
    /// The keys in force (the theme carries them).
    var keys: KeyMap { theme.keys }

    /// The filter picker, when it is open (a dialog: it has the keyboard).
    let picker: FilterPicker?

    public init(theme: Theme, picker: FilterPicker? = nil) {
        self.theme = theme
        self.picker = picker
    }

    private func key(_ intent: Intent) -> String { keys.hintKeys(intent, in: .search) }

    /// The results' keys (`/` is everywhere's: it focuses the field).
    static let keys: [KeyRecord] = [
        SharedKeys.grid, SharedKeys.pages, SharedKeys.lines, SharedKeys.ends,
        SharedKeys.open("details of the result", hint: "details"),
        SharedKeys.like, SharedKeys.photographer("the photographer's page"),
        KeyRecord([(.sort, [.character("s")])], "sort by relevance or date", hint: "sort", rank: 55),
        KeyRecord([(.columns, [.character("v")])], "1 or 2 columns", hint: "layout", rank: 56),
        KeyRecord([(.kind, [.character("m")])], "look for photos, people or collections", hint: "what to find", rank: 57),
        KeyRecord([(.orientation, [.character("O")]), (.color, [.character("C")])],
                  "choose filters (orientation, colour) in a picker", hint: "filters", hintFirstOnly: true, rank: 82),
        KeyRecord([(.safe, [.character("W")])], "work-safe results only, on or off"),
        SharedKeys.reload("retry what failed", hint: "retry"),
    ]

    /// The search field's keys: every other key is text.
    static let fieldKeys: [KeyRecord] = [
        KeyRecord(fixed: "Enter", "search", hint: "search", rank: 0),
        KeyRecord(fixed: "↑ ↓  Tab", "pick an earlier query", hint: "earlier queries", hintKeys: "↑↓", rank: 2),
        KeyRecord(fixed: "Esc", "leave the field", hint: "done", rank: 1),
        KeyRecord(fixed: "Ctrl-C", "quit"),
    ]

    /// Lines above the results: the field, then the summary line.
    static let headerRows = 2

    public func resultsArea(_ area: Rect) -> Rect {
        Rect(x: area.x, y: area.y + Self.headerRows, width: area.width, height: max(1, area.height - Self.headerRows))
    }

    public func layout(_ search: SearchState, area: Rect) -> TileLayout {
        let results = resultsArea(area)
        return TileLayout(photos: search.results.photos, width: results.width, viewportHeight: results.height, layout: search.layout,
                          cellAspect: theme.cellAspect)
    }

    static func orderName(_ order: SearchOrder) -> String {
        order == .relevant ? "relevance" : "latest"
    }

    // MARK: Rendering

    public func render(_ app: AppState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let search = app.search
        renderField(search, area: area, into: &buffer)
        let results = resultsArea(area)
        renderResults(search, ui: ui, area: results, pictures: pictures, into: &buffer)
        if search.editing { renderSuggestions(search, area: area, into: &buffer) }
        if case let .likeFailed(_, liked, error) = search.results.modal {
            PhotoParts(theme: theme).likeFailedDialog(liked: liked, error, focused: ui.modalFocus, in: area, into: &buffer)
        }
        if let picker = ui.filterPicker { renderPicker(picker, area: area, into: &buffer) }
    }

    /// The filter picker: a row for each filter, its value between arrows; nothing is asked of the service until
    /// Enter.
    private func renderPicker(_ picker: FilterPicker, area: Rect, into buffer: inout CellBuffer) {
        let (left, right) = theme.unicode ? ("◂", "▸") : ("<", ">")
        let rows: [(FilterPicker.Row, String, String)] = [
            (.orientation, "Orientation", picker.draft.orientation?.rawValue ?? "any"),
            (.color, "Colour", picker.draft.color?.title ?? "any"),
            (.safe, "Work-safe only", picker.draft.contentFilter == .high ? "yes" : "no"),
        ]
        let help = "\(keys.hintKeys(.left, in: .search))\(keys.hintKeys(.right, in: .search)) change  "
            + "\(keys.hintKeys(.open, in: .search)) search  Esc cancel"
        let width = min(area.width - 2, max(40, DisplayWidth.of(help) + 4))
        let height = min(area.height, rows.count + 4)
        guard width >= 20, height >= rows.count + 2 else { return }
        let box = Rect(x: area.x + (area.width - width) / 2, y: area.y + Self.headerRows, width: width, height: height)
        Widgets.box(box, title: "Filters", style: theme.modal, theme: theme, into: &buffer)
        for (index, row) in rows.enumerated() {
            let y = box.y + 1 + index
            let focused = row.0 == picker.row
            let style = focused ? theme.focusedButton : theme.modal
            buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style))
            buffer.write(" " + row.1, x: box.x + 1, y: y, style: style, maxWidth: 16)
            buffer.write("\(left) \(row.2) \(right)", x: box.x + 18, y: y, style: style, maxWidth: box.width - 20)
        }
        if height >= rows.count + 4 {
            buffer.write(help, x: box.x + 2, y: box.y + 1 + rows.count + 1, style: theme.modal.merging(theme.muted),
                         maxWidth: box.width - 4, ellipsis: theme.ellipsis)
        }
    }

    /// The picker's keys: the rows, their values (backwards too), Enter for one search, Esc to leave it as it was.
    private func handlePicker(_ input: InputEvent, ui: inout UIState) -> [AppViewModel.Event] {
        guard var picker = ui.filterPicker, case .key = input else { return [] }
        let intent = keys.intent(of: input, in: .search)
        switch intent {
        case .up, .previous: picker.move(by: -1)
        case .down, .next: picker.move(by: 1)
        case .left: picker.change(backwards: true)
        case .right: picker.change(backwards: false)
        case .orientation, .color, .safe:
            let row: FilterPicker.Row = intent == .orientation ? .orientation : intent == .color ? .color : .safe
            if picker.row == row { picker.change(backwards: false) } else { picker.row = row }
        case .open:
            ui.filterPicker = nil
            ui.searchList = ListPosition()
            return [.search(.setFilters(picker.draft))]
        case .quit:
            ui.filterPicker = nil
            return []
        default:
            switch input {
            case .key(.escape), .key(.backspace):
                ui.filterPicker = nil
                return []
            case .key(.character(" ")): picker.change(backwards: false)
            default: break
            }
        }
        ui.filterPicker = picker
        return []
    }

    private func renderField(_ search: SearchState, area: Rect, into buffer: inout CellBuffer) {
        let y = area.y
        let columns = search.layout == .grid ? TileLayout.gridColumns(width: area.width) : 1
        let settings = search.kind == .photos
            ? "sort: \(Self.orderName(search.order)) (\(key(.sort)))   \(columns) column\(columns == 1 ? "" : "s") (\(key(.columns))) "
            : "finds \(search.kind.rawValue) (\(key(.kind))) "
        let settingsWidth = DisplayWidth.of(settings)
        let showsSettings = area.width - settingsWidth >= 30
        TextFieldView(theme: theme).drawLabelled("Search ", text: search.query, cursor: search.editing ? search.queryCursor : nil,
                                                 selected: search.querySelected, hint: "press \(key(.search)) to search", x: area.x + 1, y: y,
                                                 fieldWidth: { max(8, area.width - $0 - (showsSettings ? settingsWidth + 2 : 1)) },
                                                 into: &buffer)
        if showsSettings {
            buffer.write(settings, x: area.maxX - settingsWidth, y: y, style: theme.muted)
        }
        // The summary line.
        var summary: String?
        if let query = search.submitted {
            let quoted = theme.quoted(UntrustedText.sanitize(query))
            switch search.kind {
            case .photos:
                if let total = search.results.totalItems, search.results.phase == .content {
                    summary = "\(total) photo\(total == 1 ? "" : "s") for \(quoted), by \(Self.orderName(search.order))"
                } else {
                    summary = "Photos for \(quoted), by \(Self.orderName(search.order))"
                }
            case .people:
                summary = "People for \(quoted)" + (search.people.phase == .content ? ": \(search.people.items.count)" : "") + "  (m: collections)"
            case .collections:
                summary = "Collections for \(quoted)" + (search.collections.phase == .content ? ": \(search.collections.items.count)" : "")
                    + "  (m: photos)"
            }
        }
        // The filters, whatever the summary: what narrows the results must show (and the keys that change them).
        let filterKeys = "\(key(.orientation)) \(key(.color)) \(key(.safe))"
        let filters = search.filters.isEmpty ? "filters: none (\(filterKeys))" : "filters: \(search.filters.summary) (\(filterKeys))"
        let filtersWidth = DisplayWidth.of(filters)
        let showsFilters = area.width >= 60 && search.kind == .photos
        let room = area.width - 3 - (showsFilters ? filtersWidth + 2 : 0)
        if let summary {
            buffer.write(summary, x: area.x + 2, y: y + 1, style: theme.muted, maxWidth: room, ellipsis: theme.ellipsis)
        }
        if showsFilters {
            buffer.write(filters, x: area.maxX - filtersWidth - 1, y: y + 1, style: search.filters.isEmpty ? theme.muted : theme.accent)
        }
    }

    private func renderSuggestions(_ search: SearchState, area: Rect, into buffer: inout CellBuffer) {
        let suggestions = search.suggestions
        guard !suggestions.isEmpty else { return }
        let x = area.x + 1 + DisplayWidth.of("Search ")
        let width = min(area.width - x - 1, max(24, suggestions.map { DisplayWidth.of($0) }.max()! + 4))
        let box = Rect(x: x, y: area.y + 1, width: width, height: min(area.height - 1, suggestions.count + 2))
        Widgets.box(box, title: "Earlier", style: theme.modal, theme: theme, into: &buffer)
        for (index, suggestion) in suggestions.prefix(box.height - 2).enumerated() {
            var style = theme.modal
            if index == search.suggestion { style = theme.focusedButton }
            let y = box.y + 1 + index
            buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), with: Cell(" ", style: style))
            buffer.write(" " + UntrustedText.sanitize(suggestion), x: box.x + 1, y: y, style: style, maxWidth: box.width - 3,
                         ellipsis: theme.ellipsis)
        }
    }

    private func renderResults(_ search: SearchState, ui: UIState, area: Rect, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let parts = PhotoParts(theme: theme)
        guard let query = search.submitted else {
            var lines: [(String, CellStyle)] = [("Search Unsplash's photos", theme.title),
                                                (search.editing ? "Type a few words, then Enter."
                                                    : "Press \(key(.search)) and type a few words, then Enter.", theme.muted)]
            if !search.history.isEmpty {
                lines.append(("", .plain))
                lines.append(("Earlier: " + search.history.map(UntrustedText.sanitize).joined(separator: ", "), theme.muted))
            }
            parts.centred(lines, in: area, into: &buffer)
            return
        }
        if search.kind != .photos {
            let tiles = Self.entries(search)
            CoverTiles(theme: theme).render(tiles, phase: search.kind == .people ? search.people.phase : search.collections.phase,
                                            empty: (search.kind == .people ? "Nobody found for " : "No collections found for ")
                                                + theme.quoted(UntrustedText.sanitize(query)) + ". "
                                                + theme.spell("{kind} looks for something else."),
                                            what: search.kind == .people ? "the people found" : "the collections found",
                                            position: ui.searchList, list: area, tick: ui.tick, pictures: pictures, into: &buffer)
            return
        }
        let results = search.results
        switch results.phase {
        case .loading:
            parts.centred([("\(theme.spinner(ui.tick)) \(ListTexts.search.loading)\(theme.dots)", theme.accent)], in: area, into: &buffer)
            return
        case let .failed(error):
            parts.centred([(ListTexts.search.failed, theme.error), (error.message, .plain)]
                          + (theme.retryAdvice(error).map { [($0, theme.muted)] } ?? []), in: area, into: &buffer)
            return
        case .content:
            break
        }
        if results.photos.isEmpty {
            // Filters can be what leaves nothing: say so, with the keys that change them.
            let advice = search.filters.isEmpty ? "Try other words (press \(key(.search)))."
                : "The filters (\(search.filters.summary)) may be why: \(key(.orientation)) \(key(.color)) \(key(.safe)) change them, or try other words (press \(key(.search)))."
            parts.centred([("No photos found for \(theme.quoted(UntrustedText.sanitize(query))).", theme.title),
                           (advice, theme.muted)], in: area, into: &buffer)
            return
        }
        let layout = TileLayout(photos: results.photos, width: area.width, viewportHeight: area.height, layout: search.layout,
                                cellAspect: theme.cellAspect)
        let top = ui.searchList.top
        let bottom = top + area.height
        for (index, tile) in layout.tiles.enumerated() where tile.top < bottom && tile.top + tile.boxRows + TileLayout.textRows > top {
            renderTile(results.photos[index], tile: tile, selected: index == ui.searchList.selected,
                       inFlight: results.likesInFlight.contains(results.photos[index].id), offset: area.y - top,
                       area: area, tick: ui.tick, pictures: pictures, into: &buffer)
        }
        let footerLine = layout.totalHeight - TileLayout.footerRows
        if footerLine >= top, footerLine < bottom {
            parts.drawNextPageRow(results, texts: .search, y: area.y + footerLine - top, area: area, tick: ui.tick, into: &buffer)
        }
    }

    private func renderTile(_ photo: Photo, tile: TileLayout.Tile, selected: Bool, inFlight: Bool, offset: Int, area: Rect,
                            tick: Int, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let boxTop = tile.top + offset
        let pictureTop = boxTop + (tile.boxRows - tile.pictureRows) / 2
        let visible = { (y: Int) in y >= area.y && y < area.maxY }
        let parts = PhotoParts(theme: theme)
        parts.drawThumbnail(photo, in: Rect(x: tile.pictureX, y: pictureTop, width: tile.pictureColumns, height: tile.pictureRows),
                            clip: area, tick: tick, pictures: pictures, into: &buffer)
        // The description, then likes and author; what the photo lacks is left out.
        let textY = boxTop + tile.boxRows
        if visible(textY), let caption = photo.caption.map(UntrustedText.sanitize), !caption.isEmpty {
            buffer.write(caption, x: tile.x, y: textY, style: .plain, maxWidth: tile.width, ellipsis: theme.ellipsis)
        }
        if visible(textY + 1) {
            var x = tile.x
            let heart = parts.heart(photo, inFlight: inFlight, tick: tick)
            x += buffer.write(heart.text, x: x, y: textY + 1, style: heart.style)
            x += buffer.write(" \(photo.likes)", x: x, y: textY + 1, style: theme.muted)
            if let user = photo.user, tile.x + tile.width - x > 2 {
                parts.attribution(user, prefix: "by ", x: x + 2, y: textY + 1, style: theme.title,
                                  maxWidth: max(0, tile.x + tile.width - x - 2), into: &buffer)
            }
        }
        if selected {
            parts.tileSelectionBar(tile, boxTop: boxTop, rows: tile.boxRows + 2, clip: area, into: &buffer)
        }
    }

    // MARK: Input

    func handle(_ input: InputEvent, intent: Intent?, app: AppState, ui: inout UIState, area: Rect) -> [AppViewModel.Event] {
        let search = app.search
        if search.editing {
            guard case let .key(key) = input else {
                if case let .mouse(mouse) = input, mouse.kind == .press, mouse.y != area.y { return [.search(.blur)] }
                return []
            }
            switch key {
            case .enter: return [.search(.submit)]
            case .escape: return [.search(.blur)]
            case .down, .tab: return [.search(.moveSuggestion(1))]
            case .up, .backTab: return [.search(.moveSuggestion(-1))]
            default: return TextFieldView.edit(for: key).map { [.search(.edit($0))] } ?? []
            }
        }
        if ui.filterPicker != nil { return handlePicker(input, ui: &ui) }
        if search.results.modal != nil {
            switch Widgets.modalChoice(input, focus: &ui.modalFocus) {
            case .first: return [.search(.results(.modalTryAgain))]
            case .second: return [.search(.results(.modalCancel))]
            case nil: return []
            }
        }
        // After a tag picked in a detail, Esc goes back to that detail.
        if let from = app.searchCameFrom, case .key(.escape) = input { return [.selectTab(from)] }
        // Nothing searched yet: a letter typed starts the query (as a prompt does) rather than meaning a key.
        if search.submitted == nil, case let .key(.character(character)) = input, character != " ",
           let edit = TextFieldView.edit(for: .character(character)) {
            return [.search(.focus), .search(.edit(edit))]
        }
        let results = resultsArea(area)
        if intent == .kind {
            ui.searchList = ListPosition()
            return [.search(.cycleKind)]
        }
        if search.kind != .photos {
            var position = ui.searchList
            defer { ui.searchList = position }
            if intent == .reload { return [.search(.submit)] }
            if [.orientation, .color, .safe, .sort, .columns].contains(intent) {
                // Those are the photos' filters, order and layout: say so rather than do nothing.
                return [.notify("Filters, order and layout apply to photos; \(key(.kind)) looks for photos again.")]
            }
            if case let .mouse(mouse) = input, mouse.kind == .press, mouse.y == area.y { return [.search(.focus)] }
            switch CoverTiles(theme: theme).handle(input, intent: intent, entries: Self.entries(search), list: results, position: &position) {
            case .none, .moved:
                return []
            case let .open(index):
                if search.kind == .people, let user = search.people.items[safe: index] {
                    return [.explore(.openPhotographer(username: user.username, user: user))]
                }
                if let collection = search.collections.items[safe: index] { return [.explore(.openCollection(collection))] }
                return []
            }
        }
        let layout = layout(search, area: area)
        let count = search.results.photos.count
        var position = ui.searchList
        defer { ui.searchList = position }
        func select(_ index: Int) { layout.select(index, in: &position) }
        func scroll(by lines: Int) { layout.scroll(by: lines, in: &position) }
        let selectedID = search.results.photos[safe: position.selected]?.id
        switch input {
        case .key:
            if let motion = ListMotion(intent, grid: true) {
                motion.apply(selected: position.selected, count: count, columns: layout.columns, select: select,
                             scroll: { scroll(by: $0) }, page: { scroll(by: $0 * results.height) })
                return []
            }
            switch intent {
            case .open:
                if let selectedID { return [.openDetail(photoID: selectedID)] }
                return [.search(.focus)]
            case .like:
                if let selectedID { return [.search(.results(.toggleLike(photoID: selectedID)))] }
            case .photographer:
                if let photo = search.results.photos[safe: position.selected] { return CardList.openPhotographer(photo) }
            case .sort:
                position = ListPosition()
                return [.search(.toggleOrder)]
            case .columns:
                return [.search(.toggleLayout)]
            case .orientation, .color:
                // The picker: eleven colours cost one search, not eleven.
                ui.filterPicker = FilterPicker(row: intent == .orientation ? .orientation : .color, draft: search.filters)
                return []
            case .safe:
                position = ListPosition()
                return [.search(.toggleSafe)]
            case .reload:
                if case .failed = search.results.phase { return [.search(.results(.retry))] }
                if case .failed = search.results.nextPage { return [.search(.results(.retry))] }
                if case .waiting = search.results.nextPage { return [.search(.results(.retry))] }
                return []
            default:
                return []
            }
        case let .mouse(mouse):
            if let motion = ListMotion(mouse) {
                motion.apply(selected: position.selected, count: count, columns: layout.columns, select: select,
                             scroll: { scroll(by: $0) }, page: { _ in })
                return []
            }
            if mouse.y == area.y { return [.search(.focus)] }
            guard results.contains(x: mouse.x, y: mouse.y),
                  let index = layout.tileIndex(atLine: position.top + mouse.y - results.y, x: mouse.x) else { return [] }
            position.selected = index
            return [.openDetail(photoID: search.results.photos[index].id)]
        case .resize:
            position.top = layout.scroll(toShow: position.selected, from: position.top)
            return []
        }
        return []
    }
}

extension SearchScreen {
    /// People and collections as tiles: an avatar or a cover, a name or a title, and a line about them.
    static func entries(_ search: SearchState) -> [CoverTiles.Entry] {
        switch search.kind {
        case .photos:
            return []
        case .people:
            return search.people.items.map { user in
                // Unsplash's avatars are 128, 64 and 32 pixels square: the tile shows one no larger than its pixels.
                let sized = [(user.profileImage.large, 128), (user.profileImage.medium, 64), (user.profileImage.small, 32)]
                    .first { $0.0 != nil }
                let avatar = sized.map { Photo(id: "avatar:\(user.username)", width: $0.1, height: $0.1, urls: PhotoURLs(small: $0.0)) }
                return (user.displayName, "@\(user.username)" + (user.totalPhotos.map { " · \($0) photos" } ?? ""), avatar)
            }
        case .collections:
            return search.collections.items.map { collection in
                let details = [collection.user.map { "by \($0.displayName)" }, collection.totalPhotos.map { "\($0) photos" }].compactMap { $0 }
                return (collection.title, details.joined(separator: " · "), collection.coverPhoto)
            }
        }
    }
}

extension SearchScreen: Screen {
    func keyContext(_ app: AppState) -> KeyContext { app.search.editing ? .searchField : .search }
    func title(_ app: AppState) -> String { app.search.editing ? "Keys: the search field" : "Keys: search" }
    func isSubScreen(_ app: AppState) -> Bool { false }
    func dialogIsOpen(_ app: AppState) -> Bool { app.search.results.modal != nil || picker != nil }
    func dialogHints(_ app: AppState, ui: UIState) -> [String]? { PhotoParts.dialogHints(app.search.results, ui: ui) }

    func listPosition(_ app: AppState, ui: UIState) -> String? {
        app.search.kind == .photos ? ChromeView.position(ui.searchList.selected, of: app.search.results) : nil
    }

    func hints(_ app: AppState, ui: UIState) -> [String] {
        if app.search.editing { return keys.hints(.searchField) }
        if ui.filterPicker != nil {
            return ["\(keys.hintKeys(.open, in: .search)) search", "Esc cancel",
                    "\(keys.hintKeys(.left, in: .search))\(keys.hintKeys(.right, in: .search)) change",
                    "\(keys.hintKeys(.up, in: .search))\(keys.hintKeys(.down, in: .search)) filter"]
        }
        let photos = app.search.kind == .photos
        let onlyPhotos: Set<Intent> = [.like, .photographer, .sort, .columns, .orientation]
        var failed = false
        if case .failed = app.search.results.phase { failed = true }
        if case .failed = app.search.results.nextPage { failed = true }
        // Before a search, only the keys that lead to one.
        let searched = app.search.submitted != nil
        let always: Set<Intent> = [.help, .quit, .search, .nextPane, .previousPane]
        let hints = keys.hints(.search, labels: photos ? [:] : [.open: "open"], ranks: [.search: 25]) {
            (searched || always.contains($0)) && (photos || !onlyPhotos.contains($0)) && ($0 != .reload || failed)
        }
        // After a tag picked in a detail, the way back comes first after the help.
        return app.searchCameFrom == nil ? hints : Array(hints.prefix(1)) + ["Esc back to the photo"] + hints.dropFirst()
    }

    func shownEnd(_ app: AppState, ui: UIState, area: Rect) -> (list: ShownList, lastIndex: Int)? {
        guard app.search.submitted != nil else { return nil }
        if app.search.kind != .photos {
            return CoverTiles(theme: theme).layout(Self.entries(app.search), list: resultsArea(area)).lastShown(top: ui.searchList.top)
                .map { (.search, max($0, ui.searchList.selected)) }
        }
        return layout(app.search, area: area).lastShown(top: ui.searchList.top).map { (.search, max($0, ui.searchList.selected)) }
    }

    func select(photoID: String, app: AppState, ui: inout UIState, area: Rect) {
        guard let index = app.search.results.photos.firstIndex(ofID: photoID) else { return }
        layout(app.search, area: area).select(index, in: &ui.searchList)
    }

    func keepSelectionInView(_ app: AppState, ui: inout UIState, area: Rect) {
        _ = handle(.resize, intent: nil, app: app, ui: &ui, area: area)
    }
}
