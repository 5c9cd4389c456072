import Foundation
import ImageFeedApp
import ImageFeedCore
import ImgurAPI
import LocalStore
import TerminalImage
import TerminalUI
import UnsplashAPI

/// The parsers that read what the outside world sends, each as a function of raw bytes that must return
/// (by a value or a typed error) for any input: never trap, hang or run out of memory.
///
/// `image-feed-fuzz <target>` runs one under libFuzzer (see scripts/fuzz.sh); the tests replay the saved
/// inputs of every target through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Every API endpoint's answer, through the real client: the first byte picks the endpoint,
    /// the second the HTTP status and headers, the rest is the body.
    case apiJSON = "api-json"
    /// Imgur's answers (an account's albums, an album's images), through the Imgur repository that maps them
    /// to the app's models: the first byte picks the call, the second the status and headers, as for api-json.
    case imgurJSON = "imgur-json"
    /// The JPEG decoder, at full size and with DCT scaling.
    case jpeg
    /// The PNG decoder.
    case png
    /// The GIF decoder (giflib: the first frame over the logical screen).
    case gif
    /// The WebP decoder (libwebp and its demuxer: a still, or an animation's first frame).
    case webp
    /// The BMP decoder (stb_image).
    case bmp
    /// The TIFF decoder (libtiff, from memory).
    case tiff
    /// Every frame of an animation (GIF composed with its disposal, WebP through libwebp's animation decoder) under
    /// the frame, byte and duration budgets, as the viewer and `render --animate` read them.
    case animation
    /// A video (MP4, WebM) through FFmpeg: every frame of its first video stream, under the same budgets.
    case video
    /// What the user pastes or the browser sends back after authorizing: a code or a redirect URL.
    case oauthRedirect = "oauth-redirect"
    /// The config file (TOML).
    case config
    /// What the terminal sends: keys, escape sequences, mouse reports, in any order and cut anywhere.
    case input
    /// The terminal's answers to the start-up questions (DA1, XTVERSION, XTGETTCAP, Kitty's query, cell
    /// size), and the Kitty graphics commands read back from bytes (the tests' and benchmark's reader).
    case terminalReplies = "terminal-replies"
    /// The layouts (cards, tiles, the viewer's transform, the fitted size) for any size a photo claims, any
    /// terminal size and any zoom, checked or not: no arithmetic may trap.
    case layout
    /// The offline store's restore path: a saved list's rows (JSON as the store keeps it) decoded, checked as
    /// the store's lists are, and laid out as the feed would.
    case storeRestore = "store-restore"

    /// Runs one input. Returns a short description of the outcome (for replaying by hand).
    @discardableResult
    public func run(_ data: Data) -> String {
        switch self {
        case .apiJSON: return APIJSONTarget.run(data)
        case .imgurJSON: return ImgurJSONTarget.run(data)
        case .jpeg: return ImageTarget.run(data, forcing: .jpeg)
        case .png: return ImageTarget.run(data, forcing: .png)
        case .gif: return ImageTarget.run(data, forcing: .gif)
        case .webp: return ImageTarget.run(data, forcing: .webp)
        case .bmp: return ImageTarget.run(data, forcing: .bmp)
        case .tiff: return ImageTarget.run(data, forcing: .tiff)
        case .animation: return AnimationTarget.run(data)
        case .video: return AnimationTarget.run(data, video: true)
        case .oauthRedirect: return OAuthRedirectTarget.run(data)
        case .config: return ConfigTarget.run(data)
        case .input: return InputTarget.run(data)
        case .terminalReplies: return TerminalRepliesTarget.run(data)
        case .layout: return LayoutTarget.run(data)
        case .storeRestore: return StoreRestoreTarget.run(data)
        }
    }
}

// MARK: API answers

enum APIJSONTarget {
    /// The calls whose answers the app decodes.
    enum Endpoint: CaseIterable {
        case feed, photo, like, me, user, likes, search, download, token
        case userPhotos, userCollections, collection, topics, topic, searchUsers, searchCollections
    }

    static let statuses = [200, 200, 200, 201, 400, 401, 403, 404, 422, 429, 500, 503]

    static func run(_ data: Data) -> String {
        guard let (selector, answer) = cannedAnswer(data) else { return "too short" }
        let endpoint = Endpoint.allCases[Int(selector) % Endpoint.allCases.count]
        return blocking { await call(endpoint, answering: answer) }
    }

