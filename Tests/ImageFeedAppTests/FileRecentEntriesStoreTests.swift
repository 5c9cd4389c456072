import Foundation
import ImageFeedApp
import TestSupport
import XCTest

final class FileRecentEntriesStoreTests: XCTestCase {
    func test_savesAndLoads_ownerOnly_andABrokenFileIsNoHistory() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("state/image-feed/search-history.json")
        let store = FileRecentEntriesStore(file: file)
        XCTAssertEqual(try store.loadHistory(), [])
        try store.saveHistory(["cats", "The Score"])
        XCTAssertEqual(try FileRecentEntriesStore(file: file).loadHistory(), ["cats", "The Score"])
        let mode = (try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int ?? 0) & 0o777
        XCTAssertEqual(mode, 0o600)
        try Data("{not json".utf8).write(to: file)
        XCTAssertEqual(try store.loadHistory(), [])
        try store.saveHistory([])
        XCTAssertEqual(try store.loadHistory(), [])
    }
}
