import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// Pictures over a slow link: what waits is withdrawn when no longer wanted, a transfer cut short ends cleanly,
/// pictures are sized to the measured rate, and the keyboard's frames never wait behind a picture.
/// A picture whose pixels do not compress (so its upload is as long as its pixels).
func noisyPicture(columns: Int = 20, rows: Int = 10, cellWidth: Int = 10, cellHeight: Int = 20) -> CellPicture {
    var generator = SystemRandomNumberGenerator()
    let pixels = (0..<(columns * cellWidth * rows * cellHeight * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return CellPicture(pixels: PixelPicture(image: RGBImage(width: columns * cellWidth, height: rows * cellHeight, pixels: pixels),
                                            columns: columns, rows: rows))
}

/// A 60x20 frame with `picture` at (1, 1).
func frameShowing(_ picture: CellPicture?, width: Int = 60, height: Int = 20) -> CellBuffer {
    var buffer = CellBuffer(width: width, height: height)
    if let picture { buffer.draw(picture, x: 1, y: 1) }
    return buffer
}

final class SlowLinkTests: XCTestCase {
    func noisy(columns: Int = 20, rows: Int = 10) -> CellPicture { noisyPicture(columns: columns, rows: rows) }
    func frame(_ picture: CellPicture?) -> CellBuffer { frameShowing(picture) }

    let slow = LinkState(rate: 125_000, idle: 0, screenCells: 60 * 20)

    // MARK: The queue

    func test_aJobNotBegun_isWithdrawnWithoutAByte_andOneUnderWay_endsAfterItsChunkWithItsClosingBytes() {
        var queue = ChunkQueue<String>()
        queue.append("a", chunks: [[1], [2], [3]], abort: [9])
        queue.append("b", chunks: [[4]])
        queue.append("delete", chunks: [[7]], withdrawable: false)
        XCTAssertEqual(queue.next(), [1])
        XCTAssertEqual(queue.withdraw { $0 != "delete" }, ["a", "b"])
        // The chunk in the terminal's hands goes on, then the job's closing bytes; "b" never goes; the delete does.
        var sent: [[UInt8]] = [[1]]
        queue.sent()
        while let chunk = queue.next() {
            sent.append(chunk)
            queue.sent()
        }
        XCTAssertEqual(sent, [[1], [9], [7]])
        XCTAssertTrue(queue.isEmpty, "nothing withdrawn is left to go")
    }

    func test_escapeSequences_splitsBetweenWholeSequences() {
        let bytes = Array("\u{1B}_Ga=t,m=1;AAAA\u{1B}\\\u{1B}_Gm=0;BBBB\u{1B}\\".utf8)
        let chunks = escapeSequences(bytes)
        XCTAssertEqual(chunks.count, 2)
        XCTAssertEqual(chunks.joined().map { $0 }, bytes)
    }

    // MARK: Kitty

    func test_kitty_anUploadNoLongerWanted_isDroppedBeforeItsBytesGo() {
        let layer = KittyPictureLayer()
        let card = noisy()
        layer.plan(frame(card), repainted: true, link: .fast)
        XCTAssertNotNil(layer.nextChunk())
        layer.chunkSent()
        // The user moved on: the picture is no longer in the frame.
        layer.plan(frame(nil), repainted: false, link: .fast)
        let rest = layer.drain()
        let text = String(decoding: rest, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}_Gm=0,q=2;\u{1B}\\"), "the cut upload is closed by an empty last chunk")
        XCTAssertTrue(text.contains("a=d,d=i,i=") && text.contains("a=t,f=24,s=1,v=1,i="),
                      "and its id retired (its placements taken off, its pixels one), not deleted with a delete that frees data")
        XCTAssertFalse(text.contains("d=I"))
        XCTAssertFalse(text.contains("a=p"), "never placed")
        XCTAssertLessThan(rest.count, 200)
    }

    func test_kitty_anUploadNotBegun_costsNothingWhenWithdrawn() {
        let layer = KittyPictureLayer()
        layer.plan(frame(noisy()), repainted: true, link: .fast)
        layer.plan(frame(nil), repainted: false, link: .fast)
        XCTAssertTrue(layer.drain().isEmpty)
        XCTAssertFalse(layer.hasWork)
    }

    func test_kitty_onASlowLink_sendsTheCardSmaller_placedOverTheSameCells_thenInFullOnceTheLinkIsIdle() throws {
        let layer = KittyPictureLayer()
        let card = noisy(columns: 40, rows: 12)
        layer.plan(frame(card), repainted: true, link: slow)
        let first = KittyGraphics.commands(in: layer.drain())
        let upload = try XCTUnwrap(first.first { $0["a"] == "t" })
        XCTAssertLessThan(try XCTUnwrap(upload.int("s")), 400, "fewer pixels than the picture's 400")
        let place = try XCTUnwrap(first.first { $0["a"] == "p" })
        XCTAssertEqual(place.int("c"), 40)
        XCTAssertEqual(place.int("r"), 12)
        XCTAssertTrue(layer.wantsFrame(link: LinkState(rate: 125_000, idle: 3, screenCells: 1_200)))
        layer.plan(frame(card), repainted: false, link: LinkState(rate: 125_000, idle: 3, screenCells: 1_200))
        let second = KittyGraphics.commands(in: layer.drain())
        XCTAssertEqual(second.first { $0["a"] == "t" }?.int("s"), 400, "in full")
        XCTAssertEqual(second.map { $0["a"] }, ["t", "p", "d", "t"], "uploaded, placed, and the small one retired")
        XCTAssertEqual(second[2]["d"], "i", "a delete that frees no data")
        XCTAssertEqual(second[3].int("s"), 1, "the small one's pixels become one")
        XCTAssertFalse(layer.wantsFrame(link: LinkState(rate: 125_000, idle: 5, screenCells: 1_200)))
    }

    func test_kitty_onAFastLink_nothingChanges() throws {
        let layer = KittyPictureLayer()
        layer.plan(frame(noisy(columns: 40, rows: 12)), repainted: true, link: .fast)
        let upload = try XCTUnwrap(KittyGraphics.commands(in: layer.drain()).first { $0["a"] == "t" })
        XCTAssertEqual(upload.int("s"), 400)
    }

    // MARK: Sixel

    func test_sixel_aSmallPicture_goesInPixelsAtOnce_evenOnASlowLink() {
        let layer = InlinePictureLayer(format: .sixel)
        layer.cellsBlitter = HalfBlockBlitter(mode: .truecolor)
        let drawn = layer.prepare(frame(noisy(columns: 8, rows: 4)), repainted: true, link: slow)
        XCTAssertEqual(drawn[1, 1], .picture, "it crosses the link in its share of time")
    }

    func test_sixel_onASlowLink_isCharactersFirst_thenPixelsOnceTheLinkIsIdle() {
        let layer = InlinePictureLayer(format: .sixel)
        layer.cellsBlitter = HalfBlockBlitter(mode: .truecolor)
        let buffer = frame(noisy(columns: 30, rows: 15)) // 300x300 pixels: more than a card's share of this link
        let drawn = layer.prepare(buffer, repainted: true, link: slow)
        XCTAssertNotEqual(drawn[1, 1], .picture, "drawn in characters meanwhile")
        layer.plan(drawn, repainted: true, link: slow)
        XCTAssertFalse(layer.hasWork, "no Sixel yet")
        XCTAssertTrue(layer.wantsFrame(link: LinkState(rate: 125_000, idle: 3, screenCells: 1_200)))
        let idle = LinkState(rate: 125_000, idle: 3, screenCells: 1_200)
        let later = layer.prepare(buffer, repainted: false, link: idle)
        XCTAssertEqual(later[1, 1], .picture)
        layer.plan(later, repainted: false, link: idle)
        let bytes = layer.drain()
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}P").count - 1, 4,
                       "15 rows in bands of 4: a key waits for one band, not the picture")
    }

    func test_sixel_aBandNotBegun_isNeverSent_whenThePictureGoes() {
        let layer = InlinePictureLayer(format: .sixel)
        let buffer = frame(noisy(columns: 8, rows: 12))
        layer.plan(buffer, repainted: true, link: LinkState(rate: 125_000, idle: 0, screenCells: 1_200))
        XCTAssertNotNil(layer.nextChunk())
        layer.chunkSent()
        layer.plan(frame(nil), repainted: false, link: slow)
        XCTAssertTrue(layer.drain().isEmpty, "the bands left are dropped; the one sent was whole")
    }

    // MARK: The link

    func test_theRate_isMeasuredFromBackPressure() throws {
        var meter = LinkMeter()
        XCTAssertNil(meter.rate, "a link that never pushed back is fast")
        var time = 0.0
        meter.wrote(20_000, at: time, blocked: true)
        for _ in 0..<20 {
            time += 0.1
            meter.wrote(12_500, at: time, blocked: true)
        }
        XCTAssertEqual(try XCTUnwrap(meter.rate), 125_000, accuracy: 5_000)
        XCTAssertTrue(meter.summary.contains("1.0 Mbit/s"), meter.summary)
        XCTAssertNil(LinkMeter(setting: .fast).rate)
        XCTAssertEqual(LinkMeter(setting: .slow).rate, LinkSetting.slowRate)
    }

    func test_thePicturesSize_followsTheRate() {
        let viewer = 1_080 * 720
        XCTAssertEqual(LinkMeter.scale(pixels: viewer, screenShare: 0.9, rate: nil), 1)
        XCTAssertEqual(LinkMeter.scale(pixels: viewer, screenShare: 0.9, rate: 1_250_000 * 4), 1)
        let slow = LinkMeter.scale(pixels: viewer, screenShare: 0.9, rate: 125_000)
        let slower = LinkMeter.scale(pixels: viewer, screenShare: 0.9, rate: 30_000)
        XCTAssertLessThan(slow, 1)
        XCTAssertLessThan(slower, slow)
        XCTAssertLessThan(LinkMeter.scale(pixels: 400 * 200, screenShare: 0.1, rate: 125_000), 1)
    }

    // MARK: The backend, on a slow pseudo-terminal

    func test_aKeysFrame_goesAheadOfAPictureStillCrossing_andTheUnwantedRestIsNeverSent() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true, readRate: 125_000)
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                         graphics: .kitty, link: .fast)
        defer {
            backend.restore()
            terminal.close()
        }
        let card = noisy(columns: 30, rows: 15) // about 240 KB to upload: two seconds of this link
        let started = Date()
        backend.draw(frame(card))
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5, "drawing does not wait for the terminal")
        usleep(200_000)
        var answer = CellBuffer(width: 60, height: 20)
        answer.write("the next photo", x: 0, y: 0)
        backend.draw(answer)
        _ = terminal.endFrame(flushing: backend)
        let output = terminal.takeOutput()
        let text = String(decoding: output, as: UTF8.self)
        XCTAssertTrue(text.contains("the next photo"))
        XCTAssertLessThan(output.count, 120_000, "the rest of the upload was dropped")
        XCTAssertFalse(text.contains("a=p,"), "the picture no longer wanted was never placed")
        let commands = KittyGraphics.commands(in: output)
        XCTAssertTrue(commands.contains { $0["a"] == "d" }, "the cut upload was deleted")
    }
}

