import Foundation
import ImageFeedCore
import UnsplashAPI
import TestSupport
import XCTest

final class DecodingTests: XCTestCase {
    func test_feed_decodesEveryFieldOfTheSeedPayload() async throws {
        let http = StubHTTPClient(json: "[\(Payloads.seedPhoto)]")
        let page = try await makeClient(http).feed(page: 1, perPage: 30)
        let photo = try XCTUnwrap(page.items.first)
        XCTAssertEqual(photo.id, "LBI7cgq3pbM")
        XCTAssertEqual(photo.createdAt, Date(timeIntervalSince1970: 1_462_287_628)) // 2016-05-03T11:00:28-04:00
        XCTAssertEqual(photo.updatedAt, Date(timeIntervalSince1970: 1_468_166_401)) // 2016-07-10T11:00:01-05:00
        XCTAssertEqual(photo.width, 5245)
        XCTAssertEqual(photo.height, 3497)
        XCTAssertEqual(photo.color, "#60544D")
        XCTAssertEqual(photo.blurHash, "LoC%a7IoIVxZ_NM|M{s:%hRjWAo0")
        XCTAssertEqual(photo.likes, 12)
        XCTAssertFalse(photo.likedByUser)
        XCTAssertEqual(photo.description, "A man drinking a coffee.")
        XCTAssertEqual(photo.urls.small?.absoluteString,
                       "https://images.unsplash.com/face-springmorning.jpg?q=75&fm=jpg&w=400&fit=max")
        XCTAssertEqual(photo.links.html?.absoluteString, "https://unsplash.com/photos/LBI7cgq3pbM")
        XCTAssertEqual(photo.links.downloadLocation?.absoluteString, "https://api.unsplash.com/photos/LBI7cgq3pbM/download")
        XCTAssertEqual(photo.user?.username, "poorkane")
        XCTAssertEqual(photo.user?.name, "Gilbert Kane")
        XCTAssertEqual(photo.user?.bio, "XO")
        XCTAssertEqual(photo.user?.totalLikes, 5)
        XCTAssertEqual(photo.user?.profileImage.medium?.absoluteString,
                       "https://images.unsplash.com/face-springmorning.jpg?q=80&fm=jpg&crop=faces&fit=crop&h=64&w=64")
        XCTAssertEqual(photo.exif, Exif(make: "Canon", model: "Canon EOS 40D", name: "Canon, EOS 40D",
                                        exposureTime: "0.011111111111111112", aperture: "4.970854", focalLength: "37",
                                        iso: 100))
        XCTAssertEqual(photo.location?.city, "Montreal")
        XCTAssertEqual(photo.location?.latitude, 45.473298)
        XCTAssertEqual(photo.tags, ["coffee", "man"])
    }

    func test_currentUserCollections_areTheIDsOfTheUsersCollectionsThatHoldThePhoto() async throws {
        let json = """
            [{"id": "a", "current_user_collections": [{"id": 206, "title": "Makers"}, {"id": "xY1", "title": "Cats"},
                                                      {"title": "no id"}, 7]},
             {"id": "b", "current_user_collections": []}, {"id": "c"}]
            """
        let photos = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items
        XCTAssertEqual(photos.map(\.inCollections), [["206", "xY1"], [], nil], "a malformed entry is left out; none said: unknown")
        XCTAssertEqual(photos[0].isIn(collection: "xY1"), true)
        XCTAssertEqual(photos[1].isIn(collection: "xY1"), false)
        XCTAssertNil(photos[2].isIn(collection: "xY1"))
    }

