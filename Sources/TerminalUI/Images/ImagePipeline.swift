import Foundation
import ImageFeedCore
import TerminalImage

/// Loads, decodes and draws the pictures the screens ask for, off the terminal thread.
///
/// Only the terminal thread calls it. Each frame says which pictures are on screen (`beginFrame`, the
/// screens' requests, `endFrame`): drawing only looks pictures up and notes what the frame shows; the work
/// starts when the frame ends, from that list. Work for pictures no longer wanted is cancelled, and at most as
/// many pictures are prepared at once as there are cores. Finished work comes back through `post`, and the
/// terminal thread hands it to `deliver`. Drawn pictures are kept per photo and size.
public final class ImagePipeline: PictureProvider {
    public struct Key: Hashable, Sendable {
        public var url: URL
        public var columns: Int
        public var rows: Int
        /// The photo the image is of (for the views a cache serves).
        public var photoID: String = ""
    }

    /// Finished work, for the terminal thread.
    public enum Result: Sendable {
        case picture(Key, CellPicture?)
        case viewerSource(photoID: String, RGBImage?, ServiceError?)
        case viewerPicture(ViewerKey, CellPicture)
        /// A larger file of the viewer's photo, for zooming in: more detail, not larger blocks.
        case viewerDetail(photoID: String, RGBImage)
        /// The viewer's animation, read (nil: it could not be, and the still stays, with why); `file`: the file as it
        /// came, kept for a terminal that plays it itself.
        case viewerAnimation(photoID: String, AnimatedImage?, file: Data?, note: String?)
        /// The frames read so far, while the rest are read (where the program paces the frames).
        case viewerFrames(photoID: String, AnimatedImage)
        /// Every frame of the viewer's animation drawn for the view, for a terminal that plays them itself.
        case viewerMotion(ViewerKey, CellPicture)
        /// The animation's next frame, drawn for the view off the loop while the one before it shows.
        case viewerFrameAhead(ViewerKey, index: Int, scale: Double, CellPicture)
        /// An animated tile's frames drawn for its cells (none: it stays a still).
        case tileFrames(photoID: String, columns: Int, rows: Int, [CellPicture], delays: [Double], loops: Int)
    }

    public struct ViewerKey: Hashable, Sendable {
        public var photoID: String
        public var columns: Int
        public var rows: Int
        public var view: ViewTransform
    }

    enum Entry {
        case loading(CellPicture?)
        case ready(CellPicture)
        /// Not to be asked for again before `retryAt` (seconds on `now`'s clock).
        case failed(retryAt: Double)

        /// Bytes held in memory: the cells, and a picture in pixels' pixels.
        var bytes: Int {
            switch self {
            case let .loading(placeholder): placeholder.map(Self.bytes) ?? 0
            case let .ready(picture): Self.bytes(picture)
            case .failed: 0
            }
        }

        private static func bytes(_ picture: CellPicture) -> Int {
            picture.cells.count * MemoryLayout<CellPicture.Cell>.stride + (picture.pixels?.image.pixels.count ?? 0)
        }
    }

