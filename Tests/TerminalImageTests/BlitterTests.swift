@testable import TerminalImage
import XCTest

final class BlitterTests: XCTestCase {
    func test_palette256_matchesCubeAndGrayColoursExactly() {
        XCTAssertEqual(Palette.nearest256(RGB(255, 0, 0)), 196)
        XCTAssertEqual(Palette.nearest256(RGB(0, 0, 0)), 16)
        XCTAssertEqual(Palette.nearest256(RGB(255, 255, 255)), 231)
        XCTAssertEqual(Palette.nearest256(RGB(128, 128, 128)), 244)
        XCTAssertTrue((16...255).contains(Palette.nearest256(RGB(12, 200, 99))), "theme colours 0-15 are never used")
        // Colours between palette entries go to one that looks close (OKLab distance under 0.05).
        for color in [RGB(12, 200, 99), RGB(250, 128, 3), RGB(70, 70, 71), RGB(180, 20, 200)] {
            let chosen = Palette.xterm256[Int(Palette.nearest256(color))]
            XCTAssertLessThan(OKLab(color).distanceSquared(to: OKLab(chosen)), 0.05 * 0.05, "\(color) → \(chosen)")
        }
        XCTAssertEqual(Palette.nearest16(RGB(250, 5, 5)), 9)
    }

    /// A drawn picture's cell is 12 bytes (its glyph one code point, its two colours 4 bytes each): the pipeline
    /// keeps hundreds of pictures, and its budget counts them by this size.
    func test_aPicturesCell_isTwelveBytes_andKeepsItsGlyph() {
        XCTAssertEqual(MemoryLayout<CellPicture.Cell>.stride, 12)
        for glyph: Character in ["▀", "🬀", "⣿", "░", " ", "█"] {
            let cell = CellPicture.Cell(glyph: glyph, foreground: .rgb(RGB(1, 2, 3)), background: .indexed(200))
            XCTAssertEqual(cell.glyph, glyph)
            XCTAssertEqual(cell.foreground, .rgb(RGB(1, 2, 3)))
            XCTAssertEqual(cell.background, .indexed(200))
        }
    }

    func test_halfBlocks_chooseTheGlyphByBrightness() {
        let blitter = HalfBlockBlitter(mode: .truecolor)
        // Column 0: white over black; column 1: black over white; column 2: the same colour twice.
        let image = RGBImage(width: 3, height: 2, pixels: [255, 255, 255, 0, 0, 0, 9, 9, 9, 0, 0, 0, 255, 255, 255, 9, 9, 9])
        let picture = blitter.draw(image)
        XCTAssertEqual(picture[0, 0], .init(glyph: "▀", foreground: .rgb(RGB(255, 255, 255)), background: .rgb(RGB(0, 0, 0))))
        XCTAssertEqual(picture[1, 0], .init(glyph: "▄", foreground: .rgb(RGB(255, 255, 255)), background: .rgb(RGB(0, 0, 0))))
        XCTAssertEqual(picture[2, 0], .init(glyph: " ", foreground: .rgb(RGB(9, 9, 9)), background: .rgb(RGB(9, 9, 9))))
    }

    func test_monochrome_usesASCIIShades() {
        let picture = HalfBlockBlitter(mode: .none).render(RGBImage(width: 4, height: 4, red: 255, green: 255, blue: 255),
                                                           columns: 2, rows: 1)
        XCTAssertEqual(picture.cells.map(\.glyph), ["@", "@"])
        XCTAssertEqual(picture[0, 0].background, .standard)
    }

    func test_withoutUnicode_colourPicturesUseSpaces() {
        let image = RGBImage(width: 1, height: 2, pixels: [255, 255, 255, 0, 0, 0])
        let picture = HalfBlockBlitter(mode: .palette256, unicode: false).draw(image)
        XCTAssertEqual(picture[0, 0].glyph, " ")
    }

