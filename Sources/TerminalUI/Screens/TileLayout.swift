import ImageFeedCore
import TerminalImage

/// Where each tile of a grid goes (search results, an album's photos, covers): tiles in two columns or more
/// (one on narrow terminals), or one large tile per row. A tile is a picture box with two lines under it (the description; likes and author).
public struct TileLayout: Equatable, Sendable {
    public struct Tile: Equatable, Sendable {
        /// The first line of the tile's row in the whole list.
        public var top: Int
        public var x: Int
        public var width: Int
        public var pictureX: Int
        public var pictureColumns: Int
        public var pictureRows: Int
        /// Rows of the picture box (the tallest picture of the row decides where the text goes).
        public var boxRows: Int
    }

    public let columns: Int
    public let viewportHeight: Int
    public let tiles: [Tile]
    public let rowHeight: [Int]
    public let totalHeight: Int

    /// Lines under each picture box: the description, likes and author, a blank line.
    public static let textRows = 3
    public static let footerRows = 2

    public init(photos: [Photo], width: Int, viewportHeight: Int, layout: SearchLayout, cellAspect: Double = 2) {
        self.init(count: photos.count, pixelSize: { (photos[$0].width, photos[$0].height) }, width: width,
                  viewportHeight: viewportHeight, layout: layout, cellAspect: cellAspect)
    }

    /// A long list's tiles, laid out from the sizes it keeps beside its packed photos (none is unpacked); the layout
    /// last made for the same sizes and area when there is one (`LayoutMemo`).
    public init(photos: PhotoList, width: Int, viewportHeight: Int, layout: SearchLayout, cellAspect: Double = 2) {
        let area = LayoutMemo<SearchLayout, TileLayout>.Area(width: width, viewportHeight: viewportHeight, cellAspect: cellAspect, extra: layout)
        self = Self.memo.layout(of: photos, for: area) { sizes in
            TileLayout(count: sizes.count, pixelSize: { (sizes[$0].width, sizes[$0].height) }, width: width,
                       viewportHeight: viewportHeight, layout: layout, cellAspect: cellAspect)
        }
    }

    private static let memo = LayoutMemo<SearchLayout, TileLayout>(capacity: 2)

    /// `count` tiles, the photo at each index `pixelSize(index)` pixels.
    init(count: Int, pixelSize: (Int) -> (width: Int, height: Int), width: Int, viewportHeight: Int, layout: SearchLayout,
         cellAspect: Double) {
        self.viewportHeight = viewportHeight
        // The grid uses the width: three columns from 150, two from 60.
        let columns = layout == .grid ? Self.gridColumns(width: width) : 1
        self.columns = columns
        let gap = 2
        let tileWidth = max(8, (width - 2 - gap * (columns - 1) - 1) / columns)
        let boxColumns: Int
        let boxRows: Int
        if columns >= 2 {
            // Two rows of tiles fit on a screen.
            boxColumns = tileWidth
            boxRows = max(3, min(tileWidth / 3, (viewportHeight - 2 * Self.textRows) / 2))
        } else {
            boxColumns = max(8, min(tileWidth, 120))
            boxRows = max(3, min(viewportHeight - Self.textRows - 1, max(12, viewportHeight * 2 / 3)))
        }
        var tiles: [Tile] = []
        tiles.reserveCapacity(count) // kept as long as the list is shown: no room to grow
        var rowHeight: [Int] = []
        var top = 0
        for start in stride(from: 0, to: count, by: columns) {
            for (offset, index) in (start..<min(count, start + columns)).enumerated() {
                let photo = pixelSize(index)
                // A small picture (an avatar) is not blown up past its own pixels, counting a cell as 8x16; a size of a
                // few pixels is only a shape (a tile without a cover).
                let known = photo.width > 0 && photo.height > 0
                let small = photo.width >= 16 && photo.height >= 16
                let fitted = CellPicture.fittedSize(pixelWidth: known ? photo.width : 3, pixelHeight: known ? photo.height : 2,
                                                    columns: small ? min(boxColumns, max(4, photo.width / 8)) : boxColumns,
                                                    rows: small ? min(boxRows, max(2, photo.height / 16)) : boxRows,
                                                    cellAspect: cellAspect)
                let x = 2 + offset * (tileWidth + gap)
                tiles.append(Tile(top: top, x: x, width: tileWidth, pictureX: x + (tileWidth - fitted.columns) / 2,
                                  pictureColumns: fitted.columns, pictureRows: fitted.rows, boxRows: boxRows))
            }
            rowHeight.append(boxRows + Self.textRows)
            top += boxRows + Self.textRows
        }
        self.tiles = tiles
        self.rowHeight = rowHeight
        totalHeight = top + Self.footerRows
    }

    /// How many columns the grid has at a width.
    public static func gridColumns(width: Int) -> Int {
        width >= 150 ? 3 : width >= 60 ? 2 : 1
    }

    public func row(of index: Int) -> Int { index / columns }

    /// The tile at a point of the list (line and column), if any.
    public func tileIndex(atLine line: Int, x: Int? = nil) -> Int? {
        guard let first = tiles.first, line >= 0 else { return nil }
        let height = first.boxRows + Self.textRows
        let row = line / height
        let start = row * columns
        guard start < tiles.count else { return nil }
        guard let x else { return start }
        for index in start..<min(tiles.count, start + columns) where x >= tiles[index].x && x < tiles[index].x + tiles[index].width {
            return index
        }
        return nil
    }

    /// The last tile of the last row with a line in view when the first line on screen is `top` (the last tile
    /// when the view reaches past the end); nil for an empty grid.
    public func lastShown(top: Int) -> Int? {
        guard !tiles.isEmpty else { return nil }
        return tileIndex(atLine: top + viewportHeight - 1).map { min(tiles.count - 1, row(of: $0) * columns + columns - 1) }
            ?? (tiles.count - 1)
    }

    public func scroll(toShow index: Int, from top: Int) -> Int {
        guard tiles.indices.contains(index) else { return clampScroll(top) }
        let tile = tiles[index]
        let height = tile.boxRows + Self.textRows
        var newTop = top
        if tile.top < newTop { newTop = tile.top }
        if tile.top + height > newTop + viewportHeight { newTop = tile.top + height - viewportHeight }
        return clampScroll(newTop)
    }

    /// Selects tile `index` (kept within the tiles) and scrolls as little as shows it whole.
    public func select(_ index: Int, in position: inout ListPosition) {
        guard !tiles.isEmpty else { return }
        position.selected = max(0, min(tiles.count - 1, index))
        position.top = scroll(toShow: position.selected, from: position.top)
    }

    /// Scrolls by `lines`; a selection that leaves the view moves to the first row in view (going down) or
    /// the last (going up).
    public func scroll(by lines: Int, in position: inout ListPosition) {
        position.top = clampScroll(position.top + lines)
        if let tile = tiles[safe: position.selected],
           tile.top + tile.boxRows + Self.textRows <= position.top || tile.top >= position.top + viewportHeight {
            position.selected = tileIndex(atLine: lines > 0 ? position.top : position.top + viewportHeight - 1) ?? position.selected
        }
    }

    public func clampScroll(_ top: Int) -> Int {
        max(0, min(top, max(0, totalHeight - viewportHeight)))
    }
}