    let source: any ImageSource
    public let drawer: PictureDrawer
    /// Stand-ins while loading are drawn in characters whatever the photos are drawn in.
    var blitter: HalfBlockBlitter { drawer.blitter }
    let post: @Sendable (Result) -> Void
    /// Seconds on a monotonic clock (tests give their own).
    let now: () -> Double
    /// How many times in a row each picture failed: the wait before the next try doubles, up to a minute. Forgotten
    /// with the picture's entry, so a session offline all afternoon keeps no more of them than of pictures.
    var failures: [Key: Int] = [:]
    /// The pictures the previous frame asked for: one that failed is tried again when it comes back into view.
    var previouslyWanted: Set<Key> = []
    let maximumRunning: Int
    let maximumEntries = 400
    /// Drawn pictures kept, in bytes, at most: those of the fullest screen seen, `screensKept` times over, between
    /// `minimumBytes` and this ceiling.
    let maximumBytes: Int
    /// The bytes of the pictures the fullest frame so far asked for (its cards' pictures, drawn or standing in).
    var fullestScreenBytes = 0
    /// Screens of pictures kept: going back twelve of them (the oldest go down to three quarters) finds each one still
    /// drawn; beyond, a picture is decoded again (from the image cache on disk, off the loop thread).
    public static let screensKept = 16
    /// Kept whatever the screens (before the first pictures are drawn, the fullest screen is nothing): 256 KB,
    /// some 22,000 cells.
    public static let minimumBytes = 256 << 10
    /// In characters, the ceiling: 6 MB, 500,000 cells of 12 bytes, some 80 cards of a 200-column terminal. Sixteen
    /// screens of a 120x40 feed are about 0.6 MB, of a 200x60 grid full of pictures about 2.3 MB.
    public static let cellPictureBytes = 6_000_000
    /// In pixels: 36 MB, some 24 of the 1.5 MB pictures of a 200-column grid (96x32 cells of 9x18 pixels).
    /// With room for 8 of them (12 MB), going down the grid by eight cards and back up found each picture gone
    /// again: the oldest one was always the next needed, so it was decoded again and kitty was sent it again
    /// (docs/dev/benchmarks.md).
    public static let pixelPictureBytes = 36_000_000

    /// Changed only through `set(_:_:)`, which keeps `bytesHeld`.
    var entries: [Key: Entry] = [:]
    var bytesHeld = 0
    var entryOrder: [Key] = []
    var wanted: Set<Key> = []
    var queued: [Key] = []
    var running: [Key: Task<Void, Never>] = [:]

    var viewerPhotoID: String?
    var viewerSource: RGBImage?
    var viewerFailed = false
    var viewerLoad: Task<Void, Never>?
    var viewerShown: (key: ViewerKey, picture: CellPicture)?
    var viewerRender: (key: ViewerKey, task: Task<Void, Never>)?
    /// The larger file asked for (once a photo); the shown picture is redrawn from it when it comes.
    var viewerDetailLoad: Task<Void, Never>?
    var viewerDetailAsked = false
    var viewerShownIsCoarse = false
    /// The viewer's photo and view the frame drew, for `endFrame` to load or draw.
    var viewerWanted: (photo: Photo, key: ViewerKey)?
    /// The viewer's photo and view the last frame drew (kept between frames).
    var viewerLastKey: ViewerKey?

