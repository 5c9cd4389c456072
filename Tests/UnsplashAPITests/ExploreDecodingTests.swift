import Foundation
import ImageFeedCore
import UnsplashAPI
import TestSupport
import XCTest

/// Each exploring route's answer decodes with nulls, missing fields and values of the wrong type as the others do:
/// only identity fields are required, and one unreadable item does not lose the page.
final class ExploreDecodingTests: XCTestCase {
    func test_collections_toleratesNullsAndMissingFields_andSkipsAnUnreadableOne() async throws {
        let json = #"""
        [{"id": "c1", "title": "Coffee", "description": null, "total_photos": "12", "private": null, "cover_photo": null,
          "user": {"id": "u1", "username": "rachel", "name": null}, "links": {"html": "https://unsplash.com/collections/c1"}},
         {"id": 42, "title": null},
         {"title": "no id"},
         {"id": "c3"}]
        """#
        let page = try await makeClient(StubHTTPClient(json: json)).userCollections(username: "rachel", page: 1, perPage: 30)
        XCTAssertEqual(page.items.map(\.id), ["c1", "42", "c3"])
        XCTAssertEqual(page.skippedItems, 1)
        let first = page.items[0]
        XCTAssertEqual(first.totalPhotos, 12, "a number sent as text is read")
        XCTAssertFalse(first.isPrivate)
        XCTAssertNil(first.coverPhoto)
        XCTAssertEqual(first.user?.username, "rachel")
        XCTAssertEqual(page.items[1].title, "Untitled")
    }

    func test_topics_needASlug() async throws {
        let json = #"[{"id": "t1", "slug": "nature", "title": null, "total_photos": null, "cover_photo": {"id": "p1", "urls": null}}, {"id": "t2"}]"#
        let page = try await makeClient(StubHTTPClient(json: json)).topics(page: 1, perPage: 30)
        XCTAssertEqual(page.items.map(\.slug), ["nature"])
        XCTAssertEqual(page.items[0].title, "nature", "no title: the slug stands for it")
        XCTAssertEqual(page.items[0].coverPhoto?.id, "p1")
        XCTAssertEqual(page.skippedItems, 1)
    }

    func test_searchForPeopleAndCollections_readTotals() async throws {
        let users = #"{"total": 2, "total_pages": 1, "results": [{"id": "u1", "username": "nasa", "total_collections": null}, {"id": "u2"}]}"#
        let people = try await makeClient(StubHTTPClient(json: users)).searchUsers(query: "space", page: 1, perPage: 30)
        XCTAssertEqual(people.items.map(\.username), ["nasa"])
        XCTAssertEqual(people.totalItems, 2)
        XCTAssertNil(people.nextPage)
        await assertThrows(.malformedResponse(field: "results")) {
            try await makeClient(StubHTTPClient(json: #"{"total": 1}"#)).searchCollections(query: "x", page: 1, perPage: 30)
        }
    }

    func test_aPhotosStatisticsAndTopics_areReadWhereGiven() async throws {
        let json = #"{"id": "p1", "views": 1200, "downloads": "34", "topics": [{"id": "t1", "slug": "film", "title": "Film"}, {"title": "no slug"}]}"#
        let photo = try await makeClient(StubHTTPClient(json: json)).photo(id: "p1")
        XCTAssertEqual(photo.views, 1200)
        XCTAssertEqual(photo.downloads, 34)
        XCTAssertEqual(photo.topics, [TopicLink(id: "t1", slug: "film", title: "Film")])
        let bare = try await makeClient(StubHTTPClient(json: #"{"id": "p2", "views": null, "topics": null}"#)).photo(id: "p2")
        XCTAssertNil(bare.views)
        XCTAssertNil(bare.topics)
    }

    func test_searchFilters_goIntoTheQuery() async throws {
        let http = StubHTTPClient(json: #"{"total": 0, "total_pages": 0, "results": []}"#)
        _ = try await makeClient(http).search(query: "cat", page: 1, perPage: 30, order: .relevant,
                                             filters: SearchFilters(orientation: .portrait, color: .blackAndWhite, contentFilter: .high))
        let query = try XCTUnwrap(http.requests.last?.url.query)
        XCTAssertTrue(query.contains("orientation=portrait"))
        XCTAssertTrue(query.contains("color=black_and_white"))
        XCTAssertTrue(query.contains("content_filter=high"))
        _ = try await makeClient(http).search(query: "cat", page: 1, perPage: 30, order: .relevant)
        XCTAssertFalse(try XCTUnwrap(http.requests.last?.url.query).contains("orientation"), "no filter, no parameter")
    }
}