/// Sixel pictures that only moved move with the text where the terminal scrolls them (xterm, mlterm): the rows
/// curses scrolled are read from what it wrote, and only the rows a scroll brought into view are drawn.
final class SixelScrollTests: XCTestCase {
    func test_rowMoves_followARegionScrolledUpByLineFeeds_andDownByReverseScroll() {
        var up = RowMoves(height: 24)
        // ncurses for xterm: a region, the cursor to its bottom, a line feed, the whole screen again.
        up.read(Array("\u{1B}[4;21r\u{1B}[21;1H\n\u{1B}[1;24r\u{1B}[11;57Hj".utf8))
        XCTAssertEqual(up.destination(of: 4), 3, "row 4 (0-based) moved up into row 3")
        XCTAssertNil(up.destination(of: 3), "the region's top row scrolled away")
        XCTAssertEqual(up.destination(of: 2), 2, "above the region nothing moved")
        XCTAssertEqual(up.destination(of: 21), 21, "below it neither")
        XCTAssertNil(up.origin[20], "a blank row came in at the region's bottom")

        var down = RowMoves(height: 24)
        down.read(Array("\u{1B}[4;20r\u{1B}[4;1H\u{1B}[2T\u{1B}[1;24r".utf8))
        XCTAssertEqual(down.destination(of: 3), 5)
        XCTAssertEqual(down.destination(of: 17), 19)
        XCTAssertNil(down.destination(of: 18), "pushed out of the region")

        var lines = RowMoves(height: 10)
        lines.read(Array("\u{1B}[3;1H\u{1B}[2M".utf8)) // delete two lines at row 2
        XCTAssertEqual(lines.destination(of: 4), 2)
        XCTAssertNil(lines.origin[9])

        var cleared = RowMoves(height: 10)
        cleared.read(Array("\u{1B}[H\u{1B}[2J".utf8))
        XCTAssertTrue(cleared.origin.allSatisfy { $0 == nil })
        XCTAssertTrue(cleared.cleared, "a clear is told from a scroll: kitty drops the pictures it held unplaced")
        var plain = RowMoves(height: 10)
        plain.read(Array("\u{1B}[5;3Hhello\u{1B}Pq#0;2;0;0;0-\u{1B}\\\u{1B}[31mred".utf8))
        XCTAssertTrue(plain.isIdentity, "text, colours and a DCS string move no row")
    }

