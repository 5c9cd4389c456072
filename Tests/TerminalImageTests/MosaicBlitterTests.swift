@testable import TerminalImage
import XCTest

/// Quadrant and sextant cells: the split of a cell's pixels and the two colours that reproduce them best.
final class MosaicBlitterTests: XCTestCase {
    let white = RGB(255, 255, 255)
    let black = RGB(0, 0, 0)

    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> RGB) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let colour = pixel(x, y)
                pixels += [colour.red, colour.green, colour.blue]
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func test_quadrants_drawADiagonal_withItsTwoColours() {
        let diagonal = image(2, 2) { x, y in x == y ? white : black }
        let picture = MosaicBlitter(kind: .quadrant, mode: .truecolor).render(diagonal, columns: 1, rows: 1)
        // The bottom-right pixel is always the background: the ink is the other diagonal.
        XCTAssertEqual(picture[0, 0], CellPicture.Cell(glyph: "▞", foreground: .rgb(black), background: .rgb(white)))
    }

    func test_sextants_drawOnePixelOfSix_andTheColumnsWithTheHalfBlocks() {
        let corner = image(2, 3) { x, y in x == 0 && y == 0 ? white : black }
        let picture = MosaicBlitter(kind: .sextant, mode: .truecolor).render(corner, columns: 1, rows: 1)
        XCTAssertEqual(picture[0, 0], CellPicture.Cell(glyph: "\u{1FB00}", foreground: .rgb(white), background: .rgb(black)))
        let left = image(2, 3) { x, _ in x == 0 ? white : black }
        XCTAssertEqual(MosaicBlitter(kind: .sextant, mode: .truecolor).render(left, columns: 1, rows: 1)[0, 0].glyph, "▌")
        XCTAssertEqual(MosaicBlitter.glyph(.sextant, 62), "\u{1FB3B}", "the last sextant")
        XCTAssertEqual(MosaicBlitter.glyph(.sextant, 22), "\u{1FB14}", "after the left column's gap")
    }

    /// Blocks: the cell as 8x8 pixels, drawn with the eighth, half or quadrant that splits them best.
    func test_blocks_drawEighthsHalvesAndQuadrants_withTheirTwoColours() {
        let blitter = MosaicBlitter(kind: .blocks, mode: .truecolor)
        let lowQuarter = image(8, 8) { _, y in y >= 6 ? white : black }
        XCTAssertEqual(blitter.render(lowQuarter, columns: 1, rows: 1)[0, 0], CellPicture.Cell(glyph: "▂", foreground: .rgb(white), background: .rgb(black)))
        let leftThreeEighths = image(8, 8) { x, _ in x < 3 ? white : black }
        XCTAssertEqual(blitter.render(leftThreeEighths, columns: 1, rows: 1)[0, 0].glyph, "▍")
        let rightEdge = image(8, 8) { x, _ in x == 7 ? white : black }
        // A glyph and its complement with the colours swapped are the same picture: either may be drawn.
        XCTAssertTrue(["▕", "▉"].contains(blitter.render(rightEdge, columns: 1, rows: 1)[0, 0].glyph))
        let corner = image(8, 8) { x, y in x >= 4 && y >= 4 ? white : black }
        XCTAssertTrue([CellPicture.Cell(glyph: "▗", foreground: .rgb(white), background: .rgb(black)),
                       CellPicture.Cell(glyph: "▛", foreground: .rgb(black), background: .rgb(white))].contains(blitter.render(corner, columns: 1, rows: 1)[0, 0]))
        let flat = image(8, 8) { _, _ in RGB(90, 90, 90) }
        XCTAssertEqual(blitter.render(flat, columns: 1, rows: 1)[0, 0].glyph, " ")
        // Every glyph is one of Block Elements, and each shape is inside the cell.
        for (glyph, shape) in MosaicBlitter.blockGlyphs {
            XCTAssertTrue((0x2580...0x259F).contains(glyph.unicodeScalars.first!.value), String(glyph))
            switch shape {
            case let .rows(from, to), let .columns(from, to): XCTAssertTrue(0 <= from && from < to && to <= 8)
            case let .quadrants(pattern): XCTAssertTrue((1..<15).contains(pattern))
            }
        }
        // A photo's worth of cells in 256 colours: every colour is the palette's.
        let photo = image(80, 40) { x, y in RGB(UInt8(x * 3), UInt8(y * 6), UInt8((x + y) % 256)) }
        let cells = MosaicBlitter(kind: .blocks, mode: .palette256).render(photo, columns: 10, rows: 5)
        XCTAssertEqual(cells.cells.count, 50)
        XCTAssertTrue(cells.cells.allSatisfy { if case .indexed = $0.background { return true } else { return false } })
    }

    func test_aFlatCell_isASpaceOnItsColour_andVerticalStripesKeepTheirDetail() {
        let grey = image(2, 3) { _, _ in RGB(90, 90, 90) }
        XCTAssertEqual(MosaicBlitter(kind: .sextant, mode: .truecolor).render(grey, columns: 1, rows: 1)[0, 0].glyph, " ")
        // One-pixel stripes: half blocks (one pixel a column) lose them, quadrants keep them.
        let stripes = image(8, 4) { x, _ in x % 2 == 0 ? white : black }
        let halves = HalfBlockBlitter(mode: .truecolor).render(stripes, columns: 4, rows: 2)
        XCTAssertTrue(halves.cells.allSatisfy { $0.glyph == " " }, "grey, every cell")
        let quadrants = MosaicBlitter(kind: .quadrant, mode: .truecolor).render(stripes, columns: 4, rows: 2)
        XCTAssertTrue(quadrants.cells.allSatisfy { $0.glyph == "▌" }, quadrants.cells.map { String($0.glyph) }.joined())
    }

    func test_withoutUnicodeOrColour_itFallsBackToHalfBlocksOrShades() {
        let photo = image(4, 6) { x, y in RGB(UInt8(x * 60), UInt8(y * 40), 100) }
        let plain = MosaicBlitter(kind: .sextant, mode: .none).render(photo, columns: 2, rows: 2)
        XCTAssertEqual(plain, HalfBlockBlitter(mode: .none).render(photo, columns: 2, rows: 2))
        let ascii = MosaicBlitter(kind: .quadrant, mode: .palette256, unicode: false).render(photo, columns: 2, rows: 2)
        XCTAssertTrue(ascii.cells.allSatisfy { $0.glyph.isASCII })
    }
}
