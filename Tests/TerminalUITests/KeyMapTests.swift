import ImageFeedCore
import TerminalUI
import XCTest

/// `[keys]`: rebinding intents, what the screens then see, what the help says, and the mistakes reported.
final class KeyMapTests: XCTestCase {
    func test_rebound_theNewKeyActs_theOldOneIsFree() throws {
        var map = KeyMap()
        try map.bind("like", to: "x")
        XCTAssertEqual(map.translate(.character("x"), in: .feed), .character("l"))
        XCTAssertNil(map.translate(.character("l"), in: .feed), "l no longer likes")
        XCTAssertNil(map.translate(.character(" "), in: .feed))
        XCTAssertEqual(map.translate(.character("x"), in: .viewer), .character("f"), "every context with a like")
        XCTAssertNil(map.translate(.character("f"), in: .viewer))
        XCTAssertEqual(map.translate(.character("l"), in: .albums), .character("l"), "l is still right in the albums")
        XCTAssertEqual(map.translate(.character("j"), in: .feed), .character("j"), "other keys pass")
    }

    func test_oneContextOnly_andSeveralKeys_andSwaps() throws {
        var map = KeyMap()
        try map.bind("viewer.zoom-in", to: "+ =")
        XCTAssertEqual(map.translate(.character("="), in: .viewer), .character("+"))
        XCTAssertEqual(map.translate(.character("+"), in: .viewer), .character("+"))
        XCTAssertEqual(map.translate(.character("="), in: .feed), .character("="), "only in the viewer")
        var swapped = KeyMap()
        try swapped.bind("feed.details", to: "l")
        try swapped.bind("feed.like", to: "i")
        XCTAssertNoThrow(try swapped.checkConflicts(), "two intents may swap their keys")
        XCTAssertEqual(swapped.translate(.character("l"), in: .feed), .character("i"))
        XCTAssertEqual(swapped.translate(.character("i"), in: .feed), .character("l"))
        var special = KeyMap()
        try special.bind("next-pane", to: "Ctrl-E")
        XCTAssertEqual(special.translate(.lineDown, in: .viewer), .tab)
    }

    func test_mistakes_areNamed() {
        var map = KeyMap()
        XCTAssertThrowsError(try map.bind("liek", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("unknown intent. Intents: ") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("viewer.reload", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("viewer has no reload.") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("gallery.like", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("unknown context gallery.") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("like", to: "Ctrl-Q")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("Ctrl-Q is not a key") == true, "\(error)")
        }
        var clash = KeyMap()
        XCTAssertNoThrow(try clash.bind("feed.like", to: "j"))
        XCTAssertThrowsError(try clash.checkConflicts()) { error in
            XCTAssertEqual((error as? KeyMap.Problem)?.message, "j is already the key of feed.next (in feed).")
            XCTAssertEqual((error as? KeyMap.Problem)?.entry, "feed.like")
        }
        var global = KeyMap()
        try? global.bind("viewer.like", to: "/")
        XCTAssertThrowsError(try global.checkConflicts()) { error in
            XCTAssertEqual((error as? KeyMap.Problem)?.message, "/ is already the key of everywhere.search (in viewer).")
        }
    }

    func test_helpAndScreens_followTheUsersKeys() throws {
        var map = KeyMap()
        try map.bind("like", to: "x")
        var state = loadedState([photo("a"), photo("b")])
        XCTAssertTrue(HelpScreen.lines(state, keyMap: map).contains { $0.keys == "x" && $0.what == "like / unlike" })
        XCTAssertTrue(HelpScreen.lines(state).contains { $0.keys == "l  Space" && $0.what == "like / unlike" })
        let screen = RootScreen(theme: asciiTheme, keyMap: map)
        var ui = UIState()
        XCTAssertEqual(screen.handle(.key(.character("x")), app: state, ui: &ui, width: 60, height: 20),
                       [.feed(.toggleLike(photoID: "a"))])
        XCTAssertEqual(screen.handle(.key(.character("l")), app: state, ui: &ui, width: 60, height: 20), [])
        // In a dialog the keys are the dialog's own.
        state.viewer = nil
    }
}
