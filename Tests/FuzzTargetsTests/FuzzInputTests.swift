import Foundation
import XCTest
@testable import FuzzTargets

/// Every saved input of every fuzz target (the seeds, and each input a fuzzing run found a problem with)
/// goes through the target again: the test passes when each returns.
final class FuzzInputTests: XCTestCase {
    func inputs(of target: FuzzTarget) throws -> [URL] {
        let folder = try XCTUnwrap(Bundle.module.url(forResource: "Inputs", withExtension: nil))
            .appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return names.map { folder.appendingPathComponent($0) }
    }

    func replay(_ target: FuzzTarget, file: StaticString = #filePath, line: UInt = #line) throws -> [String: String] {
        let files = try inputs(of: target)
        XCTAssertFalse(files.isEmpty, "no inputs for \(target.rawValue)", file: file, line: line)
        var outcomes: [String: String] = [:]
        for url in files {
            outcomes[url.lastPathComponent] = target.run(try Data(contentsOf: url))
        }
        return outcomes
    }

    func test_apiAnswers_replay() throws {
        let outcomes = try replay(.apiJSON)
        // The seeds are real answers: each endpoint reads its own.
        XCTAssertEqual(outcomes["seed-feed"], "2 photos, next none, total ?")
        XCTAssertEqual(outcomes["seed-search"], "2 photos, next 2, total 24")
        XCTAssertEqual(outcomes["seed-me"], "nasa")
        XCTAssertEqual(outcomes["seed-token"], "abc")
        XCTAssertEqual(outcomes["seed-download"]?.hasPrefix("http://127.0.0.1"), true)
        XCTAssertEqual(outcomes["seed-rate-limit"]?.hasPrefix("error: Rate limited until"), true, outcomes["seed-rate-limit"] ?? "")
    }

    func test_imgurAnswers_replay() throws {
        let outcomes = try replay(.imgurJSON)
        // The seeds are the sandbox's answers, in Imgur's shapes.
        XCTAssertEqual(outcomes["seed-albums"], "2 albums, 1 with covers, skipped 0, next none")
        XCTAssertEqual(outcomes["seed-images"], "4 photos, 4 with thumbnails")
        XCTAssertEqual(outcomes["seed-not-found"]?.hasPrefix("error: "), true, "\(outcomes)")
        XCTAssertEqual(outcomes["seed-rate-limit"]?.hasPrefix("error: "), true, "\(outcomes)")
        XCTAssertEqual(outcomes["seed-failed-with-200"]?.hasPrefix("error: The photo service is having trouble (HTTP 500)"), true, "success false is a failure: \(outcomes)")
    }

    func test_jpegInputs_replay() throws {
        let outcomes = try replay(.jpeg)
        XCTAssertEqual(outcomes["seed-baseline.jpg"]?.hasPrefix("16x12; 20x"), true, "\(outcomes)")
        XCTAssertEqual(outcomes["seed-progressive.jpg"]?.hasPrefix("16x12;"), true)
        XCTAssertEqual(outcomes["seed-cmyk.jpg"]?.hasPrefix("8x8;"), true)
        // Bombs: a few hundred bytes claiming 60000 x 60000, refused from the header by both decodes.
        for name in ["seed-bomb-baseline-60000.jpg", "seed-bomb-progressive-60000.jpg"] {
            XCTAssertEqual(outcomes[name]?.components(separatedBy: "more than the limit of 4 megapixels").count, 3, "\(name): \(outcomes[name] ?? "")")
        }
    }

    func test_pngInputs_replay() throws {
        let outcomes = try replay(.png)
        for (name, outcome) in outcomes where name.hasPrefix("seed-") && !name.contains("bomb") {
            XCTAssertFalse(outcome.hasPrefix("error"), "\(name): \(outcome)")
        }
        XCTAssertEqual(outcomes["seed-bomb-65535.png"]?.contains("65535 x 65535 pixels, more than the limit"), true, "\(outcomes)")
    }

    func test_gifWebPBMPAndTIFFInputs_replay() throws {
        for target in [FuzzTarget.gif, .webp, .bmp, .tiff] {
            let outcomes = try replay(target)
            for (name, outcome) in outcomes where name.hasPrefix("seed-") && !name.contains("bomb") {
                XCTAssertEqual(outcome.hasPrefix("48x36"), true, "\(target.rawValue) \(name): \(outcome)")
            }
        }
        XCTAssertEqual(try replay(.gif)["seed-bomb-65535.gif"]?.contains("65535 x 65535 pixels, more than the limit"), true)
        XCTAssertEqual(try replay(.bmp)["seed-bomb-60000.bmp"]?.contains("60000 x 60000 pixels, more than the limit"), true)
    }

