import Foundation
import ImageFeedCore

/// Where a key means something: a screen, or everywhere (the panes' keys). Text fields are not here: every key
/// typed there is text.
public enum KeyContext: String, CaseIterable, Sendable {
    case login, feed, favorites, search, detail, albums, viewer, page, everywhere
}

/// The keymap: per context, rows of the help, each row the intents it names with their keys. The help overlay
/// and the README's key list are made from it, and `[keys]` in config.toml rebinds any intent.
///
/// A rebound key is translated into the intent's first default key before the screens see it, and a default key
/// whose intent the user gave other keys does nothing (unless the user gave it to another intent).
public struct KeyMap: Equatable, Sendable {
    /// One line of the help: its keys as shown, what they do, and the intents (with their default keys) it covers.
    public struct Row: Sendable {
        public var keys: String
        public var what: String
        public var intents: [(name: String, keys: [Key])]

        init(_ keys: String, _ what: String, _ intents: [(String, [Key])] = []) {
            self.keys = keys
            self.what = what
            self.intents = intents.map { (name: $0.0, keys: $0.1) }
        }
    }

    /// The user's keys, by context and intent.
    public private(set) var bindings: [KeyContext: [String: [Key]]] = [:]

    public init() {}

    public static let standard = KeyMap()

    // MARK: The table

    private static func c(_ character: Character) -> Key { .character(character) }

    static let listRows: [Row] = [
        Row("↑ ↓  j k", "previous / next photo", [("previous", [.up, c("k")]), ("next", [.down, c("j")])]),
        Row("PgUp PgDn", "a screen up / down", [("page-up", [.pageUp]), ("page-down", [.pageDown])]),
        Row("Ctrl-E Ctrl-Y, wheel", "move the list by a line (wheel: 3)", [("line-down", [.lineDown]), ("line-up", [.lineUp])]),
        Row("g G  Home End", "first / last photo", [("first", [c("g"), .home]), ("last", [c("G"), .end])]),
        Row("Enter, click", "open the photo full screen", [("open", [.enter])]),
        Row("i", "details: description, place, camera, author", [("details", [c("i")])]),
        Row("l  Space", "like / unlike", [("like", [c("l"), c(" ")])]),
        Row("u", "the photographer: photos, likes, collections", [("photographer", [c("u")])]),
    ]

