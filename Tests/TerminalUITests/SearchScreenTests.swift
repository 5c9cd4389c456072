import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// The search pane and the detail screen, rendered into a cell buffer.
final class SearchScreenTests: XCTestCase {
    func searched(_ photos: [Photo], layout: SearchLayout = .grid, total: Int? = nil) -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.search))
        _ = AppViewModel.update(&state, .focusSearch)
        _ = AppViewModel.update(&state, .search(.typed("cats")))
        _ = AppViewModel.update(&state, .search(.submit))
        let page = Page(items: photos, number: 1, perPage: 30, totalItems: total ?? photos.count, nextPage: nil)
        _ = AppViewModel.update(&state, .search(.answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(page)))))
        if layout == .single { _ = AppViewModel.update(&state, .search(.toggleLayout)) }
        return state
    }

    func test_nothingFoundWithFilters_saysTheFiltersMayBeWhy_andPeopleKeepTheirSummaryWhole() {
        var state = AppState()
        _ = AppViewModel.update(&state, .searchFor("cats"))
        _ = AppViewModel.update(&state, .search(.cycleOrientation))
        _ = AppViewModel.update(&state, .search(.answer(query: "cats", order: .relevant, filters: SearchFilters(orientation: .landscape),
                                                        .pageLoaded(page: 1, .success(Page(items: [], number: 1, perPage: 30, nextPage: nil))))))
        var text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("The filters (landscape) may be why: O C W change them"), text)
        _ = AppViewModel.update(&state, .search(.cycleKind))
        _ = AppViewModel.update(&state, .search(.peopleFound(query: "cats", page: 1, .success(Page(items: [], number: 1, perPage: 30, nextPage: nil)))))
        text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("cats\": 0  (m: collections)"), "no room kept for filters people do not have\n\(text)")
    }

    func test_beforeSearching_saysHow_andListsEarlierQueries() {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.search))
        _ = AppViewModel.update(&state, .search(.historyLoaded(["cats", "dogs"])))
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("press / to search"), text)
        XCTAssertTrue(text.contains("Earlier: cats, dogs"), text)
    }

    func test_grid_showsTwoColumnsOfTiles_withCaptionLikesAndAuthor() {
        let lines = render(searched([photo("a"), photo("b", liked: true, likes: 9, author: "Bo"), photo("c")], total: 3),
                           width: 80, height: 30)
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("3 photos for \"cats\", by relevance"), text)
        XCTAssertTrue(text.contains("sort: relevance (s)"), text)
        XCTAssertTrue(text.contains("2 columns (v)"), text)
        let tileLine = try? XCTUnwrap(lines.first { $0.contains("<3 3  by Ann Author on Unsplash") && $0.contains("<3 9  by Bo on Unsplash") })
        XCTAssertNotNil(tileLine, "two tiles side by side\n\(text)")
    }

    func test_singleColumn_showsOneTilePerRow() {
        let lines = render(searched([photo("a"), photo("b", author: "Bo")], layout: .single), width: 80, height: 30)
        XCTAssertTrue(lines.contains { $0.contains("1 column (v)") })
        XCTAssertFalse(lines.contains { $0.contains("Ann Author") && $0.contains("Bo") }, lines.joined(separator: "\n"))
    }

    func test_emptyResults_sayThereAreNone() {
        let text = render(searched([]), width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("No photos found for \"cats\"."), text)
    }

    func test_searching_andFailure() {
        var state = AppState()
        _ = AppViewModel.update(&state, .focusSearch)
        _ = AppViewModel.update(&state, .search(.typed("cats")))
        _ = AppViewModel.update(&state, .search(.submit))
        XCTAssertTrue(render(state, width: 80, height: 24).contains { $0.contains("Searching...") })
        _ = AppViewModel.update(&state, .search(.answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .failure(.server(status: 500))))))
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Couldn't search"), text)
        XCTAssertTrue(text.contains("Press r to try again."), text)
    }

    func test_suggestions_dropDownUnderTheField() {
        var state = AppState()
        _ = AppViewModel.update(&state, .search(.historyLoaded(["The Score", "Scorpions", "underscore", "cats"])))
        _ = AppViewModel.update(&state, .focusSearch)
        _ = AppViewModel.update(&state, .search(.typed("scor")))
        let lines = render(state, width: 80, height: 24)
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(lines[2].contains("Earlier"), text)
        XCTAssertEqual(lines[3...5].map { $0.trimmingCharacters(in: .whitespaces) },
                       ["| The Score            |", "| Scorpions            |", "| underscore           |"], text)
        XCTAssertTrue(lines[6].contains("+---"), "three matches, not \"cats\"\n\(text)")
    }

    func test_detail_showsWhatThePhotoSays_andLeavesOutWhatItDoesNot() {
        var bare = photo("a")
        bare.description = nil
        bare.altDescription = nil
        bare.createdAt = nil
        bare.exif = nil
        bare.location = nil
        var state = searched([bare])
        _ = AppViewModel.update(&state, .openDetail(photoID: "a"))
        _ = AppViewModel.update(&state, .detail(.loaded(.success(bare))))
        let text = render(state, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(text.contains("3 likes"), text)
        XCTAssertTrue(text.contains("Photo by Ann Author on Unsplash"), text)
        XCTAssertTrue(text.contains("@ann"), text)
        for absent in ["null", "nil", "Taken", "ISO", "Location", "Camera"] {
            XCTAssertFalse(text.contains(absent), "\(absent) shown\n\(text)")
        }

        var full = photo("a")
        full.exif = Exif(make: "Canon", model: "EOS R5", exposureTime: "1/250", aperture: "2.8", focalLength: "50", iso: 200)
        full.location = PhotoLocation(name: nil, city: "Lisbon", country: "Portugal")
        var rich = searched([full])
        _ = AppViewModel.update(&rich, .openDetail(photoID: "a"))
        _ = AppViewModel.update(&rich, .detail(.loaded(.success(full))))
        let richText = render(rich, width: 140, height: 30).joined(separator: "\n")
        XCTAssertTrue(richText.contains("Canon EOS R5 - 50 mm - f/2.8 - 1/250 s - ISO 200"), richText)
        XCTAssertTrue(richText.contains("Lisbon, Portugal"), richText)
        XCTAssertTrue(richText.contains("400 x 100 pixels"), richText)
        XCTAssertTrue(richText.contains("A photo"), richText)
    }

    func test_detail_onASmallTerminal_keepsTheAuthor() {
        var full = photo("a", width: 600, height: 400)
        full.exif = Exif(make: "Canon", model: "EOS R5", exposureTime: "1/250", aperture: "2.8", focalLength: "50", iso: 200)
        full.location = PhotoLocation(name: "Pier", city: "Lisbon", country: "Portugal")
        full.user?.bio = "Photographs harbours at dawn."
        full.user?.location = "Lisbon"
        var state = searched([full])
        _ = AppViewModel.update(&state, .openDetail(photoID: "a"))
        _ = AppViewModel.update(&state, .detail(.loaded(.success(full))))
        // 80x24: the picture gives up height so that everything shows.
        var text = render(state, width: 80, height: 24).joined(separator: "\n")
        for shown in ["A photo", "3 likes", "Lisbon, Portugal", "Canon EOS R5", "Photo by Ann Author on Unsplash", "@ann", "harbours at dawn"] {
            XCTAssertTrue(text.contains(shown), "\(shown) missing\n\(text)")
        }
        // Smaller still: the details scroll, and whom the photo is by stays in sight on the last row.
        text = render(state, width: 60, height: 16).joined(separator: "\n")
        XCTAssertTrue(text.contains("Photo by Ann Author on Unsplash"), text)
        XCTAssertTrue(text.contains("more ("), text)
    }

    /// On a Search pane with nothing searched yet, letters typed without `/` start the query: they change no filter,
    /// no order, no layout.
    func test_lettersOnAnEmptySearchPane_startTheQuery() {
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.search))
        let before = state.search
        for character in "cows" {
            for event in screen.handle(.key(.character(character)), app: state, ui: &ui, width: 80, height: 24) {
                _ = AppViewModel.update(&state, event)
            }
        }
        XCTAssertTrue(state.search.editing)
        XCTAssertEqual(state.search.query, "cows")
        XCTAssertEqual(state.search.order, before.order)
        XCTAssertEqual(state.search.filters, before.filters)
        XCTAssertEqual(state.search.layout, before.layout)
        XCTAssertEqual(state.search.kind, before.kind)
        // Once something was searched, the keys are keys again.
        let results = searched([photo("a")])
        XCTAssertEqual(screen.handle(.key(.character("s")), app: results, ui: &ui, width: 80, height: 24), [.search(.toggleOrder)])
        // q still quits, digits still switch panes.
        var fresh = AppState()
        _ = AppViewModel.update(&fresh, .selectTab(.search))
        XCTAssertEqual(screen.handle(.key(.character("q")), app: fresh, ui: &ui, width: 80, height: 24), [.quit])
        XCTAssertEqual(screen.handle(.key(.character("1")), app: fresh, ui: &ui, width: 80, height: 24), [.selectTab(.feed)])
    }

    /// Keys that do nothing here say why: the photos' filters while looking for people; `s` on the editorial feed.
    func test_keysThatDoNothingHere_sayWhy() {
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        var people = searched([photo("a")])
        _ = AppViewModel.update(&people, .search(.cycleKind))
        XCTAssertEqual(people.search.kind, .people)
        XCTAssertEqual(screen.handle(.key(.character("O")), app: people, ui: &ui, width: 80, height: 24),
                       [.notify("Filters, order and layout apply to photos; m looks for photos again.")])
        XCTAssertEqual(screen.handle(.key(.character("s")), app: loadedState([photo("a")]), ui: &ui, width: 80, height: 24),
                       [.notify("The editorial feed has one order; t picks a topic, which sorts.")])
    }

    func test_keys_inTheFieldAreText_andOutsideAreCommands() {
        let screen = AppFrame(theme: asciiTheme)
        var ui = UIState()
        var state = AppState()
        _ = AppViewModel.update(&state, .focusSearch)
        XCTAssertEqual(screen.handle(.key(.character("q")), app: state, ui: &ui, width: 80, height: 24), [.search(.edit(.insert("q")))])
        XCTAssertEqual(screen.handle(.key(.character("1")), app: state, ui: &ui, width: 80, height: 24), [.search(.edit(.insert("1")))])
        XCTAssertEqual(screen.handle(.key(.down), app: state, ui: &ui, width: 80, height: 24), [.search(.moveSuggestion(1))])
        XCTAssertEqual(screen.handle(.key(.escape), app: state, ui: &ui, width: 80, height: 24), [.search(.blur)])

        let results = searched([photo("a"), photo("b"), photo("c")])
        XCTAssertEqual(screen.handle(.key(.character("/")), app: AppState(), ui: &ui, width: 80, height: 24), [.focusSearch])
        XCTAssertEqual(screen.handle(.key(.character("v")), app: results, ui: &ui, width: 80, height: 24), [.search(.toggleLayout)])
        XCTAssertEqual(screen.handle(.key(.character("s")), app: results, ui: &ui, width: 80, height: 24), [.search(.toggleOrder)])
        XCTAssertEqual(screen.handle(.key(.enter), app: results, ui: &ui, width: 80, height: 24), [.openDetail(photoID: "a")])
        _ = screen.handle(.key(.down), app: results, ui: &ui, width: 80, height: 24)
        XCTAssertEqual(ui.searchList.selected, 2, "down moves a row of two tiles")
        _ = screen.handle(.key(.left), app: results, ui: &ui, width: 80, height: 24)
        XCTAssertEqual(ui.searchList.selected, 1)
    }

    /// The grid uses a wide terminal's width: three columns from 150.
    func test_grid_hasThreeColumnsOnWideTerminals() {
        XCTAssertEqual(TileLayout.gridColumns(width: 200), 3)
        XCTAssertEqual(TileLayout.gridColumns(width: 120), 2)
        XCTAssertEqual(TileLayout.gridColumns(width: 50), 1)
        let layout = TileLayout(photos: (0..<6).map { photo("p\($0)") }, width: 200, viewportHeight: 56, layout: .grid)
        XCTAssertEqual(layout.columns, 3)
        XCTAssertEqual(Set(layout.tiles.prefix(3).map(\.top)).count, 1, "three tiles on a row")
    }
}
