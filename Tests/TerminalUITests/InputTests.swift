import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

final class InputTests: XCTestCase {
    let screen = AppFrame(theme: asciiTheme)

    func events(_ key: Key, _ state: AppState, ui: inout UIState, width: Int = 60, height: Int = 16) -> [AppViewModel.Event] {
        screen.handle(.key(key), app: state, ui: &ui, width: width, height: height)
    }

    func test_arrowsAndJK_moveTheSelection_andAskForMoreNearTheEnd() {
        let state = loadedState((0..<5).map { photo("p\($0)") })
        var ui = UIState()
        let moved = events(.down, state, ui: &ui)
        XCTAssertEqual(ui.feedSelected, 1)
        XCTAssertEqual(ui.feedTop, 4, "the selected card is scrolled into view")
        XCTAssertEqual(moved, [], "a move is the screen's own; the frame drawn says how far the list shows")
        XCTAssertEqual(screen.shownEnd(state, ui: ui, width: 60, height: 16)?.list, .feed)
        XCTAssertEqual(screen.shownEnd(state, ui: ui, width: 60, height: 16)?.lastIndex, 1)
        _ = events(.character("j"), state, ui: &ui)
        _ = events(.character("k"), state, ui: &ui)
        XCTAssertEqual(ui.feedSelected, 1)
        _ = events(.character("G"), state, ui: &ui)
        XCTAssertEqual(ui.feedSelected, 4)
        XCTAssertEqual(screen.shownEnd(state, ui: ui, width: 60, height: 16)?.lastIndex, 4)
        _ = events(.character("g"), state, ui: &ui)
        XCTAssertEqual(ui.feedSelected, 0)
        XCTAssertEqual(ui.feedTop, 0)
    }

    func test_enterOpensTheViewer_lLikes_rReloads() {
        let state = loadedState([photo("a"), photo("b")])
        var ui = UIState()
        ui.feedSelected = 1
        XCTAssertEqual(events(.enter, state, ui: &ui), [.openViewer(photoID: "b")])
        XCTAssertEqual(events(.character("f"), state, ui: &ui), [.feed(.toggleLike(photoID: "b"))])
        XCTAssertEqual(events(.character("r"), state, ui: &ui), [.feed(.load)])
    }

    func test_tabsQuitAndHelp() {
        let state = loadedState([photo("a")])
        var ui = UIState()
        XCTAssertEqual(events(.tab, state, ui: &ui), [.nextTab])
        XCTAssertEqual(events(.backTab, state, ui: &ui), [.previousTab])
        XCTAssertEqual(events(.character("3"), state, ui: &ui), [.selectTab(.profile)])
        XCTAssertEqual(events(.character("q"), state, ui: &ui), [.quit])
        XCTAssertEqual(events(.interrupt, state, ui: &ui), [.quitNow], "Ctrl-C quits whatever runs")
        XCTAssertEqual(events(.character("?"), state, ui: &ui), [.toggleHelp])
    }

    func test_modal_buttonsByKeys() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .feed(.toggleLike(photoID: "a")))
        _ = AppViewModel.update(&state, .feed(.likeFinished(photoID: "a", liked: true, .failure(.timeout))))
        var ui = UIState()
        XCTAssertEqual(events(.character("q"), state, ui: &ui), [.feed(.modalCancel)], "q closes the dialog, it does not quit")
        XCTAssertEqual(events(.enter, state, ui: &ui), [.feed(.modalTryAgain)])
        _ = events(.right, state, ui: &ui)
        XCTAssertEqual(events(.enter, state, ui: &ui), [.feed(.modalCancel)])
    }

    func test_viewerKeys() {
        var state = loadedState([photo("a")])
        _ = AppViewModel.update(&state, .openViewer(photoID: "a"))
        var ui = UIState()
        XCTAssertEqual(events(.character("+"), state, ui: &ui), [.viewer(.zoomIn)])
        XCTAssertEqual(events(.character("-"), state, ui: &ui), [.viewer(.zoomOut)])
        XCTAssertEqual(events(.character(">"), state, ui: &ui), [.viewer(.rotate)])
        XCTAssertEqual(events(.character("r"), state, ui: &ui), [], "r retries only a photo that failed")
        XCTAssertEqual(events(.character("0"), state, ui: &ui), [.viewer(.reset)])
        XCTAssertEqual(events(.character("l"), state, ui: &ui), [.stepViewer(by: 1)], "l never likes in the viewer: at fit, the next photo")
        XCTAssertEqual(events(.character("n"), state, ui: &ui), [.stepViewer(by: 1)])
        XCTAssertEqual(events(.character("["), state, ui: &ui), [.stepViewer(by: -1)])
        XCTAssertEqual(events(.left, state, ui: &ui), [.stepViewer(by: -1)], "← at fit: the previous photo")
        XCTAssertEqual(events(.character("y"), state, ui: &ui), [.viewer(.share)])
        XCTAssertEqual(events(.character("d"), state, ui: &ui), [.viewer(.download)])
        XCTAssertEqual(events(.escape, state, ui: &ui), [.closeViewer])
        XCTAssertEqual(events(.character("q"), state, ui: &ui), [.closeViewer], "q goes back from the viewer, as the help says")
        _ = AppViewModel.update(&state, .viewer(.zoomIn))
        guard case .viewer(.pan(dx: 0.25, dy: 0, _, _))? = events(.character("l"), state, ui: &ui).first else {
            return XCTFail("l pans when zoomed")
        }
        XCTAssertEqual(events(.character("f"), state, ui: &ui), [.viewer(.toggleLike)])
    }

    func test_mouse_clickOpensAndTabBarSwitches() {
        let state = loadedState([photo("a"), photo("b")])
        var ui = UIState()
        XCTAssertEqual(screen.handle(.mouse(MouseEvent(x: 20, y: 3, kind: .press)), app: state, ui: &ui, width: 60, height: 16),
                       [.openViewer(photoID: "a")])
        let searchTab = screen.tabRects(state.tabs, width: 60)[1].1
        XCTAssertEqual(screen.handle(.mouse(MouseEvent(x: searchTab.x + 1, y: 0, kind: .press)), app: state, ui: &ui, width: 60, height: 16),
                       [.selectTab(.search)])
        _ = screen.handle(.mouse(MouseEvent(x: 20, y: 3, kind: .wheelDown)), app: state, ui: &ui, width: 60, height: 16)
        XCTAssertEqual(ui.feedTop, 3)
    }

    func test_tooSmall_onlyQuitWorks() {
        let state = loadedState([photo("a")])
        var ui = UIState()
        XCTAssertEqual(events(.enter, state, ui: &ui, width: 30, height: 8), [])
        XCTAssertEqual(events(.character("q"), state, ui: &ui, width: 30, height: 8), [.quit])
    }
}