    func test_fittedSize_keepsTheShapeWithSquarePixels() {
        XCTAssertTrue(CellPicture.fittedSize(pixelWidth: 1080, pixelHeight: 720, columns: 80, rows: 24) == (72, 24))
        XCTAssertTrue(CellPicture.fittedSize(pixelWidth: 1000, pixelHeight: 100, columns: 80, rows: 24) == (80, 4))
        XCTAssertTrue(CellPicture.fittedSize(pixelWidth: 0, pixelHeight: 100, columns: 80, rows: 24) == (0, 0))
    }

    func test_ansiWriter_emitsColoursOncePerChange() {
        let red = CellPicture.Cell(glyph: "▀", foreground: .indexed(196), background: .indexed(16))
        let text = ANSIPictureWriter.text(CellPicture(columns: 2, rows: 1, cells: [red, red]))
        XCTAssertEqual(text, "\u{1B}[38;5;196;48;5;16m▀▀\u{1B}[0m\n")
        let mono = CellPicture.Cell(glyph: "#", foreground: .standard, background: .standard)
        XCTAssertEqual(ANSIPictureWriter.text(CellPicture(columns: 2, rows: 1, cells: [mono, mono])), "##\n")
        let truecolor = CellPicture.Cell(glyph: "▄", foreground: .rgb(RGB(1, 2, 3)), background: .indexed(3))
        XCTAssertEqual(ANSIPictureWriter.text(CellPicture(columns: 1, rows: 1, cells: [truecolor])), "\u{1B}[38;2;1;2;3;43m▄\u{1B}[0m\n")
    }

    func test_blurHash_decodesTheReferenceHash() throws {
        // The hash from blurha.sh's documentation.
        let image = try XCTUnwrap(BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdnj", width: 32, height: 32))
        XCTAssertEqual(image.width, 32)
        let corner = image.pixel(x: 0, y: 0)
        XCTAssertTrue(corner.red > 100 && corner.red < 200, "\(corner)")
        XCTAssertNil(BlurHash.decode("short", width: 4, height: 4))
        XCTAssertNil(BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMdn", width: 4, height: 4), "wrong length")
        XCTAssertNil(BlurHash.decode("LEHV6nWB2yk8pyo0adR*.7kCMd\u{1B}", width: 4, height: 4), "not base 83")
    }

    func test_rgbHex() {
        XCTAssertEqual(RGB(hex: "#60544D"), RGB(0x60, 0x54, 0x4D))
        XCTAssertNil(RGB(hex: "#60544"))
        XCTAssertNil(RGB(hex: "zzzzzz"))
    }

    /// Eight colours: only indexes 0–7, a gray made of black and white shaded, edges as half blocks.
    func test_eightColours_shadeWhatTheyCannotShow_andKeepEdgesAsHalfBlocks() {
        let blitter = HalfBlockBlitter(mode: .palette8)
        // Column 0: mid gray (no such colour of the eight); column 1: white over black; column 2: orange.
        let image = RGBImage(width: 3, height: 2, pixels: [128, 128, 128, 255, 255, 255, 230, 130, 40,
                                                           128, 128, 128, 0, 0, 0, 230, 130, 40])
        let picture = blitter.draw(image)
        for cell in picture.cells {
            for color in [cell.foreground, cell.background] {
                guard case let .indexed(index) = color else { return XCTFail("\(color) is not one of the eight") }
                XCTAssertLessThan(index, 8)
            }
        }
        XCTAssertTrue(["░", "▒", "▓"].contains(picture[0, 0].glyph), "a gray is a shade: \(picture[0, 0])")
        XCTAssertEqual(picture[1, 0], .init(glyph: "▀", foreground: .indexed(7), background: .indexed(0)))
        XCTAssertNotEqual(picture[2, 0].foreground, picture[2, 0].background, "orange mixes two colours")
        XCTAssertEqual(Palette.nearest8(RGB(250, 5, 5)), 1)
    }
}