    /// The first byte (it picks the call), and the HTTP answer the rest describes: the second byte's low
    /// bits pick the status; with its high bit set, the body starts with header lines up to a blank line.
    static func cannedAnswer(_ data: Data) -> (UInt8, HTTPResponse)? {
        let bytes = [UInt8](data)
        guard bytes.count >= 2 else { return nil }
        let status = statuses[Int(bytes[1] & 0x0f) % statuses.count]
        var headers: [String: String] = [:]
        var body = Data(bytes.dropFirst(2))
        if bytes[1] & 0x80 != 0, let split = body.range(of: Data("\n\n".utf8)) {
            let head = String(decoding: body[body.startIndex..<split.lowerBound], as: UTF8.self)
            for line in head.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            body = Data(body[split.upperBound...])
        }
        return (bytes[0], HTTPResponse(status: status, headers: headers, body: body))
    }

    static func call(_ endpoint: Endpoint, answering answer: HTTPResponse) async -> String {
        let http = CannedHTTPClient(answer: answer)
        let configuration = UnsplashConfiguration(apiBase: URL(string: "http://127.0.0.1:9/")!,
                                                  oauthBase: URL(string: "http://127.0.0.1:9/")!,
                                                  accessKey: "fuzz-access", secretKey: "fuzz-secret",
                                                  redirectURI: "http://127.0.0.1:9/callback")
        let client = UnsplashClient(configuration: configuration, http: http, token: "fuzz-token")
        do {
            switch endpoint {
            case .feed: return describe(try await client.feed(page: 2, perPage: 10))
            case .photo: return try await client.photo(id: "a").id
            case .like: return String(try await client.setLike(true, photoID: "a").likedByUser)
            case .me: return try await client.me().username
            case .user: return try await client.user(username: "a").username
            case .likes: return describe(try await client.likes(username: "a", page: 1, perPage: 10))
            case .search: return describe(try await client.search(query: "a", page: 1, perPage: 10, order: .relevant))
            case .download:
                let photo = Photo(id: "a", links: PhotoLinks(downloadLocation: URL(string: "http://127.0.0.1:9/photos/a/download")))
                return try await client.trackDownload(of: photo).absoluteString
            case .userPhotos:
                return describe(try await client.photos(from: .userPhotos(username: "a", order: .popular), page: 1, perPage: 10))
            case .userCollections:
                return "\(try await client.userCollections(username: "a", page: 1, perPage: 10).items.count) collections"
            case .collection: return try await client.collection(id: "a").title
            case .topics: return "\(try await client.topics(page: 1, perPage: 10).items.count) topics"
            case .topic: return try await client.topic(slug: "a").title
            case .searchUsers: return "\(try await client.searchUsers(query: "a", page: 1, perPage: 10).items.count) users"
            case .searchCollections: return "\(try await client.searchCollections(query: "a", page: 1, perPage: 10).items.count) collections"
            case .token:
                do {
                    return try await OAuthClient(configuration: configuration, http: http).exchange(code: "c").accessToken
                } catch {
                    return "refused: \(error)"
                }
            }
        } catch {
            // The message the user would see must be buildable too.
            return "error: \(error.localizedDescription)"
        }
    }

    static func describe(_ page: Page<Photo>) -> String {
        "\(page.items.count) photos, next \(page.nextPage.map(String.init) ?? "none"), total \(page.totalItems.map(String.init) ?? "?")"
    }
}

// MARK: Imgur answers

enum ImgurJSONTarget {
    static func run(_ data: Data) -> String {
        guard let (selector, answer) = APIJSONTarget.cannedAnswer(data) else { return "too short" }
        return blocking {
            let repository = ImgurRepository(configuration: ImgurConfiguration(apiBase: URL(string: "http://127.0.0.1:9/3/")!,
                                                                               imageBase: URL(string: "http://127.0.0.1:9/i/")!,
                                                                               clientID: "fuzz-client"),
                                             http: CannedHTTPClient(answer: answer))
            do {
                if selector % 2 == 0 {
                    let page = try await repository.albums(username: "a", page: 1)
                    let covers = page.items.filter { $0.coverURL != nil }.count
                    return "\(page.items.count) albums, \(covers) with covers, skipped \(page.skippedItems), next \(page.nextPage.map(String.init) ?? "none")"
                } else {
                    let photos = try await repository.photos(inAlbum: "a")
                    return "\(photos.count) photos, \(photos.filter { $0.urls.small != nil }.count) with thumbnails"
                }
            } catch {
                return "error: \(error.localizedDescription)"
            }
        }
    }
}

/// Answers every request with the same response.
struct CannedHTTPClient: HTTPClient {
    let answer: HTTPResponse
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { answer }
}

/// Runs async work to completion from synchronous code (libFuzzer calls in on its own thread).
func blocking(_ work: @escaping @Sendable () async -> String) -> String {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox()
    Task.detached {
        result.value = await work()
        done.signal()
    }
    done.wait()
    return result.value
}

