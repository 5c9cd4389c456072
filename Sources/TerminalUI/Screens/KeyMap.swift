import Foundation
import ImageFeedCore

/// What a key means: the name `[keys]` in config.toml rebinds it by. A screen matches intents, never keys: the
/// key that means an intent is the user's (or the default of the intent's record).
public enum Intent: String, CaseIterable, Sendable {
    // Moving in a list or a grid, and panning a photo.
    case previous, next, up, down, left, right
    case pageUp = "page-up", pageDown = "page-down", lineDown = "line-down", lineUp = "line-up", first, last
    // What a photo or a list offers.
    case open, back, details, like, photographer, collect, share, download, tag, reload, sort
    case topics, yourPage = "your-page", logOut = "log-out"
    case columns, kind, orientation, color, safe
    case username
    case previousSection = "previous-section", nextSection = "next-section", takeOut = "take-out"
    // The viewer.
    case zoomIn = "zoom-in", zoomOut = "zoom-out", zoom, rotate, reset, statusLine = "status-line", blitter
    case play, nextFrame = "next-frame", previousFrame = "previous-frame"
    // Logging in.
    case logIn = "log-in", copyLink = "copy-link", openLink = "open-link", pasteCode = "paste-code", approve
    // Everywhere.
    case nextPane = "next-pane", previousPane = "previous-pane", search, help, redraw, quit

    /// Names an earlier version of the keymap had, still read from config.toml.
    static let formerNames: [String: Intent] = ["query": .search]
}

/// Where a key means something: a screen, or everywhere (the keys every screen but the login shares). The two
/// text fields are contexts too, with keys that are not rebound: every other key typed there is text.
public enum KeyContext: String, CaseIterable, Sendable {
    case login, feed, profile, search, detail, albums, viewer, sheet, everywhere
    case searchField = "search-field", albumField = "album-field"

    /// Names an earlier version had, still read from config.toml.
    static let formerNames: [String: KeyContext] = ["favorites": .profile, "page": .sheet]

    /// A text field: every key but a few is text there.
    var isTextField: Bool { self == .searchField || self == .albumField }

    /// The contexts whose keys also work in this one: the shared keys, except on the login screens and in fields.
    var scopes: [KeyContext] {
        switch self {
        case .login, .everywhere, .searchField, .albumField: [self]
        default: [self, .everywhere]
        }
    }

    /// The records of the context, each declared with the screen it belongs to.
    func records(demo: Bool) -> [KeyRecord] {
        switch self {
        case .login: LoginScreen.keys(demo: demo)
        case .feed: FeedPane.keys
        case .profile: ProfileScreen.keys
        case .search: SearchScreen.keys
        case .searchField: SearchScreen.fieldKeys
        case .detail: DetailScreen.keys
        case .albums: AlbumsScreen.keys
        case .albumField: AlbumsScreen.fieldKeys
        case .viewer: ViewerScreen.keys
        case .sheet: SheetScreen.keys
        case .everywhere: AppFrame.keys
        }
    }
}

/// One line of the help, and the status-line hint made from it: the intents it covers with their default keys,
/// what they do, what the mouse adds, and the hint's short label and rank (the lower, the sooner a narrow status
/// line shows it). A record without intents names keys that cannot be rebound (a text field's, Ctrl-C).
public struct KeyRecord: Sendable {
    public var intents: [(intent: Intent, keys: [Key])]
    public var what: String
    /// Shown after the keys in the help: ", click", ", wheel", "  1-4".
    public var extra: String
    /// For a record without intents: its keys as the help shows them.
    public var fixedKeys: String
    /// For a record without intents: its keys as its hint shows them.
    public var fixedHintKeys: String = ""
    public var hint: String?
    /// The hint names only the first intent's key ("Tab panes", not "Tab/Shift-Tab panes").
    public var hintFirstOnly = false
    public var rank: Int

    init(_ intents: [(Intent, [Key])], _ what: String, extra: String = "", hint: String? = nil, hintFirstOnly: Bool = false,
         rank: Int = 0) {
        self.intents = intents.map { (intent: $0.0, keys: $0.1) }
        self.what = what
        self.extra = extra
        self.fixedKeys = ""
        self.hint = hint
        self.hintFirstOnly = hintFirstOnly
        self.rank = rank
    }

    init(fixed keys: String, _ what: String, hint: String? = nil, hintKeys: String? = nil, rank: Int = 0) {
        self.intents = []
        self.what = what
        self.extra = ""
        self.fixedKeys = keys
        self.fixedHintKeys = hintKeys ?? keys
        self.hint = hint
        self.rank = rank
    }

}

