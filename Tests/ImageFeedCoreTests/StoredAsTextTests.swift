import Foundation
@testable import ImageFeedCore
import XCTest

final class StoredAsTextTests: XCTestCase {
    func test_storedAsText_readsAndWritesAsAURL() {
        var urls = PhotoURLs(small: URL(string: "https://images.example/p?w=400&fm=jpg"))
        XCTAssertEqual(urls.small, URL(string: "https://images.example/p?w=400&fm=jpg"))
        XCTAssertNil(urls.raw)
        urls.raw = URL(string: "https://images.example/raw")
        XCTAssertEqual(urls.raw?.absoluteString, "https://images.example/raw")
        urls.raw = nil
        XCTAssertNil(urls.raw)
    }

    /// The JSON is the one a URL property gave, so photos saved before still load: strings, nil left out,
    /// and a missing key is nil.
    func test_json_isUnchanged() throws {
        let links = PhotoLinks(html: URL(string: "https://unsplash.com/photos/a"), downloadLocation: nil)
        let json = String(decoding: try JSONEncoder().encode(links), as: UTF8.self)
        XCTAssertEqual(json, #"{"html":"https:\/\/unsplash.com\/photos\/a"}"#)
        let decoded = try JSONDecoder().decode(PhotoLinks.self, from: Data(#"{"html":"https://unsplash.com/photos/a","download":null}"#.utf8))
        XCTAssertEqual(decoded, links)
        XCTAssertThrowsError(try JSONDecoder().decode(PhotoLinks.self, from: Data(#"{"html":"http://bad host/"}"#.utf8)))
    }

    func test_equalURLs_areEqualModels() {
        XCTAssertEqual(ProfileImage(medium: URL(string: "https://a.example/m")), ProfileImage(medium: URL(string: "https://a.example/m")))
        XCTAssertNotEqual(ProfileImage(medium: URL(string: "https://a.example/m")), ProfileImage(large: URL(string: "https://a.example/m")))
    }
}
