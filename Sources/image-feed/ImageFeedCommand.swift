import Synchronization
import ArgumentParser
import Foundation
import ImageFeedApp
import ImageFeedCore
import TerminalImage
import TerminalUI
import UnsplashAPI

/// Options every command takes.
struct ServiceOptions: ParsableArguments {
    @Flag(help: "Use the built-in Unsplash sandbox on loopback: no network, no API key.")
    var demo = false

    @Option(help: "The API's base URL (default https://api.unsplash.com, or IMAGE_FEED_API_BASE).")
    var apiBase: String?

    @Option(help: "The config file (default $XDG_CONFIG_HOME/image-feed/config.toml).")
    var config: String?

    @Option(help: "What goes to $XDG_STATE_HOME/image-feed/image-feed.log: trace, debug, info, notice, warning, error, critical or off (default: IMAGE_FEED_LOG_LEVEL, or info).")
    var logLevel: String?

    /// Loads the configuration and builds the app; on failure prints the reason and exits non-zero.
    func makeContext(_ command: String) async throws -> CompositionRoot {
        do {
            let configuration = try Settings.load(
                overrides: Settings.Overrides(apiBase: apiBase, configFile: config))
            try Logs.startCommand(command + (demo ? " --demo" : ""), configuration: configuration, flag: logLevel)
            for warning in configuration.warnings {
                StandardError.write("image-feed: warning: \(warning)\n")
            }
            return try await CompositionRoot.make(configuration: configuration, demo: demo)
        } catch let error as ConfigurationError {
            throw Failure(message: error.message)
        } catch {
            throw Failure(message: String(describing: error))
        }
    }
}

/// An error to report on stderr as "image-feed: MESSAGE", exiting with status 1.
struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs a command's work, stops the in-process sandbox afterwards, and turns errors into messages.
func withContext(_ options: ServiceOptions, command: String, _ work: (CompositionRoot) async throws -> Void) async throws {
    let context = try await options.makeContext(command)
    do {
        try await work(context)
        await context.stop()
    } catch {
        await context.stop()
        let message: String
        switch error {
        case let error as ServiceError: message = error.message
        case let error as OAuthError: message = error.message
        case let error as Failure: message = error.message
        default: message = String(describing: error)
        }
        Logs.failure(message)
        StandardError.write("image-feed: \(message)\n")
        throw ExitCode.failure
    }
}

/// `me` needs a user: the demo logs in to the sandbox; otherwise a stored or given token.
func requireLogin(_ context: CompositionRoot) async throws {
    if context.isDemo {
        try await context.logInToDemo()
    } else if !context.client.isLoggedIn {
        throw Failure(message: "Not logged in. Set IMAGE_FEED_TOKEN to an Unsplash access token, or use --demo.")
    }
}

@main
struct ImageFeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image-feed",
        abstract: "Browse Unsplash from the terminal.",
        discussion: """
            Run with no command to browse full screen. To try it without an Unsplash account or \
            network, run `image-feed --demo` (every command takes --demo). The other commands print \
            JSON for scripts.

            Settings come from $XDG_CONFIG_HOME/image-feed/config.toml, then the environment \
            (UNSPLASH_ACCESS_KEY, UNSPLASH_SECRET_KEY, UNSPLASH_REDIRECT_URI, IMAGE_FEED_API_BASE, \
            IMAGE_FEED_OAUTH_BASE, IMAGE_FEED_TOKEN, IMGUR_CLIENT_ID, IMGUR_API_BASE), then flags.
            """,
        version: ImageFeedVersion.line,
        subcommands: [Browse.self, LoginCommand.self, LogoutCommand.self, FeedCommand.self, PhotoCommand.self, SearchCommand.self,
                      MeCommand.self, UserCommand.self, TopicsCommand.self, TopicCommand.self, CollectionCommand.self, AlbumsCommand.self, AlbumCommand.self, RenderCommand.self, CacheCommand.self, DoctorCommand.self],
        defaultSubcommand: Browse.self)

    /// A first word that names no command (`image-feed serach cat`) is a mistyped command, not arguments of the
    /// default one: say which command was meant, as a mistyped option already gets.
    /// Every failure, a usage error or one met while working, starts the same way.
    static var _errorPrefix: String { "image-feed: " }

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        StandardOutput.prepare()
        if arguments.first == "render", let render = RenderArguments.quick(Array(arguments.dropFirst())) {
            // A previewer's common case skips the library's reflection: about 5 ms of its start (docs/dev/benchmarks.md).
            do {
                try await RenderCommand.perform(render)
            } catch {
                Foundation.exit((error as? ExitCode)?.rawValue ?? ExitCode.failure.rawValue)
            }
        } else {
            if let first = arguments.first, !first.hasPrefix("-"), let message = CommandSuggestion.message(for: first) {
                StandardError.write("image-feed: \(message)\n")
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            await main(arguments)
        }
        // A command that printed its answer succeeded only if the answer got out.
        do {
            try StandardOutput.flush()
        } catch {
            StandardError.write("image-feed: \(error.message)\n")
            Foundation.exit(ExitCode.failure.rawValue)
        }
    }
}

