import Foundation
import ImageFeedApp
import ImageFeedCore
import LocalStore
import UnsplashSandbox
import TerminalImage
import TestSupport
import XCTest

/// The `image-feed` binary's JSON commands, run as a script would run them, against the sandbox.
final class CommandLineTests: XCTestCase {
    var sandbox: RunningSandbox!
    var folder: TemporaryFolder!

    override func setUp() async throws {
        TestWatchdog.install(current: self)
        sandbox = try await RunningSandbox.start(try SandboxServer())
        folder = try TemporaryFolder()
    }

    override func tearDown() async throws {
        await sandbox.stop()
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String

        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        }
    }

    /// The environment of a user with the sandbox's access key and a private home.
    var sandboxEnvironment: [String: String] {
        var environment = folder.environment
        environment["UNSPLASH_ACCESS_KEY"] = SandboxSettings.demoAccessKey
        environment["IMAGE_FEED_API_BASE"] = sandbox.baseURL.absoluteString
        return environment
    }

    static var executable: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("image-feed"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("image-feed"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/image-feed"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    func run(_ arguments: [String], environment: [String: String]) async throws -> Outcome {
        let outcome = try Tool.execute([Self.executable.path] + arguments, environment: environment.merging(
            ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { own, _ in own }, timeout: 120)
        return Outcome(status: outcome.status, stdout: outcome.text, stderr: outcome.errorText)
    }

    /// `render` for previewers in terminals that show pixels: the Kitty transmission shows the photo at the
    /// cursor over the cells asked for, and the Sixel decodes to a picture of those cells' pixels.
    /// An animation plays in place where asked (a terminal, or `--animate on`); a pipe gets its first frame.
    func test_render_playsAnAnimation_inEveryMode_andAPipeGetsTheFirstFrame() async throws {
        let gif = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/rocket.gif").path
        let still = try await run(["render", gif, "--cols", "40", "--rows", "10"], environment: [:])
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertFalse(still.stdout.contains("\u{1B}[?25l"), "a pipe: the first frame, as render draws a picture")
        XCTAssertEqual(still.stdout.components(separatedBy: "\n").count - 1, 10)
        // Characters, paced: each frame over the last (cursor up the picture's rows), only the rows that changed.
        let cells = try await run(["render", gif, "--cols", "40", "--rows", "10", "--animate", "on", "--loops", "1"], environment: [:])
        XCTAssertEqual(cells.status, 0, cells.stderr)
        XCTAssertEqual(cells.stdout.components(separatedBy: "\r\u{1B}[10A").count - 1, 19, "20 frames: 19 drawn over the first")
        XCTAssertTrue(cells.stdout.hasPrefix("\u{1B}[?25l") && cells.stdout.hasSuffix("\u{1B}[?25h"), "the cursor hides, and comes back")
        XCTAssertLessThan(cells.stdout.utf8.count, still.stdout.utf8.count * 20, "unchanged rows are stepped over")
        // Kitty graphics: every frame once, then the terminal plays it; --loops 2 is two plays.
        let kitty = try await run(["render", gif, "--cols", "40", "--rows", "10", "--graphics", "kitty", "--cell-size", "9x18",
                                   "--animate", "on", "--loops", "2"], environment: [:])
        XCTAssertEqual(kitty.status, 0, kitty.stderr)
        let commands = KittyGraphics.commands(in: Array(kitty.stdout.utf8))
        XCTAssertEqual(commands.filter { $0["a"] == "f" }.count, 19)
        XCTAssertEqual(commands.first?["a"], "T")
        XCTAssertEqual(commands.last?["s"], "3")
        XCTAssertEqual(commands.last?["v"], "3", "kitty counts one more than the plays")
        // Sixel, paced: a Sixel a frame (the duration cuts it short). How many frames fit in the half second depends on
        // how fast this machine encodes them now; on a clock of its own, AnimationPacingTests counts them exactly.
        let sixel = try await run(["render", gif, "--cols", "40", "--rows", "10", "--graphics", "sixel", "--cell-size", "9x18",
                                   "--animate", "on", "--duration", "0.5"], environment: [:])
        XCTAssertEqual(sixel.status, 0, sixel.stderr)
        let frames = sixel.stdout.components(separatedBy: "\u{1B}Pq").count - 1
        XCTAssertGreaterThanOrEqual(frames, 1)
        XCTAssertLessThanOrEqual(frames, 8, "80 ms frames for half a second")
        // iTerm2: the GIF as it came.
        let iterm = try await run(["render", gif, "--cols", "40", "--rows", "10", "--graphics", "iterm2", "--animate", "on"], environment: [:])
        XCTAssertEqual(ITerm2Images.files(in: Array(iterm.stdout.utf8)).first?.file,
                       try Data(contentsOf: URL(fileURLWithPath: gif)))
        // A video: its first frame in a pipe.
        let video = try await run(["render", EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/hubble.mp4").path,
                                   "--cols", "40", "--rows", "10"], environment: [:])
        XCTAssertEqual(video.status, 0, video.stderr)
        XCTAssertEqual(video.stdout.components(separatedBy: "\n").count - 1, 10)
        let bad = try await run(["render", gif, "--animate", "sideways"], environment: [:])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--animate is on, off or safe"), bad.stderr)
    }

    /// A previewer runs `render` once per file: FFmpeg, libcurl and libtiff (with the libraries they bring) are loaded
    /// when a video, a request or a TIFF needs them, never at the start; a video still plays, loading FFmpeg then,
    /// and a TIFF is drawn, loading libtiff then.
    func test_render_ofAPhoto_loadsNeitherFFmpegNorCurlNorLibtiff_andAVideoOrTIFFLoadsTheirs() async throws {
        let photo = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/photos/coffee.jpg").path
        let still = try await run(["render", photo, "--cols", "20", "--rows", "5"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertTrue(still.stderr.contains("libjpeg"), "the loader's list of libraries was read")
        XCTAssertFalse(still.stderr.contains("libavformat"), "FFmpeg was loaded for a photo")
        XCTAssertFalse(still.stderr.contains("libcurl"), "libcurl was loaded for a file")
        XCTAssertFalse(still.stderr.contains("libtiff"), "libtiff was loaded for a JPEG")
        let video = try await run(["render", EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/animations/hubble.mp4").path,
                                   "--cols", "20", "--rows", "5"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(video.status, 0, String(video.stderr.suffix(2_000)))
        XCTAssertTrue(video.stderr.contains("libavformat"), "a video loads FFmpeg")
        let tiff = try await run(["render", EndToEndTestCase.repositoryRoot.appendingPathComponent("Tests/TerminalImageTests/Formats/lzw.tif").path,
                                  "--cols", "20", "--rows", "5"], environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(tiff.status, 0, String(tiff.stderr.suffix(2_000)))
        XCTAssertTrue(tiff.stderr.contains("libtiff"), "a TIFF loads libtiff")
        XCTAssertGreaterThanOrEqual(tiff.stdout.components(separatedBy: "\n").count - 1, 2, "the TIFF is drawn")
    }

    func test_render_inKittyGraphicsAndSixel() async throws {
        let photo = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/photos/coffee.jpg").path
        let kitty = try await run(["render", photo, "--cols", "30", "--rows", "10", "--graphics", "kitty", "--cell-size", "9x18"],
                                  environment: [:])
        XCTAssertEqual(kitty.status, 0, kitty.stderr)
        let commands = KittyGraphics.commands(in: Array(kitty.stdout.utf8))
        XCTAssertEqual(commands.count, 1)
        XCTAssertEqual(commands.first?["a"], "T")
        XCTAssertEqual(commands.first?.int("c"), 30, "600x400 in 30x10 cells of 9x18: the width fills")
        XCTAssertEqual(commands.first?.int("r"), 10)
        XCTAssertEqual(commands.first?.payload.count, 270 * 180 * 3)
        let sixel = try await run(["render", photo, "--cols", "30", "--rows", "10", "--graphics", "sixel", "--cell-size", "9x18"],
                                  environment: [:])
        XCTAssertEqual(sixel.status, 0, sixel.stderr)
        let decoded = try XCTUnwrap(SixelEncoder.decode(Array(sixel.stdout.utf8.dropLast())))
        XCTAssertEqual(decoded.width, 270)
        XCTAssertEqual(decoded.height, 180)
        // iTerm2's images (iTerm2, WezTerm): a JPEG the terminal stretches over the cells it names; `auto` picks them
        // where the environment says WezTerm.
        for arguments in [["--graphics", "iterm2"], ["--graphics", "auto"]] {
            let inline = try await run(["render", photo, "--cols", "30", "--rows", "10", "--cell-size", "9x18"] + arguments,
                                       environment: ["TERM_PROGRAM": "WezTerm"])
            XCTAssertEqual(inline.status, 0, inline.stderr)
            XCTAssertTrue(inline.stdout.hasPrefix("\u{1B}]1337;File=inline=1;"), "\(arguments): \(inline.stdout.prefix(40))")
            XCTAssertTrue(inline.stdout.contains(";width=30;height=10;"), String(inline.stdout.prefix(80)))
        }
        let bad = try await run(["render", photo, "--graphics", "vt100"], environment: [:])
        XCTAssertNotEqual(bad.status, 0)
    }

    /// `render` reads a previewer's well-formed arguments itself (the command-line library's reflection cost more than
    /// the picture); what it leaves to the library (an option given twice) draws the same bytes, and help and every
    /// mistake are the library's, with its usage line.
    func test_render_readsItsArgumentsItself_asTheLibraryWould() async throws {
        let photo = EndToEndTestCase.repositoryRoot.appendingPathComponent("Assets/photos/coffee.jpg").path
        let quick = try await run(["render", photo, "--cols=20", "--rows", "5", "--colors", "256"], environment: [:])
        XCTAssertEqual(quick.status, 0, quick.stderr)
        let library = try await run(["render", "--colors", "16", "--colors", "256", photo, "--rows", "5", "--cols", "20"], environment: [:])
        XCTAssertEqual(library.status, 0, library.stderr)
        XCTAssertEqual(quick.stdout, library.stdout)
        XCTAssertEqual(quick.stdout.components(separatedBy: "\n").count - 1, 5)
        let help = try await run(["render", "--help"], environment: [:])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.contains("image-feed render <source>"), help.stdout)
        for (arguments, said) in [(["--cols", "0"], "--cols must be 1 to 2000."), (["--cols", "-3"], "--cols"),
                                  (["--colour", "256"], "Unknown option '--colour'"), (["--loops", "many"], "--loops")] {
            let wrong = try await run(["render", photo] + arguments, environment: [:])
            XCTAssertEqual(wrong.status, 64, "\(arguments)")
            XCTAssertTrue(wrong.stderr.contains(said), "\(arguments): \(wrong.stderr)")
            XCTAssertTrue(wrong.stderr.contains("Usage: image-feed render"), "\(arguments): \(wrong.stderr)")
            XCTAssertTrue(wrong.stdout.isEmpty)
        }
        // A file that is not there is the program's to say, quickly read or not.
        let missing = try await run(["render", "/nonexistent/photo.jpg", "--cols", "20"], environment: [:])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("image-feed: "), missing.stderr)
    }

    /// A mistyped command is named, with the one meant, as a mistyped option is.
    func test_aMistypedCommand_getsASuggestion() async throws {
        let outcome = try await run(["serach", "cat"], environment: folder.environment)
        XCTAssertEqual(outcome.status, 64)
        XCTAssertTrue(outcome.stderr.contains("'serach' is not a command. Did you mean 'search'?"), outcome.stderr)
        let far = try await run(["zzzzzz"], environment: folder.environment)
        XCTAssertEqual(far.status, 64)
        XCTAssertTrue(far.stderr.contains("they are: browse, login"), far.stderr)
    }

    func test_version_longAndShort() async throws {
        for flag in ["--version", "-V"] {
            let outcome = try await run([flag], environment: [:])
            XCTAssertEqual(outcome.status, 0, outcome.stderr)
            XCTAssertEqual(outcome.stdout, "\(ImageFeedVersion.line)\n", flag)
        }
        XCTAssertTrue(ImageFeedVersion.line.hasPrefix("image-feed "))
    }

    func test_doctor_jsonForScripts_andStatusOneWhenBlocked() async throws {
        let fine = try await run(["doctor", "--json"], environment: sandboxEnvironment)
        XCTAssertEqual(fine.status, 0, fine.stdout + fine.stderr)
        let report = try XCTUnwrap(try fine.json() as? [String: Any])
        XCTAssertEqual(report["blocked"] as? Bool, false)
        let checks = try XCTUnwrap(report["checks"] as? [[String: Any]])
        XCTAssertTrue(checks.contains { $0["name"] as? String == "Unsplash API" && $0["status"] as? String == "ok" })
        XCTAssertFalse(fine.stdout.contains(SandboxSettings.demoAccessKey))

        var broken = sandboxEnvironment
        broken["IMAGE_FEED_COLORS"] = "millions"
        let blocked = try await run(["doctor"], environment: broken)
        XCTAssertEqual(blocked.status, 1)
        XCTAssertTrue(blocked.stdout.contains("FAIL"), blocked.stdout)
        XCTAssertTrue(blocked.stdout.contains("IMAGE_FEED_COLORS: millions is not one of"), blocked.stdout)
    }

    func test_feed_printsPagesAsOneListing() async throws {
        let outcome = try await run(["feed", "--pages", "2", "--per-page", "5"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let listing = try XCTUnwrap(try outcome.json() as? [String: Any])
        XCTAssertEqual(listing["page"] as? Int, 1)
        XCTAssertEqual(listing["per_page"] as? Int, 5)
        XCTAssertEqual(listing["next_page"] as? Int, 3)
        XCTAssertEqual(listing["skipped"] as? Int, 0)
        let photos = try XCTUnwrap(listing["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.count, 10)
        XCTAssertEqual(Set(photos.compactMap { $0["id"] as? String }).count, 10)
        XCTAssertNotNil(photos[0]["urls"] as? [String: Any])
        XCTAssertNotNil(photos[0]["created_at"] as? String)
    }

    func test_photo_printsOnePhoto() async throws {
        let id = sandbox.server.catalog.feed[6].id
        let outcome = try await run(["photo", id], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let photo = try XCTUnwrap(try outcome.json() as? [String: Any])
        XCTAssertEqual(photo["id"] as? String, id)
        XCTAssertNotNil(photo["exif"])
    }

    func test_search_printsAPageOfResults() async throws {
        let outcome = try await run(["search", "coffee", "--order-by", "latest", "--per-page", "3"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let page = try XCTUnwrap(try outcome.json() as? [String: Any])
        XCTAssertEqual((page["photos"] as? [Any])?.count, 3)
        XCTAssertEqual(page["next_page"] as? Int, 2)
        XCTAssertNotNil(page["total"] as? Int)
    }

    func test_exploringCommands_printPhotographersTopicsAndCollections() async throws {
        var outcome = try await run(["user", "stefan"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let user = try XCTUnwrap(try outcome.json() as? [String: Any])
        XCTAssertEqual(user["username"] as? String, "stefan")
        XCTAssertEqual(user["total_collections"] as? Int, 2)
        outcome = try await run(["user", "stefan", "--photos", "--order-by", "popular", "--per-page", "2"], environment: sandboxEnvironment)
        let photos = try XCTUnwrap((try outcome.json() as? [String: Any])?["photos"] as? [[String: Any]])
        XCTAssertEqual(photos.count, 2)
        XCTAssertGreaterThanOrEqual(photos[0]["likes"] as? Int ?? 0, photos[1]["likes"] as? Int ?? 0)
        outcome = try await run(["user", "stefan", "--collections"], environment: sandboxEnvironment)
        let collections = try XCTUnwrap((try outcome.json() as? [String: Any])?["collections"] as? [[String: Any]])
        XCTAssertEqual(collections.compactMap { $0["id"] as? String }, ["grey-scale", "cat-and-clock"])
        outcome = try await run(["topics"], environment: sandboxEnvironment)
        let topics = try XCTUnwrap((try outcome.json() as? [String: Any])?["topics"] as? [[String: Any]])
        XCTAssertTrue(topics.contains { $0["slug"] as? String == "film" })
        outcome = try await run(["topic", "film", "--per-page", "3"], environment: sandboxEnvironment)
        XCTAssertEqual(((try outcome.json() as? [String: Any])?["photos"] as? [Any])?.count, 3)
        outcome = try await run(["collection", "grey-scale", "--photos"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        outcome = try await run(["search", "space", "--orientation", "landscape", "--color", "blue"], environment: sandboxEnvironment)
        let filtered = try XCTUnwrap((try outcome.json() as? [String: Any])?["photos"] as? [[String: Any]])
        XCTAssertTrue(filtered.allSatisfy { ($0["width"] as? Int ?? 0) > ($0["height"] as? Int ?? 0) }, "landscape only")
        outcome = try await run(["search", "space", "--users"], environment: sandboxEnvironment)
        XCTAssertEqual(((try outcome.json() as? [String: Any])?["users"] as? [Any])?.count, 2)
        outcome = try await run(["search", "space", "--color", "mauve"], environment: sandboxEnvironment)
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stderr.contains("--color is one of"), outcome.stderr)
        outcome = try await run(["user", "nobody-at-all"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("No user nobody-at-all."), outcome.stderr)
    }

    func test_albumsAndAlbum_printImgursAlbumsAndPhotos() async throws {
        var environment = sandboxEnvironment
        environment["IMGUR_CLIENT_ID"] = SandboxSettings.demoImgurClientID
        environment["IMGUR_API_BASE"] = sandbox.baseURL.absoluteString
        let outcome = try await run(["albums", "labs"], environment: environment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let page = try XCTUnwrap(try outcome.json() as? [String: Any])
        let albums = try XCTUnwrap(page["albums"] as? [[String: Any]])
        XCTAssertEqual(albums.count, 2)
        XCTAssertEqual(albums[0]["photo_count"] as? Int, 4)
        XCTAssertNil(albums[1]["cover_url"], "Picks has no cover: the field is left out")
        let id = try XCTUnwrap(albums[0]["id"] as? String)

        let photos = try await run(["album", id], environment: environment)
        XCTAssertEqual(photos.status, 0, photos.stderr)
        let album = try XCTUnwrap(try photos.json() as? [String: Any], "album prints the listing's shape, as albums does")
        XCTAssertEqual((album["photos"] as? [[String: Any]])?.count, 4)
        XCTAssertEqual(album["page"] as? Int, 1)
        XCTAssertNil(album["next_page"])

        let unknown = try await run(["albums", "nobody"], environment: environment)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertEqual(unknown.stderr, "image-feed: No Imgur user nobody.\n")
        let unconfigured = try await run(["albums", "labs"], environment: sandboxEnvironment)
        XCTAssertEqual(unconfigured.status, 1)
        XCTAssertTrue(unconfigured.stderr.contains("IMGUR_CLIENT_ID"), unconfigured.stderr)
    }

    func test_me_withToken_printsTheProfile() async throws {
        var environment = sandboxEnvironment
        environment["IMAGE_FEED_TOKEN"] = sandbox.server.state.issueToken(username: "demo")
        let outcome = try await run(["me"], environment: environment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertEqual((try outcome.json() as? [String: Any])?["username"] as? String, "demo")
    }

    func test_me_withoutLogin_failsWithAMessage() async throws {
        let outcome = try await run(["me"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("Not logged in"), outcome.stderr)
        XCTAssertTrue(outcome.stdout.isEmpty)
    }

    func test_me_withRevokedToken_saysTheSessionExpired() async throws {
        var environment = sandboxEnvironment
        environment["IMAGE_FEED_TOKEN"] = "revoked-or-never-issued"
        let outcome = try await run(["me"], environment: environment)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("session has expired"), outcome.stderr)
    }

    func test_serviceErrors_goToStderrWithNonZeroStatus() async throws {
        sandbox.server.state.setFaults([try FaultRule(parsing: "photos=status:503")])
        let outcome = try await run(["feed"], environment: sandboxEnvironment)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("image-feed: "), outcome.stderr)
        XCTAssertTrue(outcome.stderr.contains("HTTP 503"), outcome.stderr)
        let missing = try await run(["photo", "no-such-photo"], environment: sandboxEnvironment)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("Not found"), missing.stderr)
    }

    func test_withoutAccessKey_saysWhatToConfigure() async throws {
        let outcome = try await run(["feed"], environment: folder.environment)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("UNSPLASH_ACCESS_KEY"), outcome.stderr)
    }

    func test_badConfigFile_isNamedInTheError() async throws {
        let file = try folder.write("access_key = [1, 2]\n", to: "config/image-feed/config.toml")
        let outcome = try await run(["feed"], environment: folder.environment)
        XCTAssertNotEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stderr.contains("\(file.path), line 1, key access_key"), outcome.stderr)
    }

    func test_demo_runsOnItsOwnSandboxAndLogsIn() async throws {
        let feed = try await run(["feed", "--demo", "--per-page", "3"], environment: folder.environment)
        XCTAssertEqual(feed.status, 0, feed.stderr)
        XCTAssertEqual(((try feed.json() as? [String: Any])?["photos"] as? [Any])?.count, 3)
        let me = try await run(["me", "--demo"], environment: folder.environment)
        XCTAssertEqual(me.status, 0, me.stderr)
        XCTAssertEqual((try me.json() as? [String: Any])?["username"] as? String, "demo")
        let stateFolder = folder.url.appendingPathComponent("state/image-feed")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? []
        XCTAssertEqual(kept, ["image-feed.log"], "the demo's commands store no token (only the log)")

        // `login --demo` logs in as the full-screen demo does and keeps the token for it (owner-only); `logout --demo`
        // removes it.
        let login = try await run(["login", "--demo"], environment: folder.environment)
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertTrue(login.stdout.contains("Logged in to the demo as @demo"), login.stdout)
        let token = stateFolder.appendingPathComponent("demo-token")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: token.path)[.posixPermissions] as? Int, 0o600)
        let logout = try await run(["logout", "--demo"], environment: folder.environment)
        XCTAssertEqual(logout.status, 0, logout.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: token.path))
    }

    func test_browse_listsTheFeedAsText() async throws {
        let outcome = try await run(["--demo"], environment: folder.environment)
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        XCTAssertTrue(outcome.stdout.contains("Chelsea the cat"), outcome.stdout)
        XCTAssertFalse(outcome.stdout.contains("\u{1B}"))
    }

    func test_cacheInfo_andClear() async throws {
        let empty = try await run(["cache", "info"], environment: sandboxEnvironment)
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stdout.contains("Nothing is cached yet."), empty.stdout)

        // The feed command goes through the client only; the store is filled by a browsing session, so
        // fill it as the app does.
        let store = try SQLiteStore(file: folder.url.appendingPathComponent("cache/image-feed/store.sqlite"))
        try store.saveList(.feed, photos: [Photo(id: "a"), Photo(id: "b")], note: nil, timestamp: Date())
        try store.saveList(.search, photos: [Photo(id: "c")], note: "cats", timestamp: Date())
        let info = try await run(["cache", "info"], environment: sandboxEnvironment)
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("Feed: 2 photos, saved"), info.stdout)
        XCTAssertTrue(info.stdout.contains("Last search: \"cats\", 1 photo, saved"), info.stdout)
        XCTAssertTrue(info.stdout.contains("Favorites: none"), info.stdout)
        XCTAssertTrue(info.stdout.contains("Max age: 7 days"), info.stdout)

        let clear = try await run(["cache", "clear"], environment: sandboxEnvironment)
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertNil(try store.loadList(.feed))

        // The demo's cache is apart: asked about "the cache", the command says where it is.
        let demoStore = try SQLiteStore(file: folder.url.appendingPathComponent("cache/image-feed/demo/store.sqlite"))
        try demoStore.saveList(.feed, photos: [Photo(id: "d")], note: nil, timestamp: Date())
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("cache/image-feed/store.sqlite"))
        let elsewhere = try await run(["cache", "info"], environment: sandboxEnvironment)
        XCTAssertTrue(elsewhere.stdout.contains("Nothing is cached yet."), elsewhere.stdout)
        XCTAssertTrue(elsewhere.stdout.contains("The demo's cache is apart: ") && elsewhere.stdout.contains("(image-feed cache info --demo)"),
                      elsewhere.stdout)
        let nothing = try await run(["cache", "clear"], environment: sandboxEnvironment)
        XCTAssertTrue(nothing.stdout.contains("image-feed cache clear --demo"), nothing.stdout)
        let demo = try await run(["cache", "info", "--demo"], environment: sandboxEnvironment)
        XCTAssertTrue(demo.stdout.contains("Feed: 1 photo, saved"), demo.stdout)
        XCTAssertFalse(demo.stdout.contains("Z ("), "local times, not UTC: \(demo.stdout)")
    }
}
