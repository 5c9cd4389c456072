import ImageFeedCore
import TerminalImage

/// Where each card of a list of photos goes (the feed, the favorites, a sheet's photos): a column of cards, each a
/// picture with a line of details under it; on very wide terminals a grid of such cards, a row at a time.
public struct CardLayout: Equatable, Sendable {
    /// Kept as 32-bit numbers (28 bytes, not 72): a long list's layout has a card for each of its photos.
    public struct Card: Equatable, Sendable {
        private let storedTop: Int32
        private let storedHeight: Int32
        private let storedPictureColumns: Int32
        private let storedPictureRows: Int32
        private let storedPictureX: Int32
        private let storedBoxRows: Int32
        /// -1: none.
        private let storedTextEnd: Int32

        /// The first line of the card (of its row, in a grid) in the whole list.
        public var top: Int { Int(storedTop) }
        /// Lines of the card's row: its picture box and the details under it.
        public var height: Int { Int(storedHeight) }
        public var pictureColumns: Int { Int(storedPictureColumns) }
        public var pictureRows: Int { Int(storedPictureRows) }
        /// The picture's left edge.
        public var pictureX: Int { Int(storedPictureX) }
        /// Rows of the picture box: the tallest picture of the row (a shorter picture keeps to its top); the details
        /// line is under it. The picture's own rows in a column of cards.
        public var boxRows: Int { Int(storedBoxRows) }
        /// Where the card's text may go, up to (not including) this column; nil: the list's whole width.
        public var textEnd: Int? { storedTextEnd < 0 ? nil : Int(storedTextEnd) }

        /// Each number as it is up to 2^31 - 1 (a list's lines, a terminal's columns: far less).
        public init(top: Int, height: Int, pictureColumns: Int, pictureRows: Int, pictureX: Int, boxRows: Int, textEnd: Int?) {
            storedTop = Int32(clamping: top)
            storedHeight = Int32(clamping: height)
            storedPictureColumns = Int32(clamping: pictureColumns)
            storedPictureRows = Int32(clamping: pictureRows)
            storedPictureX = Int32(clamping: pictureX)
            storedBoxRows = Int32(clamping: boxRows)
            storedTextEnd = textEnd.map { Int32(clamping: max(0, $0)) } ?? -1
        }

        /// The picture's first line in the whole list: the box's. (Centred in the box, a shorter picture had blank rows
        /// above it, where xterm kept a slice of Sixel picture after `j` and `k`.)
        public var pictureTop: Int { top }
        /// The details line, in the whole list.
        public var detailsLine: Int { top + boxRows }
    }

    public let width: Int
    public let viewportHeight: Int
    /// Cards side by side: 1 (a column), 2 from `gridWidth` columns, 3 from 300.
    public let columns: Int
    /// On wide terminals each picture keeps to the left and its story (description, author, place) is written
    /// beside it, in this many columns; 0 on narrower ones, where the picture is centred, and in a grid.
    public let sideColumns: Int
    /// Terminals at least this wide get the text beside the picture.
    public static let sideBySideWidth = 150
    /// Terminals at least this wide get the cards in a grid (a picture beside its story would leave half the width
    /// to a few lines of text).
    public static let gridWidth = 200
    public let cards: [Card]
    /// Lines of the whole list, the loading or error row included.
    public let totalHeight: Int

    /// Rows under each picture: the details line and a blank line between cards.
    public static let detailRows = 2
    /// The footer row: "Loading more…" or the error with retry.
    public static let footerRows = 2

    /// How many cards go side by side at a width.
    public static func columns(width: Int) -> Int {
        width >= 300 ? 3 : width >= gridWidth ? 2 : 1
    }

    /// `headerHeight` lines come before the first card (the profile above the favorites); `cellAspect`: a cell's
    /// height over its width.
    public init(photos: [Photo], width: Int, viewportHeight: Int, headerHeight: Int = 0, cellAspect: Double = 2) {
        self.init(count: photos.count, pixelSize: { (photos[$0].width, photos[$0].height) }, width: width,
                  viewportHeight: viewportHeight, headerHeight: headerHeight, cellAspect: cellAspect)
    }

    /// A long list's cards, laid out from the sizes it keeps beside its packed photos (none is unpacked); the layout
    /// last made for the same sizes and area when there is one (`LayoutMemo`).
    public init(photos: PhotoList, width: Int, viewportHeight: Int, headerHeight: Int = 0, cellAspect: Double = 2) {
        let area = LayoutMemo<Int, CardLayout>.Area(width: width, viewportHeight: viewportHeight, cellAspect: cellAspect, extra: headerHeight)
        self = Self.memo.layout(of: photos, for: area) { sizes in
            CardLayout(count: sizes.count, pixelSize: { (sizes[$0].width, sizes[$0].height) }, width: width,
                       viewportHeight: viewportHeight, headerHeight: headerHeight, cellAspect: cellAspect)
        }
    }

    private static let memo = LayoutMemo<Int, CardLayout>(capacity: 4)