/// What to say of a word that names no command: the nearest command, if one is near.
enum CommandSuggestion {
    static var names: [String] {
        ImageFeedCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// Nil when `word` is a command.
    static func message(for word: String) -> String? {
        let names = Self.names
        guard !names.contains(word) else { return nil }
        let shown = UntrustedText.sanitize(String(word.prefix(40)))
        let nearest = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        if let nearest, nearest.1 <= max(1, nearest.0.count / 3) {
            return "'\(shown)' is not a command. Did you mean '\(nearest.0)'? (image-feed --help lists them.)"
        }
        return "'\(shown)' is not a command; they are: \(names.filter { $0 != "help" }.joined(separator: ", "))."
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}

struct Browse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse", abstract: "Browse the feed full screen (the default command).")

    @OptionGroup var options: ServiceOptions

    @Flag(help: "Print the newest photos as text instead of opening the full-screen interface.")
    var plain = false

    @Option(help: "auto, truecolor, 256, 16, 8 or none (default: the colors setting, IMAGE_FEED_COLORS, or auto).")
    var colors: String?

    @Option(help: "auto, kitty, kitty-placeholders, sixel, iterm2 or cells: how photos are drawn (default: the graphics setting, IMAGE_FEED_GRAPHICS, or auto).")
    var graphics: String?

    @Option(help: "half, quadrant, sextant or blocks: the characters photos are drawn with when not in pixels (default: the blitter setting, IMAGE_FEED_BLITTER, or the richest the terminal draws; doctor says which).")
    var blitter: String?

    @Option(help: "dark, light or high-contrast: the interface's colours (default: the theme setting, IMAGE_FEED_THEME, or dark).")
    var theme: String?

    @Option(help: "auto, fast or slow: how pictures are sized for the link to the terminal (default: the link setting, IMAGE_FEED_LINK, or auto, which measures it).")
    var link: String?

    @Flag(name: .customShort("V"), help: "Print the version (as --version does) and exit.")
    var printVersion = false

    func validate() throws {
        if let graphics, graphics.lowercased() != "auto", GraphicsMode(rawValue: graphics.lowercased()) == nil {
            throw ValidationError("--graphics is \(GraphicsMode.spoken()).")
        }
        if let blitter, BlitterKind(rawValue: blitter.lowercased()) == nil {
            throw ValidationError("--blitter is half, quadrant, sextant or blocks.")
        }
        if let link, LinkSetting(rawValue: link.lowercased()) == nil {
            throw ValidationError("--link is auto, fast or slow.")
        }
        if let theme, ThemeName(rawValue: theme.lowercased()) == nil {
            throw ValidationError("--theme is dark, light or high-contrast.")
        }
        if let colors, colors.lowercased() != "auto", colors.lowercased() != "24bit", ColorMode(rawValue: colors.lowercased()) == nil {
            throw ValidationError("--colors is auto, truecolor, 256, 16, 8 or none.")
        }
    }

    func run() async throws {
        if printVersion {
            print(ImageFeedVersion.line)
            return
        }
        let interactive = !plain && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        try await withContext(options, command: "browse") { context in
            if interactive {
                // The flag wins over the config file and the environment; "auto" asks the terminal again.
                var choice = context.configuration.colors
                if let colors {
                    let lowered = colors.lowercased()
                    choice = lowered == "auto" ? nil : lowered == "24bit" ? .truecolor : ColorMode(rawValue: lowered)
                }
                var pictures = context.configuration.graphics
                if let graphics { pictures = GraphicsMode(rawValue: graphics.lowercased()) }
                if let message = try InteractiveSession.run(context: context, colors: choice, graphics: pictures,
                                                            blitter: blitter.flatMap { BlitterKind(rawValue: $0.lowercased()) },
                                                            themeName: theme.flatMap { ThemeName(rawValue: $0.lowercased()) },
                                                            link: link.flatMap { LinkSetting(rawValue: $0.lowercased()) }) {
                    StandardError.write("image-feed: \(message)\n")
                }
                return
            }
            let page = try await context.client.feed(page: 1, perPage: maximumPageSize)
            let source = context.isDemo ? "the demo sandbox at \(context.configuration.apiBase.absoluteString)"
                : context.configuration.apiBase.absoluteString
            print("ImageFeed: the newest \(page.items.count) photos from \(source)")
            print("")
            for photo in page.items { print(TextListing.line(for: photo)) }
        }
    }
}

struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed", abstract: "Print the editorial feed as JSON: a listing of photos (--pages N fetches N pages into one).")

