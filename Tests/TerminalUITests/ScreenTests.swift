import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// The screens rendered into a cell buffer and compared with golden text.
final class ScreenTests: XCTestCase {
    func test_loading() {
        var state = AppState()
        _ = AppViewModel.update(&state, .start)
        XCTAssertEqual(render(state), [
            " 1 Feed   2 Search   3 Profile",
            "",
            "",
            "",
            "",
            "         | Loading the feed...",
            "",
            "",
            "",
            "",
            "",
            " ? help  q quit  Enter open  f like",
        ])
    }

    func test_content_showsCardsWithHeartAuthorDateAndCaption() {
        let state = loadedState([photo("a"), photo("b", liked: true, likes: 10, author: "Bo")])
        XCTAssertEqual(render(state, width: 60, height: 16), [
            " ImageFeed   1 Feed   2 Search   3 Profile             1/2+",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "> <3 3  Photo by Ann Author on Unsplash  21 Nov 2025",
            "",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            "  ########################################################",
            " ? help  q quit  Enter open  f like  r reload  Tab panes",
        ])
    }

    /// A wide terminal uses its width: the picture keeps to the left and its story is written beside it,
    /// with the selection bar next to the card (from 150 columns; from 200 the cards stand in a grid, `CardGridTests`).
    func test_wideTerminal_writesTheStoryBesideThePicture() {
        var square = photo("a", width: 400, height: 400, description: "A long description of the photo")
        square.altDescription = "a cat on a sofa"
        let state = loadedState([square, photo("b")])
        let lines = render(state, width: 170, height: 50)
        let story = lines.firstIndex { $0.contains("A long description of the photo") }
        XCTAssertNotNil(story, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("a cat on a sofa") })
        XCTAssertTrue(lines.contains { $0.contains("by Ann Author (@") })
        let row = lines[story ?? 1]
        let details = lines.firstIndex { $0.contains("Ann Author") && $0.contains("<3") }
        XCTAssertTrue(details.map { lines[$0].drop { $0 == " " }.hasPrefix(">") } == true, "the bar beside its details line")
        XCTAssertGreaterThan(row.distance(from: row.startIndex, to: row.range(of: "A long")!.lowerBound), 100,
                             "the story beside the picture, not under it\n\(row)")
        // Narrower terminals keep the picture centred with the details under it.
        XCTAssertFalse(render(state, width: 120, height: 40).contains { $0.contains("by Ann Author (@") })
    }

    func test_likeInFlight_showsSpinnerInsteadOfHeart() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "a")))
        let lines = render(state, width: 60, height: 16)
        XCTAssertEqual(lines[8], "> | 3  Photo by Ann Author on Unsplash  21 Nov 2025")
    }

    func test_likeFailure_showsTryAgainModal() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "a")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "a", liked: true, .failure(.server(status: 503)))))
        let lines = render(state, width: 60, height: 16)
        XCTAssertEqual(Array(lines[3...10]), [
            "  ########################################################",
            " +- Couldn't like the photo ------------------------------+",
            " |                                                        |",
            " | The photo service is having trouble (HTTP 503). Try    |",
            " | again?                                                 |",
            ">|                                                        |",
            " |               [ Try again ]  [ Cancel ]                |",
            " +--------------------------------------------------------+",
        ])
    }

    func test_firstPageError_saysWhatAndHowToRetry() {
        var state = AppState()
        _ = AppViewModel.update(&state, .start)
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .failure(.noConnection("cannot connect to api.unsplash.com")))))
        let text = render(state, width: 60, height: 16).joined(separator: "\n")
        XCTAssertTrue(text.contains("Couldn't load the feed"))
        XCTAssertTrue(text.contains("No connection to the photo service"))
        XCTAssertTrue(text.contains("Press r to try again."))
    }

    func test_loadingAndFailedPictures() {
        let state = loadedState([photo("a")])
        let pictures = StubPictures()
        pictures.slot = { _ in .loading(nil) }
        XCTAssertEqual(render(state, width: 60, height: 16, pictures: pictures)[4], "                             |")
        pictures.slot = { _ in .failed }
        XCTAssertEqual(render(state, width: 60, height: 16, pictures: pictures)[4], "                     Photo unavailable")
    }

    func test_nextPageRows_loadingAndError() {
        var state = loadedState([photo("a", width: 400, height: 50)])
        _ = AppViewModel.update(&state, .feed(.showedItem(index: 0)))
        XCTAssertEqual(render(state, width: 60, height: 16)[7], "  | Loading more photos...")
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 2, .failure(.server(status: 500)))))
        XCTAssertTrue(render(state, width: 60, height: 16).contains { $0.hasPrefix("  Couldn't load more: The photo service") })
    }

    func test_networkText_isShownInert() {
        let hostile = photo("a", author: "Eve\u{1B}]52;c;aGk=\u{07}\u{1B}[31m", description: "x\u{202E}gpj.exe\u{1B}[2J")
        let lines = render(loadedState([hostile]), width: 60, height: 16)
        XCTAssertEqual(lines[8], "> <3 3  Photo by Eve on Unsplash  21 Nov 2025  xgpj.exe")
        XCTAssertFalse(lines.joined().contains("\u{1B}"))
    }

    func test_viewer_fitsThePhotoAndCredits() {
        var state = loadedState([photo("a", width: 200, height: 100)])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        XCTAssertEqual(render(state, width: 40, height: 12), [
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
            "",
            // The heart gives way to the way out; the credit, down to 24 columns, too.
            " Photo by Ann Author on Uns~  Esc back",
        ])
    }

    func test_viewer_aClickHidesTheStatusLine_andThePhotoTakesTheWholeScreen() {
        var state = loadedState([photo("a", width: 100, height: 200)])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        var ui = UIState()
        let screen = AppFrame(theme: asciiTheme)
        XCTAssertEqual(screen.handle(.mouse(MouseEvent(x: 5, y: 5, kind: .press)), app: state, ui: &ui, width: 40, height: 12),
                       [.viewer(.toggleBar)])
        XCTAssertEqual(screen.handle(.key(.character("H")), app: state, ui: &ui, width: 40, height: 12), [.viewer(.toggleBar)])
        _ = AppViewModel.update(&state, .viewer(.toggleBar))
        var lines = render(state, width: 40, height: 12)
        XCTAssertEqual(lines.count, 12)
        XCTAssertEqual(lines[11], "              @@@@@@@@@@@@", "the photo reaches the last row, a column wider")
        XCTAssertFalse(lines.joined().contains("Photo by"))
        // What the user must see still shows: a notice comes with the line.
        _ = AppViewModel.update(&state, .viewer(.copied(CopyOutcome(said: "Copied", reached: true))))
        lines = render(state, width: 40, height: 12)
        XCTAssertTrue(lines[11].contains("Photo by Ann Author"), lines[11])
        _ = AppViewModel.update(&state, .viewer(.dismissNotice))
        _ = AppViewModel.update(&state, .viewer(.toggleBar))
        XCTAssertTrue(render(state, width: 40, height: 12)[11].contains("Photo by Ann Author"))
    }

    func test_viewer_b_cyclesTheCharacters_andSaysWhyNotWhenPhotosArePixels() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        var ui = UIState()
        XCTAssertEqual(AppFrame(theme: asciiTheme, blitter: .half).handle(.key(.character("b")), app: state, ui: &ui, width: 60, height: 16), [])
        XCTAssertEqual(ui.blitter, .quadrant)
        ui = UIState()
        let events = AppFrame(theme: asciiTheme, blitter: nil).handle(.key(.character("b")), app: state, ui: &ui, width: 60, height: 16)
        XCTAssertNil(ui.blitter)
        guard case let .viewer(.tell(text))? = events.first else { return XCTFail("b said nothing: \(events)") }
        XCTAssertTrue(text.contains("pixels"), text)
        for event in events { _ = AppViewModel.update(&state, event) }
        XCTAssertTrue(render(state, width: 60, height: 16)[14].hasPrefix(" b changes the characters"), "shown where the user looks")
    }

    func test_viewer_tallPhotoIsCentred() {
        var state = loadedState([photo("a", width: 100, height: 200)])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        let lines = render(state, width: 40, height: 12)
        XCTAssertEqual(lines[0], "              @@@@@@@@@@@")
        XCTAssertEqual(lines[10], "              @@@@@@@@@@@")
    }

    func test_viewer_noticeAndDownloadProgress() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        _ = AppViewModel.update(&state, .viewer(.download))
        _ = AppViewModel.update(&state, .viewer(.downloadProgress(photoID: "a", 0.5)))
        XCTAssertEqual(render(state, width: 60, height: 16)[14], " Downloading ##########.......... 50%")
        _ = AppViewModel.update(&state, .viewer(.downloadFinished(photoID: "a", .success("/home/u/Pictures/image-feed/ann-a.jpg"))))
        XCTAssertEqual(render(state, width: 60, height: 16)[14], " Saved ann-a.jpg in /home/u/Pictures/image-feed")
    }

    func test_tooSmall() {
        XCTAssertEqual(render(loadedState([photo("a")]), width: 30, height: 8), [
            "",
            "",
            "      Terminal too small",
            "    Needs 40x12, is 30x8.",
            "   Enlarge it, or press q.",
            "",
            "",
            "",
        ])
    }

    func test_searchPane_saysHowToSearch_profileLoads() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .selectTab(.search))
        XCTAssertTrue(render(state, width: 60, height: 16).contains { $0.contains("Search Unsplash's photos") })
        _ = AppViewModel.update(&state, .selectTab(.profile))
        XCTAssertTrue(render(state, width: 60, height: 16).contains { $0.contains("Loading your profile") })
    }

    func test_help_listsTheKeys() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .toggleHelp)
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Keys: the feed"))
        XCTAssertTrue(text.contains("details: description, place, camera, author"))
        // At 80x24 every line shows whole: no description is cut short.
        for (_, description) in HelpContent.lines(state) {
            XCTAssertTrue(text.contains(description), "cut short: \(description)\n\(text)")
        }
        XCTAssertTrue(text.contains("Ctrl-C"), "the last line fits too")
        // Every screen's lines fit beside their keys at 80 columns.
        for context in HelpContent.allContexts {
            for (keys, description) in HelpContent.lines(context) {
                XCTAssertLessThanOrEqual(DisplayWidth.of(description), 50, description)
                XCTAssertLessThanOrEqual(DisplayWidth.of(keys), 21, keys)
            }
        }
    }

    /// At 40x12 the help scrolls instead of clipping: the arrows move it, and the last line can be reached.
    func test_help_scrollsOnASmallTerminal() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .toggleHelp)
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        var text = render(state, ui: ui, width: 40, height: 12).joined(separator: "\n")
        XCTAssertTrue(text.contains("j more"), "at the top, more is below only\n\(text)")
        XCTAssertFalse(text.contains("quit from anywhere"), text)
        XCTAssertEqual(screen.handle(.key(.down), app: state, ui: &ui, width: 40, height: 12), [])
        text = render(state, ui: ui, width: 40, height: 12).joined(separator: "\n")
        XCTAssertTrue(text.contains("k/j more"), "between, both ways\n\(text)")
        for _ in 0..<80 { XCTAssertEqual(screen.handle(.key(.down), app: state, ui: &ui, width: 40, height: 12), []) }
        text = render(state, ui: ui, width: 40, height: 12).joined(separator: "\n")
        XCTAssertTrue(text.contains("Ctrl-C"), "the last line\n\(text)")
        XCTAssertTrue(text.contains("k more") && !text.contains("j more"), "at the end, more is above only\n\(text)")
        XCTAssertEqual(screen.handle(.key(.character("x")), app: state, ui: &ui, width: 40, height: 12), [.toggleHelp])
        XCTAssertEqual(ui.helpTop, 0)
    }

    func test_unicodeTheme_usesHeartsAndHalfBlocks() {
        let state = loadedState([photo("a", liked: true)])
        let lines = render(state, width: 60, height: 16, theme: unicodeTheme)
        XCTAssertTrue(lines[8].contains("♥ 3"), lines[8])
        XCTAssertTrue(lines[8].hasPrefix("▌"), "the selection beside the details line")
    }
}

