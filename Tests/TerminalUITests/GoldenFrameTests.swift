import Foundation
import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// Whole screens compared as text with the frames kept in `Golden/` (NAME-COLSxROWS.txt), at 80x24 and at
/// 160x48, for every screen and state a user meets. A difference fails with the lines that differ; a frame that
/// is not there yet (or every frame, with IMAGE_FEED_RECORD_GOLDEN=1) is written, and the test says so: look at
/// it before committing it.
final class GoldenFrameTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let sizes = [(80, 24), (160, 48)]

    func assertGolden(_ name: String, _ state: AppState, ui: UIState = UIState(), sizes: [(Int, Int)] = GoldenFrameTests.sizes,
                      keyMap: KeyMap = .standard, file: StaticString = #filePath, line: UInt = #line) {
        for (width, height) in sizes {
            let frame = render(state, ui: ui, width: width, height: height, theme: unicodeTheme, keyMap: keyMap)
                .joined(separator: "\n") + "\n"
            let path = Self.folder.appendingPathComponent("\(name)-\(width)x\(height).txt")
            let record = ProcessInfo.processInfo.environment["IMAGE_FEED_RECORD_GOLDEN"] == "1"
            guard !record, let expected = try? String(contentsOf: path, encoding: .utf8) else {
                try? FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try? frame.write(to: path, atomically: true, encoding: .utf8)
                XCTFail("recorded \(path.lastPathComponent): look at it, then run again", file: file, line: line)
                continue
            }
            if frame != expected {
                XCTFail("\(name) at \(width)x\(height) differs from \(path.lastPathComponent):\n" + Self.diff(expected, frame),
                        file: file, line: line)
            }
        }
    }

    /// The lines that differ, numbered: `-` as kept, `+` as drawn now.
    static func diff(_ expected: String, _ actual: String) -> String {
        let old = expected.components(separatedBy: "\n")
        let new = actual.components(separatedBy: "\n")
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? old[index] : "(no line)"
            let after = index < new.count ? new[index] : "(no line)"
            guard before != after else { continue }
            lines.append(String(format: "%3d - |%@|", index + 1, before))
            lines.append(String(format: "%3d + |%@|", index + 1, after))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: States

    let photos = [photo("a", height: 250), photo("b", liked: true, likes: 10, author: "Bo", description: "A cat on a sofa"),
                  photo("c", width: 300, height: 300, author: "Cy", description: nil)]

    func searched() -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.search))
        _ = AppViewModel.update(&state, .focusSearch)
        _ = AppViewModel.update(&state, .search(.typed("cats")))
        _ = AppViewModel.update(&state, .search(.submit))
        let page = Page(items: photos, number: 1, perPage: 30, totalItems: 3, nextPage: nil)
        _ = AppViewModel.update(&state, .search(.answer(query: "cats", order: .relevant, .pageLoaded(page: 1, .success(page)))))
        return state
    }

    func profile(likes: [Photo]) -> AppState {
        var state = AppState()
        _ = AppViewModel.update(&state, .selectTab(.profile))
        _ = AppViewModel.update(&state, .profile(.loaded(.success(User(id: "u", username: "dana", name: "Dana", bio: "Likes cats.",
                                                                        location: "Lisbon", totalLikes: likes.count)))))
        _ = AppViewModel.update(&state, .favorites(.pageLoaded(page: 1, .success(Page(items: likes, number: 1, perPage: 30,
                                                                                     totalItems: likes.count, nextPage: nil)))))
        return state
    }

    func albums() -> AppState {
        var state = AppState()
        state.albumsEnabled = true
        _ = AppViewModel.update(&state, .selectTab(.albums))
        _ = AppViewModel.update(&state, .albums(.edit("labs")))
        _ = AppViewModel.update(&state, .albums(.submit))
        let list = [Album(id: "a1", title: "Rockets", createdAt: Date(timeIntervalSince1970: 1_763_726_400),
                          coverURL: URL(string: "https://i.test/c1l.jpg"), coverWidth: 640, coverHeight: 480, photoCount: 4),
                    Album(id: "a2", title: nil, photoCount: 0)]
        _ = AppViewModel.update(&state, .albums(.albumsLoaded(username: "labs", page: 1,
                                                               .success(Page(items: list, number: 1, perPage: 50, nextPage: nil)))))
        return state
    }

    // MARK: Frames

    func test_splash_andLogin() {
        assertGolden("splash", AppState(session: .splash))
        assertGolden("login-start", AppState(session: .loggedOut))
        var waiting = AppState(session: .loggedOut)
        _ = AppViewModel.update(&waiting, .login(.logIn))
        let request = LoginRequest(authorizeURL: URL(string: "https://unsplash.com/oauth/authorize?client_id=k&state=0123456789abcdef")!,
                                   state: "0123456789abcdef")
        _ = AppViewModel.update(&waiting, .login(.prepared(.success(request))))
        assertGolden("login-qr", waiting)
    }

    func test_feed_loadingContentErrorAndEnd() {
        var loading = AppState()
        _ = AppViewModel.update(&loading, .start)
        assertGolden("feed-loading", loading)
        assertGolden("feed-content", loadedState(photos))
        var failed = AppState()
        _ = AppViewModel.update(&failed, .start)
        _ = AppViewModel.update(&failed, .feed(.pageLoaded(page: 1, .failure(.server(status: 503)))))
        assertGolden("feed-error", failed)
        assertGolden("feed-end", loadedState(photos, next: nil), ui: { var ui = UIState(); ui.feedSelected = 2; return ui }())
    }

    /// The help of every screen, the status line after a rebinding, and a page with its dialog up.
    func test_helpOfEveryScreen_rebinding_andAPagesDialog() throws {
        var seen = Set<String>()
        for state in HelpContent.allContexts {
            var shown = state
            _ = AppViewModel.update(&shown, .toggleHelp)
            if shown.session != .loggedIn { shown.helpVisible = true }
            let name = HelpContent.title(state).lowercased().replacingOccurrences(of: "keys: ", with: "")
                .map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            guard seen.insert(name).inserted else { continue }
            assertGolden("help-" + name, shown, sizes: [(80, 24)])
        }
        var keys = KeyMap()
        try keys.bind("like", to: "*")
        try keys.bind("photographer", to: "U")
        try keys.bind("reload", to: "R")
        assertGolden("rebound-feed", loadedState(photos), keyMap: keys)
        var page = photographer()
        _ = AppViewModel.update(&page, .explore(.list(.toggleLike(photoID: "b"))))
        _ = AppViewModel.update(&page, .explore(.list(.likeFinished(photoID: "b", liked: false, .failure(.server(status: 500))))))
        assertGolden("page-dialog-like-failed", page)
        // The dialog has the keyboard: Tab, / and Esc do not act behind it.
        var ui = UIState()
        let screen = AppFrame(theme: unicodeTheme)
        XCTAssertEqual(screen.handle(.key(.tab), app: page, ui: &ui, width: 80, height: 24), [], "Tab moves between the buttons")
        XCTAssertEqual(ui.modalFocus, 1)
        XCTAssertEqual(screen.handle(.key(.character("/")), app: page, ui: &ui, width: 80, height: 24), [])
        XCTAssertEqual(screen.handle(.key(.escape), app: page, ui: &ui, width: 80, height: 24), [.explore(.list(.modalCancel))])
    }

    func test_helpAndDialogs() {
        var help = loadedState(photos)
        _ = AppViewModel.update(&help, .toggleHelp)
        assertGolden("help-feed", help)
        var likeFailed = loadedState(photos)
        _ = AppViewModel.update(&likeFailed, .feed(.toggleLike(photoID: "a")))
        _ = AppViewModel.update(&likeFailed, .feed(.likeFinished(photoID: "a", liked: true, .failure(.server(status: 500)))))
        assertGolden("dialog-like-failed", likeFailed)
        var logout = profile(likes: [photos[1]])
        _ = AppViewModel.update(&logout, .profile(.logOutPressed))
        assertGolden("dialog-log-out", logout)
    }

    func test_viewerAndDetail() {
        var viewer = loadedState(photos)
        _ = AppViewModel.update(&viewer, .openViewer(photoID: "a"))
        assertGolden("viewer", viewer)
        var detail = loadedState(photos)
        _ = AppViewModel.update(&detail, .openDetail(photoID: "b"))
        assertGolden("detail", detail)
    }

    func test_profileAndFavorites() {
        assertGolden("profile-favorites", profile(likes: [photos[1]]))
        assertGolden("profile-no-favorites", profile(likes: []))
    }

    func test_search_fieldWithSuggestions_andGrid() {
        var field = AppState()
        _ = AppViewModel.update(&field, .selectTab(.search))
        _ = AppViewModel.update(&field, .search(.historyLoaded(["cats", "dogs", "harbour"])))
        _ = AppViewModel.update(&field, .focusSearch)
        _ = AppViewModel.update(&field, .search(.typed("c")))
        assertGolden("search-field", field)
        assertGolden("search-grid", searched())
    }

    func test_albums_andTooSmall() {
        assertGolden("albums", albums())
        assertGolden("too-small", loadedState(photos), sizes: [(30, 10)])
    }

    // MARK: Exploring

    func photographer(section steps: Int = 0) -> AppState {
        var state = loadedState(photos)
        let user = User(id: "u", username: "bo", name: "Bo Photographer", bio: "Cats and sofas.", location: "Porto",
                        portfolioURL: URL(string: "https://bo.example"), totalLikes: 1, totalPhotos: 2, totalCollections: 1)
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "bo", user: user)))
        _ = AppViewModel.update(&state, .explore(.userLoaded(username: "bo", .success(user))))
        let source = PhotoListSource.userPhotos(username: "bo", order: .latest)
        _ = AppViewModel.update(&state, .explore(.photosAnswer(source, .pageLoaded(page: 1, .success(Page(items: [photos[1], photos[2]],
                                                                                                        number: 1, perPage: 30, nextPage: nil))))))
        for _ in 0..<steps { _ = AppViewModel.update(&state, .explore(.stepSection(1))) }
        return state
    }

    func test_exploring_photographerCollectionTopicsAndPeople() {
        assertGolden("photographer-photos", photographer())
        var collections = photographer(section: 2)
        let collection = PhotoCollection(id: "c1", title: "Sofas", description: "Where cats sit.", totalPhotos: 2, coverPhoto: photos[1],
                                         user: User(id: "u", username: "bo", name: "Bo Photographer"))
        _ = AppViewModel.update(&collections, .explore(.collectionsLoaded(username: "bo", page: 1,
                                                                          .success(Page(items: [collection], number: 1, perPage: 30, nextPage: nil)))))
        assertGolden("photographer-collections", collections)
        _ = AppViewModel.update(&collections, .explore(.openCollection(collection)))
        _ = AppViewModel.update(&collections, .explore(.photosAnswer(.collectionPhotos(id: "c1"),
                                                                    .pageLoaded(page: 1, .failure(.server(status: 503))))))
        assertGolden("collection-error", collections)
        var topics = loadedState(photos)
        _ = AppViewModel.update(&topics, .explore(.openTopics))
        assertGolden("topics-loading", topics)
        _ = AppViewModel.update(&topics, .explore(.topicsLoaded(page: 1, .success(Page(items: [Topic(id: "t", slug: "nature", title: "Nature",
                                                                                                     totalPhotos: 70, coverPhoto: photos[0])],
                                                                                      number: 1, perPage: 30, nextPage: nil)))))
        assertGolden("topics", topics)
        var people = searched()
        _ = AppViewModel.update(&people, .search(.cycleKind))
        _ = AppViewModel.update(&people, .search(.peopleFound(query: "cats", page: 1,
                                                              .success(Page(items: [User(id: "u", username: "bo", name: "Bo", totalPhotos: 2)],
                                                                            number: 1, perPage: 30, nextPage: nil)))))
        assertGolden("search-people", people)
    }
}