    @OptionGroup var options: ServiceOptions

    @Option(help: "How many pages to fetch.")
    var pages = 1

    @Option(help: "Photos a page (1-30).")
    var perPage = maximumPageSize

    func validate() throws {
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1.") }
        guard (1...maximumPageSize).contains(perPage) else { throw ValidationError("--per-page must be 1 to 30.") }
    }

    func run() async throws {
        try await withContext(options, command: "feed") { context in
            var photos: [Photo] = []
            var next: Int? = 1
            var fetched = 0
            var skipped = 0
            while let page = next, fetched < pages {
                let result = try await context.client.feed(page: page, perPage: perPage)
                let known = Set(photos.map(\.id))
                photos += result.items.filter { !known.contains($0.id) }
                skipped += result.skippedItems
                next = result.nextPage
                fetched += 1
            }
            print(try JSONOutput.encode(JSONOutput.PageDocument(
                items: photos, itemsName: "photos", perPage: perPage, nextPage: next, skipped: skipped)))
        }
    }
}

struct PhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "photo", abstract: "Print one photo as JSON.")

    @OptionGroup var options: ServiceOptions

    @Argument(help: "The photo's id.")
    var id: String

    func run() async throws {
        try await withContext(options, command: "photo") { context in
            print(try JSONOutput.encode(try await context.client.photo(id: id)))
        }
    }
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search photos; print a page of results as JSON.")

    @OptionGroup var options: ServiceOptions

    @OptionGroup var pages: PageOptions

    @Argument(help: "What to look for.")
    var query: String

    @Option(help: "relevant or latest.")
    var orderBy: String = SearchOrder.relevant.rawValue

    @Option(help: "landscape, portrait or squarish.")
    var orientation: String?

    @Option(help: "black_and_white, black, white, yellow, orange, red, purple, magenta, green, teal or blue.")
    var color: String?

    @Option(help: "low (the default) or high: high leaves out photos that may not be safe for work.")
    var contentFilter: String = SearchFilters.ContentFilter.low.rawValue

    @Flag(help: "Search for people instead of photos.")
    var users = false

    @Flag(help: "Search for collections instead of photos.")
    var collections = false

    func validate() throws {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("The query is empty.") }
        guard SearchOrder(rawValue: orderBy) != nil else { throw ValidationError("--order-by is relevant or latest.") }
        _ = try filters()
        guard !(users && collections) else { throw ValidationError("--users and --collections go one at a time.") }
    }

    /// The filters the flags ask for.
    func filters() throws -> SearchFilters {
        var filters = SearchFilters()
        if let orientation {
            guard let value = SearchFilters.Orientation(rawValue: orientation) else {
                throw ValidationError("--orientation is landscape, portrait or squarish.")
            }
            filters.orientation = value
        }
        if let color {
            guard let value = SearchFilters.Color(rawValue: color) else {
                throw ValidationError("--color is one of " + SearchFilters.Color.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            filters.color = value
        }
        guard let content = SearchFilters.ContentFilter(rawValue: contentFilter) else { throw ValidationError("--content-filter is low or high.") }
        filters.contentFilter = content
        return filters
    }

    func run() async throws {
        try await withContext(options, command: "search") { context in
            if users {
                let result = try await context.client.searchUsers(query: query, page: pages.page, perPage: pages.perPage)
                print(try JSONOutput.encode(JSONOutput.PageDocument(result, itemsName: "users")))
            } else if collections {
                let result = try await context.client.searchCollections(query: query, page: pages.page, perPage: pages.perPage)
                print(try JSONOutput.encode(JSONOutput.PageDocument(result, itemsName: "collections")))
            } else {
                let result = try await context.client.search(query: query, page: pages.page, perPage: pages.perPage,
                                                             order: SearchOrder(rawValue: orderBy) ?? .relevant, filters: try filters())
                print(try JSONOutput.encode(JSONOutput.PageDocument(result, itemsName: "photos")))
            }
        }
    }
}

/// The page options of the listing commands.
struct PageOptions: ParsableArguments {
    @Option(help: "The page to print.")
    var page = 1

    @Option(help: "Items a page (1-30).")
    var perPage = maximumPageSize

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be at least 1.") }
        guard (1...maximumPageSize).contains(perPage) else { throw ValidationError("--per-page must be 1 to 30.") }
    }
}

