import ImageFeedCore
@testable import TerminalUI
import XCTest

/// `[keys]`: rebinding intents, what the screens then see, what the help and the status line say, and the
/// mistakes reported.
final class KeyMapTests: XCTestCase {
    func test_rebound_theNewKeyActs_theOldOneIsFree() throws {
        var map = KeyMap()
        try map.bind("like", to: "x")
        XCTAssertEqual(map.intent(of: .character("x"), in: .feed), .like)
        XCTAssertNil(map.intent(of: .character("f"), in: .feed), "f no longer likes")
        XCTAssertNil(map.intent(of: .character(" "), in: .feed))
        XCTAssertEqual(map.intent(of: .character("x"), in: .viewer), .like, "every context with a like")
        XCTAssertEqual(map.intent(of: .character("l"), in: .albums), .right, "l is still right in the albums")
        XCTAssertEqual(map.intent(of: .character("j"), in: .feed), .next, "other keys keep their meaning")
    }

    func test_oneContextOnly_andSeveralKeys_andSwaps() throws {
        var map = KeyMap()
        try map.bind("viewer.zoom-in", to: "+ =")
        XCTAssertEqual(map.intent(of: .character("="), in: .viewer), .zoomIn)
        XCTAssertEqual(map.intent(of: .character("+"), in: .viewer), .zoomIn)
        XCTAssertNil(map.intent(of: .character("="), in: .feed), "only in the viewer")
        var swapped = KeyMap()
        try swapped.bind("feed.details", to: "f")
        try swapped.bind("feed.like", to: "i")
        XCTAssertNoThrow(try swapped.checkConflicts(), "two intents may swap their keys")
        XCTAssertEqual(swapped.intent(of: .character("f"), in: .feed), .details)
        XCTAssertEqual(swapped.intent(of: .character("i"), in: .feed), .like)
        var special = KeyMap()
        try special.bind("next-pane", to: "F2")
        XCTAssertEqual(special.intent(of: .function(2), in: .viewer), .nextPane)
        XCTAssertNil(special.intent(of: .tab, in: .feed))
        var former = KeyMap()
        try former.bind("query", to: "S")
        XCTAssertEqual(former.intent(of: .character("S"), in: .search), .search, "an earlier name still binds")
    }

    /// keys.md's own example: `like = "*"` and `"feed.like" = "j"`: the narrower entry wins in the feed, whichever the
    /// file names first (the intent-wide one took it back when it came second).
    func test_aContextsOwnEntry_winsOverTheIntentWideOne_inEitherOrder() throws {
        for order in [["like", "feed.like"], ["feed.like", "like"]] {
            var map = KeyMap()
            for name in order { try map.bind(name, to: name == "like" ? "*" : "j") }
            try map.checkConflicts()
            XCTAssertEqual(map.intent(of: .character("j"), in: .feed), .like, "\(order)")
            XCTAssertEqual(map.intent(of: .character("*"), in: .viewer), .like, "\(order)")
            XCTAssertNotEqual(map.intent(of: .character("*"), in: .feed), .like, "\(order): the feed has its own")
        }
    }

