import Foundation
@testable import ImageFeedApp
import ImageFeedCore
import TestSupport
import XCTest

/// Downloads against the demo's own sandbox: an Unsplash photo through the download tracking, an album's
/// (Imgur) photo fetched as it is.
final class PhotoDownloaderTests: XCTestCase {
    func test_anAlbumPhoto_isFetchedAsItIs_andNamedForItsSource() async throws {
        let folder = try TemporaryFolder()
        let context = try await CompositionRoot.make(configuration: try Settings.load(environment: folder.environment), demo: true)
        do {
            let albums = try XCTUnwrap(context.albums, "the demo has an album source")
            let album = try await albums.albums(username: "labs", page: 1).items[0]
            let photo = try await albums.photos(inAlbum: album.id)[0]
            XCTAssertNil(photo.user)
            let downloads = folder.url.appendingPathComponent("downloads")
            let path = try await PhotoDownloader(folder: downloads, client: context.client).download(photo, tracked: false) { _ in }
            XCTAssertEqual(URL(fileURLWithPath: path).lastPathComponent, "imgur-\(photo.id).jpg")
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertTrue(data.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")

            let feed = try await context.client.feed(page: 1, perPage: 1)
            let tracked = try await PhotoDownloader(folder: downloads, client: context.client).download(feed.items[0]) { _ in }
            XCTAssertTrue(URL(fileURLWithPath: tracked).lastPathComponent.hasPrefix("\(feed.items[0].user?.username ?? "?")-"), tracked)
        } catch {
            await context.stop()
            throw error
        }
        await context.stop()
    }

    func test_fileName_usesTheAuthor_orTheSource_withSafeCharacters() {
        let photo = Photo(id: "a/b c")
        XCTAssertEqual(PhotoDownloader.fileName(for: photo, data: Data(), source: "imgur"), "imgur-a_b_c.jpg")
        XCTAssertEqual(PhotoDownloader.fileName(for: photo, data: Data([0x89, 0x50, 0x4E, 0x47])), "unsplash-a_b_c.png")
        XCTAssertEqual(PhotoDownloader.fileName(for: photo, data: Data("GIF89a".utf8), source: "imgur"), "imgur-a_b_c.gif")
        XCTAssertEqual(PhotoDownloader.fileName(for: photo, data: Data([0, 0, 0, 0x20] + Array("ftypisom".utf8)), source: "imgur"),
                       "imgur-a_b_c.mp4")
        var authored = photo
        authored.user = User(id: "u", username: "ann", name: "Ann")
        XCTAssertEqual(PhotoDownloader.fileName(for: authored, data: Data(), source: "imgur"), "ann-a_b_c.jpg")
    }
}
