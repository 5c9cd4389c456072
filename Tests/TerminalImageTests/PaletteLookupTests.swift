@testable import TerminalImage
import XCTest

/// The palette lookups, built with a pruned search, give what trying every candidate gives.
final class PaletteLookupTests: XCTestCase {
    func test_thePrecomputedTable_isWhatBuildingItGives() {
        XCTAssertEqual(Palette.precomputed256, Palette.buildLookup(candidates: Array(16..<256)))
    }

    /// A palette colour maps to its own index (the first, where two share a colour), any other colour to none:
    /// every colour whose channels are all cube levels or gray-ramp values, and every gray.
    func test_exactColours_areThePalettesOwn() {
        var first: [RGB: UInt8] = [:]
        for index in 16..<256 where first[Palette.xterm256[index]] == nil { first[Palette.xterm256[index]] = UInt8(index) }
        let values = Set(Palette.xterm256[16...].flatMap { [$0.red, $0.green, $0.blue] } + [1, 7, 9, 94, 96, 254])
        for red in values { for green in values { for blue in values {
            let color = RGB(red, green, blue)
            XCTAssertEqual(Palette.exact256(color), first[color], "\(color)")
        } } }
        for gray in 0...255 {
            let color = RGB(UInt8(gray), UInt8(gray), UInt8(gray))
            XCTAssertEqual(Palette.exact256(color), first[color], "\(color)")
        }
    }

    func test_lookups_matchTheNearestCandidateInOKLab() {
        func brute(_ color: RGB, _ candidates: Range<Int>) -> UInt8 {
            let lab = OKLab(color)
            var best = candidates.lowerBound
            var bestDistance = Float.greatestFiniteMagnitude
            for index in candidates {
                let distance = lab.distanceSquared(to: OKLab(Palette.xterm256[index]))
                if distance < bestDistance { bestDistance = distance; best = index }
            }
            return UInt8(best)
        }
        var checked = 0
        for entry in stride(from: 0, to: 32 * 32 * 32, by: 37) {
            // The centre of the entry's block, which is what the table was built for.
            let color = RGB(UInt8((entry >> 10) << 3 | 4), UInt8(((entry >> 5) & 31) << 3 | 4), UInt8((entry & 31) << 3 | 4))
            XCTAssertEqual(Palette.nearest16(color), brute(color, 0..<16), "\(color)")
            XCTAssertEqual(Palette.nearest8(color), brute(color, 0..<8), "\(color)")
            if !Palette.xterm256.contains(color) { XCTAssertEqual(Palette.nearest256(color), brute(color, 16..<256), "\(color)") }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 800)
    }
}