    // The viewer's animation: its frames, where it is, and the frame last drawn.
    var animationLoad: Task<Void, Never>?
    var animation: AnimatedImage?
    var animationFile: Data?
    var clock: AnimationClock?
    /// Why the animation stands as a still until Space plays it (a slow link, the animations setting, its flashes).
    var hold: AnimationHold?
    /// Space played it: the setting holds it no more (`safe` keeps checking no more).
    var playedOnRequest = false
    /// The terminal's window is hidden (it said so: mode 2033): the animation the program paces stands where it is,
    /// and plays on from there when the window is seen again.
    public var windowHidden = false {
        didSet {
            guard windowHidden != oldValue, clock != nil else { return }
            if windowHidden, clock?.paused == false {
                clock!.togglePause(now: now())
                pausedWhileHidden = true
            } else if !windowHidden, pausedWhileHidden {
                pausedWhileHidden = false
                if clock?.paused == true { clock!.togglePause(now: now()) }
            }
        }
    }
    var pausedWhileHidden = false
    /// `safe`: each frame read so far, measured once (`Flashes.luminances`).
    var frameLuminances: [[Double]] = []
    /// The `animations` setting: `off` holds every animation as a still, `safe` one that flashes too often.
    public var animationSetting = AnimationSetting.hover
    var animationCut: String?
    /// The animation plays while the rest of its frames are read.
    var animationReading = false
    /// `r` asked for the animation to be read again.
    var animationRetryWanted = false
    var frameShown: (key: ViewerKey, frame: Int, picture: CellPicture)?
    /// Frames already drawn for the view, while they come to little (`AnimationLimits.drawnFrameBytes`): a short loop
    /// is drawn once.
    var framesDrawn: (key: ViewerKey, pictures: [Int: CellPicture], bytes: Int)?
    /// Each frame's picture id for the view drawn last, the same from one loop to the next (each frame follows the one
    /// before it in the file: a loop's frames and their bytes are those of the loop before).
    var frameIDs: (key: ViewerKey, ids: [UInt32])?
    var motionShown: (key: ViewerKey, picture: CellPicture)?
    var motionRender: (key: ViewerKey, task: Task<Void, Never>)?
    /// The view shows the whole photo upright (iTerm2 plays a GIF file only so).
    var viewIsWhole = true
    /// What the link carries, in bytes a second (nil: fast); the run loop sets it each frame.
    public var linkRate: Double?
    /// Every byte written to the terminal so far; the run loop sets it before the animation moves on.
    public var bytesWritten = 0
    /// An animation the program draws, over a slow link: its frames' size and pace (nil: a fast link).
    var linkPacing: LinkPacing?
    /// The frame shown while `linkPacing` paces them (the clock may be further on: frames between are skipped).
    var linkShownFrame: Int?
    /// When `linkShownFrame` was due.
    var linkShownDue = 0.0
    /// The share of the view (each way) the frames in `framesDrawn` were drawn at.
    var framesScale = 1.0
    /// The share of the animation's frames that changes from one to the next (`LinkPacing.changedShare`), once measured.
    var animationChangedShare: Double?
    /// The next frame being drawn off the loop (`drawAhead`), and once drawn, its picture.
    var frameAhead: (key: ViewerKey, index: Int, scale: Double, picture: CellPicture?, task: Task<Void, Never>)?
    /// Animated tiles playing where they stand, by photo id (`ImagePipeline+Tiles`); those the frame asked to play,
    /// and those to start reading once it ends.
    var tilePlayers: [String: TilePlayer] = [:]
    var tilesWanted: Set<String> = []
    var tilesToStart: [String: (photo: Photo, file: URL, columns: Int, rows: Int)] = [:]

    public convenience init(source: any ImageSource, blitter: HalfBlockBlitter,
                            maximumRunning: Int = ProcessInfo.processInfo.activeProcessorCount,
                            maximumBytes: Int? = nil,
                            now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
                            post: @escaping @Sendable (Result) -> Void) {
        self.init(source: source, drawer: PictureDrawer(blitter: blitter), maximumRunning: maximumRunning,
                  maximumBytes: maximumBytes, now: now, post: post)
    }

    /// What the viewer's animation may cost: its frames read, and the frames drawn for a terminal that plays them.
    let animationLimits: AnimationLimits

    public init(source: any ImageSource, drawer: PictureDrawer,
                maximumRunning: Int = ProcessInfo.processInfo.activeProcessorCount,
                maximumBytes: Int? = nil, animationLimits: AnimationLimits = .standard,
                now: @escaping () -> Double = { ProcessInfo.processInfo.systemUptime },
                post: @escaping @Sendable (Result) -> Void) {
        self.animationLimits = animationLimits
        self.maximumBytes = maximumBytes ?? (drawer.drawsPixels ? Self.pixelPictureBytes : Self.cellPictureBytes)
        self.now = now
        self.source = source
        self.drawer = drawer
        self.maximumRunning = max(1, maximumRunning)
        self.post = post
    }

    /// Whether anything is still loading (the screen keeps its spinners turning).
    public var isBusy: Bool {
        !running.isEmpty || !queued.isEmpty || viewerLoad != nil || viewerRender != nil || animationLoad != nil || motionRender != nil
    }

    // MARK: Frames

