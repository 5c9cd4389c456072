import Foundation
@testable import ImageFeedApp
import TestSupport
import XCTest

/// The log: secrets never reach it, it stays owner-only and bounded.
final class LogsTests: XCTestCase {
    func test_redact_takesOutCredentialsInEveryShape() {
        let lines = [
            "Authorization: Bearer 0123456789abcdef",
            "authorization=Client-ID my-access-key-1",
            "GET https://unsplash.com/oauth/authorize?client_id=my-access-key-1&redirect_uri=x&response_type=code&scope=public",
            "GET http://127.0.0.1:9/callback?code=the-code-42&state=s",
            "POST /oauth/token client_secret=my-secret-key-2&code=the-code-42&grant_type=authorization_code",
            #"{"access_token":"0123456789abcdef","refresh_token": "r-token-9"}"#,
            "the literal one: word-for-word-secret appears",
        ]
        let redacted = lines.map { Logs.redact($0, secrets: ["word-for-word-secret"]) }.joined(separator: "\n")
        for secret in ["0123456789abcdef", "my-access-key-1", "the-code-42", "my-secret-key-2", "r-token-9", "word-for-word-secret"] {
            XCTAssertFalse(redacted.contains(secret), "\(secret) is left in:\n\(redacted)")
        }
        // What is not a secret stays readable.
        XCTAssertTrue(redacted.contains("redirect_uri=x&response_type=code&scope=public"), redacted)
        XCTAssertTrue(redacted.contains("grant_type=authorization_code"), redacted)
    }

    /// The scan of the four shapes takes out what the regular expressions it replaced took out, character for
    /// character, on lines made of the shapes' pieces in every order (boundaries, cases, quotes, spaces, line
    /// breaks, letters and symbols outside ASCII).
    func test_redact_takesOutWhatTheRegularExpressionsDid() {
        let patterns: [(NSRegularExpression, String)] = [
            (try! NSRegularExpression(pattern: #"(?i)\b(Bearer|Client-ID)\s+[^\s",;]+"#), "$1 [secret]"),
            (try! NSRegularExpression(pattern: #"(?i)\b(authorization)(["']?\s*[:=]\s*["']?)[^\r\n"]+"#), "$1$2[secret]"),
            (try! NSRegularExpression(pattern: #"(?i)\b(client_id|client_secret|code|access_token|refresh_token|token|password)=[^&\s"]+"#),
             "$1=[secret]"),
            (try! NSRegularExpression(pattern: #"(?i)"(access_token|refresh_token|client_secret)"\s*:\s*"[^"]*""#), "\"$1\": \"[secret]\""),
        ]
        let pieces = ["Bearer", "bearer", "Client-ID", "client-id", "authorization", "Authorization", "code", "CODE=", "token",
                      "Token", "access_token", "refresh_token", "client_secret", "client_id", "password", "\"access_token\"",
                      "=", ":", " ", "  ", "\t", "\n", "\r", "\u{0B}", "\"", "'", "&", ",", ";", "?", "/", "{", "}", "_", "-", "x",
                      "ab", "abc123", "é", "e\u{301}", "🐢", "ж", "٣", "response_type", "grant_type=authorization_code"]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<15_000 {
            let line = (0..<Int.random(in: 1...20, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            var expected = line
            for (pattern, template) in patterns {
                expected = pattern.stringByReplacingMatches(in: expected, range: NSRange(expected.startIndex..., in: expected),
                                                            withTemplate: template)
            }
            guard SecretShapes.redact(line) == expected else {
                return XCTFail("\(line.debugDescription): \(SecretShapes.redact(line).debugDescription), not \(expected.debugDescription)")
            }
        }
    }

    func test_logFile_isOwnerOnly_rotatesAtItsSize_andKeepsOneBefore() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("state/image-feed/image-feed.log")
        let sink = LogFile()
        sink.open(file, maximumBytes: 4096)
        sink.addSecrets(["hidden-token-value"])
        for index in 0..<200 {
            sink.write("line \(index) " + String(repeating: "x", count: 80) + " hidden-token-value")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertLessThanOrEqual(attributes[.size] as? Int ?? .max, 4096)
        let folderMode = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)[.posixPermissions] as? Int
        XCTAssertEqual(folderMode, 0o700)
        let previous = file.appendingPathExtension("1")
        XCTAssertTrue(FileManager.default.fileExists(atPath: previous.path))
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("line 199 " + String(repeating: "x", count: 80) + " [secret]\n"), text)
        XCTAssertFalse(text.contains("hidden-token-value"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.appendingPathExtension("2").path))
    }

    func test_level_namesAndOff() throws {
        XCTAssertEqual(try Logs.level("DEBUG"), .debug)
        XCTAssertNil(try Logs.level("off"))
        XCTAssertThrowsError(try Logs.level("loud"))
    }
}