/// The keys in force: the records' defaults, with the user's `[keys]` over them. The help overlay, the status
/// line's hints and the key list in docs/keys.md are all made from it, so a rebinding changes each of them.
///
/// A key the user gave means its intent; a default key whose intent the user gave other keys means nothing (unless
/// the user gave it to another intent).
public struct KeyMap: Equatable, Sendable {
    /// One line of the help as the user's keys make it.
    public struct Line: Equatable, Sendable {
        public var keys: String
        public var what: String
    }

    /// The user's keys, by context and intent.
    public private(set) var bindings: [KeyContext: [Intent: [Key]]] = [:]
    /// The contexts and intents given keys by a `context.intent` entry: an intent-wide entry does not take them back,
    /// whichever the file names first (the narrower entry wins).
    private var boundForOneContext: Set<String> = []

    public init() {}

    public static let standard = KeyMap()

    /// Each intent of a context with its default keys.
    static func defaults(_ context: KeyContext) -> [(intent: Intent, keys: [Key])] {
        context.records(demo: true).flatMap(\.intents)
    }

    /// The keys of an intent in a context now.
    public func keys(_ intent: Intent, in context: KeyContext) -> [Key] {
        // A key the user gave another intent is taken from the default that had it (`like = "j"`: j likes, ↓ moves).
        let taken = context.scopes.flatMap { scope in (bindings[scope] ?? [:]).filter { $0.key != intent }.values.joined() }
        for scope in context.scopes {
            if let bound = bindings[scope]?[intent] { return bound }
            if let record = Self.defaults(scope).first(where: { $0.intent == intent }) { return record.keys.filter { !taken.contains($0) } }
        }
        return []
    }

    /// What `key` means in `context` (the context of the screen in front of the user); nil when it means nothing
    /// there, or no longer (its intent was given other keys).
    public func intent(of key: Key, in context: KeyContext) -> Intent? {
        let scopes = context.scopes
        for scope in scopes {
            for (intent, keys) in bindings[scope] ?? [:] where keys.contains(key) { return intent }
        }
        for scope in scopes {
            for record in Self.defaults(scope) where record.keys.contains(key) && bindings[scope]?[record.intent] == nil {
                return record.intent
            }
        }
        return nil
    }

    /// The intent of a key event in `context`; nil for clicks, resizes and keys that mean nothing there.
    func intent(of input: InputEvent, in context: KeyContext) -> Intent? {
        guard case let .key(key) = input else { return nil }
        return intent(of: key, in: context)
    }

    // MARK: What the user reads

    static let shownKeysWidth = 21

    /// A record's keys as the help shows them: the first key of each intent, then the second of each, and so on
    /// ("↑ ↓  k j"), and what the mouse adds.
    func shownKeys(_ record: KeyRecord, in context: KeyContext) -> String {
        guard !record.intents.isEmpty else { return record.fixedKeys }
        let bound = record.intents.map { self.keys($0.intent, in: context) }
        let depth = bound.map(\.count).max() ?? 0
        var groups = (0..<depth).map { index in bound.compactMap { $0[safe: index] }.map(Self.name).joined(separator: " ") }
        // The help's key column is 21 wide: alternates that do not fit are left to the description and keys.md.
        while groups.count > 1, DisplayWidth.of(groups.joined(separator: "  ") + record.extra) > Self.shownKeysWidth { groups.removeLast() }
        return groups.joined(separator: "  ") + record.extra
    }

    /// The help's lines for a context, then (but on the login screens and in fields) the ones that work everywhere.
    /// `shows`: whether an intent of the context's own records applies to what the screen shows now (a topics page
    /// has no sections, likes or photographer); the keys of everywhere are always listed.
    public func lines(_ context: KeyContext, demo: Bool = false, shows: (Intent) -> Bool = { _ in true }) -> [Line] {
        context.scopes.flatMap { scope in
            scope.records(demo: demo)
                .filter { record in scope != context || record.intents.contains { shows($0.intent) } || record.intents.isEmpty }
                .map { Line(keys: shownKeys($0, in: context), what: $0.what) }
        }
    }

