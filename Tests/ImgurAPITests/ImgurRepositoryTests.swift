import Foundation
import ImageFeedCore
@testable import ImgurAPI
import HTTPTransport
import TestSupport
import XCTest

/// Canned answers in turn, and the requests that were made.
typealias CannedTransport = StubHTTPClient

final class ImgurRepositoryTests: XCTestCase {
    func repository(_ transport: CannedTransport) -> ImgurRepository {
        ImgurRepository(configuration: ImgurConfiguration(clientID: "cid"), http: transport)
    }

    static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(text.utf8))
    }

    func test_usernamesAndAlbumIds_areEachOneEncodedSegment() async throws {
        let transport = CannedTransport(Self.json(#"{"data":[],"success":true,"status":200}"#),
                                        Self.json(#"{"data":[],"success":true,"status":200}"#))
        _ = try? await repository(transport).albums(username: "../../3/credits", page: 1)
        _ = try? await repository(transport).photos(inAlbum: "a/../b?c#d")
        let paths = transport.requests.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "" }
        XCTAssertEqual(paths, ["/3/account/..%2F..%2F3%2Fcredits/albums/0", "/3/album/a%2F..%2Fb%3Fc%23d/images"])
    }

    func test_albums_areMapped_andTheRequestIsImgursOwn() async throws {
        let transport = CannedTransport(Self.json("""
        {"data":[
          {"id":"a1b2c3d","title":"Trip ","description":null,"datetime":1700000000,"cover":"XyZ12ab","cover_width":640,
           "cover_height":480,"images_count":12,"link":"https://imgur.com/a/a1b2c3d","privacy":"public"},
          {"id":"e4f5g6h","title":"","cover":null,"images_count":0},
          {"title":"no id"},
          {"id":"i7j8k9l","title":7,"images_count":"many","cover":"bad/../id"}
        ],"success":true,"status":200}
        """))
        let page = try await repository(transport).albums(username: " someone ", page: 1)
        XCTAssertEqual(transport.requests.first?.url.absoluteString, "https://api.imgur.com/3/account/someone/albums/0")
        XCTAssertEqual(transport.requests.first?.headers["Authorization"], "Client-ID cid")
        XCTAssertEqual(page.items.map(\.id), ["a1b2c3d", "e4f5g6h", "i7j8k9l"])
        XCTAssertEqual(page.skippedItems, 1, "the album without an id is skipped, the others kept")
        XCTAssertNil(page.nextPage, "fewer than a full page: the last")
        let trip = page.items[0]
        XCTAssertEqual(trip.title, "Trip")
        XCTAssertNil(trip.description)
        XCTAssertEqual(trip.coverURL?.absoluteString, "https://i.imgur.com/XyZ12abl.jpg")
        XCTAssertEqual(trip.photoCount, 12)
        XCTAssertEqual(trip.createdAt, Date(timeIntervalSince1970: 1_700_000_000))
        XCTAssertNil(page.items[1].coverURL, "no cover: the tile shows a gray box")
        XCTAssertEqual(page.items[1].displayTitle, "Untitled album")
        XCTAssertNil(page.items[2].title, "a title of the wrong type is absent")
        XCTAssertNil(page.items[2].photoCount)
        XCTAssertNil(page.items[2].coverURL, "a cover id that is not an id is not turned into a URL")
    }

    func test_aFullPage_hasANextPage() async throws {
        let albums = (0..<50).map { #"{"id":"id\#($0)"}"# }.joined(separator: ",")
        let transport = CannedTransport(Self.json(#"{"data":[\#(albums)],"success":true,"status":200}"#))
        let page = try await repository(transport).albums(username: "u", page: 3)
        XCTAssertEqual(transport.requests.first?.url.lastPathComponent, "2", "Imgur counts pages from 0")
        XCTAssertEqual(page.number, 3)
        XCTAssertEqual(page.nextPage, 4)
    }

    func test_images_becomePhotosWithImgursThumbnails() async throws {
        let transport = CannedTransport(Self.json("""
        {"data":[
          {"id":"Ab12Cd3","title":"Harbour","description":"Morning fog","datetime":1600000000,"type":"image/jpeg",
           "animated":false,"width":4000,"height":3000,"link":"https://i.imgur.com/Ab12Cd3.jpg"},
          {"id":"Ef45Gh6","title":null,"description":"","link":"https://elsewhere.example/x.png"},
          {"id":"NoLink1"}
        ],"success":true,"status":200}
        """))
        let photos = try await repository(transport).photos(inAlbum: "a1b2c3d")
        XCTAssertEqual(transport.requests.first?.url.absoluteString, "https://api.imgur.com/3/album/a1b2c3d/images")
        XCTAssertEqual(photos.map(\.id), ["Ab12Cd3", "Ef45Gh6"], "an image without a file is left out")
        let harbour = photos[0]
        XCTAssertEqual(harbour.description, "Morning fog")
        XCTAssertEqual(harbour.width, 4000)
        XCTAssertEqual(harbour.urls.full?.absoluteString, "https://i.imgur.com/Ab12Cd3.jpg")
        XCTAssertEqual(harbour.urls.small?.absoluteString, "https://i.imgur.com/Ab12Cd3l.jpg")
        XCTAssertEqual(harbour.links.html?.absoluteString, "https://imgur.com/Ab12Cd3")
        XCTAssertNil(photos[1].description, "empty text is not shown")
        XCTAssertEqual(photos[1].urls.small?.absoluteString, "https://elsewhere.example/x.png", "no sized variants elsewhere")
    }

    func test_animations_areShownByTheirStill_andDownloadedWhole_andTilesAskForTheSizeThatFits() async throws {
        let transport = CannedTransport(Self.json("""
        {"data":[
          {"id":"Gif12Ab","title":"Wave","type":"image/gif","animated":true,"width":480,"height":270,
           "link":"https://i.imgur.com/Gif12Ab.gif"},
          {"id":"Mp412Ab","type":"video/mp4","link":"https://i.imgur.com/Mp412Ab.mp4"},
          {"id":"Ab12Cd3","type":"image/jpeg","animated":false,"link":"https://i.imgur.com/Ab12Cd3.jpg"}
        ],"success":true,"status":200}
        """))
        let photos = try await repository(transport).photos(inAlbum: "a1b2c3d")
        let wave = photos[0]
        XCTAssertEqual(wave.isAnimated, true)
        XCTAssertEqual(wave.urls.regular?.absoluteString, "https://i.imgur.com/Gif12Abh.jpg", "the still, as a JPEG")
        XCTAssertEqual(wave.urls.full?.absoluteString, "https://i.imgur.com/Gif12Abh.jpg", "zooming in never fetches the animation")
        XCTAssertEqual(wave.links.download?.absoluteString, "https://i.imgur.com/Gif12Ab.gif", "d saves the animation")
        XCTAssertEqual(photos[1].isAnimated, true, "an MP4 is an animation whatever the answer says")
        XCTAssertEqual(photos[1].urls.small?.absoluteString, "https://i.imgur.com/Mp412Abl.jpg")
        let still = photos[2]
        XCTAssertNil(still.isAnimated)
        XCTAssertEqual(still.urls.sized(width: 150)?.absoluteString, "https://i.imgur.com/Ab12Cd3m.jpg")
        XCTAssertEqual(still.urls.sized(width: 380)?.absoluteString, "https://i.imgur.com/Ab12Cd3l.jpg")
        XCTAssertEqual(still.urls.sized(width: 900)?.absoluteString, "https://i.imgur.com/Ab12Cd3h.jpg")
        XCTAssertEqual(still.urls.sized(width: 2000)?.absoluteString, "https://i.imgur.com/Ab12Cd3.jpg")
    }

    /// Imgur's daily credits are counted from its answers, and asking stops a tenth short of them: five days over
    /// the limit in a month would block the client id for the rest of the month.
    func test_dailyCredits_areCounted_andAskingStopsShortOfThem() async throws {
        let albums = #"{"data":[{"id":"a1","title":"Rockets","images_count":1}],"success":true,"status":200}"#
        let transport = CannedTransport(Self.json(albums, headers: ["X-RateLimit-ClientLimit": "12500", "X-RateLimit-ClientRemaining": "9000"]),
                                        Self.json(albums, headers: ["X-RateLimit-ClientLimit": "12500", "X-RateLimit-ClientRemaining": "1250"]),
                                        Self.json(albums))
        let imgur = repository(transport)
        XCTAssertNil(imgur.credits, "nothing counted before an answer")
        _ = try await imgur.albums(username: "x", page: 1)
        XCTAssertEqual(imgur.credits, RateLimit(limit: 12500, remaining: 9000))
        _ = try await imgur.albums(username: "x", page: 1)
        XCTAssertEqual(imgur.credits, RateLimit(limit: 12500, remaining: 1250))
        do {
            _ = try await imgur.photos(inAlbum: "a1")
            XCTFail("asked with a tenth of the credits left")
        } catch {
            XCTAssertEqual(error, .creditsKept(service: "Imgur", remaining: 1250, limit: 12500))
            XCTAssertTrue(error.message.contains("1250 of 12500 left"), error.message)
            XCTAssertFalse(error.retryHelpsNow)
        }
        XCTAssertEqual(transport.requests.count, 2, "the third request was never sent")
    }

    func test_errors_areTyped() async {
        let cases: [(HTTPResponse, ServiceError)] = [
            (Self.json(#"{"data":{"error":"Unable to find account","request":"/3/account/x/albums/0","method":"GET"},"success":false,"status":404}"#, status: 404), .notFound),
            (Self.json(#"{"data":{"error":"Too Many Requests"},"success":false,"status":429}"#, status: 429,
                       headers: ["X-RateLimit-ClientLimit": "12500", "X-RateLimit-ClientRemaining": "0"]), .rateLimited(limit: 12500, resetsAt: nil)),
            (Self.json(#"{"data":{"error":"Invalid client_id"},"success":false,"status":403}"#, status: 403), .forbidden("Invalid client_id")),
            // Imgur's refusal to serve a country gets a sentence of its own, with Imgur's words.
            (Self.json(#"{"data":{"error":"Content not viewable in your region"},"success":false,"status":403}"#, status: 403),
             .forbidden("Imgur is not available where you are (it said: Content not viewable in your region)")),
            (Self.json(#"{"data":{"error":{"message":"Bad thing","code":1}},"success":false,"status":400}"#, status: 400), .http(status: 400, message: "Bad thing")),
            (Self.json("<html>oops</html>", status: 503), .server(status: 503)),
            (Self.json(#"{"data":{"error":"Authentication required"},"success":false,"status":401}"#, status: 401),
             .forbidden("the Imgur client id was refused (check IMGUR_CLIENT_ID or imgur_client_id)")),
            (Self.json("<html>not json</html>"), .malformedResponse(field: "body")),
            (Self.json(#"{"data":{"nope":1},"success":true}"#), .malformedResponse(field: "data")),
            (Self.json(#"{"data":[{"title":"no id"}],"success":true}"#), .malformedResponse(field: "data[0]")),
            (Self.json(#"{"data":[],"success":false,"status":200}"#), .http(status: 200, message: "the service reported a failure")),
            // A 200 carrying a failed envelope: its status and message count, not the data's shape.
            (Self.json(#"{"data":{"error":"Something broke"},"success":false,"status":500}"#), .server(status: 500)),
            (Self.json(#"{"data":{"error":"Unable to find account"},"success":false,"status":404}"#), .notFound),
            (Self.json(#"{"data":{"error":"Odd"},"success":false}"#), .http(status: 200, message: "Odd")),
        ]
        for (answer, expected) in cases {
            do {
                _ = try await repository(CannedTransport(answer)).albums(username: "x", page: 1)
                XCTFail("no error for \(expected)")
            } catch {
                XCTAssertEqual(error, expected)
            }
        }
    }

    func test_noClientIDAndNoUsername_sayWhatToDo() async {
        let transport = CannedTransport()
        let unconfigured = ImgurRepository(configuration: ImgurConfiguration(clientID: ""), http: transport)
        do {
            _ = try await unconfigured.albums(username: "u", page: 1)
            XCTFail("no error")
        } catch {
            guard case let .notConfigured(message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("IMGUR_CLIENT_ID"))
        }
        do {
            _ = try await repository(transport).albums(username: "  ", page: 1)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error, .other("Type a username first."))
        }
        XCTAssertTrue(transport.requests.isEmpty)
    }
}
