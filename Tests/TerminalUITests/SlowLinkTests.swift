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

    /// An animation's frames each wait a little for the link, never a quarter of a second at a time: a spell of a tenth
    /// of a second or more that ends with everything written is a sample too; a shorter one is not.
    func test_shortSpellsOfBackPressure_thatEndInAnEmptyQueue_measureTheLinkToo() throws {
        var meter = LinkMeter()
        var time = 0.0
        for _ in 0..<5 {
            meter.wrote(1_000, at: time, blocked: true)
            time += 0.0625
            meter.wrote(12_500, at: time, blocked: true)
            time += 0.0625
            meter.wrote(12_500, at: time, blocked: false)
            meter.idle(at: time)
            time += 0.1
        }
        XCTAssertEqual(try XCTUnwrap(meter.rate), 200_000, accuracy: 1_000, "25 KB in each eighth of a second")
        var brief = LinkMeter()
        brief.wrote(1_000, at: 0, blocked: true)
        brief.wrote(5_000, at: 0.05, blocked: false)
        brief.idle(at: 0.05)
        XCTAssertNil(brief.rate, "a spell of 50 ms says nothing")
        var few = LinkMeter()
        few.wrote(1_000, at: 0, blocked: true)
        few.wrote(200, at: 0.2, blocked: false)
        few.idle(at: 0.2)
        XCTAssertNil(few.rate, "200 bytes that waited behind a full buffer say nothing")
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

