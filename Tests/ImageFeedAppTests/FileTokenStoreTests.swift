import Foundation
import ImageFeedApp
import TestSupport
import XCTest

final class FileTokenStoreTests: XCTestCase {
    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int ?? -1) & 0o777
    }

    func test_save_writesOwnerOnlyFileInOwnerOnlyFolder() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("state/image-feed/token")
        let store = FileTokenStore(file: file)
        try store.saveToken("secret-token")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(file.deletingLastPathComponent()), 0o700)
        XCTAssertEqual(try store.loadToken(), "secret-token")
    }

    func test_save_replacesAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("state/token")
        let store = FileTokenStore(file: file)
        try store.saveToken("first")
        try store.saveToken("second")
        XCTAssertEqual(try store.loadToken(), "second")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path), ["token"])
    }

    func test_load_withoutFile_isNil_andRemoveIsIdempotent() throws {
        let folder = try TemporaryFolder()
        let store = FileTokenStore(file: folder.url.appendingPathComponent("state/token"))
        XCTAssertNil(try store.loadToken())
        try store.removeToken()
        try store.saveToken("t")
        try store.removeToken()
        XCTAssertNil(try store.loadToken())
    }

    func test_load_repairsWidenedPermissions() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("state/token")
        let store = FileTokenStore(file: file)
        try store.saveToken("t")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.deletingLastPathComponent().path)
        XCTAssertEqual(try store.loadToken(), "t")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(file.deletingLastPathComponent()), 0o700)
    }
}