    /// The rows of a context (the login's depend on the demo).
    public static func rows(_ context: KeyContext, demo: Bool = false) -> [Row] {
        switch context {
        case .login:
            var rows = [Row("Enter", demo ? "log in (the demo: no account needed)" : "log in", [("log-in", [.enter])]),
                        Row("c  o", "copy the login link (OSC 52); open it here", [("copy-link", [c("c")]), ("open-link", [c("o")])]),
                        Row("p", "paste the code the browser shows", [("paste-code", [c("p")])]),
                        Row("Esc", "back to the first screen", [("back", [.escape])])]
            if demo { rows.append(Row("a", "approve as the demo user", [("approve", [c("a")])])) }
            return rows + [Row("?", "this help", [("help", [c("?")])]), Row("q  Ctrl-C", "quit", [("quit", [c("q")])])]
        case .feed:
            return listRows + [Row("t  s", "a topic instead of the editorial feed; its order", [("topics", [c("t")]), ("sort", [c("s")])]),
                               Row("r", "reload the feed, or retry what failed", [("reload", [c("r")])])]
        case .favorites:
            return listRows + [Row("r", "refresh the profile, or retry what failed", [("reload", [c("r")])]),
                               Row("p", "your photos and collections (your page)", [("your-page", [c("p")])]),
                               Row("o", "log out", [("log-out", [c("o")])])]
        case .search:
            return [Row("/", "type a query (Esc leaves the field)", [("query", [c("/")])]),
                    Row("↑ ↓ ← →  j k", "move between results",
                        [("up", [.up, c("k")]), ("down", [.down, c("j")]), ("left", [.left]), ("right", [.right])]),
                    Row("Enter, click", "details of the result", [("open", [.enter])]),
                    Row("l  Space", "like / unlike", [("like", [c("l"), c(" ")])]),
                    Row("u", "the photographer's page", [("photographer", [c("u")])]),
                    Row("s  v", "sort by relevance or date; 1 or 2 columns", [("sort", [c("s")]), ("columns", [c("v")])]),
                    Row("m", "look for photos, people or collections", [("kind", [c("m")])]),
                    Row("o  c  w", "filters: orientation, colour, work-safe", [("orientation", [c("o")]), ("color", [c("c")]),
                                                                               ("safe", [c("w")])]),
                    Row("r", "retry what failed", [("reload", [c("r")])])]
        case .detail:
            return [Row("Enter, click", "open the photo full screen", [("open", [.enter])]),
                    Row("l  f  Space", "like / unlike", [("like", [c("l"), c("f"), c(" ")])]),
                    Row("s  o", "copy the link (and open it)", [("share", [c("s")]), ("open-link", [c("o")])]),
                    Row("d", "download the full-size photo", [("download", [c("d")])]),
                    Row("u  c", "the photographer's page; add to a collection", [("photographer", [c("u")]), ("collect", [c("c")])]),
                    Row("t", "pick a tag (again: the next); Enter searches it", [("tag", [c("t")])]),
                    Row("r", "retry the details", [("reload", [c("r")])]),
                    Row("Esc  q", "back to the list", [("back", [.escape, c("q")])])]
        case .albums:
            return [Row("u, click the field", "type an Imgur username", [("username", [c("u")])]),
                    Row("↑ ↓ ← →  h j k l", "move between tiles",
                        [("up", [.up, c("k")]), ("down", [.down, c("j")]), ("left", [.left, c("h")]), ("right", [.right, c("l")])]),
                    Row("Enter, click", "open the album, or the photo", [("open", [.enter])]),
                    Row("r", "reload, or retry what failed", [("reload", [c("r")])]),
                    Row("Esc  q", "back from an album", [("back", [.escape, c("q")])])]
        case .viewer:
            return [Row("n p  ] [", "next / previous photo of the list", [("next", [c("n"), c("]")]), ("previous", [c("p"), c("[")])]),
                    Row("← →  h l", "the same at fit; zoomed in, pan", [("left", [.left, c("h")]), ("right", [.right, c("l")])]),
                    Row("↑ ↓  j k", "pan when zoomed in", [("up", [.up, c("k")]), ("down", [.down, c("j")])]),
                    Row("+ -  wheel", "zoom in / out", [("zoom-in", [c("+")]), ("zoom-out", [c("-")])]),
                    Row("z", "the whole photo, or the largest zoom", [("zoom", [c("z")])]),
                    Row("r", "rotate by 90° (retry when it failed)", [("rotate", [c("r")])]),
                    Row("0", "the whole photo, upright", [("reset", [c("0")])]),
                    Row("f  Space", "like / unlike", [("like", [c("f"), c(" ")])]),
                    Row("s  d", "copy the link (and open it); download", [("share", [c("s")]), ("download", [c("d")])]),
                    Row("u  c", "the photographer's page; add to a collection", [("photographer", [c("u")]), ("collect", [c("c")])]),
                    Row("i, click", "hide or show the status line", [("status-line", [c("i")])]),
                    Row("b", "photos in half blocks, quadrants or sextants", [("blitter", [c("b")])]),
                    Row("Esc  q", "back", [("back", [.escape, c("q")])])]
        case .page:
            return [Row("↑ ↓ ← →  j k", "move in the list", [("up", [.up, c("k")]), ("down", [.down, c("j")])]),
                    Row("[ ]", "a photographer's photos, likes, collections", [("previous-section", [c("[")]),
                                                                                ("next-section", [c("]")])]),
                    Row("Enter, click", "open the photo, the collection or the topic", [("open", [.enter])]),
                    Row("i", "details of the photo", [("details", [c("i")])]),
                    Row("l  Space", "like / unlike", [("like", [c("l"), c(" ")])]),
                    Row("s", "sort the photos: latest, oldest, popular", [("sort", [c("s")])]),
                    Row("u", "the photographer of the photo", [("photographer", [c("u")])]),
                    Row("-  Delete", "your collections: take the photo out", [("take-out", [c("-"), .delete])]),
                    Row("r", "retry what failed", [("reload", [c("r")])]),
                    Row("Esc  q", "back", [("back", [.escape, c("q")])])]
        case .everywhere:
            return [Row("Tab  Shift-Tab  1-4", "switch panes (4: Imgur albums)", [("next-pane", [.tab]), ("previous-pane", [.backTab])]),
                    Row("/", "search, from anywhere", [("search", [c("/")])]),
                    Row("?  F1  Ctrl-L", "this help; paint the screen again", [("help", [c("?"), .function(1)]), ("redraw", [.redraw])]),
                    Row("q", "quit from a pane; back from a sub-screen", [("quit", [c("q")])]),
                    Row("Ctrl-C", "quit from anywhere")]
        }
    }