    func test_decoding_treatsNullOptionalFieldsAsMissing() async throws {
        let json = """
            [{"id": "n1", "created_at": null, "width": null, "height": null, "color": null, "blur_hash": null,
              "likes": null, "liked_by_user": null, "description": null, "alt_description": null,
              "urls": null, "links": null, "user": null, "exif": null, "location": null, "tags": null}]
            """
        let photo = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo, Photo(id: "n1"))
    }

    func test_decoding_acceptsMissingOptionalFields() async throws {
        let photo = try await makeClient(StubHTTPClient(json: #"[{"id": "only-id"}]"#)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo, Photo(id: "only-id"))
        XCTAssertNil(photo.caption)
    }

    func test_decoding_ignoresUnknownFields() async throws {
        let json = #"[{"id": "x", "sponsorship": {"tagline": "ad"}, "premium": true, "likes": 4, "future_field": [1, 2]}]"#
        let photo = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo.id, "x")
        XCTAssertEqual(photo.likes, 4)
    }

    func test_decoding_keepsUnicodeText() async throws {
        let json = #"[{"id": "u", "description": "Кофе ☕️ 東京 — \u00e9t\u00e9", "user": {"id": "1", "username": "żółw", "name": "Zoë 🐢"}}]"#
        let photo = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo.description, "Кофе ☕️ 東京 — été")
        XCTAssertEqual(photo.user?.displayName, "Zoë 🐢")
        XCTAssertEqual(photo.user?.username, "żółw")
    }

    func test_decoding_readsDatesWithOffsetsAndFractions() async throws {
        let json = #"[{"id": "a", "created_at": "2024-02-29T23:59:59.250Z", "updated_at": "2024-03-01T01:00:00+01:00"}]"#
        let photo = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo.createdAt?.timeIntervalSince1970 ?? 0, 1_709_251_199.25, accuracy: 0.001)
        XCTAssertEqual(photo.updatedAt, Date(timeIntervalSince1970: 1_709_251_200))
    }

    func test_decoding_treatsWrongTypedOptionalFieldsAsMissing() async throws {
        let json = #"[{"id": "w", "likes": "many", "width": "640", "height": 480, "color": 7, "liked_by_user": "yes"}]"#
        let photo = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30).items[0]
        XCTAssertEqual(photo.likes, 0)
        XCTAssertEqual(photo.width, 640, "numbers sent as strings are read")
        XCTAssertNil(photo.color)
        XCTAssertFalse(photo.likedByUser)
    }

    func test_pageWithOneMalformedItem_deliversTheOthers() async throws {
        let json = #"[{"id": "a"}, {"description": "no id"}, {"id": 42}, {"id": "d"}]"#
        let page = try await makeClient(StubHTTPClient(json: json)).feed(page: 1, perPage: 30)
        XCTAssertEqual(page.items.map(\.id), ["a", "d"])
        XCTAssertEqual(page.skippedItems, 2)
    }

    func test_pageWithOnlyMalformedItems_isMalformedNamingTheField() async {
        await assertThrows(.malformedResponse(field: "[0].id")) {
            try await makeClient(StubHTTPClient(json: #"[{"description": "no id"}]"#)).feed(page: 1, perPage: 30)
        }
    }

    func test_feedThatIsNotAList_isMalformed() async {
        await assertThrows(.malformedResponse(field: "top level")) {
            try await makeClient(StubHTTPClient(json: #"{"id": "a"}"#)).feed(page: 1, perPage: 30)
        }
    }

    func test_brokenJSON_isMalformedBody() async {
        await assertThrows(.malformedResponse(field: "body")) {
            try await makeClient(StubHTTPClient(json: #"[{"id": "a", "#)).feed(page: 1, perPage: 30)
        }
    }

    func test_userWithoutUsername_isMalformedNamingTheField() async {
        await assertThrows(.malformedResponse(field: "username")) {
            try await makeClient(StubHTTPClient(json: #"{"id": "u1", "name": "No Username"}"#)).user(username: "x")
        }
    }

    func test_searchWithoutResults_isMalformedNamingTheField() async {
        await assertThrows(.malformedResponse(field: "results")) {
            try await makeClient(StubHTTPClient(json: #"{"total": 3}"#))
                .search(query: "cat", page: 1, perPage: 30, order: .relevant)
        }
    }

    func test_search_readsTotalsAndNextPage() async throws {
        let json = #"{"total": 61, "total_pages": 3, "results": [{"id": "s1"}, {"id": "s2"}]}"#
        let page = try await makeClient(StubHTTPClient(json: json)).search(query: "cat", page: 2, perPage: 30, order: .latest)
        XCTAssertEqual(page.items.map(\.id), ["s1", "s2"])
        XCTAssertEqual(page.totalItems, 61)
        XCTAssertEqual(page.totalPages, 3)
        XCTAssertEqual(page.nextPage, 3)
    }

    func test_profile_decodesUserFieldsAndToleratesMissingOnes() async throws {
        let json = #"{"id": "me1", "username": "jane", "first_name": "Jane", "last_name": "Doe", "total_likes": 7, "profile_image": {"small": null}}"#
        let profile = try await makeClient(StubHTTPClient(json: json), token: "t").me()
        XCTAssertEqual(profile.displayName, "Jane Doe")
        XCTAssertNil(profile.bio)
        XCTAssertNil(profile.profileImage.small)
        XCTAssertEqual(profile.totalLikes, 7)
    }
}

enum Payloads {
    /// The payload contract of the feed seed, with the fields Unsplash sends today.
    static let seedPhoto = """
        {
          "id": "LBI7cgq3pbM",
          "created_at": "2016-05-03T11:00:28-04:00",
          "updated_at": "2016-07-10T11:00:01-05:00",
          "width": 5245, "height": 3497, "color": "#60544D",
          "blur_hash": "LoC%a7IoIVxZ_NM|M{s:%hRjWAo0",
          "downloads": 1345, "likes": 12, "liked_by_user": false,
          "description": "A man drinking a coffee.",
          "exif": {"make": "Canon", "model": "Canon EOS 40D", "name": "Canon, EOS 40D",
                   "exposure_time": "0.011111111111111112", "aperture": "4.970854", "focal_length": "37", "iso": 100},
          "location": {"city": "Montreal", "country": "Canada", "position": {"latitude": 45.473298, "longitude": -73.638488}},
          "tags": [{"title": "coffee"}, {"title": "man"}],
          "current_user_collections": [{"id": 206, "title": "Makers: Cat and Ben", "published_at": "2016-01-12T18:16:09-05:00",
                                        "last_collected_at": "2016-06-02T13:10:03-04:00", "updated_at": "2016-07-10T11:00:01-05:00",
                                        "cover_photo": null, "user": null}],
          "user": {
            "id": "pXhwzz1JtQU", "username": "poorkane", "name": "Gilbert Kane",
            "portfolio_url": "https://theylooklikeeggsorsomething.com/", "bio": "XO", "location": "Way out there",
            "total_likes": 5, "total_photos": 74, "total_collections": 52,
            "instagram_username": "instantgrammer", "twitter_username": "crew",
            "profile_image": {
              "small": "https://images.unsplash.com/face-springmorning.jpg?q=80&fm=jpg&crop=faces&fit=crop&h=32&w=32",
              "medium": "https://images.unsplash.com/face-springmorning.jpg?q=80&fm=jpg&crop=faces&fit=crop&h=64&w=64",
              "large": "https://images.unsplash.com/face-springmorning.jpg?q=80&fm=jpg&crop=faces&fit=crop&h=128&w=128"
            },
            "links": {"self": "https://api.unsplash.com/users/poorkane", "html": "https://unsplash.com/poorkane",
                      "photos": "https://api.unsplash.com/users/poorkane/photos", "likes": "https://api.unsplash.com/users/poorkane/likes",
                      "portfolio": "https://api.unsplash.com/users/poorkane/portfolio"}
          },
          "urls": {
            "raw": "https://images.unsplash.com/face-springmorning.jpg",
            "full": "https://images.unsplash.com/face-springmorning.jpg?q=75&fm=jpg",
            "regular": "https://images.unsplash.com/face-springmorning.jpg?q=75&fm=jpg&w=1080&fit=max",
            "small": "https://images.unsplash.com/face-springmorning.jpg?q=75&fm=jpg&w=400&fit=max",
            "thumb": "https://images.unsplash.com/face-springmorning.jpg?q=75&fm=jpg&w=200&fit=max"
          },
          "links": {
            "self": "https://api.unsplash.com/photos/LBI7cgq3pbM",
            "html": "https://unsplash.com/photos/LBI7cgq3pbM",
            "download": "https://unsplash.com/photos/LBI7cgq3pbM/download",
            "download_location": "https://api.unsplash.com/photos/LBI7cgq3pbM/download"
          }
        }
        """
}
