import Foundation
@testable import ImageFeedCore
import TestSupport
import XCTest

/// A long list keeps the photos far from what is shown packed: packed or held, it is the same list of the same photos.
final class PhotoListTests: XCTestCase {
    /// A photo with every field a photo can have, some of them odd.
    static func richPhoto(_ number: Int) -> Photo {
        let raw = "https://images.unsplash.com/photo-\(1_700_000_000_000 + number)-a1b2c3?ixid=M3w4MDE4NjB8MHwxfGFsbHx8&ixlib=rb-4.1.0"
        var photo = Photo(
            id: "p\(number)", createdAt: Date(timeIntervalSince1970: 1_763_000_000.123_456 + Double(number)),
            updatedAt: number % 3 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 0.1 * Double(number)),
            width: number % 7 == 0 ? 0 : 4_000 + number, height: number % 11 == 0 ? 1 << 62 : 3_000,
            color: "#A0B0C0", blurHash: "LQK-B_I9%MR48^M|bckCRPV@t8WU", likes: number * 13, likedByUser: number % 2 == 0,
            description: number % 5 == 0 ? nil : "Café \u{1F30A} n°\(number) — \"quoted\"\n\\", altDescription: "a photo",
            urls: PhotoURLs(raw: URL(string: raw), full: URL(string: raw + "&q=85"), regular: URL(string: raw + "&q=80&w=1080"),
                            small: URL(string: raw + "&q=80&w=400"), thumb: URL(string: "https://other.example/\(number).jpg")),
            links: PhotoLinks(html: URL(string: "https://unsplash.com/photos/p\(number)"),
                              download: URL(string: "https://unsplash.com/photos/p\(number)/download"),
                              downloadLocation: URL(string: "https://api.unsplash.com/photos/p\(number)/download")),
            user: User(id: "u\(number % 4)", username: "author\(number % 4)", name: "Author \(number % 4)",
                       profileImage: ProfileImage(small: URL(string: "https://images.example/u\(number % 4).jpg")),
                       totalPhotos: number % 4),
            exif: number % 2 == 0 ? Exif(make: "Canon", model: "EOS R5", iso: 100) : nil,
            location: number % 3 == 0 ? PhotoLocation(city: "Oslo", country: "Norway", latitude: 59.913_9, longitude: 10.752_2) : nil,
            tags: ["sea", "blue \(number)"]
        )
        if number % 4 == 0 { photo.isAnimated = true }
        if number % 6 == 0 { photo.views = number * 1_000; photo.downloads = number }
        if number % 8 == 0 { photo.topics = [TopicLink(id: "t1", slug: "nature", title: "Nature")] }
        if number % 9 == 0 { photo.inCollections = ["c1", "c\(number)"] }
        return photo
    }

    func test_packedPhotos_comeBackExactlyAsTheyWere_andCostAFractionOfTheirJSON() throws {
        let photos = (0..<95).map(Self.richPhoto)
        var list = PhotoList(photos)
        list.hold(around: 94, radius: 0)
        XCTAssertEqual(list.packedCount, 90, "the runs away from the photo shown are packed; its own run is held")
        XCTAssertEqual(Array(list), photos)
        for index in [0, 1, 29, 30, 59, 89] {
            XCTAssertEqual(list[index], photos[index])
        }
        XCTAssertEqual(list.ids, photos.map(\.id))
        let sizes = photos.map { PhotoList.PixelSize(width: $0.width, height: $0.height) }
        XCTAssertEqual(list.pixelSizes, sizes)
        XCTAssertTrue(list.hasPixelSizes(sizes))
        XCTAssertFalse(list.hasPixelSizes(Array(sizes.dropLast())))
        var other = sizes
        other[31] = PhotoList.PixelSize(width: 1, height: 1)
        XCTAssertFalse(list.hasPixelSizes(other), "a packed photo's size differs")
        other = sizes
        other[93] = PhotoList.PixelSize(width: 1, height: 1)
        XCTAssertFalse(list.hasPixelSizes(other), "a held photo's size differs")
        XCTAssertEqual(list.firstIndex(ofID: "p42"), 42)
        XCTAssertEqual(list.firstIndex { $0.likes == 13 * 77 }, 77)
        XCTAssertNil(list.firstIndex(ofID: "nope"))
        XCTAssertEqual(list, PhotoList(photos), "packed or held, the same list")
        let json = try JSONEncoder().encode(Array(photos[0..<30]))
        let packed = try XCTUnwrap(list.runs.compactMap { run -> PackedPhotos? in
            if case let .packed(packed) = run { packed } else { nil }
        }.first)
        XCTAssertLessThan(packed.bytes.count * 3, json.count, "a packed run is deflated")
        XCTAssertLessThan(packed.bytes.capacity, packed.bytes.count + 64, "and keeps its bytes only, not zlib's worst case")
        list.hold(around: 0, radius: 0)
        XCTAssertEqual(list.packedCount, 65, "the run shown again is held, the ones it left are packed")
        XCTAssertEqual(Array(list), photos)
    }

    func test_aPhotoThatDoesNotEncode_staysHeld() {
        var photos = (0..<40).map(Self.richPhoto)
        photos[3].location = PhotoLocation(latitude: .nan)
        var list = PhotoList(photos)
        list.hold(around: 39, radius: 0)
        XCTAssertEqual(list.packedCount, 0, "JSON has no NaN: that run stays as it is, and the other is near")
        XCTAssertEqual(list.count, 40)
        XCTAssertEqual(list[3].id, "p3")
    }

    /// Every change a list's owners make, at random places, packed and held at random, against an array.
    func test_randomChanges_matchAnArray() {
        var random = SeededGenerator(seed: 40)
        var list = PhotoList()
        var model: [Photo] = []
        var next = 0
        var mostPacked = 0
        func photo() -> Photo {
            next += 1
            return Self.richPhoto(next)
        }
        for step in 0..<400 {
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1:
                let page = (0..<Int.random(in: 0...35, using: &random)).map { _ in photo() }
                list += page
                model += page
            case 2:
                let at = Int.random(in: 0...model.count, using: &random)
                let new = photo()
                list.insert(new, at: at)
                model.insert(new, at: at)
            case 3 where !model.isEmpty:
                let at = Int.random(in: 0..<model.count, using: &random)
                XCTAssertEqual(list.remove(at: at), model.remove(at: at))
            case 4 where !model.isEmpty:
                let at = Int.random(in: 0..<model.count, using: &random)
                list[at].likes += 1
                model[at].likes += 1
            case 5:
                list.hold(around: Int.random(in: -50...(model.count + 50), using: &random), radius: Int.random(in: 0...60, using: &random))
                mostPacked = max(mostPacked, list.packedCount)
            default:
                if model.count > 3 {
                    let lower = Int.random(in: 0..<model.count, using: &random)
                    let upper = Int.random(in: lower...model.count, using: &random)
                    let new = (0..<Int.random(in: 0...3, using: &random)).map { _ in photo() }
                    list.replaceSubrange(lower..<upper, with: new)
                    model.replaceSubrange(lower..<upper, with: new)
                }
            }
            XCTAssertEqual(list.count, model.count, "step \(step)")
            if step % 10 == 0 {
                XCTAssertEqual(Array(list), model, "step \(step)")
                XCTAssertEqual(list.ids, model.map(\.id), "step \(step)")
                XCTAssertTrue(model.indices.allSatisfy { list[$0] == model[$0] }, "step \(step)")
                XCTAssertEqual(list, PhotoList(model), "step \(step)")
            }
        }
        XCTAssertGreaterThan(mostPacked, 60, "runs were packed and changed while packed")
    }

    func test_theFeed_packsWhatIsFarFromTheCardShown_andHoldsItAgainWhenTheUserComesBack() {
        var state = PhotoListState(perPage: 30)
        _ = PhotoListViewModel.update(&state, .load)
        var all: [Photo] = []
        for page in 1...20 {
            state.nextPage = .loading(page: page)
            let photos = ((page - 1) * 30..<page * 30).map(Self.richPhoto)
            all += photos
            _ = PhotoListViewModel.update(&state, .pageLoaded(page: page, .success(Page(items: photos, number: page, perPage: 30,
                                                                                        totalItems: nil, nextPage: page + 1))))
        }
        XCTAssertEqual(state.photos.count, 600)
        _ = PhotoListViewModel.update(&state, .showedItem(index: 590))
        XCTAssertEqual(state.photos.packedCount, 600 - 180, "150 photos each side of the one shown are held, by whole runs")
        XCTAssertEqual(Array(state.photos), all)
        // A like elsewhere reaches a packed photo.
        _ = PhotoListViewModel.update(&state, .likeChangedElsewhere(photoID: "p3", liked: true, likes: 999))
        XCTAssertEqual(state.photo(id: "p3")?.likes, 999)
        XCTAssertEqual(state.photo(id: "p3")?.likedByUser, true)
        _ = PhotoListViewModel.update(&state, .showedItem(index: 0))
        XCTAssertEqual(state.photos.packedCount, 600 - 180)
        XCTAssertEqual(state.photos[3].likes, 999)
    }
}
