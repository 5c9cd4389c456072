import Foundation
import ImageFeedCore
import TerminalImage
@testable import TerminalUI
import XCTest

/// The Albums pane, rendered into a cell buffer, and its keys.
final class AlbumsScreenTests: XCTestCase {
    func albumsState(_ albums: [Album]? = nil, name: String = "labs") -> AppState {
        var state = AppState()
        state.albumsEnabled = true
        _ = AppViewModel.update(&state, .selectTab(.albums))
        guard let albums else { return state }
        _ = AppViewModel.update(&state, .albums(.edit(name)))
        _ = AppViewModel.update(&state, .albums(.submit))
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: name, page: 1,
                                                               .success(Page(items: albums, number: 1, perPage: 50, nextPage: nil)))))
        return state
    }

    let covered = Album(id: "a1", title: "Rockets", createdAt: Date(timeIntervalSince1970: 1_763_726_400),
                        coverURL: URL(string: "https://i.test/c1l.jpg"), coverWidth: 640, coverHeight: 480, photoCount: 4)
    let bare = Album(id: "a2", title: nil, photoCount: 0)

    func test_theTabShowsOnlyWhenEnabled_andOpensOnThePrompt() {
        var state = AppState()
        XCTAssertFalse(render(state, width: 80, height: 24).joined().contains("4 Albums"))
        _ = AppViewModel.update(&state, .selectTab(.albums))
        XCTAssertEqual(state.tab, .feed, "no Albums tab without a source")
        state = albumsState()
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("4 Albums"), text)
        XCTAssertTrue(text.contains("Imgur user"), text)
        XCTAssertTrue(text.contains("Type a username and press Enter"), text)
    }

    func test_tiles_withACoverAndAGrayBoxWithout() {
        let text = render(albumsState([covered, bare]), width: 80, height: 30).joined(separator: "\n")
        XCTAssertTrue(text.contains("Albums of labs (2)"), text)
        XCTAssertTrue(text.contains("Rockets"), text)
        XCTAssertTrue(text.contains("4 photos"), text)
        XCTAssertTrue(text.contains("Untitled album"), text)
        XCTAssertTrue(text.contains("No cover"), "an album without a cover is a gray box\n\(text)")
    }

    func test_threeStatesAndEmpty() {
        var state = albumsState()
        _ = AppViewModel.update(&state, .albums(.edit("labs")))
        _ = AppViewModel.update(&state, .albums(.submit))
        XCTAssertTrue(render(state, width: 80, height: 24).joined().contains("Loading the albums of labs"))
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: "labs", page: 1, .failure(.notFound))))
        XCTAssertTrue(render(state, width: 80, height: 24).joined().contains("No Imgur user labs."))
        _ = AppViewModel.update(&state, .albums(.retry))
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: "labs", page: 1, .success(Page(items: [], number: 1, perPage: 50, nextPage: nil)))))
        XCTAssertTrue(render(state, width: 80, height: 24).joined().contains("labs has no albums."))
    }

    func test_keys_typeOpenAnAlbumAndAPhoto_andBack() {
        let screen = AppFrame(theme: asciiTheme)
        var state = albumsState()
        var ui = UIState()
        func press(_ key: Key) -> [AppViewModel.Event] {
            screen.handle(.key(key), app: state, ui: &ui, width: 80, height: 30)
        }
        XCTAssertEqual(press(.character("4")), [.albums(.editText(.insert("4")))], "while typing, digits are text")
        for character in "labs" { _ = AppViewModel.update(&state, press(.character(character))[0]) }
        XCTAssertEqual(state.albums.field, "labs")
        XCTAssertEqual(press(.enter), [.albums(.submit)])
        _ = AppViewModel.update(&state, .albums(.submit))
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: "labs", page: 1,
                                                               .success(Page(items: [covered, bare], number: 1, perPage: 50, nextPage: nil)))))
        XCTAssertEqual(press(.enter), [.albums(.openAlbum(index: 0))])
        _ = AppViewModel.update(&state, .albums(.openAlbum(index: 0)))
        _ = AppViewModel.update(&state, .albums(.photosLoaded(albumID: "a1", .success([photo("p1"), photo("p2")]))))
        let text = render(state, ui: ui, width: 80, height: 30).joined(separator: "\n")
        XCTAssertTrue(text.contains("Rockets  2 photos"), text)
        XCTAssertEqual(press(.right), [.albums(.selectPhoto(index: 1))])
        XCTAssertEqual(press(.enter), [.openViewer(photoID: "p2")])
        _ = AppViewModel.update(&state, .openViewer(photoID: "p2"))
        XCTAssertEqual(state.viewer?.isFromAlbum, true)
        // Its help lists what can act on an album's photo: no likes, details, photographer or collections.
        let help = screen.help(state).lines.map(\.what).joined(separator: "\n")
        XCTAssertTrue(help.contains("zoom in / out"), help)
        for what in ["like / unlike", "the photo's details", "the photographer's page", "add to one of your collections"] {
            XCTAssertFalse(help.contains(what), "\(what) cannot act here\n\(help)")
        }
        let viewerText = render(state, ui: ui, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(viewerText.contains("+/- zoom"), viewerText)
        XCTAssertTrue(viewerText.contains("Esc back  ? help  n/p next"), viewerText)
        XCTAssertFalse(viewerText.contains("on Unsplash"), "an album photo is not attributed to Unsplash\n\(viewerText)")
        XCTAssertFalse(viewerText.contains("x zoom"), "the whole photo shows no zoom level\n\(viewerText)")
        XCTAssertEqual(screen.handle(.key(.character("z")), app: state, ui: &ui, width: 80, height: 30), [.viewer(.toggleZoom)])
        _ = AppViewModel.update(&state, .viewer(.toggleZoom))
        let zoomedText = render(state, ui: ui, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(zoomedText.contains("8x zoom"), zoomedText)
        _ = AppViewModel.update(&state, .viewer(.toggleZoom))
        XCTAssertFalse(render(state, ui: ui, width: 100, height: 30).joined().contains("x zoom"))
        _ = AppViewModel.update(&state, .closeViewer)
        XCTAssertEqual(press(.escape), [.albums(.closeAlbum)])
        XCTAssertEqual(press(.character("e")), [.albums(.editUsername)])
        _ = AppViewModel.update(&state, .albums(.closeAlbum))
        // Over the list, a letter that is no key there starts a new name, as the search's field takes typing.
        XCTAssertEqual(press(.character("x")), [.albums(.editUsername), .albums(.editText(.insert("x")))])
        XCTAssertEqual(press(.character("j")), [.albums(.selectAlbum(index: 1))], "a key keeps its meaning")
    }

    func test_mouse_clickATileOpensIt_clickTheFieldToType() {
        let screen = AppFrame(theme: asciiTheme)
        var state = albumsState([covered, bare])
        var ui = UIState()
        func click(_ x: Int, _ y: Int, _ kind: MouseEvent.Kind = .press) -> [AppViewModel.Event] {
            screen.handle(.mouse(MouseEvent(x: x, y: y, kind: kind)), app: state, ui: &ui, width: 80, height: 30)
        }
        // The tab bar is row 0, the username field row 1, the header row 2, the tiles from row 3.
        XCTAssertEqual(click(50, 6), [.albums(.selectAlbum(index: 1)), .albums(.openAlbum(index: 1))], "the right-hand tile")
        XCTAssertEqual(ui.albumsList.selected, 1)
        XCTAssertEqual(click(20, 1), [.albums(.editUsername)])
        _ = AppViewModel.update(&state, .albums(.editUsername))
        XCTAssertEqual(click(20, 12), [.albums(.cancelEditing)], "a click away from the field leaves it")
        _ = AppViewModel.update(&state, .albums(.cancelEditing))

        _ = AppViewModel.update(&state, .albums(.openAlbum(index: 0)))
        _ = AppViewModel.update(&state, .albums(.photosLoaded(albumID: "a1", .success([photo("p1"), photo("p2")]))))
        XCTAssertEqual(click(50, 6), [.albums(.selectPhoto(index: 1)), .openViewer(photoID: "p2")])
        XCTAssertEqual(click(50, 6, .wheelDown), [.albums(.selectPhoto(index: 1))], "the wheel scrolls (nothing to scroll here)")
    }

    func test_anOpenAlbumShowsItsDescription_whenItHasOne() {
        var described = covered
        described.description = "Launches\nand landings"
        var state = albumsState([described, bare])
        _ = AppViewModel.update(&state, .albums(.openAlbum(index: 0)))
        _ = AppViewModel.update(&state, .albums(.photosLoaded(albumID: "a1", .success([photo("p1")]))))
        XCTAssertTrue(render(state, width: 100, height: 30).joined(separator: "\n").contains("Rockets  1 photo  · Launches and landings"))
        _ = AppViewModel.update(&state, .albums(.closeAlbum))
        _ = AppViewModel.update(&state, .albums(.openAlbum(index: 1)))
        let text = render(state, width: 100, height: 30).joined(separator: "\n")
        XCTAssertTrue(text.contains("Untitled album  0 photos"), text)
        XCTAssertFalse(text.contains("·"), "no description, nothing shown for it\n\(text)")
    }

    func test_resize_keepsTheSelectedTileInView() {
        let many = (0..<12).map { Album(id: "a\($0)", title: "Album \($0)", photoCount: 1) }
        let screen = AppFrame(theme: asciiTheme)
        var state = albumsState(many)
        state.session = .loggedIn
        var ui = UIState()
        _ = screen.handle(.key(.end), app: state, ui: &ui, width: 80, height: 40)
        XCTAssertEqual(ui.albumsList.selected, 11)
        let top = ui.albumsList.top
        XCTAssertGreaterThan(top, 0, "the last row of tiles is scrolled into view")
        // Smaller: the selected tile is still in view, so the list scrolls further.
        _ = screen.handle(.resize, app: state, ui: &ui, width: 80, height: 20)
        let layout = AlbumsScreen(theme: asciiTheme).albumsLayout(state.albums, area: screen.contentRect(width: 80, height: 20))
        let tile = layout.tiles[11]
        let list = AlbumsScreen(theme: asciiTheme).listArea(screen.contentRect(width: 80, height: 20))
        XCTAssertGreaterThanOrEqual(tile.top, ui.albumsList.top)
        XCTAssertLessThanOrEqual(tile.top + tile.boxRows + TileLayout.textRows, ui.albumsList.top + list.height)
    }

    func test_anOfferedName_showsSelected_andTypingReplacesIt() {
        let screen = AppFrame(theme: asciiTheme)
        var state = albumsState()
        _ = AppViewModel.update(&state, .albums(.recentLoaded(["labs", "nasa"])))
        var ui = UIState()
        let text = render(state, width: 80, height: 24).joined(separator: "\n")
        XCTAssertTrue(text.contains("Imgur user  labs_"), text)
        XCTAssertTrue(text.contains("Enter shows labs's albums again"), text)
        XCTAssertTrue(text.contains("Looked up before: labs, nasa"), text)
        XCTAssertEqual(screen.handle(.key(.character("x")), app: state, ui: &ui, width: 80, height: 24), [.albums(.editText(.insert("x")))])
        XCTAssertEqual(screen.handle(.key(.backspace), app: state, ui: &ui, width: 80, height: 24), [.albums(.editText(.deleteBackward))])
        XCTAssertEqual(screen.handle(.key(.enter), app: state, ui: &ui, width: 80, height: 24), [.albums(.submit)])
        var cleared = state
        _ = AppViewModel.update(&cleared, .albums(.editText(.deleteBackward)))
        XCTAssertEqual(cleared.albums.field, "", "Backspace clears an offered name")
        _ = AppViewModel.update(&state, .albums(.editText(.insert("x"))))
        XCTAssertEqual(state.albums.field, "x", "typing replaces an offered name")
        _ = AppViewModel.update(&state, .albums(.editText(.insert("y"))))
        XCTAssertEqual(state.albums.field, "xy")
    }
}
