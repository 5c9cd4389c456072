import Foundation
@testable import ImageFeedApp
import XCTest

/// A file the user wanted kept and could not be: the reason in a few words of theirs, from the system's number or
/// from Foundation's error, never Foundation's sentence.
final class DiskWordsTests: XCTestCase {
    func test_reasons_areTheUsersWords() {
        XCTAssertEqual(DiskWords.reason(errno: ENOSPC), "the disk is full")
        XCTAssertEqual(DiskWords.reason(errno: EROFS), "the disk is read-only")
        XCTAssertEqual(DiskWords.reason(errno: EACCES), "you may not write there")
        XCTAssertEqual(DiskWords.reason(CocoaError(.fileWriteOutOfSpace)), "the disk is full")
        XCTAssertEqual(DiskWords.reason(CocoaError(.fileWriteVolumeReadOnly)), "the disk is read-only")
        let underlying = NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EDQUOT))])
        XCTAssertEqual(DiskWords.reason(underlying), "your disk quota is used up")
    }

    /// A folder that is a file is said before anything is fetched.
    func test_aFolderThatCannotTakeAFile_isSaidBeforeAnythingIsFetched() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("disk-words-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertNil(DiskWords.problemWriting(in: folder))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "the probe leaves nothing")
        let file = folder.appendingPathComponent("file")
        try Data().write(to: file)
        XCTAssertEqual(DiskWords.problemWriting(in: file), "a file stands where the folder should be")
    }
}
