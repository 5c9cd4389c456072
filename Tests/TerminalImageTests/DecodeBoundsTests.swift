import Foundation
import TerminalImage
import XCTest

/// What a decode may cost: a JPEG with thousands of empty scans is refused after a few passes, a decode nobody
/// waits for stops, and the decodes in flight share one budget of pixels, whatever the number of cores.
final class DecodeBoundsTests: XCTestCase {
    static func manyScans(side: Int, copies: Int) throws -> Data {
        try ImageCodec.repeatingLastScan(side: side, copies: copies)
    }

    func test_aProgressiveJPEGWithThousandsOfScans_isRefused() throws {
        let data = try Self.manyScans(side: 2000, copies: 3000)
        XCTAssertLessThan(data.count, 200_000, "a small file")
        let started = ProcessInfo.processInfo.systemUptime
        XCTAssertThrowsError(try ImageCodec.decode(data, minimumWidth: 40, minimumHeight: 40)) { error in
            XCTAssertTrue("\(error)".contains("more than 64 scans"), "\(error)")
        }
        let seconds = ProcessInfo.processInfo.systemUptime - started
        // Not a timing target: a bound far above the 64 passes allowed, far below the 3000 of the file.
        XCTAssertLessThan(seconds, 30, "refused after the scans allowed, not after all of them")
        // A real progressive file still decodes.
        XCTAssertNoThrow(try ImageCodec.decode(try Self.manyScans(side: 64, copies: 0)))
    }

    func test_aDecodeNobodyWaitsFor_stops() throws {
        let data = try Self.manyScans(side: 1000, copies: 40)
        let stop = DecodeStop()
        stop.stop()
        XCTAssertThrowsError(try ImageCodec.decode(data, stop: stop)) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        // Without the stop, the same file decodes.
        XCTAssertNoThrow(try ImageCodec.decode(data))
    }

    func test_aCancelledTask_stopsItsDecode() async throws {
        let data = try Self.manyScans(side: 1000, copies: 50)
        let task = Task.detached { try await ImageCodec.decodeWhileWanted(data) }
        task.cancel()
        do {
            _ = try await task.value
            // Finished before the cancellation reached it: nothing to say.
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    /// Sixteen decodes at once (a 16-core box) of pictures claiming 9 megapixels each, under a budget of 10: never
    /// more than one holds its pixels at a time, and every one of them finishes.
    func test_decodesInFlight_shareOneBudget_whateverTheCoreCount() throws {
        let saved = ImageCodec.pixelBudget
        defer { ImageCodec.pixelBudget = saved }
        ImageCodec.pixelBudget = 10_000_000
        let data = try Self.manyScans(side: 3000, copies: 0)
        _ = ImageCodec.decodesInFlightPeak(reset: true)
        let group = DispatchGroup()
        let failures = Failures()
        for _ in 0..<16 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do { _ = try ImageCodec.decode(data, minimumWidth: 40, minimumHeight: 40) } catch { failures.add("\(error)") }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 120), .success)
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(ImageCodec.decodesInFlightPeak(), 9_000_000, "one 9-megapixel decode at a time")
    }

    /// A decode waiting for the budget that is no longer wanted stops at once, without decoding.
    func test_aDecodeWaitingForTheBudget_stopsWhenNoLongerWanted() throws {
        let saved = ImageCodec.pixelBudget
        defer { ImageCodec.pixelBudget = saved }
        ImageCodec.pixelBudget = 10_000_000
        let slow = try Self.manyScans(side: 3000, copies: 50)
        let holder = Thread { _ = try? ImageCodec.decode(slow) }
        holder.start()
        // Wait until the slow decode holds the budget.
        let deadline = Date().addingTimeInterval(10)
        while ImageCodec.decodesInFlightPeak() < 9_000_000, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let stop = DecodeStop()
        let waiter = DispatchSemaphore(value: 0)
        let outcome = Failures()
        Thread.detachNewThread {
            do { _ = try ImageCodec.decode(slow, stop: stop) } catch { outcome.add(error is CancellationError ? "stopped" : "\(error)") }
            waiter.signal()
        }
        Thread.sleep(forTimeInterval: 0.05)
        stop.stop()
        XCTAssertEqual(waiter.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(outcome.all, ["stopped"])
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ text: String) { lock.withLock { list.append(text) } }
        var all: [String] { lock.withLock { list } }
    }
}