final class ResultBox: @unchecked Sendable {
    var value = ""
}

// MARK: Images

enum AnimationTarget {
    /// Budgets small enough that a fuzzing run stays quick: 4 megapixels, 64 frames, 8 MB of frames.
    static let limits = AnimationLimits(bytes: 8 << 20, frames: 64, duration: 600, smallestSide: 16)

    static func run(_ data: Data, video: Bool = false) -> String {
        // Keep the fuzzer on one decoder: a GIF's signature for the animation target (a WebP keeps its own), an MP4's
        // box for the video target.
        let known = AnimationFormat(sniffing: data)
        let input: Data
        if video {
            input = known == .video ? data : Data(ImageTarget.magic(.video)) + data
        } else {
            input = known == .gif || known == .webp ? data : Data(ImageTarget.magic(.gif)) + data
        }
        do {
            let animation = try ImageCodec.decodeAnimation(input, fitting: (64, 64), limits: limits, maximumPixels: ImageTarget.budget)
            precondition(animation.width * animation.height <= ImageTarget.budget, "decoded past the pixel budget")
            precondition(animation.frames.count <= limits.frames && animation.bytes <= limits.bytes, "kept past the animation budget")
            precondition(animation.frames.allSatisfy { $0.delay >= AnimationLimits.shortestDelay }, "a delay under 20 ms was kept")
            return "\(animation.frames.count) frames \(animation.width)x\(animation.height) loops \(animation.loops)"
        } catch {
            return "error: \(error)"
        }
    }
}

enum ImageTarget {
    typealias Format = ImageFormat

    /// The signature each decoder is picked by (WebP's is "RIFF", a size, "WEBP").
    static func magic(_ format: Format) -> [UInt8] {
        switch format {
        case .jpeg: [0xFF, 0xD8, 0xFF]
        case .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .gif: Array("GIF89a".utf8)
        case .webp: Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        case .bmp: Array("BM".utf8)
        case .tiff: [0x49, 0x49, 0x2A, 0x00]
        case .video: [0, 0, 0, 0x18] + Array("ftypisom".utf8)
        }
    }

    /// The pixel budget the fuzzed decoders run with: a header claiming more is refused before any memory.
    static let budget = 4_000_000

    static func run(_ data: Data, forcing format: Format) -> String {
        // Keep the fuzzer on one decoder: inputs without its signature get it prepended.
        let input = ImageFormat(sniffing: data) == format ? data : Data(magic(format)) + data
        var outcome: [String] = []
        do {
            let decoded = try ImageCodec.decode(input, maximumPixels: budget)
            precondition(decoded.image.width * decoded.image.height <= budget, "decoded past the pixel budget")
            outcome.append("\(decoded.image.width)x\(decoded.image.height)\(decoded.isDamaged ? " damaged" : "")")
            // What the app does next with a decoded picture: fit it into cells.
            let picture = HalfBlockBlitter(mode: .truecolor).render(decoded.image, columns: 20, rows: 10)
            outcome.append("\(picture.columns)x\(picture.rows) cells")
        } catch {
            outcome.append("error: \(error)")
        }
        if format == .jpeg {
            // The scaled decode used for thumbnails.
            do {
                let scaled = try ImageCodec.decode(input, minimumWidth: 40, minimumHeight: 40, maximumPixels: budget)
                outcome.append("scaled \(scaled.image.width)x\(scaled.image.height)")
            } catch {
                outcome.append("scaled error: \(error)")
            }
        }
        return outcome.joined(separator: "; ")
    }
}

// MARK: OAuth redirect

enum OAuthRedirectTarget {
    static func run(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        let parsed = OAuthRedirect.parse(text)
        let code: String
        do {
            code = try OAuthClient.code(fromRedirect: text, expectedState: "state")
        } catch {
            code = "error: \(error)"
        }
        return "\(parsed) / \(code)"
    }
}

// MARK: Config file

enum ConfigTarget {
    static func run(_ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        do {
            let configuration = try Settings.parse(fileText: text, file: URL(fileURLWithPath: "/fuzz/config.toml"),
                                                           environment: ["HOME": "/fuzz"])
            return "ok: \(configuration.apiBase.absoluteString)"
        } catch {
            return "error: \(error.message)"
        }
    }
}

// MARK: Terminal input

