import Foundation
import ImageFeedApp
import TerminalUI
import UnsplashSandbox
import TestSupport
import XCTest

/// `image-feed doctor`: each finding with its fix, secrets never shown, the status that blocks use.
final class DoctorTests: XCTestCase {
    var folder: TemporaryFolder!
    var sandbox: RunningSandbox!

    override func setUp() async throws {
        folder = try TemporaryFolder()
        sandbox = try await RunningSandbox.start(try SandboxServer())
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }

    /// A user of the sandbox: its keys in the config file, a UTF-8 locale, a known TERM.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        folder.environment.merging(["TERM": "xterm-256color", "LANG": "C.UTF-8",
                                    "IMAGE_FEED_API_BASE": sandbox.baseURL.absoluteString]) { a, _ in a }
            .merging(extra) { _, b in b }
    }

    func writeConfig(_ text: String, mode: Int = 0o600) throws -> URL {
        let file = try folder.write(text, to: "config/image-feed/config.toml")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file
    }

    let keys = "access_key = \"\(SandboxSettings.demoAccessKey)\"\nsecret_key = \"\(SandboxSettings.demoSecretKey)\"\n"

    func test_doctor_secretKeyReadableByOthers_warnsWithTheChmodFix() async throws {
        let file = try writeConfig(keys, mode: 0o644)
        let report = await Doctor.report(environment: environment(), terminal: .init(isTerminal: false))
        let check = try XCTUnwrap(report.check("Config file mode"))
        XCTAssertEqual(check.status, .warning)
        XCTAssertEqual(check.fix, "chmod 600 \(file.path)")
        XCTAssertFalse(report.blocked, report.text())
    }

    func test_doctor_ownerOnlyConfig_hasNoModeWarning() async throws {
        _ = try writeConfig(keys)
        let report = await Doctor.report(environment: environment(), terminal: .init(isTerminal: false))
        XCTAssertNil(report.check("Config file mode"))
        XCTAssertEqual(report.check("Unsplash API")?.status, .ok, report.text())
    }

    func test_doctor_secrets_areSaidToBeSetNeverShown() async throws {
        _ = try writeConfig(keys)
        let report = await Doctor.report(environment: environment(["IMGUR_CLIENT_ID": "imgur-secret-id-42",
                                                                   "IMAGE_FEED_TOKEN": "token-value-77"]),
                                          network: false, terminal: .init(isTerminal: false))
        let text = report.text() + (try JSONOutput.encode(report))
        for secret in [SandboxSettings.demoAccessKey, SandboxSettings.demoSecretKey, "imgur-secret-id-42", "token-value-77"] {
            XCTAssertFalse(text.contains(secret), "\(secret) appears in the report")
        }
        XCTAssertEqual(report.check("access_key")?.detail.hasPrefix("set ("), true)
        XCTAssertEqual(report.check("token")?.detail, "set (environment IMAGE_FEED_TOKEN)")
    }

    func test_doctor_settings_sayWhereEachCameFrom() async throws {
        let file = try writeConfig(keys + "blitter = \"sextant\"\ncolors = \"256\"\n")
        let report = await Doctor.report(environment: environment(["IMAGE_FEED_COLORS": "16"]), network: false,
                                          terminal: .init(isTerminal: false))
        XCTAssertEqual(report.check("blitter")?.detail, "sextant (\(file.path), line 3)")
        XCTAssertEqual(report.check("colors")?.detail, "16 (environment IMAGE_FEED_COLORS)")
        XCTAssertEqual(report.check("api_base")?.detail, "\(sandbox.baseURL.absoluteString) (environment IMAGE_FEED_API_BASE)")
        XCTAssertEqual(report.check("image_cache_mb")?.detail, "200 (default)")
    }

    func test_doctor_invalidConfig_blocksWithTheLine() async throws {
        _ = try writeConfig(keys + "colours = \"256\"\n")
        let report = await Doctor.report(environment: environment(), terminal: .init(isTerminal: false))
        XCTAssertTrue(report.blocked)
        let check = try XCTUnwrap(report.check("Config file"))
        XCTAssertEqual(check.status, .problem)
        XCTAssertTrue(check.detail.contains("line 3, key colours: unknown setting"), check.detail)
    }

    func test_doctor_noAccessKey_blocksAndPointsToTheDemo() async throws {
        let report = await Doctor.report(environment: environment(), terminal: .init(isTerminal: false))
        XCTAssertTrue(report.blocked)
        XCTAssertEqual(report.check("Access key")?.status, .problem)
        XCTAssertTrue(report.check("Access key")?.fix?.contains("image-feed --demo") == true)
    }

    func test_doctor_revokedToken_isAProblemWithTheLoginFix() async throws {
        _ = try writeConfig(keys)
        let report = await Doctor.report(environment: environment(["IMAGE_FEED_TOKEN": "revoked"]),
                                          terminal: .init(isTerminal: false))
        XCTAssertEqual(report.check("Login")?.status, .problem, report.text())
        XCTAssertEqual(report.check("Login")?.fix, "image-feed logout, then image-feed login")
        XCTAssertTrue(report.blocked)
    }

    func test_doctor_storedTokenReadableByOthers_warnsBeforeAnythingRepairsIt() async throws {
        _ = try writeConfig(keys)
        let token = try folder.write("some-token", to: "state/image-feed/token")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: token.path)
        let report = await Doctor.report(environment: environment(), network: false, terminal: .init(isTerminal: false))
        XCTAssertEqual(report.check("Token")?.status, .warning, report.text())
        XCTAssertEqual(report.check("Token")?.fix?.hasPrefix("chmod 600 \(token.path)"), true)
    }

    func test_doctor_demo_logsNothingInAndReachesTheSandbox() async throws {
        let report = await Doctor.report(environment: environment(), demo: true, terminal: .init(isTerminal: false))
        XCTAssertFalse(report.blocked, report.text())
        XCTAssertEqual(report.check("Unsplash API")?.status, .ok)
        XCTAssertTrue(report.check("Unsplash API")?.detail.contains("requests left this hour") == true)
        XCTAssertEqual(report.check("Imgur")?.status, .ok)
    }

    func test_doctor_unknownTERM_warnsAndSaysHowItIsDrawn() async throws {
        let report = await Doctor.report(environment: environment(["TERM": "no-such-terminal"]), network: false,
                                          terminal: .init(isTerminal: true, abilities: TerminalAbilities(), size: (80, 24)))
        let check = try XCTUnwrap(report.check("TERM"))
        XCTAssertEqual(check.status, .warning)
        XCTAssertTrue(check.detail.contains("drawn as xterm-256color"), check.detail)
        XCTAssertEqual(report.check("Size")?.status, .ok)
    }

    func test_doctor_truecolorTerminal_getsItsDirectEntry() async throws {
        let report = await Doctor.report(environment: environment(["COLORTERM": "truecolor"]), network: false,
                                          terminal: .init(isTerminal: false))
        XCTAssertEqual(report.check("Colours")?.detail, "24-bit (terminfo entry xterm-direct)")
    }

    func test_doctor_kittyAnswers_picturesInPixelsWithTheCellSize() async throws {
        var abilities = TerminalAbilities()
        abilities.kittyGraphics = true
        abilities.answered = true
        abilities.version = "kitty(0.26.5)"
        abilities.cellWidth = 9
        abilities.cellHeight = 18
        let report = await Doctor.report(environment: environment(["TERM": "xterm-kitty"]), network: false,
                                          terminal: .init(isTerminal: true, abilities: abilities, size: (30, 10)))
        XCTAssertEqual(report.check("Pictures")?.detail.hasPrefix("kitty: the terminal (kitty(0.26.5)) answered"), true)
        XCTAssertEqual(report.check("Pictures")?.detail.hasSuffix("cell 9x18 pixels"), true)
        XCTAssertEqual(report.check("Size")?.status, .warning)
    }

    func test_doctor_saysWhatTheLinkWasMeasuredAt() async throws {
        var abilities = TerminalAbilities()
        abilities.kittyGraphics = true
        abilities.answered = true
        let slow = LinkProbe(roundTrip: 0.12, rate: 125_000)
        var report = await Doctor.report(environment: environment(["TERM": "xterm-kitty"]), network: false,
                                         terminal: .init(isTerminal: true, abilities: abilities, link: slow))
        XCTAssertEqual(report.check("Link")?.detail,
                       "measured 1.0 Mbit/s, 120 ms round trip; pictures are sized to what the session measures")
        report = await Doctor.report(environment: environment(["TERM": "xterm-kitty", "IMAGE_FEED_LINK": "fast"]), network: false,
                                     terminal: .init(isTerminal: true, abilities: abilities, link: slow))
        XCTAssertEqual(report.check("Link")?.detail.hasSuffix("link = fast (set by environment IMAGE_FEED_LINK): pictures at full resolution whatever the link"),
                       true, report.check("Link")?.detail ?? "")
        report = await Doctor.report(environment: environment(["TERM": "xterm-kitty"]), network: false,
                                     terminal: .init(isTerminal: true, abilities: abilities))
        XCTAssertEqual(report.check("Link")?.detail, "not measured (the terminal did not answer); link = auto")
    }

    func test_doctor_tmuxWithoutPassthrough_warnsWithTheTmuxSetting() async throws {
        let tmux = TmuxClient(passthrough: false, terminalName: "xterm-kitty", terminalType: "kitty(0.35.2)")
        let report = await Doctor.report(environment: environment(["TERM": "tmux-256color", "TMUX": "/tmp/tmux-0/default,1,0"]),
                                          network: false, terminal: .init(isTerminal: true, abilities: TerminalAbilities(), tmux: tmux))
        XCTAssertEqual(report.check("Pictures")?.status, .warning)
        XCTAssertEqual(report.check("Pictures")?.fix?.hasPrefix("set -g allow-passthrough on"), true)
        XCTAssertEqual(report.check("tmux")?.detail, "inside tmux, attached to xterm-kitty; allow-passthrough off")
    }

    func test_doctor_notUTF8_warnsWithTheLocaleFix() async throws {
        let report = await Doctor.report(environment: environment(["LANG": "C"]), network: false, terminal: .init(isTerminal: false))
        XCTAssertEqual(report.check("UTF-8")?.status, .warning)
        XCTAssertEqual(report.check("UTF-8")?.fix, "export LANG=C.UTF-8 (or another UTF-8 locale)")
    }
}