    func test_rowMoves_startFromTheRowCursesLeftTheCursorIn() {
        // ncurses for xterm-direct, scrolling rows 4…59 up by one with the cursor left at row 59 by the frame before:
        // the region is set between a save and a restore of the cursor, and a line feed scrolls, with no move before it.
        let bytes = Array("\u{1B}7\u{1B}[4;59r\u{1B}8\r\n\u{1B}[1;60r\u{1B}[59;14H".utf8)
        var moves = RowMoves(height: 60, cursorRow: 58)
        moves.read(bytes)
        XCTAssertEqual(moves.destination(of: 10), 9, "the rows moved up")
        XCTAssertNil(moves.destination(of: 3), "the region's top row scrolled away")
        var fromTheTop = RowMoves(height: 60)
        fromTheTop.read(bytes)
        XCTAssertTrue(fromTheTop.isIdentity, "read from the top row, the line feed is only a move (what was missed before)")
    }

    func picture(columns: Int = 10, rows: Int = 6) -> CellPicture {
        var pixels = [UInt8](repeating: 0, count: columns * 8 * rows * 12 * 3)
        for index in pixels.indices { pixels[index] = UInt8(index % 251) }
        return CellPicture(pixels: PixelPicture(image: RGBImage(width: columns * 8, height: rows * 12, pixels: pixels),
                                                columns: columns, rows: rows))
    }