    public func beginFrame() {
        swap(&previouslyWanted, &wanted)
        wanted.removeAll(keepingCapacity: true)
    }

    public func endFrame() {
        fullestScreenBytes = max(fullestScreenBytes, wanted.reduce(0) { $0 + (entries[$1]?.bytes ?? 0) })
        if let viewer = viewerWanted { prepareViewer(viewer.photo, key: viewer.key) }
        viewerWanted = nil
        prepareTiles()
        for (key, task) in running where !wanted.contains(key) {
            task.cancel()
            running[key] = nil
            set(key, nil)
        }
        queued.removeAll { key in
            guard !wanted.contains(key) else { return false }
            set(key, nil)
            return true
        }
        startQueued()
    }

    public func pixelWidth(columns: Int) -> Int {
        drawer.pixelSize(columns: columns, rows: 1).width
    }

    // MARK: Cards

    public func picture(for photo: Photo, url: URL?, columns: Int, rows: Int) -> PictureSlot {
        guard let url, columns > 0, rows > 0 else { return .failed }
        let key = Key(url: url, columns: columns, rows: rows, photoID: photo.id)
        wanted.insert(key)
        switch entries[key] {
        case let .ready(picture): return .ready(picture)
        case let .loading(placeholder): return .loading(placeholder)
        case let .failed(retryAt):
            // Back in view after its wait: try again (a dropped connection should not stay broken all session).
            guard !previouslyWanted.contains(key), now() >= retryAt else { return .failed }
            set(key, nil)
            return picture(for: photo, url: url, columns: columns, rows: rows)
        case nil:
            let placeholder = PicturePlaceholder.make(for: photo, columns: columns, rows: rows, blitter: blitter)
            remember(key, .loading(placeholder))
            queued.append(key)
            return .loading(placeholder)
        }
    }

    /// Sets or removes an entry, keeping the count of bytes held.
    @discardableResult
    func set(_ key: Key, _ entry: Entry?) -> Entry? {
        let old: Entry?
        if let entry {
            old = entries.updateValue(entry, forKey: key)
        } else {
            old = entries.removeValue(forKey: key)
        }
        bytesHeld += (entry?.bytes ?? 0) - (old?.bytes ?? 0)
        return old
    }

    func remember(_ key: Key, _ entry: Entry) {
        if set(key, entry) == nil { entryOrder.append(key) }
        let budget = keptBytes
        guard entryOrder.count > maximumEntries || bytesHeld > budget else { return }
        // Forget the oldest pictures that are neither on screen nor being prepared, down to three
        // quarters of the limits.
        var seen = Set<Key>()
        entryOrder.removeAll { old in
            guard entries[old] != nil, seen.insert(old).inserted else { return true }
            let over = (entries.count > maximumEntries * 3 / 4 || bytesHeld > budget * 3 / 4)
            guard over, !wanted.contains(old), running[old] == nil, !queued.contains(old) else { return false }
            set(old, nil)
            failures[old] = nil
            return true
        }
    }

    /// Drawn pictures kept, in bytes: the fullest screen's sixteen times over, within the floor and the ceiling.
    var keptBytes: Int {
        min(maximumBytes, max(Self.minimumBytes, fullestScreenBytes * Self.screensKept))
    }

    /// Drawn pictures held now, in bytes (tests).
    var heldBytes: Int { bytesHeld }

    /// Pictures whose failures are counted (tests).
    var failureCount: Int { failures.count }

