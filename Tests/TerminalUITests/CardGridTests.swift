import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// On very wide terminals the cards of a list (the feed, the favorites, a page's photos) stand in a grid, as every
/// other list does at that width; narrower, a column of cards with each photo's story beside it from 150 columns.
final class CardGridTests: XCTestCase {
    let screen = AppFrame(theme: asciiTheme)
    let photos = (0..<7).map { photo("p\($0)", width: 400, height: 300) }

    func test_from200Columns_cardsStandInRows_eachInItsOwnColumn() {
        let column = CardLayout(photos: photos, width: 199, viewportHeight: 58)
        XCTAssertEqual(column.columns, 1)
        XCTAssertGreaterThan(column.sideColumns, 0, "the story beside each picture, as before")
        XCTAssertLessThan(column.cards[0].top, column.cards[1].top)

        let grid = CardLayout(photos: photos, width: 200, viewportHeight: 58)
        XCTAssertEqual(grid.columns, 2)
        XCTAssertEqual(grid.sideColumns, 0)
        XCTAssertEqual(grid.cards[0].top, grid.cards[1].top, "two cards a row")
        XCTAssertEqual(grid.cards[2].top, grid.cards[0].top + grid.cards[0].height)
        for card in grid.cards {
            let end = try? XCTUnwrap(card.textEnd)
            XCTAssertLessThanOrEqual(card.pictureX + card.pictureColumns, end ?? 0, "the picture stays in its column")
            XCTAssertGreaterThanOrEqual(card.pictureX, 2, "room for the selection bar")
            XCTAssertLessThanOrEqual(end ?? .max, 200)
        }
        XCTAssertLessThanOrEqual(grid.cards[0].textEnd ?? .max, grid.cards[1].pictureX - 2, "the columns do not overlap")
        XCTAssertEqual(CardLayout(photos: photos, width: 320, viewportHeight: 58).columns, 3)
        // A row takes at most two fifths of a tall list, so a step to the next row scrolls less than half of it;
        // a column of cards keeps its larger pictures.
        XCTAssertLessThanOrEqual(grid.cards[0].height * 5, 58 * 2 + 5 * CardLayout.detailRows)
        XCTAssertLessThan(grid.cards[0].height * 2, grid.viewportHeight)
        XCTAssertGreaterThan(column.cards[0].height * 2, column.viewportHeight)

        // A row's box is its tallest picture; a shorter one keeps to its top, and every details line is under the box.
        let mixed = CardLayout(photos: [photo("wide", width: 800, height: 200), photo("tall", width: 300, height: 600)],
                               width: 200, viewportHeight: 58)
        XCTAssertEqual(mixed.cards[0].boxRows, mixed.cards[1].boxRows)
        XCTAssertEqual(mixed.cards[0].detailsLine, mixed.cards[1].detailsLine)
        XCTAssertLessThan(mixed.cards[0].pictureRows, mixed.cards[0].boxRows)
        XCTAssertEqual(mixed.cards[0].pictureTop, mixed.cards[0].top)
        XCTAssertEqual(mixed.cards[1].pictureTop, mixed.cards[1].top)
    }

    func test_theGridsLinesAndPoints_findTheirCards() {
        let grid = CardLayout(photos: photos, width: 200, viewportHeight: 58)
        let second = grid.cards[1]
        XCTAssertEqual(grid.cardIndex(atLine: second.top + 1), 0, "a line finds its row's first card")
        XCTAssertEqual(grid.cardIndex(atLine: second.top + 1, x: second.pictureX + 1), 1)
        XCTAssertEqual(grid.cardIndex(atLine: grid.cards[6].top, x: grid.cards[1].pictureX), nil, "nothing right of the last card")
        XCTAssertLessThan(grid.cards[2].top, grid.viewportHeight, "the second row starts in view")
        XCTAssertEqual(grid.lastShown(top: 0), 5, "the last card of the last row in view")
        XCTAssertEqual(grid.scroll(toShow: 6, from: 0), grid.clampScroll(grid.totalHeight - grid.viewportHeight),
                       "the last row shows the row under it")
    }

    func test_inTheFeedsGrid_hAndLMoveSideways_jAndKARow_aClickPicksTheCardUnderIt() {
        let state = loadedState(photos)
        var ui = UIState()
        func press(_ key: Key) { _ = screen.handle(.key(key), app: state, ui: &ui, width: 200, height: 60) }
        press(.character("l"))
        XCTAssertEqual(ui.feedSelected, 1)
        press(.character("j"))
        XCTAssertEqual(ui.feedSelected, 3)
        press(.left)
        XCTAssertEqual(ui.feedSelected, 2)
        press(.character("k"))
        XCTAssertEqual(ui.feedSelected, 0)
        XCTAssertEqual(screen.shownEnd(state, ui: ui, width: 200, height: 60)?.lastIndex, 5, "the row partly in view, to its end")

        let layout = screen.feedLayout(state, width: 200, height: 60)
        let card = layout.cards[1]
        let events = screen.handle(.mouse(MouseEvent(x: card.pictureX + 3, y: 1 + card.pictureTop + 1, kind: .press)), app: state,
                                   ui: &ui, width: 200, height: 60)
        XCTAssertEqual(events, [.openViewer(photoID: "p1")])
        XCTAssertEqual(ui.feedSelected, 1)

        // Narrower, the same keys: h and l do nothing in a column, j goes to the next card.
        var narrow = UIState()
        _ = screen.handle(.key(.character("l")), app: state, ui: &narrow, width: 160, height: 48)
        XCTAssertEqual(narrow.feedSelected, 0)
        _ = screen.handle(.key(.character("j")), app: state, ui: &narrow, width: 160, height: 48)
        XCTAssertEqual(narrow.feedSelected, 1)
    }
}
