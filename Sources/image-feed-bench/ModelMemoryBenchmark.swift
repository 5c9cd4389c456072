import CMemory
import Foundation
import ImageFeedCore
import TerminalUI
import UnsplashAPI
import UnsplashSandbox

/// What one feed photo costs in memory once decoded: heap in use before and after holding 3,000 photos read from the
/// sandbox through the API client, and then as the feed keeps them (`PhotoList`: the photos far from the one shown packed).
struct ModelMemoryBenchmark {
    let photos = 3_000

    func run(into report: inout Report) async throws {
        let sandbox = try await RunningSandbox.start(try SandboxServer(settings: SandboxSettings(feedSize: photos)))
        let client = UnsplashClient(configuration: UnsplashConfiguration(apiBase: sandbox.baseURL,
                                                                        accessKey: SandboxSettings.demoAccessKey),
                                    http: CurlHTTPClient())
        _ = try await client.feed(page: 1, perPage: maximumPageSize) // warm up the client and the decoder
        var held: [Photo] = []
        let before = ifm_heap_in_use()
        for page in 1...(photos / maximumPageSize) {
            held += try await client.feed(page: page, perPage: maximumPageSize).items
        }
        let after = ifm_heap_in_use()
        await sandbox.stop()
        guard before > 0 else {
            report.note("photo model memory: this C library cannot report heap use; skipped")
            return
        }
        let perPhoto = Double(after &- before) / Double(held.count)
        report.add("heap per feed photo held (\(held.count) photos)", String(format: "%.0f bytes", perPhoto))
        // The feed's list as it stands after a long scroll: the runs near the last photo held, the others packed.
        let beforeList = ifm_heap_in_use()
        var list = PhotoList(held)
        list.hold(around: held.count - 1, radius: Paging.heldRadius)
        held = []
        let afterList = ifm_heap_in_use()
        let perListed = (Double(afterList) - Double(beforeList) + Double(after &- before)) / Double(list.count)
        report.add("heap per feed photo in the list, \(list.packedCount) of \(list.count) packed", String(format: "%.0f bytes", perListed))
        // What a key pays when its move takes a run out of the held window (packed) or brings one back (unpacked): the
        // held window moves by one run at a time, so at most one of each in a frame.
        var packing = Samples()
        var unpacking = Samples()
        list.hold(around: list.count + PhotoList.runLength, radius: 0) // every run packed
        for run in 0..<(list.count / PhotoList.runLength) {
            let middle = run * PhotoList.runLength + PhotoList.runLength / 2
            var started = now()
            list.hold(around: middle, radius: 0) // this run unpacked, the one held before packed
            unpacking.add(now() - started)
            started = now()
            list.hold(around: list.count + PhotoList.runLength, radius: 0) // and packed again
            packing.add(now() - started)
        }
        report.add("pack a run of \(PhotoList.runLength) photos, p99", milliseconds(packing.p99))
        report.add("unpack a run of \(PhotoList.runLength) photos, p99", milliseconds(unpacking.p99))
        // A frame asks for the whole list's cards laid out, several times: made from the sizes kept beside the packed
        // photos when the area or the sizes changed (each width here a new area), else the layout kept for them.
        var made = Samples()
        var kept = Samples()
        for width in 150..<200 {
            var started = now()
            _ = CardLayout(photos: list, width: width, viewportHeight: 58)
            made.add(now() - started)
            started = now()
            _ = CardLayout(photos: list, width: width, viewportHeight: 58)
            kept.add(now() - started)
        }
        report.add("lay out the cards of \(list.count) photos, median: made; kept",
                   milliseconds(made.median) + "; " + milliseconds(kept.median))
    }
}
