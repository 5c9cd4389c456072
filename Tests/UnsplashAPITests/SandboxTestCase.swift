import Foundation
import ImageFeedCore
import UnsplashAPI
import UnsplashSandbox
import TestSupport
import XCTest

/// A test case with a sandbox of its own for each test.
class SandboxTestCase: XCTestCase {
    var sandbox: SandboxFixture!

    override func setUp() async throws {
        sandbox = try await SandboxFixture.start()
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }
}
