import Foundation
import TerminalImage
@testable import TerminalUI
import XCTest

/// The Kitty layer keeps pictures uploaded while they are off screen (the feed's, while the viewer shows a photo),
/// to place them again without a byte of pixels. kitty before 0.38.1 (Debian 12 has 0.26.5) frees, on any delete
/// that frees data (`d=I`), every picture that has no placement at that moment, not only the one named: the feed
/// came back blank after the viewer whenever a picture was let go meanwhile (an upload cut short, one evicted).
final class KittyImageStoreTests: XCTestCase {
    /// What kitty 0.26.5 holds: pictures by id and their placements, changed as its graphics.c changes them.
    struct KittyStore {
        var placements: [String: Set<String>] = [:]
        /// Placements asked for of a picture kitty no longer holds (it answers ENOENT, and shows nothing).
        var missing: [String] = []

        mutating func read(_ bytes: [UInt8]) {
            for command in KittyGraphics.commands(in: bytes) {
                let id = command["i"] ?? ""
                switch (command["a"], command["d"]) {
                case ("t", _), ("T", _):
                    // An image sent under an id already held replaces it, placements and all.
                    placements[id] = []
                case ("p", _):
                    if placements[id] == nil { missing.append(id) } else { placements[id]?.insert(command["p"] ?? "") }
                case ("d", "i"):
                    if let placement = command["p"] { placements[id]?.remove(placement) } else if placements[id] != nil { placements[id] = [] }
                case ("d", "I"):
                    placements[id] = []
                    // The bug: every image left without a placement is freed, whichever was named.
                    placements = placements.filter { !$0.value.isEmpty }
                case ("d", "A"), ("d", "a"):
                    placements.removeAll()
                default:
                    break
                }
            }
        }
    }

    func frame(_ pictures: [(CellPicture, Int)]) -> CellBuffer {
        var buffer = CellBuffer(width: 60, height: 40)
        for (picture, y) in pictures { buffer.draw(picture, x: 1, y: y) }
        return buffer
    }

    /// The feed's two cards, then the viewer's photo whose upload is cut short (the user zoomed: another photo), then
    /// the feed again: its cards are placed from what kitty still holds.
    func test_theFeedsPictures_surviveAnUploadCutShortWhileTheViewerShows() {
        let layer = KittyPictureLayer()
        var kitty = KittyStore()
        let first = noisyPicture(columns: 20, rows: 8), second = noisyPicture(columns: 20, rows: 8)
        let feed = frame([(first, 1), (second, 12)])
        layer.plan(feed, repainted: true, link: .fast)
        kitty.read(layer.drain())
        XCTAssertEqual(kitty.placements.values.map(\.count).reduce(0, +), 2, "both cards placed")
        // The viewer: its photo starts to go up.
        layer.plan(frame([(noisyPicture(columns: 40, rows: 20), 1)]), repainted: false, link: .fast)
        // What goes first (the cards' placements taken off), then two chunks of the photo.
        var begun: [UInt8] = []
        var photoChunks = 0
        while photoChunks < 2, let chunk = layer.nextChunk() {
            if photoChunks > 0 || String(decoding: chunk, as: UTF8.self).contains("a=t") { photoChunks += 1 }
            begun += chunk
            layer.chunkSent()
        }
        XCTAssertEqual(photoChunks, 2)
        kitty.read(begun)
        // Zoomed: another picture replaces it before its upload ended.
        layer.plan(frame([(noisyPicture(columns: 50, rows: 30), 1)]), repainted: false, link: .fast)
        let zoomed = layer.drain()
        XCTAssertTrue(String(decoding: zoomed, as: UTF8.self).hasPrefix("\u{1B}_Gm=0,q=2;\u{1B}\\"), "the photo's upload was cut short")
        kitty.read(zoomed)
        // Back to the feed.
        layer.plan(feed, repainted: false, link: .fast)
        let back = layer.drain()
        kitty.read(back)
        XCTAssertEqual(kitty.missing, [], "every placement finds its picture")
        XCTAssertEqual(KittyGraphics.commands(in: back).filter { $0["a"] == "t" && ($0.int("s") ?? 0) > 1 }.count, 0,
                       "the cards were not sent again")
        XCTAssertEqual(kitty.placements.values.map(\.count).reduce(0, +), 2, "both cards shown")
    }

    /// Past the upload budget, the pictures off screen shown longest ago are let go; the others kept off screen stay,
    /// and a let-go id is taken again by a later upload, so what kitty holds stays bounded over an afternoon.
    func test_evictingPictures_keepsTheOthers_andTheirIdsAreReused() {
        let pictureBytes = 20 * 10 * 10 * 20 * 3
        let layer = KittyPictureLayer(budget: pictureBytes * 4)
        var kitty = KittyStore()
        var ids = Set<String>()
        let cards = (0..<5).map { _ in noisyPicture() }
        for card in cards {
            layer.plan(frame([(card, 1)]), repainted: false, link: .fast)
            kitty.read(layer.drain())
            ids.formUnion(kitty.placements.keys)
        }
        // The fifth went past the budget: the first ones were let go, the fourth is kept off screen.
        layer.plan(frame([(cards[3], 1)]), repainted: false, link: .fast)
        let again = layer.drain()
        kitty.read(again)
        XCTAssertEqual(kitty.missing, [], "the pictures kept off screen are still in kitty")
        XCTAssertFalse(KittyGraphics.commands(in: again).contains { $0["a"] == "t" && ($0.int("s") ?? 0) > 1 }, "placed, not sent again")
        for _ in 0..<10 {
            layer.plan(frame([(noisyPicture(), 1)]), repainted: false, link: .fast)
            kitty.read(layer.drain())
            ids.formUnion(kitty.placements.keys)
        }
        XCTAssertEqual(kitty.missing, [])
        XCTAssertLessThanOrEqual(ids.count, 6, "15 pictures, ids reused: \(ids.sorted())")
    }
}
