import Foundation
import HTTPTransport
import ImageFeedCore
import ImgurAPI
import TerminalImage
import UnsplashSandbox
import XCTest

/// The Imgur client against the sandbox's Imgur routes over loopback HTTP.
final class ImgurSandboxTests: XCTestCase {
    var sandbox: RunningSandbox!

    override func setUp() async throws {
        sandbox = try await RunningSandbox.start(try SandboxServer())
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }

    func repository(clientID: String = SandboxSettings.demoImgurClientID) -> ImgurRepository {
        ImgurRepository(configuration: ImgurConfiguration(apiBase: sandbox.baseURL,
                                                          imageBase: sandbox.baseURL.appendingPathComponent("imgur/i"),
                                                          pageBase: sandbox.baseURL.appendingPathComponent("imgur"),
                                                          clientID: clientID),
                        http: CurlHTTPClient())
    }

    func test_sandbox_servesAlbumsImagesAndFiles() async throws {
        let albums = try await repository().albums(username: "labs", page: 1)
        XCTAssertEqual(albums.items.count, 2)
        XCTAssertNil(albums.nextPage)
        let all = albums.items[0]
        XCTAssertTrue(all.displayTitle.hasSuffix(": all photos"), all.displayTitle)
        XCTAssertEqual(all.photoCount, 4)
        let cover = try XCTUnwrap(all.coverURL)
        XCTAssertNil(albums.items[1].coverURL, "Picks has no cover")

        let photos = try await repository().photos(inAlbum: all.id)
        XCTAssertEqual(photos.count, 4)
        let small = try XCTUnwrap(photos[0].urls.small)
        XCTAssertTrue(small.lastPathComponent.hasSuffix("l.jpg"), small.absoluteString)

        // The files are real JPEGs; the "l" size is at most 640 pixels wide.
        let http = CurlHTTPClient()
        for url in [cover, small] {
            let file = try await http.send(HTTPRequest(url: url))
            XCTAssertEqual(file.status, 200, url.absoluteString)
            let decoded = try ImageCodec.decode(file.body)
            XCTAssertLessThanOrEqual(decoded.image.width, 640)
        }
        let full = try await http.send(HTTPRequest(url: try XCTUnwrap(photos[0].urls.full)))
        XCTAssertEqual(full.status, 200)

        // The pages a person opens: the photo's (what share copies) and the album's.
        for page in [try XCTUnwrap(photos[0].links.html), try XCTUnwrap(all.link)] {
            let answer = try await http.send(HTTPRequest(url: page))
            XCTAssertEqual(answer.status, 200, page.absoluteString)
            XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("<img src=\"/imgur/i/"), page.absoluteString)
        }
        let missing = try await http.send(HTTPRequest(url: sandbox.baseURL.appendingPathComponent("imgur/NoSuch1")))
        XCTAssertEqual(missing.status, 404)
    }

    func test_sandbox_emptyResultsAndUnknownUsers() async throws {
        let none = try await repository().albums(username: "demo", page: 1)
        XCTAssertTrue(none.items.isEmpty, "the demo account has no albums")
        let textures = try await repository().albums(username: "textures", page: 1)
        let empty = try XCTUnwrap(textures.items.first { $0.title == "Empty album" })
        XCTAssertEqual(empty.photoCount, 0)
        let photos = try await repository().photos(inAlbum: empty.id)
        XCTAssertTrue(photos.isEmpty)
        do {
            _ = try await repository().albums(username: "nobody-at-all", page: 1)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error, .notFound)
        }
        do {
            _ = try await repository(clientID: "wrong").albums(username: "labs", page: 1)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error, .forbidden("Invalid client_id"))
        }
    }

    func test_sandbox_faultInjection() async throws {
        let faults: [(String, (ServiceError) -> Bool)] = [
            ("imgur-albums=status:500", { $0 == .server(status: 500) }),
            ("imgur-albums=status:404", { $0 == .notFound }),
            ("imgur-albums=ratelimit", { if case .rateLimited = $0 { return true }; return false }),
            ("imgur-albums=malformed", { $0 == .malformedResponse(field: "body") }),
            ("imgur-albums=truncated", { $0 == .malformedResponse(field: "body") }),
        ]
        for (rule, matches) in faults {
            sandbox.server.state.addFault(try FaultRule(parsing: rule + "x1"))
            do {
                _ = try await repository().albums(username: "labs", page: 1)
                XCTFail("no error for \(rule)")
            } catch {
                XCTAssertTrue(matches(error), "\(rule): \(error)")
            }
        }
        // Faults used up: the albums come back.
        let albums = try await repository().albums(username: "labs", page: 1)
        XCTAssertEqual(albums.items.count, 2)
    }
}
