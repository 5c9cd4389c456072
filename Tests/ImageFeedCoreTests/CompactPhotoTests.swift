import Foundation
@testable import ImageFeedCore
import XCTest

/// The feed keeps every photo it has shown: what repeats from photo to photo is held once, and what a list's
/// photo does not have costs a pointer; nothing of it shows in what a photo says or in its JSON.
final class CompactPhotoTests: XCTestCase {
    static let raw = "https://images.unsplash.com/photo-1761839257870-06874bda71b5?ixid=M3w4MDE4NjB8MHwxfGFsbHx8fHx8fHx8fDE3NjQyMjM0Mzd8&ixlib=rb-4.1.0"

    static func urls(_ raw: String = raw) -> PhotoURLs {
        PhotoURLs(raw: URL(string: raw), full: URL(string: raw + "&q=85&fm=jpg&crop=entropy&cs=srgb"),
                  regular: URL(string: raw + "&q=80&fm=jpg&crop=entropy&cs=tinysrgb&w=1080&fit=max"),
                  small: URL(string: raw + "&q=80&fm=jpg&crop=entropy&cs=tinysrgb&w=400&fit=max"),
                  thumb: URL(string: "https://other.example/t.jpg"))
    }

    func test_sizesAfterRaw_readWhole_andTheirJSONIsThatOfFiveURLs() throws {
        let urls = Self.urls()
        XCTAssertEqual(urls.raw?.absoluteString, Self.raw)
        XCTAssertEqual(urls.full?.absoluteString, Self.raw + "&q=85&fm=jpg&crop=entropy&cs=srgb")
        XCTAssertEqual(urls.regular?.absoluteString, Self.raw + "&q=80&fm=jpg&crop=entropy&cs=tinysrgb&w=1080&fit=max")
        XCTAssertEqual(urls.small?.absoluteString, Self.raw + "&q=80&fm=jpg&crop=entropy&cs=tinysrgb&w=400&fit=max")
        XCTAssertEqual(urls.thumb?.absoluteString, "https://other.example/t.jpg", "an address not after raw is kept whole")
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(urls)) as? [String: String]
        XCTAssertEqual(json?["regular"], urls.regular?.absoluteString)
        XCTAssertEqual(json?["thumb"], "https://other.example/t.jpg")
        XCTAssertEqual(try JSONDecoder().decode(PhotoURLs.self, from: JSONEncoder().encode(urls)), urls)
        XCTAssertThrowsError(try JSONDecoder().decode(PhotoURLs.self, from: Data(#"{"raw":"http://bad host/"}"#.utf8)),
                             "what URL(string:) refuses is refused")
        // A raw address alone (Imgur's photos have none: every size whole).
        let sizesOnly = PhotoURLs(small: URL(string: "https://i.imgur.com/a.jpg"))
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(sizesOnly), as: UTF8.self), #"{"small":"https:\/\/i.imgur.com\/a.jpg"}"#)
    }

    func test_changingRaw_keepsEverySizeAsItWas_andEqualAddressesAreEqual() {
        var urls = Self.urls()
        let sizes = [urls.full, urls.regular, urls.small, urls.thumb]
        urls.raw = URL(string: "https://images.unsplash.com/photo-2")
        XCTAssertEqual([urls.full, urls.regular, urls.small, urls.thumb], sizes)
        urls.raw = nil
        XCTAssertEqual([urls.full, urls.regular, urls.small, urls.thumb], sizes)
        XCTAssertNil(urls.raw)
        urls.raw = URL(string: Self.raw)
        XCTAssertEqual(urls, Self.urls(), "the same addresses, however they were set")
        urls.small = nil
        XCTAssertNil(urls.small)
        XCTAssertNotEqual(urls, Self.urls())
    }

    func test_twoPhotosOfOneAuthor_holdTheAuthorOnce_andAChangedAuthorIsNotTheOldOne() {
        let author = User(id: "u1", username: "nasa", name: "NASA", bio: "Explore the universe and discover our home planet.",
                          htmlLink: URL(string: "https://unsplash.com/@nasa"))
        let first = Photo(id: "a", urls: Self.urls(), user: author)
        var second = Photo(id: "b", urls: Self.urls(Self.raw + "x"), user: author)
        XCTAssertTrue(first.author === second.author)
        XCTAssertEqual(second.user, author)
        var renamed = author
        renamed.name = "NASA Archives"
        second.user = renamed
        XCTAssertFalse(first.author === second.author)
        XCTAssertEqual(first.user?.name, "NASA")
        XCTAssertEqual(second.user?.name, "NASA Archives")
    }

