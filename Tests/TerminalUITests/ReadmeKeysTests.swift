import Foundation
import ImageFeedCore
@testable import TerminalUI
import XCTest

/// The documentation's key list is the help's, screen by screen, and its list of intents is the records': this test
/// writes what they should be and compares (`IMAGE_FEED_RECORD_README=1` writes them). The `[keys]` example is
/// bound as written.
final class ReadmeKeysTests: XCTestCase {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The file the key list lives in.
    static var document: URL { root.appendingPathComponent("docs/keys.md") }

    /// The key list, between `<!-- keys -->` and `<!-- /keys -->`.
    static func expectedKeys() -> String {
        var text = ""
        var seen = Set<String>()
        for state in HelpContent.allContexts {
            let title = HelpContent.title(state).replacingOccurrences(of: "Keys: ", with: "")
            guard seen.insert(title).inserted else { continue }
            let lines = HelpContent.lines(state)
            text += "\n**\(title.prefix(1).uppercased() + title.dropFirst())**\n\n| keys | what |\n| --- | --- |\n"
            for line in lines {
                text += "| `\(line.keys.replacingOccurrences(of: "|", with: "\\|"))` | \(line.what) |\n"
            }
        }
        return text
    }

    /// The intents, between `<!-- intents -->` and `<!-- /intents -->`.
    static func expectedIntents() -> String {
        "\n" + KeyMap.intentsByContext.map { intent, contexts in
            let keys = KeyMap.standard.keys(intent, in: contexts[0]).map(KeyMap.name).joined(separator: " ")
            return "- `\(intent.rawValue)` (`\(keys)`): \(contexts.map(\.rawValue).joined(separator: ", "))"
        }.joined(separator: "\n") + "\n"
    }

    private func check(_ marker: String, expected: String) throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "<!-- \(marker) -->\n"), "no \(marker) list")
        let end = try XCTUnwrap(text.range(of: "<!-- /\(marker) -->"), "the \(marker) list has no end")
        let section = String(text[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["IMAGE_FEED_RECORD_README"] == "1", section != expected {
            try text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: expected)
                .write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(section, expected, "the \(marker) list should be:\n\(expected)")
    }

    func test_keyListMatchesTheHelp() throws {
        try check("keys", expected: Self.expectedKeys())
    }

    func test_intentListMatchesTheRecords() throws {
        try check("intents", expected: Self.expectedIntents())
    }

    /// The README's five keys are the defaults of what it says they do.
    func test_theReadmesKeysThatMatter_areTheDefaults() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "<!-- keys-that-matter -->\n"))
        let end = try XCTUnwrap(readme.range(of: "<!-- /keys-that-matter -->"))
        let table = String(readme[start.upperBound..<end.lowerBound])
        let keys = KeyMap.standard
        let expected: [(row: String, intent: Intent, context: KeyContext, keys: [Key])] = [
            ("move between photos", .next, .feed, [.down, .character("j")]),
            ("move between photos", .previous, .feed, [.up, .character("k")]),
            ("the photo full screen", .open, .feed, [.enter]),
            ("the photo full screen", .back, .viewer, [.escape]),
            ("like it", .like, .feed, [.character("f")]),
            ("the panes", .nextPane, .feed, [.tab]),
            ("every key of the screen", .help, .feed, [.character("?")]),
        ]
        for item in expected {
            let line = try XCTUnwrap(table.split(separator: "\n").first { $0.contains(item.row) }, item.row)
            for key in item.keys {
                XCTAssertEqual(keys.intent(of: key, in: item.context), item.intent, "\(KeyMap.name(key)) in \(item.context)")
                let name = KeyMap.name(key)
                XCTAssertTrue(line.contains("`\(name)") || line.contains(" \(name)`") || line.contains("`\(name)`"), "\(line) names \(name)")
            }
        }
    }

    /// The `[keys]` example binds as written, without a clash, and does what its comments say.
    func test_theKeysExample_binds() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "<!-- keys-example -->\n```toml\n"))
        let end = try XCTUnwrap(text.range(of: "```\n<!-- /keys-example -->"))
        var map = KeyMap()
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let code = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            let parts = code.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            try map.bind(name, to: parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }
        XCTAssertNoThrow(try map.checkConflicts())
        XCTAssertEqual(map.intent(of: .character("*"), in: .sheet), .like)
        XCTAssertNil(map.intent(of: .character("f"), in: .viewer))
        XCTAssertEqual(map.intent(of: .character("="), in: .viewer), .zoomIn)
        XCTAssertEqual(map.intent(of: .character("I"), in: .feed), .details)
        XCTAssertEqual(map.intent(of: .function(2), in: .search), .nextPane)
    }
}
