import Foundation
import ImageFeedApp
import UnsplashAPI
import TerminalUI
import TerminalImage
import TestSupport
import UnsplashSandbox
import XCTest

final class SettingsTests: XCTestCase {
    func test_defaults_withoutFileOrEnvironment() throws {
        let folder = try TemporaryFolder()
        let configuration = try Settings.load(environment: folder.environment)
        XCTAssertEqual(configuration.apiBase.absoluteString, "https://api.unsplash.com")
        XCTAssertEqual(configuration.oauthBase.absoluteString, "https://unsplash.com")
        XCTAssertNil(configuration.accessKey)
        XCTAssertEqual(configuration.redirectURI, "http://127.0.0.1:8765/callback")
        XCTAssertEqual(configuration.paths.tokenFile.path, folder.url.path + "/state/image-feed/token")
        XCTAssertEqual(configuration.configFile.path, folder.url.path + "/config/image-feed/config.toml")
    }

    func test_thePixelBudget_fromTheFile_theEnvironment_andItsErrors() throws {
        let folder = try TemporaryFolder()
        XCTAssertEqual(try Settings.load(environment: folder.environment).maximumImageMegapixels, 50)
        _ = try folder.write("max_image_megapixels = 120\n", to: "config/image-feed/config.toml")
        XCTAssertEqual(try Settings.load(environment: folder.environment).maximumImageMegapixels, 120)
        var environment = folder.environment
        environment["IMAGE_FEED_MAX_IMAGE_MEGAPIXELS"] = "8"
        XCTAssertEqual(try Settings.load(environment: environment).maximumImageMegapixels, 8)
        environment["IMAGE_FEED_MAX_IMAGE_MEGAPIXELS"] = "4611686018427387904"
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("from 1 to 400"), "\(error)")
        }
        _ = try folder.write("max_image_megapixels = 0\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            XCTAssertTrue("\(error)".contains("line 1, key max_image_megapixels"), "\(error)")
        }
    }

    func test_theLink_fromTheFile_theEnvironment_andItsErrors() throws {
        let folder = try TemporaryFolder()
        XCTAssertEqual(try Settings.load(environment: folder.environment).link, .auto)
        _ = try folder.write("link = \"slow\"\n", to: "config/image-feed/config.toml")
        XCTAssertEqual(try Settings.load(environment: folder.environment).link, .slow)
        var environment = folder.environment
        environment["IMAGE_FEED_LINK"] = "FAST"
        XCTAssertEqual(try Settings.load(environment: environment).link, .fast)
        environment["IMAGE_FEED_LINK"] = "dial-up"
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("not one of auto, fast, slow"), "\(error)")
        }
    }

    func test_theAnimations_fromTheFile_theEnvironment_andItsErrors() throws {
        let folder = try TemporaryFolder()
        XCTAssertEqual(try Settings.load(environment: folder.environment).animations, .hover, "the viewer's plays, as before")
        _ = try folder.write("animations = \"off\"\n", to: "config/image-feed/config.toml")
        let fromFile = try Settings.load(environment: folder.environment)
        XCTAssertEqual(fromFile.animations, .off)
        XCTAssertEqual(fromFile.origins["animations"]?.contains("line 1"), true)
        var environment = folder.environment
        environment["IMAGE_FEED_ANIMATIONS"] = "Safe"
        XCTAssertEqual(try Settings.load(environment: environment).animations, .safe)
        environment["IMAGE_FEED_ANIMATIONS"] = "sometimes"
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("not one of on, off, hover or safe"), "\(error)")
        }
    }

    /// Against another Imgur API (the standalone sandbox) the album covers are built where it keeps the files, not on
    /// Imgur's real host; IMGUR_IMAGE_BASE says otherwise.
    func test_imgurCovers_followTheAPIBase_unlessTheirOwnBaseIsSet() throws {
        let folder = try TemporaryFolder()
        XCTAssertEqual(try Settings.load(environment: folder.environment).imgurImageBase.absoluteString, "https://i.imgur.com")
        var environment = folder.environment
        environment["IMGUR_API_BASE"] = "http://127.0.0.1:8780"
        XCTAssertEqual(try Settings.load(environment: environment).imgurImageBase.absoluteString, "http://127.0.0.1:8780/imgur/i")
        environment["IMGUR_IMAGE_BASE"] = "http://127.0.0.1:9000/files"
        XCTAssertEqual(try Settings.load(environment: environment).imgurImageBase.absoluteString, "http://127.0.0.1:9000/files")
    }

    func test_theDemosFaults_fromTheEnvironment() throws {
        let folder = try TemporaryFolder()
        var environment = folder.environment
        environment["IMAGE_FEED_DEMO_FAULTS"] = "image=bomb photos=repeat"
        XCTAssertEqual(try Settings.load(environment: environment).demoFaults.map(\.kind), [.bomb, .repeat])
        environment["IMAGE_FEED_DEMO_FAULTS"] = "image=meltdown"
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            XCTAssertTrue("\(error)".contains("IMAGE_FEED_DEMO_FAULTS"), "\(error)")
        }
    }

    func test_writeCollections_isOffUnlessSet_inTheFileOrTheEnvironment() throws {
        let folder = try TemporaryFolder()
        XCTAssertFalse(try Settings.load(environment: folder.environment).unsplash.writeCollections)
        _ = try folder.write("write_collections = true\n", to: "config/image-feed/config.toml")
        XCTAssertTrue(try Settings.load(environment: folder.environment).unsplash.writeCollections)
        var environment = folder.environment
        environment["IMAGE_FEED_WRITE_COLLECTIONS"] = "no"
        XCTAssertFalse(try Settings.load(environment: environment).writeCollections)
        _ = try folder.write("write_collections = \"yes\"\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            XCTAssertTrue("\(error)".contains("expected true or false"), "\(error)")
        }
    }

    func test_file_isOverriddenByEnvironment_isOverriddenByFlags() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("""
            # my app
            access_key = "file-key"
            secret_key = "file-secret"
            api_base = "https://file.example.test"
            redirect_uri = "urn:ietf:wg:oauth:2.0:oob"
            """, to: "config/image-feed/config.toml")
        let fromFile = try Settings.load(environment: folder.environment)
        XCTAssertEqual(fromFile.accessKey, "file-key")
        XCTAssertEqual(fromFile.secretKey, "file-secret")
        XCTAssertEqual(fromFile.apiBase.absoluteString, "https://file.example.test")
        XCTAssertEqual(fromFile.redirectURI, "urn:ietf:wg:oauth:2.0:oob")

        var environment = folder.environment
        environment["UNSPLASH_ACCESS_KEY"] = "env-key"
        environment["IMAGE_FEED_API_BASE"] = "https://env.example.test"
        environment["IMAGE_FEED_TOKEN"] = "env-token"
        let fromEnvironment = try Settings.load(environment: environment)
        XCTAssertEqual(fromEnvironment.accessKey, "env-key")
        XCTAssertEqual(fromEnvironment.secretKey, "file-secret")
        XCTAssertEqual(fromEnvironment.apiBase.absoluteString, "https://env.example.test")
        XCTAssertEqual(fromEnvironment.tokenOverride, "env-token")

        let fromFlags = try Settings.load(environment: environment,
                                                  overrides: .init(apiBase: "http://127.0.0.1:9999"))
        XCTAssertEqual(fromFlags.apiBase.absoluteString, "http://127.0.0.1:9999")
    }

    func test_colors_fromTheFile_theEnvironment_andTheirErrors() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("colors = \"256\"\n", to: "config/image-feed/config.toml")
        XCTAssertEqual(try Settings.load(environment: folder.environment).colors, .palette256)
        var environment = folder.environment
        environment["IMAGE_FEED_COLORS"] = "truecolor"
        XCTAssertEqual(try Settings.load(environment: environment).colors, .truecolor)
        environment["IMAGE_FEED_COLORS"] = "auto"
        XCTAssertNil(try Settings.load(environment: environment).colors)
        _ = try folder.write("\ncolors = \"many\"\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            XCTAssertTrue(message.contains("\(file.path), line 2, key colors"), message)
            XCTAssertTrue(message.contains("auto, truecolor, 256, 16, 8, none"), message)
        }
    }

    func test_secretKeyInAFileOthersCanRead_isAWarning() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("access_key = \"a\"\nsecret_key = \"b\"\n", to: "config/image-feed/config.toml")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let exposed = try Settings.load(environment: folder.environment)
        XCTAssertEqual(exposed.warnings, ["chmod 600 \(file.path): it holds the secret key and other users can read it"])
        XCTAssertFalse(exposed.warnings.joined().contains("\"b\""))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        XCTAssertEqual(try Settings.load(environment: folder.environment).warnings, [])
        // Without the secret key in it, a readable file is nothing to warn about.
        try "access_key = \"a\"\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        XCTAssertEqual(try Settings.load(environment: folder.environment.merging(["UNSPLASH_SECRET_KEY": "b"]) { a, _ in a }).warnings, [])
    }

    func test_theme_andTheColorsTable() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("""
            theme = "light"

            [colors]
            mode = "256"
            heart = "#ff0000"
            selection = 33
            """, to: "config/image-feed/config.toml")
        let configuration = try Settings.load(environment: folder.environment)
        XCTAssertEqual(configuration.theme, .light)
        XCTAssertEqual(configuration.colors, .palette256)
        XCTAssertEqual(configuration.themeColors, [.heart: .rgb(RGB(255, 0, 0)), .selection: .index(33)])
        XCTAssertEqual(configuration.origins["colors"], "\(file.path), line 3")
        let overridden = try Settings.load(environment: folder.environment.merging(["IMAGE_FEED_THEME": "high-contrast"]) { a, _ in a })
        XCTAssertEqual(overridden.theme, .highContrast)

        for (text, expected) in [
            ("[colors]\nsparkle = \"#ffffff\"\n", "line 2, key colors.sparkle: unknown colour"),
            ("[colors]\nheart = \"red\"\n", "red is not a colour"),
            ("theme = \"sepia\"\n", "line 1, key theme: sepia is not one of dark, light, high-contrast"),
            ("[extras]\n", "the only sections are [colors] and [keys]"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Settings.load(environment: folder.environment), text) { error in
                XCTAssertEqual((error as? ConfigurationError)?.message.contains(expected), true, "\(error)")
            }
        }
    }

    func test_keysTable_rebindsIntents_andNamesMistakesWithTheirLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("""
            [keys]
            like = "x"
            viewer.zoom-in = "+ ="
            "feed.details" = "I"
            """, to: "config/image-feed/config.toml")
        let configuration = try Settings.load(environment: folder.environment)
        XCTAssertEqual(configuration.keyMap.intent(of: .character("x"), in: .feed), .like)
        XCTAssertEqual(configuration.keyMap.intent(of: .character("="), in: .viewer), .zoomIn)
        XCTAssertEqual(configuration.keyMap.intent(of: .character("I"), in: .feed), .details)

        for (text, expected) in [
            ("[keys]\nliek = \"x\"\n", "line 2, key keys.liek: unknown intent"),
            ("[keys]\nlike = \"x\"\nfeed.next = \"x\"\n", "line 3, key keys.feed.next: x is already the key of feed.like (in feed)."),
            ("[keys]\nlike = 7\n", "line 2, key keys.like: expected the keys in quotes"),
            ("[keys]\nlike = \"Hyper-X\"\n", "line 2, key keys.like: Hyper-X is not a key"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Settings.load(environment: folder.environment), text) { error in
                XCTAssertEqual((error as? ConfigurationError)?.message.contains(expected), true, "\(error)")
            }
        }
    }

    func test_badFile_namesFileLineAndKey() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("access_key = \"k\"\n\nsecret_key = 42\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            XCTAssertTrue(message.contains(file.path), message)
            XCTAssertTrue(message.contains("line 3"), message)
            XCTAssertTrue(message.contains("secret_key"), message)
        }
    }

    func test_unknownKey_isNamedWithItsLine() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("access_key = \"k\"\nacess_key = \"typo\"\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            XCTAssertTrue(message.contains("line 2, key acess_key"), message)
            XCTAssertTrue(message.contains("access_key"), "lists the known settings: \(message)")
        }
    }

    func test_syntaxError_namesFileAndLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("access_key = \"k\"\nsecret_key = \"unterminated\n", to: "config/image-feed/config.toml")
        XCTAssertThrowsError(try Settings.load(environment: folder.environment)) { error in
            let message = (error as? ConfigurationError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix(file.path + ", line 2"), message)
        }
    }

    func test_plainHTTPToARemoteHost_isRefused() throws {
        let folder = try TemporaryFolder()
        var environment = folder.environment
        environment["IMAGE_FEED_API_BASE"] = "http://api.unsplash.com"
        XCTAssertThrowsError(try Settings.load(environment: environment)) { error in
            XCTAssertTrue(((error as? ConfigurationError)?.message ?? "").contains("plain http"))
        }
        XCTAssertThrowsError(try Settings.load(environment: folder.environment,
                                                       overrides: .init(apiBase: "http://192.168.1.2:8080")))
    }

    func test_configFileFlag_andEnvironmentVariable_chooseTheFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("access_key = \"elsewhere\"\n", to: "other.toml")
        var environment = folder.environment
        environment["IMAGE_FEED_CONFIG"] = file.path
        XCTAssertEqual(try Settings.load(environment: environment).accessKey, "elsewhere")
        XCTAssertEqual(try Settings.load(environment: folder.environment,
                                                 overrides: .init(configFile: file.path)).accessKey, "elsewhere")
    }

    func test_relativeXDGPaths_areIgnored() {
        let paths = XDGPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative/dir"])
        XCTAssertEqual(paths.config.path, "/home/u/.config/image-feed")
        XCTAssertEqual(paths.state.path, "/home/u/.local/state/image-feed")
        XCTAssertEqual(paths.cache.path, "/home/u/.cache/image-feed")
    }

    /// What the config file may hold is checked before the TOML parser: the usual forms pass, the rest is
    /// named with its line.
    func test_fileSyntax_acceptsTheUsualFormsAndNamesTheRest() throws {
        let file = URL(fileURLWithPath: "/c.toml")
        let fine = """
        \u{FEFF}# settings
        access_key = "a\\b \\u00e9 \\"q\\"" # comment
        "secret_key" = 'C:\\raw'\r
          image_cache_mb = 1_000
        cache_max_age_days = 2.5e0

        """
        XCTAssertNoThrow(try Settings.parse(fileText: fine, file: file, environment: [:]))
        let configuration = try Settings.parse(fileText: fine, file: file, environment: [:])
        XCTAssertEqual(configuration.accessKey, "a\u{8} é \"q\"") // \\b is a backspace in TOML
        XCTAssertEqual(configuration.secretKey, "C:\\raw")
        XCTAssertEqual(configuration.imageCacheMegabytes, 1_000)

        let refused: [(String, String)] = [
            ("a = 1\n[section]\n", "line 2: the only sections are [colors] and [keys]"),
            ("[[colors]]\n", "line 1: the only sections"),
            ("access_key = \"\"\"multi\n\"\"\"\n", "multi-line strings"),
            ("access_key = [1, 2]\n", "expected a value in quotes"),
            ("access_key = \"open\n", "a string is not closed"),
            ("access_key = \"bad \\q\"\n", "an unknown escape"),
            ("access_key \"x\"\n", "expected `=`"),
            ("= \"x\"\n", "expected a setting's name"),
            ("image_cache_mb = 1__0\n", "expected a value"),
            ("access_key = \"x\" y\n", "unexpected text after the value"),
        ]
        for (text, expected) in refused {
            XCTAssertThrowsError(try Settings.parse(fileText: text, file: file, environment: [:]), text) { error in
                let message = (error as? ConfigurationError)?.message ?? ""
                XCTAssertTrue(message.contains(expected) && message.contains("line "), "\(text): \(error)")
            }
        }
    }
}