    /// The status line's hints for a context, the ones that matter most first: each record with a hint whose
    /// intents `shows` lets through, as "f like" with the keys now in force. `labels` says it otherwise where the
    /// screen's state changes what an intent does ("r retry"); `ranks` puts a hint sooner where it matters more
    /// (`/` in the search pane).
    public func hints(_ context: KeyContext, demo: Bool = false, labels: [Intent: String] = [:], ranks: [Intent: Int] = [:],
                      shows: (Intent) -> Bool = { _ in true }) -> [String] {
        let records = context.scopes.flatMap { $0.records(demo: demo) }
            .filter { $0.hint != nil && $0.intents.allSatisfy { shows($0.intent) } }
        func rank(_ record: KeyRecord) -> Int { record.intents.first.flatMap { ranks[$0.intent] } ?? record.rank }
        return records.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map { _, record in
            let label = record.intents.first.flatMap { labels[$0.intent] } ?? record.hint ?? ""
            return hintKeys(record, in: context) + " " + label
        }
    }

    /// The first key of an intent as a hint shows it ("b").
    func hintKeys(_ intent: Intent, in context: KeyContext) -> String {
        keys(intent, in: context).first.map(Self.name) ?? ""
    }

    /// The first key of an intent in the first context that has it (for text outside any one screen).
    public func anyKey(_ intent: Intent) -> String {
        let context = KeyContext.allCases.first { context in Self.defaults(context).contains { $0.intent == intent } } ?? .everywhere
        return hintKeys(intent, in: context)
    }

    /// A hint's keys: the first key of each intent, arrows side by side ("↑↓"), others apart ("n/p").
    func hintKeys(_ record: KeyRecord, in context: KeyContext) -> String {
        guard !record.intents.isEmpty else { return record.fixedHintKeys }
        let names = record.intents.prefix(record.hintFirstOnly ? 1 : record.intents.count)
            .compactMap { keys($0.intent, in: context).first }.map(Self.name)
        let arrows: Set<String> = ["↑", "↓", "←", "→"]
        return names.allSatisfy(arrows.contains) ? names.joined() : names.joined(separator: "/")
    }

    /// Every intent that can be rebound, with the contexts it works in (docs/keys.md lists them).
    public static var intentsByContext: [(intent: Intent, contexts: [KeyContext])] {
        Intent.allCases.compactMap { intent in
            let contexts = KeyContext.allCases.filter { context in defaults(context).contains { $0.intent == intent } }
            return contexts.isEmpty ? nil : (intent, contexts)
        }
    }

    // MARK: Parsing `[keys]`

    /// A problem with one entry of `[keys]`: what, for the entry named `entry`.
    public struct Problem: Error, Equatable, Sendable {
        public var entry: String
        public var message: String
    }

    static func intent(named name: String) -> Intent? {
        Intent(rawValue: name) ?? Intent.formerNames[name]
    }