    /// Each intent of a context with its default keys.
    static func defaults(_ context: KeyContext) -> [(name: String, keys: [Key])] {
        rows(context, demo: true).flatMap(\.intents)
    }

    // MARK: Keys as the user rebinds them

    /// The rows of a context as the user's keys make them: a row whose intents were rebound shows the keys now in
    /// force (and what the mouse does, as before).
    public func rows(_ context: KeyContext, demo: Bool = false) -> [Row] {
        Self.rows(context, demo: demo).map { row in
            guard let bound = bindings[context], row.intents.contains(where: { bound[$0.name] != nil }) else { return row }
            var shown = row
            let keys = row.intents.map { intent in (bound[intent.name] ?? intent.keys).map(Self.name).joined(separator: " ") }
            let mouse = row.keys.range(of: ",").map { String(row.keys[$0.lowerBound...]) } ?? ""
            shown.keys = keys.joined(separator: "  ") + mouse
            shown.intents = row.intents.map { (name: $0.name, keys: bound[$0.name] ?? $0.keys) }
            return shown
        }
    }

    /// The key the screens should see for `key` in `context` (the help's context of the screen in front of the
    /// user); nil when the key does nothing now (its intent was given other keys).
    public func translate(_ key: Key, in context: KeyContext) -> Key? {
        guard !bindings.isEmpty else { return key }
        let scopes = context == .everywhere || context == .login ? [context] : [context, .everywhere]
        for scope in scopes {
            for (name, keys) in bindings[scope] ?? [:] where keys.contains(key) {
                return Self.defaults(scope).first { $0.name == name }?.keys.first ?? key
            }
        }
        for scope in scopes {
            for intent in Self.defaults(scope) where intent.keys.contains(key) {
                if bindings[scope]?[intent.name] == nil { return key }
            }
        }
        for scope in scopes where Self.defaults(scope).contains(where: { $0.keys.contains(key) && bindings[scope]?[$0.name] != nil }) {
            return nil
        }
        return key
    }

    // MARK: Parsing `[keys]`

    /// A problem with one entry of `[keys]`: what, for the entry named `entry`.
    public struct Problem: Error, Equatable, Sendable {
        public var entry: String
        public var message: String
    }