    func test_aCardMovedUpByOneRow_drawsOnlyTheRowItBringsIntoView() {
        let card = picture()
        let clip = Rect(x: 0, y: 0, width: 40, height: 9)
        var before = CellBuffer(width: 40, height: 10)
        before.draw(card, x: 2, y: 4, clip: clip) // rows 0…4 of the card in view (screen rows 4…8)
        var after = CellBuffer(width: 40, height: 10)
        after.draw(card, x: 2, y: 3, clip: clip) // one row up: rows 0…5 in view
        let layer = InlinePictureLayer(format: .sixel, followsScrolls: true)
        XCTAssertEqual(sixels(in: layer.frame(before, repainted: true)), 1)
        var moves = RowMoves(height: 10)
        moves.read(Array("\u{1B}[1;9r\u{1B}[9;1H\n\u{1B}[1;10r".utf8)) // curses scrolled rows 0…8 up by one
        layer.moved(moves)
        let step = layer.frame(after, repainted: false)
        XCTAssertEqual(sixels(in: step), 1, "one piece: the row that came into view")
        let piece = SixelEncoder.decode(step.sixelBody)
        XCTAssertEqual(piece?.height, 12, "one row of 12 pixels, not the card")
        XCTAssertTrue(String(decoding: step, as: UTF8.self).contains("\u{1B}[9;3H"), "drawn at the card's last row")
    }

