import Foundation
import ImageFeedCore
import UnsplashAPI
import XCTest

/// Exploring against the sandbox over real loopback HTTP: photographers, topics, collections, search filters and
/// the search for people and collections, with their faults.
final class ExploreClientTests: SandboxTestCase {
    func test_aPhotographersPhotos_pageInEachOrder() async throws {
        let client = sandbox.client()
        let latest = try await client.photos(from: .userPhotos(username: "stefan", order: .latest), page: 1, perPage: 10)
        XCTAssertEqual(latest.items.count, 10)
        XCTAssertTrue(latest.items.allSatisfy { $0.user?.username == "stefan" })
        XCTAssertEqual(latest.nextPage, 2)
        let dates = latest.items.compactMap(\.createdAt)
        XCTAssertEqual(dates, dates.sorted(by: >), "latest first")
        let oldest = try await client.photos(from: .userPhotos(username: "stefan", order: .oldest), page: 1, perPage: 10)
        XCTAssertEqual(oldest.items.compactMap(\.createdAt), oldest.items.compactMap(\.createdAt).sorted(), "oldest first")
        let popular = try await client.photos(from: .userPhotos(username: "stefan", order: .popular), page: 1, perPage: 10)
        XCTAssertEqual(popular.items.map(\.likes), popular.items.map(\.likes).sorted(by: >), "most liked first")
        await assertThrows(.notFound) { try await client.photos(from: .userPhotos(username: "nobody", order: .latest), page: 1, perPage: 10) }
    }

    func test_aPhotographer_hasCountsAPortfolioAndCollections() async throws {
        let client = sandbox.client()
        let user = try await client.user(username: "stefan")
        XCTAssertEqual(user.totalCollections, 2)
        XCTAssertNotNil(user.portfolioURL)
        let collections = try await client.userCollections(username: "stefan", page: 1, perPage: 30)
        XCTAssertEqual(collections.items.map(\.id), ["grey-scale", "cat-and-clock"])
        XCTAssertEqual(collections.items.first?.user?.username, "stefan")
        XCTAssertNotNil(collections.items.first?.coverPhoto?.urls.small)
        let collection = try await client.collection(id: "grey-scale")
        let photos = try await client.photos(from: .collectionPhotos(id: "grey-scale"), page: 1, perPage: 30)
        XCTAssertEqual(collection.totalPhotos, photos.items.count)
        XCTAssertFalse(photos.items.isEmpty)
        await assertThrows(.notFound) { try await client.collection(id: "no-such-collection") }
    }

    func test_topics_andATopicsPhotos() async throws {
        let client = sandbox.client()
        let topics = try await client.topics(page: 1, perPage: 30)
        XCTAssertEqual(topics.items.map(\.slug).prefix(3), ["nature", "space", "film"])
        XCTAssertNotNil(topics.items[1].coverPhoto)
        let space = try await client.photos(from: .topicPhotos(slug: "space", order: .latest), page: 1, perPage: 30)
        XCTAssertEqual(space.items.count, 30)
        XCTAssertNotNil(space.nextPage, "a topic pages")
        let topic = try await client.topic(slug: "space")
        XCTAssertEqual(topic.title, "Space")
        // A photo's own answer names its topics, and how often it was seen and downloaded.
        let photo = try await client.photo(id: space.items[0].id)
        XCTAssertTrue(photo.topics?.contains { $0.slug == "space" } == true)
        XCTAssertNotNil(photo.views)
        XCTAssertNotNil(photo.downloads)
    }

    func test_searchFilters_narrowTheResults() async throws {
        let client = sandbox.client()
        let all = try await client.search(query: "space", page: 1, perPage: 30, order: .relevant)
        let landscape = try await client.search(query: "space", page: 1, perPage: 30, order: .relevant,
                                                filters: SearchFilters(orientation: .landscape))
        XCTAssertLessThan(landscape.totalItems ?? 0, all.totalItems ?? 0)
        XCTAssertTrue(landscape.items.allSatisfy { $0.width > $0.height })
        let gray = try await client.search(query: "texture", page: 1, perPage: 30, order: .relevant,
                                           filters: SearchFilters(color: .blackAndWhite, contentFilter: .high))
        XCTAssertFalse(gray.items.isEmpty)
        let none = try await client.search(query: "space", page: 1, perPage: 30, order: .relevant,
                                           filters: SearchFilters(orientation: .portrait, color: .red))
        XCTAssertEqual(none.items, [])
    }

    func test_searchForPeopleAndCollections() async throws {
        let client = sandbox.client()
        let people = try await client.searchUsers(query: "space", page: 1, perPage: 30)
        XCTAssertEqual(Set(people.items.map(\.username)), ["nasa", "spacex"])
        let collections = try await client.searchCollections(query: "coffee", page: 1, perPage: 30)
        XCTAssertTrue(collections.items.contains { $0.id == "morning-coffee" })
        XCTAssertEqual(collections.totalItems, collections.items.count)
    }

    func test_addingToACollection_needsTheWriteCollectionsScope() async throws {
        let photo = try await sandbox.client().feed(page: 1, perPage: 1).items[0]
        let withoutScope = sandbox.client(loggedInAs: "demo")
        await assertThrows(.forbidden("OAuth error: The access token does not have the write_collections scope")) {
            try await withoutScope.setInCollection(true, photoID: photo.id, collectionID: "demo-favourites")
        }
        let client = sandbox.client(loggedInAs: "demo", scope: "public read_user write_likes write_collections")
        try await client.setInCollection(true, photoID: photo.id, collectionID: "demo-favourites")
        var photos = try await client.photos(from: .collectionPhotos(id: "demo-favourites"), page: 1, perPage: 30)
        XCTAssertEqual(photos.items.first?.id, photo.id, "the newest addition first")
        try await client.setInCollection(false, photoID: photo.id, collectionID: "demo-favourites")
        photos = try await client.photos(from: .collectionPhotos(id: "demo-favourites"), page: 1, perPage: 30)
        XCTAssertFalse(photos.items.contains { $0.id == photo.id })
        await assertThrows(.forbidden("You can only change your own collections")) {
            try await client.setInCollection(true, photoID: photo.id, collectionID: "space-age")
        }
        await assertThrows(.loginRequired) { try await self.sandbox.client().setInCollection(true, photoID: photo.id, collectionID: "x") }
    }

    func test_exploreRoutes_failAsTheOthersDo() async throws {
        let client = sandbox.client()
        try sandbox.fault("topics=status:503")
        await assertThrows(.server(status: 503)) { try await client.topics(page: 1, perPage: 10) }
        try sandbox.fault("user-photos=malformed")
        await assertThrows(.malformedResponse(field: "body")) {
            try await client.photos(from: .userPhotos(username: "stefan", order: .latest), page: 1, perPage: 10)
        }
        try sandbox.fault("collection-photos=status:401")
        await assertThrows(.applicationKeyRefused) { try await client.photos(from: .collectionPhotos(id: "grey-scale"), page: 1, perPage: 10) }
    }
}