    /// `count` cards, the photo at each index `pixelSize(index)` pixels.
    init(count: Int, pixelSize: (Int) -> (width: Int, height: Int), width: Int, viewportHeight: Int, headerHeight: Int,
         cellAspect: Double) {
        self.width = width
        self.viewportHeight = viewportHeight
        let columns = Self.columns(width: width)
        self.columns = columns
        var cards: [Card] = []
        cards.reserveCapacity(count) // kept as long as the list is shown: no room to grow
        var top = headerHeight
        // Pictures leave room for the selection bar and a margin; very wide terminals get a readable column.
        // On tall terminals a card takes at most two thirds of the list, so the next card always shows: a
        // list to scroll through, not a slideshow (the viewer is the full-screen view). That also keeps
        // moving to the next card from repainting the whole screen.
        let sideBySide = columns == 1 && width >= Self.sideBySideWidth
        let gap = 2
        // In a grid each column has its selection bar's two cells, the picture, and a margin.
        let columnWidth = columns == 1 ? width : (width - gap * (columns - 1)) / columns
        let maxColumns = columns > 1 ? max(8, min(120, columnWidth - 3))
            : sideBySide ? min(120, (width - 4) * 3 / 5) : max(8, min(width - 4, 120))
        // In a grid, where a row holds two or three pictures, a row takes at most two fifths of a tall list: a
        // step to the next row brings less than half a screen of new lines, so the terminal's scroll keeps the rest.
        let fullHeight = viewportHeight - Self.detailRows - 1
        let tallest = columns > 1 ? max(12, viewportHeight * 2 / 5) : max(24, viewportHeight * 2 / 3)
        let maxRows = max(3, fullHeight <= 24 ? fullHeight : min(fullHeight, tallest))
        for start in stride(from: 0, to: count, by: columns) {
            let fitted = (start..<min(count, start + columns)).map { index in
                let size = pixelSize(index)
                return CellPicture.fittedSize(pixelWidth: size.width > 0 ? size.width : 3, pixelHeight: size.height > 0 ? size.height : 2,
                                              columns: maxColumns, rows: maxRows, cellAspect: cellAspect)
            }
            let boxRows = fitted.map(\.rows).max() ?? 0
            for (offset, size) in fitted.enumerated() {
                let x: Int
                var textEnd: Int?
                if columns > 1 {
                    let left = offset * (columnWidth + gap)
                    x = left + 2 + (maxColumns - size.columns) / 2
                    textEnd = left + columnWidth
                } else {
                    // Beside its text on wide terminals, else centred in the whole width.
                    x = sideBySide ? 2 + (maxColumns - size.columns) / 2 : 2 + max(0, width - 4 - size.columns) / 2
                }
                cards.append(Card(top: top, height: boxRows + Self.detailRows, pictureColumns: size.columns,
                                  pictureRows: size.rows, pictureX: x, boxRows: boxRows, textEnd: textEnd))
            }
            top += boxRows + Self.detailRows
        }
        self.cards = cards
        sideColumns = sideBySide ? max(0, width - 2 - maxColumns - 4) : 0
        totalHeight = top + Self.footerRows
    }

    /// The card at a point of the list: its line, and its column on screen (the first card of the row without one).
    public func cardIndex(atLine line: Int, x: Int) -> Int? {
        guard let first = cardIndex(atLine: line) else { return nil }
        for index in first..<min(cards.count, first + columns) {
            let left = cards[index].pictureX - 2
            let right = cards[index].textEnd ?? width
            if x >= left, x < right { return index }
        }
        return columns == 1 ? first : nil
    }

    /// The card on a line of the list (the first of its row, in a grid).
    public func cardIndex(atLine line: Int) -> Int? {
        var low = 0
        var high = cards.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let card = cards[middle]
            if line < card.top { high = middle - 1 } else if line >= card.top + card.height { low = middle + 1 } else {
                return middle - middle % columns // the row's first card
            }
        }
        return nil
    }

    /// The scroll position that shows the card whole, moving as little as possible from `top`.
    /// The last card with a line in view when the list's first line on screen is `top` (the last card when the
    /// view reaches past the end); nil for an empty list.
    public func lastShown(top: Int) -> Int? {
        guard !cards.isEmpty else { return nil }
        return cardIndex(atLine: top + viewportHeight - 1).map { min(cards.count - 1, $0 + columns - 1) } ?? (cards.count - 1)
    }

    public func scroll(toShow index: Int, from top: Int) -> Int {
        guard cards.indices.contains(index) else { return clampScroll(top) }
        let card = cards[index]
        var newTop = top
        if card.top < newTop { newTop = card.top }
        // The last card brings the row under it into view: loading more, its error, or the end of the list.
        let bottom = card.top + card.height + (index / columns == (cards.count - 1) / columns ? Self.footerRows : 0)
        if bottom > newTop + viewportHeight { newTop = bottom - viewportHeight }
        if card.height > viewportHeight { newTop = card.top }
        return clampScroll(newTop)
    }

    public func clampScroll(_ top: Int) -> Int {
        max(0, min(top, max(0, totalHeight - viewportHeight)))
    }
}