    /// Rebinds `name` ("like", or "viewer.like" for one context only) to the keys in `value` ("x", "Ctrl-E",
    /// "Space", several separated by spaces).
    public mutating func bind(_ name: String, to value: String) throws(Problem) {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let contexts: [KeyContext]
        let intent: String
        if parts.count == 2 {
            guard let context = KeyContext(rawValue: parts[0]) else {
                throw Problem(entry: name, message: "unknown context \(parts[0]). Contexts: \(KeyContext.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            guard Self.defaults(context).contains(where: { $0.name == parts[1] }) else {
                throw Problem(entry: name, message: "\(context.rawValue) has no \(parts[1]). Its intents: \(Self.defaults(context).map(\.name).joined(separator: ", ")).")
            }
            contexts = [context]
            intent = parts[1]
        } else {
            contexts = KeyContext.allCases.filter { context in Self.defaults(context).contains { $0.name == name } }
            guard !contexts.isEmpty else {
                let all = Set(KeyContext.allCases.flatMap { Self.defaults($0).map(\.name) }).sorted()
                throw Problem(entry: name, message: "unknown intent. Intents: \(all.joined(separator: ", ")).")
            }
            intent = name
        }
        var keys: [Key] = []
        for token in value.split(separator: " ", omittingEmptySubsequences: true) {
            guard let key = Self.key(named: String(token)) else {
                throw Problem(entry: name, message: "\(token) is not a key (a character, Space, Enter, Esc, Tab, Shift-Tab, Up, Down, Left, Right, PgUp, PgDn, Home, End, F1-F20, Ctrl-E, Ctrl-Y, Ctrl-L).")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { throw Problem(entry: name, message: "no key given.") }
        for context in contexts {
            bindings[context, default: [:]][intent] = keys
        }
    }

    /// After every `bind`: a key the user gave that another intent of the same context (or of everywhere) also
    /// has. Checked once all are bound, so that two intents may swap keys.
    public func checkConflicts() throws(Problem) {
        for context in KeyContext.allCases {
            if let clash = conflict(in: context) { throw clash }
        }
    }

    /// Two intents of one context (or of a context and everywhere) with the same key now, one of them the
    /// user's, if any.
    func conflict(in context: KeyContext) -> Problem? {
        let scopes = context == .everywhere || context == .login ? [context] : [context, .everywhere]
        var users: [(label: String, intent: String, keys: [Key])] = []
        var all: [(label: String, keys: [Key])] = []
        for scope in scopes {
            for intent in Self.defaults(scope) {
                let label = "\(scope.rawValue).\(intent.name)"
                if let keys = bindings[scope]?[intent.name] {
                    users.append((label, intent.name, keys))
                    all.append((label, keys))
                } else {
                    all.append((label, intent.keys))
                }
            }
        }
        for user in users {
            for key in user.keys {
                if let other = all.first(where: { $0.label != user.label && $0.keys.contains(key) }) {
                    return Problem(entry: user.label, message: "\(Self.name(key)) is already the key of \(other.label) (in \(context.rawValue)).")
                }
            }
        }
        return nil
    }

    /// The key a name in `[keys]` means.
    static func key(named name: String) -> Key? {
        let named: [String: Key] = [
            "space": .character(" "), "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "tab": .tab,
            "shift-tab": .backTab, "up": .up, "down": .down, "left": .left, "right": .right, "pgup": .pageUp,
            "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "home": .home, "end": .end,
            "backspace": .backspace, "delete": .delete, "insert": .insert, "ctrl-e": .lineDown, "ctrl-y": .lineUp,
            "ctrl-l": .redraw,
        ]
        if let key = named[name.lowercased()] { return key }
        if name.count > 1, name.lowercased().hasPrefix("f"), let number = Int(name.dropFirst()), (1...20).contains(number) {
            return .function(number)
        }
        guard name.count == 1, let character = name.first,
              !character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return .character(character)
    }

    /// A key as the help shows it.
    public static func name(_ key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case let .character(character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .interrupt: "Ctrl-C"
        case .lineDown: "Ctrl-E"
        case .lineUp: "Ctrl-Y"
        case .redraw: "Ctrl-L"
        case .insert: "Insert"
        case .delete: "Delete"
        case let .function(number): "F\(number)"
        case let .control(character): "Ctrl-\(character.uppercased())"
        }
    }
}