/// `latest`, `oldest` or `popular`, as the photo listings take them.
func photoOrder(_ text: String) throws -> PhotoOrder {
    guard let order = PhotoOrder(rawValue: text) else { throw ValidationError("--order-by is latest, oldest or popular.") }
    return order
}

/// A listing's 404, said as the thing that was not found.
func notFound<T>(_ what: String, _ work: () async throws -> T) async throws -> T {
    do {
        return try await work()
    } catch ServiceError.notFound {
        throw Failure(message: "No \(what).")
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Print a photographer as JSON: their profile, or a page of their photos, likes or collections.")

    @OptionGroup var options: ServiceOptions
    @OptionGroup var pages: PageOptions

    @Argument(help: "The username.")
    var username: String

    @Flag(help: "Their photos.")
    var photos = false

    @Flag(help: "The photos they liked.")
    var likes = false

    @Flag(help: "Their collections.")
    var collections = false

    @Option(help: "With --photos: latest, oldest or popular.")
    var orderBy: String = PhotoOrder.latest.rawValue

    func validate() throws {
        guard !username.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("The username is empty.") }
        guard [photos, likes, collections].filter({ $0 }).count <= 1 else {
            throw ValidationError("--photos, --likes and --collections go one at a time.")
        }
        _ = try photoOrder(orderBy)
    }

    func run() async throws {
        try await withContext(options, command: "user") { context in
            try await notFound("user \(username)") {
                let client = context.client
                if photos {
                    let source = PhotoListSource.userPhotos(username: username, order: try photoOrder(orderBy))
                    let page = try await client.photos(from: source, page: pages.page, perPage: pages.perPage)
                    print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "photos")))
                } else if likes {
                    let page = try await client.photos(from: .userLikes(username: username), page: pages.page, perPage: pages.perPage)
                    print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "photos")))
                } else if collections {
                    let page = try await client.userCollections(username: username, page: pages.page, perPage: pages.perPage)
                    print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "collections")))
                } else {
                    print(try JSONOutput.encode(try await client.user(username: username)))
                }
            }
        }
    }
}

struct TopicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "topics", abstract: "Print a page of Unsplash's topics as JSON.")

    @OptionGroup var options: ServiceOptions
    @OptionGroup var pages: PageOptions

    func run() async throws {
        try await withContext(options, command: "topics") { context in
            let page = try await context.client.topics(page: pages.page, perPage: pages.perPage)
            print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "topics")))
        }
    }
}

struct TopicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "topic", abstract: "Print a page of a topic's photos as JSON.")

    @OptionGroup var options: ServiceOptions
    @OptionGroup var pages: PageOptions

    @Argument(help: "The topic's slug or id (as `topics` prints it).")
    var slug: String

    @Option(help: "latest, oldest or popular.")
    var orderBy: String = PhotoOrder.latest.rawValue

    func validate() throws {
        _ = try photoOrder(orderBy)
    }

    func run() async throws {
        try await withContext(options, command: "topic") { context in
            try await notFound("topic \(slug)") {
                let source = PhotoListSource.topicPhotos(slug: slug, order: try photoOrder(orderBy))
                let page = try await context.client.photos(from: source, page: pages.page, perPage: pages.perPage)
                print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "photos")))
            }
        }
    }
}

