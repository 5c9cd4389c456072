import ImageFeedCore
import TerminalImage
import TerminalUI
import XCTest

/// A page opened over a pane keeps its selected card in view through resizes, as the panes do.
final class SheetResizeTests: XCTestCase {
    func test_aPhotographersPage_keepsItsSelectionInView_whenTheTerminalShrinksAndGrows() {
        var state = loadedState([photo("feed")])
        let user = User(id: "u", username: "bo", name: "Bo Photographer", totalPhotos: 12)
        _ = AppViewModel.update(&state, .explore(.openPhotographer(username: "bo", user: user)))
        _ = AppViewModel.update(&state, .explore(.userLoaded(username: "bo", .success(user))))
        let photos = (0..<12).map { photo("p\($0)", author: "Author \($0)", description: "Photo number \($0)") }
        _ = AppViewModel.update(&state, .explore(.photosAnswer(.userPhotos(username: "bo", order: .latest),
                                                              .pageLoaded(page: 1, .success(Page(items: photos, number: 1, perPage: 30,
                                                                                                   nextPage: nil))))))
        let frame = AppFrame(theme: asciiTheme)
        var ui = UIState()
        for _ in 0..<5 { _ = frame.handle(.key(.down), app: state, ui: &ui, width: 100, height: 30) }
        XCTAssertEqual(ui.sheetLists.last?.selected, 5)
        for (width, height) in [(40, 12), (200, 60), (80, 24)] {
            _ = frame.handle(.resize, app: state, ui: &ui, width: width, height: height)
            let text = render(state, ui: ui, width: width, height: height).joined(separator: "\n")
            // The selected card's caption: the selection bar, then "Photo by Author 5".
            XCTAssertTrue(text.split(separator: "\n").contains { $0.contains("> <3") && $0.contains("Author 5") }, "\(width)x\(height)\n\(text)")
        }
    }
}
