import Foundation
import ImageFeedCore
import TerminalUI
import XCTest

/// The README's key list is the help's, screen by screen: this test writes what it should be and compares.
final class ReadmeKeysTests: XCTestCase {
    static var readme: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
    }

    /// The key list as the README has it, between `<!-- keys -->` and `<!-- /keys -->`.
    static func expectedSection() -> String {
        var text = ""
        var seen = Set<String>()
        for state in HelpScreen.allContexts {
            let title = HelpScreen.title(state).replacingOccurrences(of: "Keys: ", with: "")
            guard seen.insert(title).inserted else { continue }
            let lines = HelpScreen.lines(state)
            text += "\n**\(title.prefix(1).uppercased() + title.dropFirst())**\n\n| keys | what |\n| --- | --- |\n"
            for line in lines {
                text += "| `\(line.keys.replacingOccurrences(of: "|", with: "\\|"))` | \(line.what) |\n"
            }
        }
        return text
    }

    func test_readmeKeyListMatchesTheHelp() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "<!-- keys -->\n"), "the README has no key list")
        let end = try XCTUnwrap(readme.range(of: "<!-- /keys -->"), "the README's key list has no end")
        let section = String(readme[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["IMAGE_FEED_RECORD_README"] == "1", section != Self.expectedSection() {
            // Record mode: the list is written from the keymap, for review in the diff.
            try readme.replacingCharacters(in: start.upperBound..<end.lowerBound, with: Self.expectedSection())
                .write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(section, Self.expectedSection(), "the README's key list should be:\n\(Self.expectedSection())")
    }
}
