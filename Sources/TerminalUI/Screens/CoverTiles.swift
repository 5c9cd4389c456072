import ImageFeedCore

/// A grid of tiles, each a cover picture with a title and a line under it: collections, topics, people, Imgur
/// albums. What a key or a click does in a grid of tiles (these, or an album's photos) is the same wherever it shows.
struct CoverTiles {
    typealias Entry = (title: String, detail: String, cover: Photo?)

    let theme: Theme

    /// What a key or the mouse did in the grid.
    enum Action: Equatable {
        case none
        case moved
        case open(Int)
    }

    func layout(_ entries: [Entry], list: Rect) -> TileLayout {
        TileLayout(photos: entries.map { $0.cover ?? Photo(id: "none", width: 3, height: 2) }, width: list.width,
                   viewportHeight: list.height, layout: .grid, cellAspect: theme.cellAspect)
    }

    /// The tiles, or the list's loading, error or empty state. `layout` when the tiles' shapes are not their covers';
    /// `noCover` in the box of a tile without a cover (else its title); `what` names the tiles in a failure ("the topics").
    func render(_ entries: [Entry], phase: PhotoListState.Phase, empty: String, what: String = "them", position: ListPosition, list: Rect, tick: Int,
                layout given: TileLayout? = nil, noCover: String? = nil, pictures: PictureProvider, into buffer: inout CellBuffer) {
        let parts = PhotoParts(theme: theme)
        switch phase {
        case .loading:
            parts.centred([("\(theme.spinner(tick)) Loading\(theme.dots)", theme.accent)], in: list, into: &buffer)
            return
        case let .failed(error):
            parts.centred([("Couldn't load \(what)", theme.error), (error.message, .plain)]
                          + (theme.retryAdvice(error).map { [($0, theme.muted)] } ?? []), in: list, into: &buffer)
            return
        case .content:
            break
        }
        guard !entries.isEmpty else {
            parts.centred([(empty, theme.muted)], in: list, into: &buffer)
            return
        }
        let layout = given ?? layout(entries, list: list)
        for (index, tile) in layout.tiles.enumerated()
        where tile.top < position.top + list.height && tile.top + tile.boxRows + TileLayout.textRows > position.top {
            let entry = entries[index]
            let boxTop = tile.top + list.y - position.top
            let pictureRect = Rect(x: tile.pictureX, y: boxTop + (tile.boxRows - tile.pictureRows) / 2,
                                   width: tile.pictureColumns, height: tile.pictureRows)
            if let cover = entry.cover {
                parts.drawThumbnail(cover, in: pictureRect, clip: list, tick: tick, pictures: pictures, into: &buffer)
            } else {
                parts.placeholderBox(noCover ?? UntrustedText.sanitize(entry.title), in: pictureRect, clip: list, into: &buffer)
            }
            let textY = boxTop + tile.boxRows
            if textY >= list.y, textY < list.maxY {
                buffer.write(UntrustedText.sanitize(entry.title), x: tile.x, y: textY, style: theme.title, maxWidth: tile.width,
                             ellipsis: theme.ellipsis)
            }
            if textY + 1 >= list.y, textY + 1 < list.maxY {
                buffer.write(UntrustedText.sanitize(entry.detail), x: tile.x, y: textY + 1, style: theme.muted, maxWidth: tile.width,
                             ellipsis: theme.ellipsis)
            }
            if index == position.selected {
                parts.tileSelectionBar(tile, boxTop: boxTop, rows: tile.boxRows + 2, clip: list, into: &buffer)
            }
        }
    }

    /// Moves the selection or the scroll; Enter or a click opens a tile.
    func handle(_ input: InputEvent, intent: Intent?, entries: [Entry], list: Rect, position: inout ListPosition) -> Action {
        handle(input, intent: intent, layout: layout(entries, list: list), count: entries.count, list: list, position: &position)
    }

    /// The same for any grid of `count` tiles laid out by `layout`. `pageRows`: PgUp and PgDn move the selection
    /// by that many rows instead of scrolling a screen.
    func handle(_ input: InputEvent, intent: Intent?, layout: TileLayout, count: Int, list: Rect, position: inout ListPosition,
                pageRows: Int? = nil) -> Action {
        guard count > 0 else { return .none }
        let selected = position.selected
        func select(_ index: Int) { layout.select(max(0, min(count - 1, index)), in: &position) }
        func scroll(_ lines: Int) { layout.scroll(by: lines, in: &position) }
        func page(_ direction: Int) {
            if let pageRows { select(selected + direction * layout.columns * pageRows) } else { scroll(direction * list.height) }
        }
        switch input {
        case .key where intent == .open:
            return .open(min(selected, count - 1))
        case .key:
            guard let motion = ListMotion(intent, grid: true) else { return .none }
            motion.apply(selected: selected, count: count, columns: layout.columns, select: select, scroll: scroll, page: page)
            return .moved
        case let .mouse(mouse):
            if let motion = ListMotion(mouse) {
                motion.apply(selected: selected, count: count, columns: layout.columns, select: { _ in }, scroll: scroll, page: { _ in })
                return .moved
            }
            guard list.contains(x: mouse.x, y: mouse.y),
                  let index = layout.tileIndex(atLine: position.top + mouse.y - list.y, x: mouse.x), index < count else { return .none }
            position.selected = index
            return .open(index)
        case .resize:
            position.top = layout.scroll(toShow: position.selected, from: position.top)
            return .none
        }
    }
}
