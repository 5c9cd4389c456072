import Foundation
import ImageFeedCore
import XCTest

final class ModelTests: XCTestCase {
    func test_caption_prefersDescriptionOverAltDescription() {
        XCTAssertEqual(Photo(id: "a", description: "d", altDescription: "alt").caption, "d")
        XCTAssertEqual(Photo(id: "a", altDescription: "alt").caption, "alt")
        XCTAssertNil(Photo(id: "a").caption)
    }

    func test_displayName_fallsBackToFirstAndLastNameThenUsername() {
        XCTAssertEqual(User(id: "1", username: "u", name: "Full Name").displayName, "Full Name")
        XCTAssertEqual(User(id: "1", username: "u", firstName: "Ann", lastName: nil).displayName, "Ann")
        XCTAssertEqual(User(id: "1", username: "u").displayName, "u")
    }

    func test_aspectRatio_isOneWhenSizeUnknown() {
        XCTAssertEqual(Photo(id: "a", width: 300, height: 150).aspectRatio, 2)
        XCTAssertEqual(Photo(id: "a").aspectRatio, 1)
    }

    func test_locationDisplayName() {
        XCTAssertEqual(PhotoLocation(name: "Pier 39", city: "SF").displayName, "Pier 39")
        XCTAssertEqual(PhotoLocation(city: "Montreal", country: "Canada").displayName, "Montreal, Canada")
        XCTAssertNil(PhotoLocation().displayName)
    }

    func test_photo_roundTripsThroughCodable() throws {
        let photo = Photo(id: "p", createdAt: Date(timeIntervalSince1970: 1_000), width: 3, height: 2, color: "#000000",
                          likes: 2, likedByUser: true, description: "d", urls: PhotoURLs(small: URL(string: "https://x.test/s")),
                          user: User(id: "u", username: "name"), exif: Exif(iso: 100), tags: ["t"])
        let decoded = try JSONDecoder().decode(Photo.self, from: try JSONEncoder().encode(photo))
        XCTAssertEqual(decoded, photo)
    }

    func test_sizedURL_asksUnsplashForTheWidthNeeded_keepingIxid() throws {
        let raw = try XCTUnwrap(URL(string: "https://images.unsplash.com/photo-1?ixid=M3w1&ixlib=rb-4.0.3&w=400&q=80"))
        let urls = PhotoURLs(raw: raw, small: URL(string: "https://images.unsplash.com/photo-1?ixid=M3w1&w=400"))
        XCTAssertEqual(urls.sized(width: 61)?.absoluteString,
                       "https://images.unsplash.com/photo-1?ixid=M3w1&ixlib=rb-4.0.3&w=100&fit=max&q=80&fm=jpg")
        XCTAssertEqual(urls.sized(width: 800)?.absoluteString,
                       "https://images.unsplash.com/photo-1?ixid=M3w1&ixlib=rb-4.0.3&w=800&fit=max&q=80&fm=jpg")
        XCTAssertEqual(urls.sized(width: 801), urls.sized(width: 900), "a few pixels more ask for the same file")
        // Without a raw address Unsplash's service can size: the smallest preset wide enough.
        let presets = PhotoURLs(regular: URL(string: "https://x.test/r"), small: URL(string: "https://x.test/s"),
                                thumb: URL(string: "https://x.test/t"))
        XCTAssertEqual(presets.sized(width: 150)?.absoluteString, "https://x.test/t")
        XCTAssertEqual(presets.sized(width: 350)?.absoluteString, "https://x.test/s")
        XCTAssertEqual(presets.sized(width: 1500)?.absoluteString, "https://x.test/r")
    }
}
