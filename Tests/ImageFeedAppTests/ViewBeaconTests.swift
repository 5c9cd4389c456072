import Foundation
import HTTPTransport
import ImageFeedCore
@testable import ImageFeedApp
import TestSupport
import XCTest

/// The photos shown from the image cache are told to Unsplash's views beacon as its client library tells them: at
/// most 20 a call, at most a call a minute (shortened here), with the application's number from the image addresses;
/// never an album's or the demo's photo, and kept for the next call while offline.
final class ViewBeaconTests: XCTestCase {
    static let ixid = "MnwzOTk5MDR8MHwxfHJhbmRvbXx8fHx8fHx8fDE2NzM5MjM3ODg" // base64 of "2|399904|0|1|random|…"

    static func image(_ name: String) -> URL {
        URL(string: "https://images.unsplash.com/photo-\(name)?crop=entropy&fm=jpg&ixid=\(ixid)&w=400")!
    }

    func test_theApplicationsNumber_isReadFromTheImageAddress() {
        XCTAssertEqual(ViewBeacon.applicationID(in: Self.image("a")), "399904")
        // A newer address (version 3, URL-safe base64 without padding).
        XCTAssertEqual(ViewBeacon.applicationID(in: URL(string: "https://images.unsplash.com/p?ixid=M3w1MzkzMDJ8MHwxfHJhbmRvbXx8fHx8fHx8fDE3MDIyNTU5OTl8")!),
                       "539302")
        for hostile in ["", "%%%", "bm90IGEgbnVtYmVy", "MnxhYmN8MA", String(repeating: "A", count: 400)] {
            XCTAssertNil(ViewBeacon.applicationID(in: URL(string: "https://images.unsplash.com/p?ixid=\(hostile)")!), hostile)
        }
        XCTAssertEqual(ViewBeacon.address(base: URL(string: "https://views.unsplash.com/v")!, photoIDs: ["a", "b"], appID: "7")?.absoluteString,
                       "https://views.unsplash.com/v?photo_id=a,b&app_id=7")
    }

    func test_twentyACall_aCallAnInterval() async throws {
        let http = StubHTTPClient(status: 200, json: "")
        // An interval long beside the look below (0.3 s), so a busy machine's late wake-up cannot reach it.
        let beacon = ViewBeacon(http: http, interval: 2, gather: 0.2)
        for index in 0..<25 { beacon.served(photoID: "photo\(index)", url: Self.image("\(index)")) }
        beacon.served(photoID: "photo3", url: Self.image("3")) // once each
        try await waitUntil { http.requests.count == 1 }
        let first = try XCTUnwrap(http.requests.first?.url)
        XCTAssertEqual(first.host, "views.unsplash.com")
        XCTAssertEqual(first.query, "photo_id=" + (0..<20).map { "photo\($0)" }.joined(separator: ",") + "&app_id=399904")
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(http.requests.count, 1, "not before the interval")
        try await waitUntil { http.requests.count == 2 }
        XCTAssertEqual(http.requests[1].url.query, "photo_id=" + (20..<25).map { "photo\($0)" }.joined(separator: ",") + "&app_id=399904")
        XCTAssertEqual(beacon.pending, [])
    }

    func test_notUnsplashs_notTold_andOfflineTheyWait() async throws {
        let offline = StubHTTPClient([.failure(ServiceError.noConnection("offline"))])
        let beacon = ViewBeacon(http: offline, interval: 0.2, gather: 0.05)
        beacon.served(photoID: "album", url: URL(string: "https://i.imgur.com/abc.jpg")!)
        beacon.served(photoID: "demo", url: URL(string: "http://127.0.0.1:4000/images/demo.jpg?ixid=\(Self.ixid)")!)
        beacon.served(photoID: "../etc", url: Self.image("x"))
        XCTAssertEqual(beacon.pending, [])
        beacon.served(photoID: "kept", url: Self.image("k"))
        try await waitUntil { offline.requests.count >= 1 }
        XCTAssertEqual(beacon.pending, ["kept"], "not reached: told at the next call")
    }

    /// The demo's photos are the sandbox's: the demo has no beacon at all.
    func test_theDemo_hasNoBeacon() async throws {
        let folder = try TemporaryFolder()
        let context = try await CompositionRoot.make(configuration: try Settings.load(environment: folder.environment), demo: true)
        XCTAssertNil(context.viewBeacon)
        await context.stop()
    }

    private func waitUntil(_ condition: @escaping () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out") }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}