    /// Rebinds `name` ("like", or "viewer.like" for one context only) to the keys in `value` ("x", "Ctrl-E",
    /// "Space", several separated by spaces).
    public mutating func bind(_ name: String, to value: String) throws(Problem) {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let contexts: [KeyContext]
        let intent: Intent
        if parts.count == 2 {
            guard let context = KeyContext(rawValue: parts[0]) ?? KeyContext.formerNames[parts[0]] else {
                throw Problem(entry: name, message: "unknown context \(parts[0]). Contexts: \(KeyContext.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            guard let named = Self.intent(named: parts[1]), Self.defaults(context).contains(where: { $0.intent == named }) else {
                let intents = Self.defaults(context).map(\.intent.rawValue)
                throw Problem(entry: name, message: "\(context.rawValue) has no \(parts[1])."
                              + (intents.isEmpty ? " Its keys cannot be changed." : " Its intents: \(intents.joined(separator: ", "))."))
            }
            contexts = [context]
            intent = named
        } else {
            let named = Self.intent(named: name)
            contexts = KeyContext.allCases.filter { context in Self.defaults(context).contains { $0.intent == named } }
            guard let named, !contexts.isEmpty else {
                let all = Set(KeyContext.allCases.flatMap { Self.defaults($0).map(\.intent.rawValue) }).sorted()
                throw Problem(entry: name, message: "unknown intent. Intents: \(all.joined(separator: ", ")).")
            }
            intent = named
        }
        var keys: [Key] = []
        for token in value.split(separator: " ", omittingEmptySubsequences: true) {
            guard let key = Self.key(named: String(token)) else {
                throw Problem(entry: name, message: "\(token) is not a key (a character, Space, Enter, Esc, Tab, Shift-Tab, Up, Down, Left, Right, PgUp, PgDn, Home, End, F1-F20, Ctrl-A to Ctrl-Y but Ctrl-C, H, I, J, M, Q, S).")
            }
            keys.append(key)
        }
        guard !keys.isEmpty else { throw Problem(entry: name, message: "no key given.") }
        for context in contexts {
            let pair = "\(context.rawValue).\(intent.rawValue)"
            if parts.count == 2 {
                boundForOneContext.insert(pair)
            } else if boundForOneContext.contains(pair) {
                continue
            }
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
        var users: [(label: String, keys: [Key])] = []
        var all: [(label: String, keys: [Key])] = []
        for scope in context.scopes {
            for record in Self.defaults(scope) {
                let label = "\(scope.rawValue).\(record.intent.rawValue)"
                if let keys = bindings[scope]?[record.intent] {
                    users.append((label, keys))
                    all.append((label, keys))
                } else {
                    all.append((label, record.keys))
                }
            }
        }
        // Two of the user's own with one key clash; a default gives its key up to the user's.
        for user in users {
            for key in user.keys {
                if let other = users.first(where: { $0.label != user.label && $0.keys.contains(key) }) {
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
        // Ctrl and a letter the terminal sends as its own code (as the decoder reads it).
        if name.lowercased().hasPrefix("ctrl-"), name.count == 6, let letter = name.lowercased().last, ("a"..."z").contains(letter),
           let scalar = letter.asciiValue.map({ Unicode.Scalar($0 - 0x60) }), case let .control(character)? = InputDecoder.control(scalar) {
            return .control(character)
        }
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
        case .suspend: "Ctrl-Z"
        case .insert: "Insert"
        case .delete: "Delete"
        case let .function(number): "F\(number)"
        case let .control(character): "Ctrl-\(character.uppercased())"
        }
    }
}

/// The records several screens share, declared once.
enum SharedKeys {
    typealias R = KeyRecord
    static func c(_ character: Character) -> Key { .character(character) }

    static let move = R([(.previous, [.up, c("k")]), (.next, [.down, c("j")])], "previous / next photo", hint: "move", rank: 90)
    static let grid = R([(.up, [.up, c("k")]), (.down, [.down, c("j")]), (.left, [.left, c("h")]), (.right, [.right, c("l")])],
                        "move between tiles", hint: "move", rank: 90)
    /// Cards stand side by side on very wide terminals (`CardLayout.gridWidth`): the arrows and h/l move between them.
    static let beside = R([(.left, [.left, c("h")]), (.right, [.right, c("l")])],
                          "the photo beside it (a grid from \(CardLayout.gridWidth) columns)")
    /// With the keys less and vim users reach for (the help has room for the first).
    static let pages = R([(.pageUp, [.pageUp, .control("b"), .control("u")]), (.pageDown, [.pageDown, .control("f"), .control("d")])],
                         "a screen up / down; Ctrl-B/U, Ctrl-F/D too")
    static let lines = R([(.lineDown, [.lineDown]), (.lineUp, [.lineUp])], "move the list by a line (wheel: 3)", extra: ", wheel")
    static let ends = R([(.first, [c("g"), .home]), (.last, [c("G"), .end])], "first / last photo")
    static func open(_ what: String, hint: String = "open") -> R { R([(.open, [.enter])], what, extra: ", click", hint: hint, rank: 30) }
    static let details = R([(.details, [c("i")])], "details: description, place, camera, author", hint: "details", rank: 60)
    /// f alone: Space is a player's key (it plays and pauses an animation in the viewer), never a public act.
    static let like = R([(.like, [c("f")])], "like / unlike", hint: "like", rank: 40)
    static func photographer(_ what: String = "the photographer: photos, likes, collections") -> R {
        R([(.photographer, [c("u")])], what, hint: "photographer", rank: 70)
    }
    static let collect = R([(.collect, [c("c")])], "add to one of your collections", hint: "collect", rank: 78)
    static let share = R([(.share, [c("y"), c("o")])], "copy the link (and open it in a browser)", hint: "link", rank: 66)
    static let download = R([(.download, [c("d")])], "download the full-size photo", hint: "download", rank: 64)
    static func reload(_ what: String, hint: String = "reload") -> R { R([(.reload, [c("r")])], what, hint: hint, rank: 50) }
    static let sort = R([(.sort, [c("s")])], "sort: latest, oldest, popular", hint: "sort", rank: 75)
    static func back(_ what: String = "back") -> R { R([(.back, [.escape, .backspace])], what, hint: "back", rank: 0) }

    /// What every list of photo cards has.
    static let cardList: [R] = [move, beside, pages, lines, ends, open("open the photo full screen"), details, like, photographer()]
}

extension RandomAccessCollection where Index == Int {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