    func startQueued() {
        while running.count < maximumRunning, !queued.isEmpty {
            let key = queued.removeFirst()
            let source = self.source
            let drawer = self.drawer
            let post = self.post
            running[key] = Task.detached(priority: .userInitiated) {
                let picture: CellPicture?
                do {
                    let data = try await source.imageData(at: key.url, of: key.photoID.isEmpty ? nil : key.photoID)
                    try Task.checkCancellation()
                    let decoded: DecodedImage
                    do {
                        let size = drawer.pixelSize(columns: key.columns, rows: key.rows)
                        decoded = try await ImageCodec.decodeWhileWanted(data, minimumWidth: size.width, minimumHeight: size.height,
                                                                         oversampling: drawer.drawsPixels ? 1 : ImageCodec.cellsOversampling)
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        source.discard(key.url) // not a picture: a retry fetches it anew
                        throw error
                    }
                    try Task.checkCancellation()
                    // A damaged image shows as the placeholder: better than a half-gray photo.
                    if decoded.isDamaged { source.discard(key.url) }
                    picture = decoded.isDamaged ? nil : drawer.draw(decoded.image, columns: key.columns, rows: key.rows, fill: drawer.drawsPixels)
                } catch is CancellationError {
                    return
                } catch {
                    if Task.isCancelled { return }
                    picture = nil
                }
                post(.picture(key, picture))
            }
        }
    }

    // MARK: Results

    /// What became of the viewer's photo, when it could not be had: the service's error, if it said one.
    public struct ViewerFailure: Equatable, Sendable {
        public var error: ServiceError?
    }

    /// Takes finished work in; says so when the viewer's photo could not be fetched or read.
    @discardableResult
    public func deliver(_ result: Result) -> ViewerFailure? {
        switch result {
        case let .picture(key, picture):
            guard running.removeValue(forKey: key) != nil else { return nil }
            if let picture {
                failures[key] = nil
                remember(key, .ready(picture))
            } else {
                let count = (failures[key] ?? 0) + 1
                failures[key] = count
                remember(key, .failed(retryAt: now() + Self.retryDelay(afterFailures: count)))
            }
            startQueued()
        case let .viewerSource(photoID, image, error):
            guard photoID == viewerPhotoID else { return nil }
            viewerLoad = nil
            viewerSource = image
            viewerFailed = image == nil
            return image == nil ? ViewerFailure(error: error) : nil
        case let .viewerPicture(key, picture):
            guard key.photoID == viewerPhotoID else { return nil }
            if viewerRender?.key == key { viewerRender = nil }
            viewerShown = (key, picture)
        case let .viewerFrames(photoID, animation):
            guard photoID == viewerPhotoID, animationLoad != nil, drawer.playback == .paced, animation.moves else { return nil }
            self.animation = animation
            animationReading = true
            // It loops only once every frame is read.
            play(animation, loops: 1)
        case let .viewerAnimation(photoID, animation, file, note):
            guard photoID == viewerPhotoID else { return nil }
            animationLoad = nil
            animationReading = false
            guard let animation, animation.moves else {
                // The still stays; the status line says why it does not move.
                animationCut = note ?? "the file has one frame"
                return nil
            }
            self.animation = animation
            animationFile = animation.format == .gif && drawer.playback == .terminalGIF ? file : nil
            animationCut = animation.cut
            play(animation, loops: animation.loops)
        case let .tileFrames(photoID, columns, rows, frames, delays, loops):
            deliverTile(photoID: photoID, columns: columns, rows: rows, frames: frames, delays: delays, loops: loops)
        case let .viewerFrameAhead(key, index, scale, picture):
            guard let ahead = frameAhead, ahead.key == key, ahead.index == index, ahead.scale == scale else { return nil }
            frameAhead?.picture = picture
        case let .viewerMotion(key, picture):
            guard key.photoID == viewerPhotoID else { return nil }
            if motionRender?.key == key { motionRender = nil }
            motionShown = (key, picture)
        case let .viewerDetail(photoID, image):
            guard photoID == viewerPhotoID, let current = viewerSource, image.width > current.width else { return nil }
            viewerSource = image
            viewerDetailLoad = nil
            // The picture on screen came from the smaller file: draw it again (it stays until the new one is ready).
            viewerRender?.task.cancel()
            viewerRender = nil
            viewerShownIsCoarse = true
        }
        return nil
    }
}