enum TerminalRepliesTarget {
    static func run(_ data: Data) -> String {
        let bytes = [UInt8](data)
        let abilities = TerminalProbe.parse(bytes)
        let choice = GraphicsChoice.choose(setting: nil, environment: [:], abilities: abilities)
        // Whatever a terminal answers, the cell size the pictures are drawn for stays sensible.
        precondition(GraphicsMode.cellWidths.contains(choice.cellWidth) && GraphicsMode.cellHeights.contains(choice.cellHeight),
                     "cell size out of range")
        precondition((abilities.version?.count ?? 0) <= 60, "a version longer than kept")
        let commands = KittyGraphics.commands(in: bytes)
        return "\(choice.mode.rawValue), \(commands.count) kitty commands"
    }
}

enum InputTarget {
    /// The bytes as the backend gets them: decoded as UTF-8 (what curses hands over), and once more byte
    /// by byte (the X10 mouse's raw bytes), with a timeout (`flush`) after every byte that is 0xFF.
    static func run(_ data: Data) -> String {
        let utf8 = Array(String(decoding: data, as: UTF8.self).unicodeScalars)
        let bytes = data.map { Unicode.Scalar($0) }
        var total = 0
        for scalars in [utf8, bytes] {
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            for scalar in scalars {
                if scalar.value == 0xFF {
                    events += decoder.flush()
                    continue
                }
                events += decoder.feed(scalar)
            }
            events += decoder.flush()
            // A scalar never makes more than one event: nothing is invented.
            precondition(events.count <= scalars.count, "more events than characters")
            precondition(!decoder.isPending, "a flush leaves nothing pending")
            total += events.count
        }
        return "\(total) events"
    }
}

// MARK: Layouts

enum LayoutTarget {
    /// The bytes as little-endian numbers: a photo's width and height (8 bytes each, any Int), the terminal's
    /// columns and rows (2 bytes each), a zoom (8 bytes, any Double) and a quarter turn (1 byte); what is left
    /// makes more photos.
    static func run(_ data: Data) -> String {
        var reader = NumberReader(bytes: [UInt8](data))
        let columns = Int(reader.next(2) % 2_001)
        let rows = Int(reader.next(2) % 1_001)
        let zoom = Double(bitPattern: reader.next(8))
        let turns = Int(reader.next(1) % 4)
        var photos: [Photo] = []
        repeat {
            let photo = Photo(id: "p\(photos.count)", width: Int(bitPattern: UInt(reader.next(8))), height: Int(bitPattern: UInt(reader.next(8))))
            photos.append(photo)
            photos.append(photo.checked())
        } while !reader.isAtEnd && photos.count < 64
        let cards = CardLayout(photos: photos, width: columns, viewportHeight: rows)
        precondition(cards.cards.allSatisfy { $0.pictureColumns <= max(8, columns) && $0.pictureRows >= 0 }, "a card wider than the list")
        for layout in [SearchLayout.grid, .single] {
            _ = TileLayout(photos: photos, width: columns, viewportHeight: rows, layout: layout)
        }
        for photo in photos {
            var viewer = ViewerState(photo: photo)
            viewer.zoom = zoom
            viewer.quarterTurns = turns
            let shown = ViewerScreen.pictureLayout(for: viewer, width: columns, height: rows)
            precondition(shown.rect.width <= columns && shown.rect.height <= rows, "the viewer's photo past the screen")
            let fitted = CellPicture.fittedSize(pixelWidth: photo.width, pixelHeight: photo.height, columns: columns, rows: rows,
                                                cellAspect: zoom)
            precondition(fitted.columns <= columns && fitted.rows <= rows, "a fitted size past its box")
        }
        return "\(photos.count) photos, \(cards.totalHeight) lines"
    }

    struct NumberReader {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index >= bytes.count }

        /// The next `count` bytes as a little-endian number (zeros past the end).
        mutating func next(_ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for shift in 0..<count {
                let byte = index < bytes.count ? bytes[index] : 0
                index += 1
                value |= UInt64(byte) << (8 * UInt64(shift))
            }
            return value
        }
    }
}

// MARK: The offline store

enum StoreRestoreTarget {
    /// The input split at newlines: each line one saved row, as the store keeps a photo (JSON).
    static func run(_ data: Data) -> String {
        let rows = data.split(separator: 0x0A, omittingEmptySubsequences: false).map { Data($0) }
        let photos = SQLiteStore.restore(rows).map { $0.checked() }
        for photo in photos {
            precondition(photo.width >= 0 && photo.width <= Checked.largestSide, "an unchecked width")
            precondition((photo.width == 0) == (photo.height == 0), "a size with one side")
            precondition(photo.likes >= 0 && photo.likes <= Checked.largestCount, "an unchecked count")
        }
        let cards = CardLayout(photos: photos, width: 80, viewportHeight: 24)
        return "\(photos.count) of \(rows.count) rows, \(cards.totalHeight) lines"
    }
}
