import Foundation
import ImageFeedCore
import XCTest

/// Numbers from outside are checked where they enter the core: what no real photo, count, page or date can
/// be is dropped.
final class CheckedTests: XCTestCase {
    static let absurd = 1 << 62

    func test_aPhotoOf1x2to62Pixels_hasNoSize() {
        let photo = Photo(id: "p", width: 1, height: Self.absurd).checked()
        XCTAssertEqual(photo.width, 0)
        XCTAssertEqual(photo.height, 0)
        XCTAssertEqual(photo.aspectRatio, 1)
        XCTAssertEqual(Photo(id: "p", width: 6000, height: 4000).checked().width, 6000)
        XCTAssertEqual(Photo(id: "p", width: -3, height: 4000).checked().height, 0, "one side without the other has no shape")
    }

    func test_counts_dates_andCoordinates_outOfRange_areDropped() {
        var photo = Photo(id: "p", createdAt: Date(timeIntervalSince1970: 1e15), likes: Self.absurd,
                          user: User(id: "u", username: "u", totalLikes: -1, totalPhotos: Self.absurd),
                          location: PhotoLocation(name: "x", latitude: 1e300, longitude: .nan))
        photo.views = -5
        photo.downloads = 12
        photo.exif = Exif(iso: Self.absurd)
        let checked = photo.checked()
        XCTAssertEqual(checked.likes, 0)
        XCTAssertNil(checked.views)
        XCTAssertEqual(checked.downloads, 12)
        XCTAssertNil(checked.createdAt)
        XCTAssertNil(checked.user?.totalLikes)
        XCTAssertNil(checked.user?.totalPhotos)
        XCTAssertNil(checked.location?.latitude)
        XCTAssertNil(checked.location?.longitude)
        XCTAssertEqual(checked.location?.name, "x")
        XCTAssertNil(checked.exif?.iso)
    }

    func test_collections_topics_albums_andTheQuota_areCheckedToo() {
        let collection = PhotoCollection(id: "c", title: "t", totalPhotos: Self.absurd,
                                         coverPhoto: Photo(id: "p", width: Self.absurd, height: 2)).checked()
        XCTAssertNil(collection.totalPhotos)
        XCTAssertEqual(collection.coverPhoto?.width, 0)
        XCTAssertNil(Topic(id: "t", slug: "t", title: "t", totalPhotos: -4).checked().totalPhotos)
        let album = Album(id: "a", coverWidth: Self.absurd, coverHeight: 10, photoCount: Self.absurd).checked()
        XCTAssertEqual(album.coverWidth, 0)
        XCTAssertNil(album.photoCount)
        XCTAssertNil(RateLimit.checked(limit: 50, remaining: 51))
        XCTAssertNil(RateLimit.checked(limit: Self.absurd, remaining: 1))
        XCTAssertEqual(RateLimit.checked(limit: 50, remaining: 49), RateLimit(limit: 50, remaining: 49))
    }

    func test_aPage_whoseNextPageIsNotAfterIt_endsTheListing() {
        XCTAssertNil(Page<Photo>(items: [], number: 3, perPage: 30, nextPage: 3).nextPage)
        XCTAssertNil(Page<Photo>(items: [], number: 3, perPage: 30, nextPage: 1).nextPage, "a listing that loops back")
        XCTAssertNil(Page<Photo>(items: [], number: 1, perPage: 30, nextPage: Int.max).nextPage, "adding one would overflow")
        XCTAssertEqual(Page<Photo>(items: [], number: 1, perPage: 30, nextPage: 2).nextPage, 2)
        let page = Page<Photo>(items: [], number: -7, perPage: 0, totalItems: Self.absurd, totalPages: -1, nextPage: nil)
        XCTAssertEqual(page.number, 1)
        XCTAssertEqual(page.perPage, 1)
        XCTAssertNil(page.totalItems)
        XCTAssertNil(page.totalPages)
    }

    func test_theOfflineStoresLists_areCheckedAsTheNetworksAre() {
        let cache = MemoryCache()
        cache.list = CachedList(photos: [Photo(id: "bad", width: 1, height: Self.absurd, likes: -9)], timestamp: Date())
        let saved = SavedLists(cache: cache)
        let photo = saved.load(.feed)?.photos.first
        XCTAssertEqual(photo?.height, 0)
        XCTAssertEqual(photo?.likes, 0)
    }
}

/// A photo cache holding one list in memory.
private final class MemoryCache: PhotoCache, @unchecked Sendable {
    var list: CachedList?
    func saveList(_ name: CachedListName, photos: [Photo], note: String?, timestamp: Date) throws {}
    func appendToList(_ name: CachedListName, photos: [Photo]) throws {}
    func loadList(_ name: CachedListName) throws -> CachedList? { list }
    func deleteList(_ name: CachedListName) throws {}
    func saveProfile(_ profile: Profile, timestamp: Date) throws {}
    func loadProfile() throws -> (profile: Profile, timestamp: Date)? { nil }
    func deleteUserData() throws {}
}