    func test_withoutScrolls_aMovedCardIsDrawnAgain() {
        let card = picture()
        let clip = Rect(x: 0, y: 0, width: 40, height: 9)
        var before = CellBuffer(width: 40, height: 10)
        before.draw(card, x: 2, y: 2, clip: clip)
        var after = CellBuffer(width: 40, height: 10)
        after.draw(card, x: 2, y: 1, clip: clip)
        let layer = InlinePictureLayer(format: .sixel)
        _ = layer.frame(before, repainted: true)
        let step = layer.frame(after, repainted: false)
        XCTAssertEqual(SixelEncoder.decode(step.sixelBody)?.height, 72, "the whole card again")
    }

    func sixels(in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}Pq").count - 1
    }
}

extension Array where Element == UInt8 {
    /// The first Sixel sequence in these bytes (`ESC P … ESC \`).
    var sixelBody: [UInt8] {
        guard let start = firstIndex(of: 0x1B).flatMap({ index -> Int? in
            var at = index
            while at + 1 < count, !(self[at] == 0x1B && self[at + 1] == 0x50) { at += 1 }
            return at + 1 < count ? at : nil
        }) else { return [] }
        var end = start + 2
        while end + 1 < count, !(self[end] == 0x1B && self[end + 1] == 0x5C) { end += 1 }
        return Array(self[start..<Swift.min(count, end + 2)])
    }
}

final class SixelPartsTests: XCTestCase {
    /// Parts of a picture drawn at different times are the very pixels of the whole (one palette, one dither).
    func test_aPartOfAQuantizedPicture_isThatPartOfTheWhole() throws {
        var pixels = [UInt8](repeating: 0, count: 60 * 48 * 3)
        for index in pixels.indices { pixels[index] = UInt8((index * 7 + index / 180 * 13) % 256) }
        let picture = try XCTUnwrap(SixelEncoder.Quantized(RGBImage(width: 60, height: 48, pixels: pixels)))
        let whole = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(picture.encode(x: 0, y: 0, width: 60, height: 48))))
        let part = try XCTUnwrap(SixelEncoder.decode(try XCTUnwrap(picture.encode(x: 10, y: 12, width: 30, height: 24))))
        XCTAssertEqual(part.width, 30)
        XCTAssertEqual(part.height, 24)
        let cut = PixelPicture(image: whole, columns: 6, rows: 4).crop(x: 10, y: 12, width: 30, height: 24)
        XCTAssertEqual(part.pixels, cut.pixels)
        XCTAssertNil(picture.encode(x: 50, y: 0, width: 20, height: 8), "outside the picture")
    }
}

/// Over SSH the program's writes never wait (sshd takes megabytes first): where the terminal answers DA1, the
/// backend asks it behind what it writes and keeps no more than a window unconfirmed.
final class ConfirmedWindowTests: XCTestCase {
    func test_behindABuffer_picturesWaitForTheTerminalsAnswers_andAKeysFrameStillGoesSoon() throws {
        setenv("LC_ALL", "C.UTF-8", 1)
        let terminal = try PseudoTerminal(width: 60, height: 20, keepsOutput: true, readRate: 125_000, buffered: true)
        var abilities = TerminalAbilities()
        abilities.answered = true
        let backend = try NcursesBackend(input: terminal.slave, output: terminal.slave, environment: ["TERM": "xterm-256color"],
                                         abilities: abilities, graphics: .kitty, link: .fast)
        defer {
            backend.restore()
            terminal.close()
        }
        let card = noisyPicture(columns: 30, rows: 15) // about 240 KB to upload
        backend.draw(frameShowing(card))
        let started = Date()
        while Date().timeIntervalSince(started) < 0.5 { _ = backend.readInput(timeout: 20) }
        XCTAssertLessThan(terminal.bufferedBytes, 100_000, "no more than a window waits in the buffer")
        var answer = CellBuffer(width: 60, height: 20)
        answer.write("the next photo", x: 0, y: 0)
        let pressed = Date()
        while !backend.readyForFrame, Date().timeIntervalSince(pressed) < 5 { _ = backend.readInput(timeout: 20) }
        backend.draw(answer)
        while Date().timeIntervalSince(pressed) < 3 {
            _ = backend.readInput(timeout: 20)
            if String(decoding: terminal.takeOutput(), as: UTF8.self).contains("the next photo") { break }
        }
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 1.5, "the key's frame crossed within a window's time")
    }
}