struct CollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection", abstract: "Print a collection as JSON, or with --photos a page of its photos.")

    @OptionGroup var options: ServiceOptions
    @OptionGroup var pages: PageOptions

    @Argument(help: "The collection's id.")
    var id: String

    @Flag(help: "Its photos.")
    var photos = false

    func run() async throws {
        try await withContext(options, command: "collection") { context in
            try await notFound("collection \(id)") {
                if photos {
                    let page = try await context.client.photos(from: .collectionPhotos(id: id), page: pages.page, perPage: pages.perPage)
                    print(try JSONOutput.encode(JSONOutput.PageDocument(page, itemsName: "photos")))
                } else {
                    print(try JSONOutput.encode(try await context.client.collection(id: id)))
                }
            }
        }
    }
}

struct MeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "me", abstract: "Print the logged-in user's profile as JSON.")

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        try await withContext(options, command: "me") { context in
            try await requireLogin(context)
            print(try JSONOutput.encode(try await context.client.me()))
        }
    }
}

/// The Imgur source, or a message saying how to set it up.
func albumService(_ context: CompositionRoot) throws -> any AlbumService {
    guard let albums = context.albums else {
        throw Failure(message: "No Imgur client id is configured. Set IMGUR_CLIENT_ID (or imgur_client_id in the config file), or use --demo."
            + " Imgur registers no new applications (since mid-2025): only an existing application's client id works.")
    }
    return albums
}

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums", abstract: "Print an Imgur user's albums as JSON (a page of 50).")

    @OptionGroup var options: ServiceOptions

    @Argument(help: "The Imgur username.")
    var username: String

    @Option(help: "The page to print.")
    var page = 1

    func validate() throws {
        guard !username.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("The username is empty.") }
        guard page >= 1 else { throw ValidationError("--page must be at least 1.") }
    }

    func run() async throws {
        try await withContext(options, command: "albums") { context in
            let result: Page<Album>
            do {
                result = try await albumService(context).albums(username: username, page: page)
            } catch ServiceError.notFound {
                throw Failure(message: "No Imgur user \(username).")
            }
            print(try JSONOutput.encode(JSONOutput.PageDocument(result, itemsName: "albums")))
        }
    }
}