    func test_mistakes_areNamed() {
        var map = KeyMap()
        XCTAssertThrowsError(try map.bind("liek", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("unknown intent. Intents: ") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("viewer.take-out", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("viewer has no take-out.") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("gallery.like", to: "x")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("unknown context gallery.") == true, "\(error)")
        }
        XCTAssertThrowsError(try map.bind("like", to: "Ctrl-Q")) { error in
            XCTAssertTrue((error as? KeyMap.Problem)?.message.hasPrefix("Ctrl-Q is not a key") == true, "\(error)")
        }
        // Two of the user's own keys clash; a default's key is taken (j likes, ↓ still moves).
        var clash = KeyMap()
        XCTAssertNoThrow(try clash.bind("feed.like", to: "x"))
        XCTAssertNoThrow(try clash.bind("feed.reload", to: "x"))
        XCTAssertThrowsError(try clash.checkConflicts()) { error in
            XCTAssertEqual((error as? KeyMap.Problem)?.message, "x is already the key of feed.reload (in feed).")
            XCTAssertEqual((error as? KeyMap.Problem)?.entry, "feed.like")
        }
        var taking = KeyMap()
        XCTAssertNoThrow(try taking.bind("feed.like", to: "j"))
        XCTAssertNoThrow(try taking.checkConflicts())
        XCTAssertEqual(taking.intent(of: .character("j"), in: .feed), .like)
        XCTAssertEqual(taking.keys(.next, in: .feed), [.down])
        XCTAssertEqual(taking.keys(.next, in: .profile), [.down, .character("j")], "only in the context bound")
    }

    /// Ctrl and a letter can be bound (the ones a terminal sends as their own code), and read as such.
    func test_controlKeys_canBeBound() throws {
        XCTAssertEqual(KeyMap.key(named: "ctrl-d"), .control("d"))
        XCTAssertEqual(KeyMap.key(named: "Ctrl-O"), .control("o"))
        XCTAssertNil(KeyMap.key(named: "ctrl-c"), "Ctrl-C quits")
        XCTAssertNil(KeyMap.key(named: "ctrl-1"))
        XCTAssertEqual(InputDecoder.control(Unicode.Scalar(4)), .control("d"))
        XCTAssertEqual(InputDecoder.control(Unicode.Scalar(6)), .control("f"))
        XCTAssertNil(InputDecoder.control(Unicode.Scalar(17)), "Ctrl-Q is flow control")
        var map = KeyMap()
        try map.bind("reload", to: "ctrl-r")
        XCTAssertEqual(map.intent(of: .control("r"), in: .feed), .reload)
        XCTAssertEqual(KeyMap.standard.intent(of: .control("d"), in: .feed), .pageDown)
    }

    func test_helpHintsAndScreens_followTheUsersKeys() throws {
        var map = KeyMap()
        try map.bind("like", to: "x")
        try map.bind("photographer", to: "U")
        let state = loadedState([photo("a"), photo("b")])
        XCTAssertTrue(HelpContent.lines(state, keyMap: map).contains { $0.keys == "x" && $0.what == "like / unlike" })
        XCTAssertTrue(HelpContent.lines(state).contains { $0.keys == "f" && $0.what == "like / unlike" })
        let screen = AppFrame(theme: asciiTheme, keyMap: map)
        XCTAssertTrue(screen.hints(state).contains("x like"), "\(screen.hints(state))")
        XCTAssertTrue(screen.hints(state).contains("U photographer"), "\(screen.hints(state))")
        XCTAssertFalse(screen.hints(state).contains { $0.hasPrefix("f ") })
        var ui = UIState()
        XCTAssertEqual(screen.handle(.key(.character("x")), app: state, ui: &ui, width: 60, height: 20),
                       [.feed(.toggleLike(photoID: "a"))])
        XCTAssertEqual(screen.handle(.key(.character("f")), app: state, ui: &ui, width: 60, height: 20), [])
        // The viewer's status line too.
        var viewing = state
        viewing.viewer = ViewerState(photo: photo("a"))
        viewing.viewer?.source = .feed
        var theme = asciiTheme
        theme.keys = map
        let viewer = ViewerScreen(theme: theme)
        XCTAssertTrue(viewer.hints(viewing.viewer!).contains("x like"), "\(viewer.hints(viewing.viewer!))")
    }

    /// One key per meaning: a key means the same wherever it means something (the login aside, which is its own
    /// world before any pane), and a meaning has the same keys everywhere.
    func test_oneKeyPerMeaning_acrossScreens() {
        let contexts = KeyContext.allCases.filter { $0 != .login }
        var meaning: [String: Intent] = [:]
        var keysOf: [Intent: [Key]] = [:]
        // Moving (up in a grid, previous in a list) and the viewer's steps share keys on purpose.
        let moves: Set<Intent> = [.previous, .next, .up, .down, .left, .right]
        for context in contexts {
            // An intent may be listed on two lines of the help (PgDn, and Ctrl-F Ctrl-D as in less): its keys together.
            var here: [Intent: [Key]] = [:]
            for record in KeyMap.defaults(context) where !moves.contains(record.intent) {
                for key in record.keys {
                    let name = KeyMap.name(key)
                    if let other = meaning[name] {
                        XCTAssertEqual(other, record.intent, "\(name) means \(other) somewhere and \(record.intent) in \(context)")
                    }
                    meaning[name] = record.intent
                }
                here[record.intent, default: []] += record.keys
            }
            for (intent, keys) in here {
                if let other = keysOf[intent] {
                    XCTAssertEqual(other, keys, "\(intent) has other keys in \(context)")
                }
                keysOf[intent] = keys
            }
        }
    }

    /// Every screen's hints are made from its records: no key in a hint that is not the key of an intent in force.
    func test_everyScreensHints_comeFromTheRecords() throws {
        var map = KeyMap()
        try map.bind("reload", to: "R")
        for state in HelpContent.allContexts where state.session == .loggedIn {
            let hints = AppFrame(theme: asciiTheme, keyMap: map).hints(state)
            XCTAssertFalse(hints.isEmpty, "\(HelpContent.title(state))")
            XCTAssertFalse(hints.contains { $0.hasPrefix("r ") }, "\(HelpContent.title(state)): \(hints)")
        }
    }

    /// Text that names a key names the user's: a pane's error, a notice that trying again can help, an empty list.
    func test_textThatNamesAKey_followsARebinding() throws {
        var map = KeyMap()
        try map.bind("reload", to: "R")
        try map.bind("like", to: "*")
        var state = AppState()
        _ = AppViewModel.update(&state, .start)
        _ = AppViewModel.update(&state, .feed(.pageLoaded(page: 1, .failure(.noConnection("cannot connect")))))
        var text = render(state, width: 60, height: 16, keyMap: map).joined(separator: "\n")
        XCTAssertTrue(text.contains("Press R to try again."), text)
        var loaded = loadedState([photo("a")])
        loaded.notice = StatusNotice("Couldn't reload the feed (HTTP 503).", kind: .error, retry: true, serial: 1)
        text = render(loaded, width: 80, height: 16, keyMap: map).joined(separator: "\n")
        XCTAssertTrue(text.contains("Couldn't reload the feed (HTTP 503). R tries again."), text)
        XCTAssertEqual(Theme(colorMode: .none, unicode: true).spell("Press {reload}, like with {like}, {nothing}"),
                       "Press r, like with f, {nothing}")
        var themed = Theme(colorMode: .none, unicode: true)
        themed.keys = map
        XCTAssertEqual(themed.spell("Like a photo ({like})"), "Like a photo (*)")
    }
}

extension KeyMapTests {
    /// The help of a page lists the keys of that page: a topics page has no sections, likes or photographer.
    func test_theHelpOfTopics_listsOnlyItsOwnKeys() {
        var topics = AppState()
        topics.explore = ExploreStack(tab: .feed, sheets: [.topics(TopicsSheet())])
        let lines = HelpContent.lines(topics).map(\.what)
        XCTAssertFalse(lines.contains("a photographer's photos, likes, collections"), "\(lines)")
        XCTAssertFalse(lines.contains("like / unlike"), "\(lines)")
        XCTAssertTrue(lines.contains("open the photo, the collection or the topic"), "\(lines)")
        var page = AppState()
        page.explore = ExploreStack(tab: .feed, sheets: [.photographer(PhotographerSheet(username: "x"))])
        XCTAssertTrue(HelpContent.lines(page).map(\.what).contains("a photographer's photos, likes, collections"))
    }
}