    func test_animationAndVideoInputs_replay() throws {
        let animations = try replay(.animation)
        XCTAssertEqual(animations["seed-disposal.gif"], "3 frames 48x36 loops 2", "\(animations)")
        XCTAssertEqual(animations["seed-anim.gif"]?.hasPrefix("error"), false, "\(animations)")
        XCTAssertEqual(animations["seed-anim.webp"]?.hasPrefix("error"), false, "\(animations)")
        XCTAssertEqual(animations["seed-bomb-65535.gif"]?.contains("65535 x 65535 pixels, more than the limit"), true, "\(animations)")
        let videos = try replay(.video)
        XCTAssertEqual(videos["seed-testsrc.mp4"], "6 frames 48x36 loops 0", "\(videos)")
        XCTAssertEqual(videos["seed-testsrc.webm"], "4 frames 48x36 loops 0", "\(videos)")
        XCTAssertNotNil(videos["seed-cut.mp4"])
    }

    func test_oauthRedirectInputs_replay() throws {
        let outcomes = try replay(.oauthRedirect)
        XCTAssertEqual(outcomes["seed-url"], #"code("abc123", state: Optional("state")) / abc123"#)
        XCTAssertEqual(outcomes["seed-denied"]?.contains("The user denied"), true, "form encoding: + is a space")
    }

    func test_configInputs_replay() throws {
        let outcomes = try replay(.config)
        XCTAssertEqual(outcomes["seed-full.toml"], "ok: https://api.unsplash.com")
        XCTAssertEqual(outcomes["seed-http.toml"]?.contains("plain http"), true)
        // Found by fuzzing: "[[[" made the TOML parser abort on an assertion. Sections are refused first.
        XCTAssertEqual(outcomes["crash-toml-triple-bracket"]?.contains("line 1: the only sections are [colors] and [keys]"), true,
                       outcomes["crash-toml-triple-bracket"] ?? "")
        // And the same behind a byte order mark, which the parser skips.
        XCTAssertEqual(outcomes["crash-toml-bom-bracket"]?.contains("line 1: the only sections are [colors] and [keys]"), true,
                       outcomes["crash-toml-bom-bracket"] ?? "")
        // "as=[}" made it abort too: values are strings, numbers or booleans, checked before parsing.
        XCTAssertEqual(outcomes["crash-toml-array-brace"]?.contains("line 1, key as: expected a value in quotes"), true,
                       outcomes["crash-toml-array-brace"] ?? "")
    }

    func test_terminalReplies_replay() throws {
        let outcomes = try replay(.terminalReplies)
        XCTAssertEqual(outcomes["seed-kitty"], "kitty, 1 kitty commands")
        XCTAssertEqual(outcomes["seed-xterm"], "cells, 0 kitty commands", "Sixel, but the text area needs the terminal's size")
        XCTAssertEqual(outcomes["seed-vt100"], "cells, 0 kitty commands")
        XCTAssertEqual(outcomes["seed-kitty-commands"], "cells, 2 kitty commands")
    }

    func test_layouts_replay() throws {
        let outcomes = try replay(.layout)
        XCTAssertEqual(outcomes["seed-terminal-80x24"], "2 photos, 48 lines", "\(outcomes)")
        XCTAssertEqual(outcomes["seed-absurd-1x2to62"]?.hasPrefix("4 photos"), true, "\(outcomes)")
        XCTAssertNotNil(outcomes["seed-nan-zoom"])
    }

    func test_storeRestore_replays() throws {
        let outcomes = try replay(.storeRestore)
        XCTAssertEqual(outcomes["seed-rows"]?.hasPrefix("2 of 4 rows"), true, "the row that is no photo and the empty one are left out: \(outcomes)")
    }

    func test_terminalReplies_afterAnUnterminatedOne_areStillRead() {
        XCTAssertTrue(FuzzTarget.terminalReplies.run(Data("\u{1B}P>|never ends\u{1B}[?62;4c".utf8)).hasPrefix("cells"))
    }

    func test_terminalInput_replays() throws {
        let outcomes = try replay(.input)
        XCTAssertEqual(outcomes.count, 5)
        XCTAssertTrue(outcomes.values.allSatisfy { $0.hasSuffix("events") }, "\(outcomes)")
    }
}