struct AlbumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "album", abstract: "Print the photos of an Imgur album as JSON (the listing's shape, with every photo on page 1).")

    @OptionGroup var options: ServiceOptions

    @Argument(help: "The album's id (as `albums` prints it).")
    var id: String

    func run() async throws {
        try await withContext(options, command: "album") { context in
            let photos = try await albumService(context).photos(inAlbum: id)
            print(try JSONOutput.encode(JSONOutput.PageDocument(items: photos, itemsName: "photos", perPage: photos.count)))
        }
    }
}

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Draw one picture (JPEG, PNG, GIF, WebP, BMP, TIFF or MP4; a file or URL) on standard output; an animation plays in place.")

    @Argument(help: "A file path, or an https URL (http only on loopback).")
    var source: String

    @Option(help: "Width in cells (default: the terminal's, or 80).")
    var cols: Int?

    @Option(help: "Height in cells (default: the terminal's less one line, or 24).")
    var rows: Int?

    @Option(help: "truecolor, 256, 16, 8 or none (default: from COLORTERM, TERM and NO_COLOR).")
    var colors: String?

    @Option(help: "auto, kitty, sixel, iterm2 or cells: pixels for terminals that show pictures (default auto: kitty in kitty and Ghostty, iterm2 in iTerm2 and WezTerm, else cells).")
    var graphics: String?

    @Option(name: .customLong("cell-size"), help: "A cell's size in pixels, WxH, for kitty, sixel and iterm2 (default: the terminal's, else 10x20).")
    var cellSize: String?

    @Option(help: "half, quadrant, sextant or blocks: the characters of a photo drawn as cells (default half, which every font draws, whatever the full-screen app's blitter setting).")
    var blitter: String?

    @Option(help: "on, off or safe: play an animation (GIF, WebP, MP4) in place (default on where standard output is a terminal, or as IMAGE_FEED_ANIMATIONS says; off: its first frame; safe: its first frame if it flashes more than three times a second).")
    var animate: String?

    @Option(help: "How many times an animation plays (default: as the file says; 0: until Ctrl-C).")
    var loops: Int?

    @Option(help: "Seconds an animation plays at most (default: until its loops end).")
    var duration: Double?

    /// The same values as `RenderArguments.quick` reads without this library (see `ImageFeedCommand.main`).
    var arguments: RenderArguments {
        RenderArguments(source: source, cols: cols, rows: rows, colors: colors, graphics: graphics, cellSize: cellSize,
                        blitter: blitter, animate: animate, loops: loops, duration: duration)
    }

    func validate() throws {
        if let problem = arguments.problem { throw ValidationError(problem) }
    }

    func run() async throws {
        try await Self.perform(arguments)
    }

    /// Draws the picture; on failure prints why and throws `ExitCode.failure`.
    static func perform(_ arguments: RenderArguments) async throws {
        let environment = ProcessInfo.processInfo.environment
        let terminal = TerminalEnvironment.size()
        let decided = arguments.decide(environment: environment)
        let mode = decided.colors
        // A previewer reads no config file; the environment can still raise or lower the pixel budget.
        if let megapixels = environment["IMAGE_FEED_MAX_IMAGE_MEGAPIXELS"].flatMap(Int.init).flatMap(Settings.megapixels) {
            ImageCodec.pixelBudget = megapixels * 1_000_000
        }
        do {
            let data = try await PictureCommand.load(arguments.source, http: { CurlHTTPClient() })
            let chosen = decided.graphics
            let cell = arguments.cellSize.flatMap(RenderArguments.cellSize) ?? TerminalEnvironment.cellSize() ?? (10, 20)
            let columns = arguments.cols ?? terminal?.columns ?? 80
            let rows = arguments.rows ?? terminal.map { max(1, $0.rows - 1) } ?? 24
            let kind = arguments.blitter.flatMap { BlitterKind(rawValue: $0.lowercased()) } ?? .half
            let unicode = TerminalEnvironment.isUTF8(environment)
            // The option, else the animations setting of the environment (off and safe; a previewer reads no config file).
            let animate = arguments.animate?.lowercased() ?? RenderArguments.animate(environment: environment)
            // An animation plays in place where a person watches (a terminal); a pipe or a file gets its first frame.
            if animate != "off", isatty(STDOUT_FILENO) == 1 || animate == "on", AnimationFormat(sniffing: data) != nil {
                trapInterrupt()
                try AnimationCommand.play(data, columns: columns, rows: rows, graphics: chosen, cellWidth: cell.0, cellHeight: cell.1,
                                          mode: mode, unicode: unicode, blitter: kind, kittyPlays: decided.playback != .framesInPlace,
                                          plan: AnimationCommand.Plan(loops: arguments.loops, duration: arguments.duration, safe: animate == "safe"),
                                          output: AnimationCommand.Output(write: { try StandardOutput.write($0) },
                                                                          stopped: { signalled.pointee != 0 }, stop: decodeStop,
                                                                          say: { StandardError.write("image-feed: \($0)\n") }))
                // Ended by a signal: the status a shell expects of it (130 for Ctrl-C).
                if signalled.pointee != 0 { throw ExitCode(128 + signalled.pointee) }
                return
            }
            let bytes = try PictureCommand.render(data, columns: columns, rows: rows, graphics: chosen, cellWidth: cell.0, cellHeight: cell.1,
                                                  mode: mode, unicode: unicode, blitter: kind)
            try StandardOutput.write(bytes)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            StandardError.write("image-feed: \((error as? ServiceError)?.message ?? String(describing: error))\n")
            throw ExitCode.failure
        }
    }
}

extension RenderCommand {
    /// Ctrl-C (or a file manager's SIGTERM, or a closed terminal's SIGHUP) while an animation is read or plays: the
    /// signal's number, and the stop the decode sees between the lines and rows of a frame. Reading stops within a
    /// row, playing after the frame being drawn, and the cursor comes back.
    nonisolated(unsafe) static let signalled: UnsafeMutablePointer<Int32> = {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
    static let decodeStop = DecodeStop()

    static func trapInterrupt() {
        // Made before a handler can need them (a handler must not be the first to touch a lazy global).
        _ = signalled
        _ = decodeStop
        _ = AnimationCommand.cursorHidden
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { number in
                RenderCommand.signalled.pointee = number
                RenderCommand.decodeStop.stop()
            }
        }
        // Ctrl-Z while frames play: the shell gets its cursor back, and `fg` hides it again.
        trapSuspend()
        signal(SIGCONT) { _ in
            if AnimationCommand.cursorHidden.pointee != 0 { RenderCommand.writeControl("\u{1B}[?25l") }
            RenderCommand.trapSuspend()
        }
    }

