import ImageFeedCore
import TerminalImage

/// Where each card of a list of photos goes (the feed, the favorites, a sheet's photos): a column of cards, each a picture with a line of details under it.
public struct CardLayout: Equatable, Sendable {
    public struct Card: Equatable, Sendable {
        /// The first line of the card in the whole list.
        public var top: Int
        public var height: Int
        public var pictureColumns: Int
        public var pictureRows: Int
        /// The picture's left edge.
        public var pictureX: Int
    }

    public let width: Int
    public let viewportHeight: Int
    /// On wide terminals each picture keeps to the left and its story (description, author, place) is written
    /// beside it, in this many columns; 0 on narrower ones, where the picture is centred.
    public let sideColumns: Int
    /// Terminals at least this wide get the text beside the picture.
    public static let sideBySideWidth = 150
    public let cards: [Card]
    /// Lines of the whole list, the loading or error row included.
    public let totalHeight: Int

    /// Rows under each picture: the details line and a blank line between cards.
    public static let detailRows = 2
    /// The footer row: "Loading more…" or the error with retry.
    public static let footerRows = 2

    /// `headerHeight` lines come before the first card (the profile above the favorites); `cellAspect`: a cell's
    /// height over its width.
    public init(photos: [Photo], width: Int, viewportHeight: Int, headerHeight: Int = 0, cellAspect: Double = 2) {
        self.width = width
        self.viewportHeight = viewportHeight
        var cards: [Card] = []
        var top = headerHeight
        // Pictures leave room for the selection bar and a margin; very wide terminals get a readable column.
        // On tall terminals a card takes at most two thirds of the list, so the next card always shows: a
        // list to scroll through, not a slideshow (the viewer is the full-screen view). That also keeps
        // moving to the next card from repainting the whole screen.
        let sideBySide = width >= Self.sideBySideWidth
        let maxColumns = sideBySide ? min(120, (width - 4) * 3 / 5) : max(8, min(width - 4, 120))
        let fullHeight = viewportHeight - Self.detailRows - 1
        let maxRows = max(3, fullHeight <= 24 ? fullHeight : max(24, viewportHeight * 2 / 3))
        for photo in photos {
            let width = photo.width > 0 ? photo.width : 3
            let height = photo.height > 0 ? photo.height : 2
            let fitted = CellPicture.fittedSize(pixelWidth: width, pixelHeight: height, columns: maxColumns, rows: maxRows,
                                                   cellAspect: cellAspect)
            // Beside its text on wide terminals, else centred in the whole width.
            let x = sideBySide ? 2 + (maxColumns - fitted.columns) / 2 : 2 + max(0, self.width - 4 - fitted.columns) / 2
            cards.append(Card(top: top, height: fitted.rows + Self.detailRows, pictureColumns: fitted.columns,
                              pictureRows: fitted.rows, pictureX: x))
            top += fitted.rows + Self.detailRows
        }
        self.cards = cards
        sideColumns = sideBySide ? max(0, width - 2 - maxColumns - 4) : 0
        totalHeight = top + Self.footerRows
    }

    /// The card on a line of the list.
    public func cardIndex(atLine line: Int) -> Int? {
        var low = 0
        var high = cards.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let card = cards[middle]
            if line < card.top { high = middle - 1 } else if line >= card.top + card.height { low = middle + 1 } else { return middle }
        }
        return nil
    }

    /// The scroll position that shows the card whole, moving as little as possible from `top`.
    /// The last card with a line in view when the list's first line on screen is `top` (the last card when the
    /// view reaches past the end); nil for an empty list.
    public func lastShown(top: Int) -> Int? {
        guard !cards.isEmpty else { return nil }
        return cardIndex(atLine: top + viewportHeight - 1) ?? (cards.count - 1)
    }

    public func scroll(toShow index: Int, from top: Int) -> Int {
        guard cards.indices.contains(index) else { return clampScroll(top) }
        let card = cards[index]
        var newTop = top
        if card.top < newTop { newTop = card.top }
        // The last card brings the row under it into view: loading more, its error, or the end of the list.
        let bottom = card.top + card.height + (index == cards.count - 1 ? Self.footerRows : 0)
        if bottom > newTop + viewportHeight { newTop = bottom - viewportHeight }
        if card.height > viewportHeight { newTop = card.top }
        return clampScroll(newTop)
    }

    public func clampScroll(_ top: Int) -> Int {
        max(0, min(top, max(0, totalHeight - viewportHeight)))
    }
}