    func test_aFeedOfThousandsOfAuthors_keepsAFewHundredOfThemInTheTable_andAnAuthorMetTwiceIsStillShared() {
        XCTAssertGreaterThan(Interned.maximumUsers, 2 * Paging.heldRadius + PhotoList.runLength,
                             "every author of the photos a list holds as values fits")
        var list = PhotoList()
        for index in 0..<3_000 {
            let author = User(id: "u\(index)", username: "author\(index)", bio: "Photographer based in a city by the sea.")
            list.append(Photo(id: "p\(index)", urls: Self.urls(Self.raw + "&n=\(index)"), user: author))
            list.hold(around: index, radius: Paging.heldRadius)
            XCTAssertLessThanOrEqual(Interned.userCount, Interned.maximumUsers)
        }
        // About what the list holds as values, not every author met (some 1.7 KB each).
        XCTAssertLessThanOrEqual(Interned.userCount, 2 * (2 * Paging.heldRadius + 2 * PhotoList.runLength))
        let author = User(id: "again", username: "again")
        let first = Photo(id: "a", urls: Self.urls(), user: author)
        let second = Photo(id: "b", urls: Self.urls(), user: author)
        XCTAssertTrue(first.author === second.author)
        XCTAssertEqual(list[10].user?.username, "author10", "a packed photo's author comes back with it")
    }

    func test_aListsPhoto_hasNoDetails_andAPhotosOwnAnswerKeepsThem() throws {
        var photo = Photo(id: "a", urls: Self.urls(), user: User(id: "u", username: "u"))
        XCTAssertNil(photo.details)
        photo.views = 12
        photo.topics = [TopicLink(id: "t", slug: "nature", title: "Nature")]
        photo.exif = Exif(make: "Canon")
        photo.location = PhotoLocation(city: "Montreal")
        photo.downloads = 3
        XCTAssertEqual(photo.views, 12)
        XCTAssertEqual(photo.downloads, 3)
        XCTAssertEqual(photo.exif?.make, "Canon")
        XCTAssertEqual(photo.location?.city, "Montreal")
        XCTAssertEqual(photo.topics?.first?.slug, "nature")
        let copy = photo
        photo.views = 13
        XCTAssertEqual(copy.views, 12, "a copy keeps its own details")
        let decoded = try JSONDecoder().decode(Photo.self, from: JSONEncoder().encode(photo))
        XCTAssertEqual(decoded, photo)
        XCTAssertEqual(decoded.views, 13)
        photo.views = nil
        photo.downloads = nil
        photo.topics = nil
        photo.exif = nil
        photo.location = nil
        XCTAssertNil(photo.details, "nothing left: nothing held")
    }

    /// The JSON a photo was saved as before (every field a stored property) still loads, and is what it writes.
    func test_theSavedJSON_isUnchanged() throws {
        let saved = #"{"id":"p","width":3,"height":2,"likes":2,"likedByUser":true,"urls":{"raw":"https:\/\/x.test\/r","small":"https:\/\/x.test\/r&w=400"},"links":{},"user":{"id":"u","username":"name","profileImage":{}},"tags":["t"],"views":5,"inCollections":["c"]}"#
        let photo = try JSONDecoder().decode(Photo.self, from: Data(saved.utf8))
        XCTAssertEqual(photo.urls.small?.absoluteString, "https://x.test/r&w=400")
        XCTAssertEqual(photo.views, 5)
        XCTAssertEqual(photo.inCollections, ["c"])
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(photo)) as? NSDictionary
        XCTAssertEqual(written, try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? NSDictionary)
    }

    /// What a list's photo costs in place, besides the text it points to (768 bytes when its author, camera and
    /// place were held in it).
    func test_aPhotoInAList_isSmall() {
        XCTAssertLessThanOrEqual(MemoryLayout<Photo>.stride, 320)
    }
}