    /// Ctrl-Z: the cursor shown if frames hid it, then the default stop (the handler is set again after `fg`).
    static func trapSuspend() {
        signal(SIGTSTP) { _ in
            if AnimationCommand.cursorHidden.pointee != 0 { RenderCommand.writeControl("\u{1B}[?25h") }
            signal(SIGTSTP, SIG_DFL)
            raise(SIGTSTP)
        }
    }

    /// A control sequence written from a signal handler: write(2) alone, its failure ignored.
    static func writeControl(_ sequence: StaticString) {
        _ = Glibc.write(STDOUT_FILENO, sequence.utf8Start, sequence.utf8CodeUnitCount)
    }


}

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to Unsplash from the shell: a link and QR code to open, then the redirect or a pasted code.")

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        let colors = isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        try await withContext(options, command: "login") { context in
            do {
                print(try await ShellLogin.logIn(context: context, colors: colors))
            } catch let error as ShellLogin.Failure {
                throw Failure(message: error.description)
            }
        }
    }
}

struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Log out: remove the stored token.")

    @OptionGroup var options: ServiceOptions

    func run() async throws {
        try await withContext(options, command: "logout") { context in
            do {
                print(try ShellLogin.logOut(context: context))
            } catch let error as ShellLogin.Failure {
                throw Failure(message: error.description)
            }
        }
    }
}

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache", abstract: "What the offline cache holds, or empty it.",
        subcommands: [Info.self, Clear.self], defaultSubcommand: Info.self)

    struct Options: ParsableArguments {
        @Flag(help: "The demo's cache.")
        var demo = false

        @Option(help: "The config file (default $XDG_CONFIG_HOME/image-feed/config.toml).")
        var config: String?

        /// Prints what `work` says of the cache; a failure goes to stderr with status 1.
        func print(_ failing: String, _ work: (Settings, Bool) throws -> String) throws {
            do {
                let configuration = try Settings.load(overrides: Settings.Overrides(configFile: config))
                Swift.print(try work(configuration, demo))
            } catch let error as ConfigurationError {
                StandardError.write("image-feed: \(error.message)\n")
                throw ExitCode.failure
            } catch {
                StandardError.write("image-feed: the cache cannot be \(failing): \(error)\n")
                throw ExitCode.failure
            }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sizes and ages of what is cached.")
        @OptionGroup var options: Options

        func run() throws {
            try options.print("read") { try CacheCommands.info($0, demo: $1) }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Empty the cache (feed, favorites, search, profile, images).")
        @OptionGroup var options: Options

        func run() throws {
            try options.print("cleared") { try CacheCommands.clear($0, demo: $1) }
        }
    }
}

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain the set-up: terminal, settings and where each came from, login, API, files.",
        discussion: """
            Each problem comes with its fix in one line. The exit status is 1 when something keeps ImageFeed \
            from working. Keys and tokens are reported as set or not, never shown. Checking the login and the \
            API costs one request of the hour's quota (--offline leaves them out).
            """)

    @OptionGroup var options: ServiceOptions

    @Flag(help: "Print the report as JSON, for scripts.")
    var json = false

    @Flag(help: "Do not ask the API (the login and the quota are not checked).")
    var offline = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        // A report for a script is not the place for the terminal's answers: it is asked only when shown.
        // The doctor looks and writes nothing: no log (a line of it on stderr would stand before the report), no store.
        Logs.silence()
        let terminal = json ? Doctor.TerminalFacts(isTerminal: false) : Doctor.TerminalFacts.ask(environment: environment)
        let report = await Doctor.report(environment: environment,
                                         overrides: Settings.Overrides(apiBase: options.apiBase, configFile: options.config),
                                         demo: options.demo, network: !offline, terminal: terminal)
        print(json ? try JSONOutput.encode(report) : report.text(width: isatty(STDOUT_FILENO) == 1 ? TerminalEnvironment.size()?.columns : nil))
        if report.blocked { throw ExitCode.failure }
    }
}
