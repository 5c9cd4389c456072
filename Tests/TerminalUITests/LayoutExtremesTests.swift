import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// No layout arithmetic can trap, whatever size a photo claims (even one that was never checked) and
/// whatever size the terminal has: cards, tiles, the viewer's transform and the fitted size.
final class LayoutExtremesTests: XCTestCase {
    static let sides = [Int.min, -5, 0, 1, 2, 3, 17, 1_080, 65_535, 500_000, 1 << 31, 1 << 62, Int.max]
    static let terminals = [(1, 1), (2, 3), (40, 12), (80, 24), (200, 60), (5_000, 2_000)]

    func test_fittedSize_neverTraps_andStaysInTheBox() {
        for width in Self.sides {
            for height in Self.sides {
                for (columns, rows) in Self.terminals {
                    for aspect in [0.5, 2, 1e-300, 1e300, .infinity, .nan] {
                        let fitted = CellPicture.fittedSize(pixelWidth: width, pixelHeight: height, columns: columns, rows: rows, cellAspect: aspect)
                        XCTAssertLessThanOrEqual(fitted.columns, columns)
                        XCTAssertLessThanOrEqual(fitted.rows, rows)
                        XCTAssertGreaterThanOrEqual(fitted.columns, 0)
                    }
                }
            }
        }
    }

    func test_cardsTilesAndTheViewer_neverTrap_onUncheckedSizes() {
        for width in Self.sides {
            for height in Self.sides {
                let photo = Photo(id: "p", width: width, height: height)
                for (columns, rows) in Self.terminals {
                    let cards = CardLayout(photos: [photo, photo], width: columns, viewportHeight: rows)
                    XCTAssertEqual(cards.cards.count, 2)
                    for layout in [SearchLayout.grid, .single] {
                        _ = TileLayout(photos: [photo, photo, photo], width: columns, viewportHeight: rows, layout: layout)
                    }
                    for zoom in [1, 1.5, 1e6, 1e300, .infinity, .nan] {
                        for turns in [0, 1] {
                            var viewer = ViewerState(photo: photo)
                            viewer.zoom = zoom
                            viewer.quarterTurns = turns
                            let layout = ViewerScreen.pictureLayout(for: viewer, width: columns, height: rows)
                            XCTAssertLessThanOrEqual(layout.rect.width, columns)
                            XCTAssertFalse(layout.visibleX.isNaN)
                        }
                    }
                }
            }
        }
    }

    /// Cards, tiles and the detail lay photos out with the terminal's cell shape: a photo in 9x19 cells (xterm's DejaVu
    /// Sans Mono) is 5% fewer rows than in 1:2 cells, so it keeps its shape on screen.
    func test_cardsAndTiles_keepThePhotosShape_inTheTerminalsCells() {
        let square = [Photo(id: "a", width: 1_600, height: 1_000)]
        let even = CardLayout(photos: square, width: 100, viewportHeight: 60)
        let tall = CardLayout(photos: square, width: 100, viewportHeight: 60, cellAspect: 19.0 / 9.0)
        XCTAssertEqual(even.cards[0].pictureColumns, tall.cards[0].pictureColumns)
        XCTAssertLessThan(tall.cards[0].pictureRows, even.cards[0].pictureRows)
        let card = tall.cards[0]
        XCTAssertEqual(Double(card.pictureRows * 19) / Double(card.pictureColumns * 9), 1_000.0 / 1_600, accuracy: 0.02, "its shape on screen")
        let tile = TileLayout(photos: square, width: 100, viewportHeight: 40, layout: .single, cellAspect: 19.0 / 9.0).tiles[0]
        XCTAssertEqual(Double(tile.pictureRows * 19) / Double(tile.pictureColumns * 9), 1_000.0 / 1_600, accuracy: 0.03, "its shape on screen")
        // The frame passes the shape to every screen.
        var app = AppState()
        app.feed.photos = PhotoList(square)
        let frame = AppFrame(theme: Theme(colorMode: .palette256, unicode: true), cellAspect: 19.0 / 9.0)
        XCTAssertEqual(frame.feedLayout(app, width: 100, height: 62).cards[0].pictureRows, card.pictureRows)
    }

    func test_saturatingConversion() {
        XCTAssertEqual(Int(saturating: .nan), 0)
        XCTAssertEqual(Int(saturating: 1e300), 1 << 52)
        XCTAssertEqual(Int(saturating: -.infinity), -(1 << 52))
        XCTAssertEqual(Int(saturating: 41.9), 41)
    }
}
