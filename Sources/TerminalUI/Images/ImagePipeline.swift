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
    }

    public struct ViewerKey: Hashable, Sendable {
        public var photoID: String
        public var columns: Int
        public var rows: Int
        public var view: ViewTransform
    }

    private enum Entry {
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

    private let source: any ImageSource
    public let drawer: PictureDrawer
    /// Stand-ins while loading are drawn in characters whatever the photos are drawn in.
    private var blitter: HalfBlockBlitter { drawer.blitter }
    private let post: @Sendable (Result) -> Void
    /// Seconds on a monotonic clock (tests give their own).
    private let now: () -> Double
    /// How many times in a row each picture failed: the wait before the next try doubles, up to a minute. Forgotten
    /// with the picture's entry, so a session offline all afternoon keeps no more of them than of pictures.
    private var failures: [Key: Int] = [:]
    /// The pictures the previous frame asked for: one that failed is tried again when it comes back into view.
    private var previouslyWanted: Set<Key> = []
    private let maximumRunning: Int
    private let maximumEntries = 400
    /// Drawn pictures kept, in bytes, at most: those of the fullest screen seen, `screensKept` times over, between
    /// `minimumBytes` and this ceiling.
    private let maximumBytes: Int
    /// The bytes of the pictures the fullest frame so far asked for (its cards' pictures, drawn or standing in).
    private var fullestScreenBytes = 0
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
    private var entries: [Key: Entry] = [:]
    private var bytesHeld = 0
    private var entryOrder: [Key] = []
    private var wanted: Set<Key> = []
    private var queued: [Key] = []
    private var running: [Key: Task<Void, Never>] = [:]

    private var viewerPhotoID: String?
    private var viewerSource: RGBImage?
    private var viewerFailed = false
    private var viewerLoad: Task<Void, Never>?
    private var viewerShown: (key: ViewerKey, picture: CellPicture)?
    private var viewerRender: (key: ViewerKey, task: Task<Void, Never>)?
    /// The larger file asked for (once a photo); the shown picture is redrawn from it when it comes.
    private var viewerDetailLoad: Task<Void, Never>?
    private var viewerDetailAsked = false
    private var viewerShownIsCoarse = false
    /// The viewer's photo and view the frame drew, for `endFrame` to load or draw.
    private var viewerWanted: (photo: Photo, key: ViewerKey)?

    // The viewer's animation: its frames, where it is, and the frame last drawn.
    private var animationLoad: Task<Void, Never>?
    private var animation: AnimatedImage?
    private var animationFile: Data?
    private var clock: AnimationClock?
    /// Started as a still because the link was slow; Space plays it.
    private var heldForLink = false
    private var animationCut: String?
    /// The animation plays while the rest of its frames are read.
    private var animationReading = false
    /// `r` asked for the animation to be read again.
    private var animationRetryWanted = false
    private var frameShown: (key: ViewerKey, frame: Int, picture: CellPicture)?
    /// Frames already drawn for the view, while they come to little (`AnimationLimits.drawnFrameBytes`): a short loop
    /// is drawn once.
    private var framesDrawn: (key: ViewerKey, pictures: [Int: CellPicture], bytes: Int)?
    private var motionShown: (key: ViewerKey, picture: CellPicture)?
    private var motionRender: (key: ViewerKey, task: Task<Void, Never>)?
    /// The view shows the whole photo upright (iTerm2 plays a GIF file only so).
    private var viewIsWhole = true
    /// What the link carries, in bytes a second (nil: fast); the run loop sets it each frame.
    public var linkRate: Double?

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
    private func set(_ key: Key, _ entry: Entry?) -> Entry? {
        let old: Entry?
        if let entry {
            old = entries.updateValue(entry, forKey: key)
        } else {
            old = entries.removeValue(forKey: key)
        }
        bytesHeld += (entry?.bytes ?? 0) - (old?.bytes ?? 0)
        return old
    }

    private func remember(_ key: Key, _ entry: Entry) {
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

    private func startQueued() {
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

    // MARK: The viewer

    /// What the viewer shows for this frame; what it lacks is loaded or drawn when the frame ends.
    public func viewerPicture(for photo: Photo, columns: Int, rows: Int, view: ViewTransform) -> PictureSlot {
        guard columns > 0, rows > 0 else { return .failed }
        let key = ViewerKey(photoID: photo.id, columns: columns, rows: rows, view: view)
        viewerWanted = (photo, key)
        let placeholder = { PicturePlaceholder.make(for: photo, columns: columns, rows: rows, blitter: self.blitter) }
        // Another photo than the one loaded: it is opened when the frame ends.
        guard viewerPhotoID == photo.id else { return .loading(placeholder()) }
        viewIsWhole = view.zoom <= 1 && view.quarterTurns % 4 == 0
        if let animation, let clock {
            if terminalPlays {
                if let shown = motionShown, shown.key == key { return .ready(shown.picture) }
            } else if !heldForLink || clock.frame != 0 {
                return .ready(animationFrame(animation, index: clock.frame, key: key))
            }
        }
        if let shown = viewerShown, shown.key == key { return .ready(shown.picture) }
        if viewerFailed { return .failed }
        // Until the new view is drawn, the previous one stays (no flash of the placeholder while zooming).
        if viewerSource != nil, let shown = viewerShown, shown.key.photoID == photo.id { return .ready(shown.picture) }
        return .loading(placeholder())
    }

    /// After the frame: loads the viewer's photo, draws the view it showed, or asks for the larger file.
    private func prepareViewer(_ photo: Photo, key: ViewerKey) {
        if viewerPhotoID != photo.id { openViewer(photo, columns: key.columns, rows: key.rows, turns: key.view.quarterTurns) }
        if animationRetryWanted {
            animationRetryWanted = false
            openAnimation(photo, columns: key.columns, rows: key.rows, turns: key.view.quarterTurns)
        }
        if let animation, terminalPlays, motionShown?.key != key, motionRender?.key != key { startMotionRender(animation, key: key) }
        if let shown = viewerShown, shown.key == key, !viewerShownIsCoarse { return }
        guard !viewerFailed, let image = viewerSource else { return }
        askForDetailIfZoomedPast(image, photo: photo, columns: key.columns, rows: key.rows, view: key.view)
        if let shown = viewerShown, shown.key == key, viewerShownIsCoarse {
            startViewerRender(image, key: key) // drawn again from the larger file; the old one shows meanwhile
        } else if viewerRender?.key != key {
            startViewerRender(image, key: key)
        }
    }

    private func startViewerRender(_ image: RGBImage, key: ViewerKey) {
        viewerShownIsCoarse = false // every render from now on uses the file loaded last
        viewerRender?.task.cancel()
        let drawer = self.drawer
        let post = self.post
        let task = Task.detached(priority: .userInitiated) {
            let rotated = ViewerRendering.rotate(image, quarterTurns: key.view.quarterTurns)
            if Task.isCancelled { return }
            let picture = ViewerRendering.render(rotated, columns: key.columns, rows: key.rows, view: key.view, drawer: drawer)
            if Task.isCancelled { return }
            post(.viewerPicture(key, picture))
        }
        viewerRender = (key, task)
    }

    /// Zoomed in so far that the loaded file has fewer pixels in view than the cells show: the photo's larger
    /// file (Unsplash's `full`) is asked for once, decoded no larger than the view needs.
    private func askForDetailIfZoomedPast(_ image: RGBImage, photo: Photo, columns: Int, rows: Int, view: ViewTransform) {
        guard !viewerDetailAsked, view.zoom > 1 else { return }
        let turned = view.quarterTurns % 2 == 1
        let shownWidth = Double(turned ? image.height : image.width) * view.visibleX
        let shownHeight = Double(turned ? image.width : image.height) * view.visibleY
        let shownPixels = drawer.pixelSize(columns: columns, rows: rows)
        guard shownWidth < Double(shownPixels.width) || shownHeight < Double(shownPixels.height) else { return }
        let loaded = photo.urls.regular ?? photo.urls.full ?? photo.urls.raw ?? photo.urls.small
        guard let larger = photo.urls.full ?? photo.urls.raw, larger != loaded else { return }
        viewerDetailAsked = true
        // The whole photo at the size that shows the view pixel for pixel (largest zoom first: the others need less).
        let wantWidth = Int(saturating: (Double(turned ? shownPixels.height : shownPixels.width) / (turned ? view.visibleY : view.visibleX)).rounded(.up))
        let wantHeight = Int(saturating: (Double(turned ? shownPixels.width : shownPixels.height) / (turned ? view.visibleX : view.visibleY)).rounded(.up))
        let source = self.source
        let post = self.post
        let photoID = photo.id
        viewerDetailLoad = Task.detached(priority: .utility) {
            guard let data = try? await source.imageData(at: larger, of: photoID), !Task.isCancelled,
                  let decoded = try? await ImageCodec.decodeWhileWanted(data, minimumWidth: wantWidth, minimumHeight: wantHeight),
                  !decoded.isDamaged, !Task.isCancelled else { return }
            post(.viewerDetail(photoID: photoID, decoded.image))
        }
    }

    /// Loads the viewer's photo, decoded no larger than the screen needs (either way round, for a turn):
    /// a big file is scaled down by libjpeg as it is decoded, never held at full size.
    private func openViewer(_ photo: Photo, columns: Int, rows: Int, turns: Int = 0) {
        closeViewer()
        viewerPhotoID = photo.id
        if photo.isAnimated == true { openAnimation(photo, columns: columns, rows: rows, turns: turns) }
        guard let url = photo.urls.regular ?? photo.urls.full ?? photo.urls.raw ?? photo.urls.small else {
            viewerFailed = true
            return
        }
        let source = self.source
        let post = self.post
        let screen = drawer.pixelSize(columns: columns, rows: rows)
        let side = max(screen.width, screen.height)
        let oversampling = drawer.drawsPixels ? 1 : ImageCodec.cellsOversampling
        let photoID = photo.id
        viewerLoad = Task.detached(priority: .userInitiated) {
            do {
                let data = try await source.imageData(at: url, of: photoID)
                try Task.checkCancellation()
                let attempt = try? await ImageCodec.decodeWhileWanted(data, minimumWidth: side, minimumHeight: side, oversampling: oversampling)
                // Stopped because the viewer moved on: the file is fine, and nobody is waiting for the answer.
                try Task.checkCancellation()
                guard let decoded = attempt, !decoded.isDamaged else {
                    source.discard(url) // not a picture: a retry fetches it anew
                    post(.viewerSource(photoID: photo.id, nil, nil))
                    return
                }
                post(.viewerSource(photoID: photo.id, decoded.image, nil))
            } catch is CancellationError {
                return
            } catch let error as ServiceError {
                if !Task.isCancelled { post(.viewerSource(photoID: photo.id, nil, error)) }
            } catch {
                if !Task.isCancelled { post(.viewerSource(photoID: photo.id, nil, nil)) }
            }
        }
    }

    /// The wait before a picture that failed `count` times in a row is asked for again: 2, 4, 8 … 60 seconds.
    static func retryDelay(afterFailures count: Int) -> Double {
        min(60, 2 * pow(2, Double(max(0, count - 1))))
    }

    /// Every picture that failed is asked for again when next in view, whatever its wait (`r`, Ctrl-L).
    public func retryFailed() {
        for (key, entry) in entries {
            if case .failed = entry { set(key, nil) }
        }
        if viewerFailed { closeViewer() }
    }

    /// Forgets the viewer's photo; the next frame loads it again (after "Try again").
    public func reloadViewer() {
        closeViewer()
    }

    public func closeViewer() {
        forgetAnimation()
        animationRetryWanted = false
        viewerWanted = nil
        viewerLoad?.cancel()
        viewerRender?.task.cancel()
        viewerDetailLoad?.cancel()
        viewerDetailLoad = nil
        viewerDetailAsked = false
        viewerShownIsCoarse = false
        viewerLoad = nil
        viewerRender = nil
        viewerPhotoID = nil
        viewerSource = nil
        viewerShown = nil
        viewerFailed = false
    }

    // MARK: The viewer's animation

    /// Whether the terminal plays the viewer's animation itself (every frame sent once).
    private var terminalPlays: Bool {
        guard !heldForLink else { return false }
        switch drawer.playback {
        case .paced: return false
        case .terminalFrames: return true
        case .terminalGIF: return animationFile != nil && viewIsWhole
        }
    }

    /// Where the viewer's animation is, for its status line.
    public var viewerAnimation: AnimationStatus? {
        guard let clock else {
            // Read and found not to move (or not readable): a status of no frames, with why.
            guard animationLoad == nil, viewerPhotoID != nil, let why = animationCut else { return nil }
            return AnimationStatus(frame: 0, frames: 0, loop: 1, loops: 1, paused: true, cut: why)
        }
        return AnimationStatus(frame: clock.frame, frames: clock.frameCount, loop: clock.loop, loops: clock.loops,
                               paused: clock.paused, finished: clock.finished, playedByTerminal: terminalPlays,
                               heldForLink: heldForLink, cut: animationCut, reading: animationReading)
    }

    /// When the next frame is due (seconds on `now`'s clock), where the program paces the frames.
    public var nextAnimationFrame: Double? {
        terminalPlays ? nil : clock?.nextChange
    }

    /// Moves the animation to the frame due now. Returns whether the screen shows something else.
    public func advanceAnimation() -> Bool {
        guard clock != nil else { return false }
        let changed = clock!.advance(to: now())
        return changed && !terminalPlays
    }

    /// Whether `r` has an animation to read again: it could not be read, or only the frames before damage were.
    public var animationRetries: Bool {
        guard animationLoad == nil, viewerPhotoID != nil else { return false }
        return (clock == nil && animationCut != nil) || animation?.damaged == true
    }

    /// `r` in the viewer over an animation that could not be read (or was damaged): it is fetched and read again.
    private func retryAnimation() {
        guard animationRetries else { return }
        forgetAnimation()
        // Read when the frame that shows the viewer ends (it knows the view's size).
        animationRetryWanted = true
    }

    /// The clock for `animation`'s frames: a new one, or, when it played while it was read, the same one with the
    /// frames read since (it plays on from where it is).
    private func play(_ animation: AnimatedImage, loops: Int) {
        let delays = animation.frames.map(\.delay)
        if clock != nil {
            clock!.extend(delays: delays, loops: loops, now: now())
        } else {
            // On a slow link it stands still until Space: even its changed cells would keep keys waiting.
            heldForLink = linkRate != nil
            clock = AnimationClock(delays: delays, loops: loops, now: now(), paused: heldForLink)
        }
    }

    /// The viewer's animation and its reading given up: the still stays.
    private func forgetAnimation() {
        animationLoad?.cancel()
        motionRender?.task.cancel()
        animationLoad = nil
        motionRender = nil
        animation = nil
        animationFile = nil
        clock = nil
        heldForLink = false
        animationCut = nil
        animationReading = false
        frameShown = nil
        framesDrawn = nil
        motionShown = nil
    }

    /// Space, `.` and `,` in the viewer; `r` over an animation that could not be read.
    public func control(_ request: PlaybackRequest) {
        if request == .retry { return retryAnimation() }
        guard clock != nil else { return }
        if heldForLink {
            // The first Space plays it, slow link or not: frames that cannot cross in time are skipped.
            heldForLink = false
            if case .playPause = request {
                clock!.togglePause(now: now())
                return
            }
        }
        switch request {
        case .playPause: clock!.togglePause(now: now())
        case let .step(offset): clock!.step(by: offset, now: now())
        case .retry: break
        }
    }

    /// The animation's frames are read as soon as the viewer opens, fitted to the view's pixels (the still shows
    /// meanwhile).
    private func openAnimation(_ photo: Photo, columns: Int, rows: Int, turns: Int) {
        guard let url = photo.links.download ?? photo.urls.regular else { return }
        let source = self.source
        let post = self.post
        var box = drawer.pixelSize(columns: columns, rows: rows)
        if turns % 2 == 1 { box = (box.height, box.width) }
        let photoID = photo.id
        // Where the program paces the frames, they play while the rest are read (a terminal that plays them is given
        // them all at once).
        let streams = drawer.playback == .paced
        let limits = animationLimits
        animationLoad = Task.detached(priority: .userInitiated) {
            do {
                let data = try await source.imageData(at: url, of: photoID)
                try Task.checkCancellation()
                let stop = DecodeStop()
                let format = AnimationFormat(sniffing: data) ?? .gif
                var soFar: [AnimatedImage.Frame] = []
                var posted = 0.0
                let animation = try await withTaskCancellationHandler {
                    // Exactly the view's pixels: the viewer's box has the photo's shape, and a frame drawn as it is
                    // is not resized again on the loop.
                    try ImageCodec.decodeAnimation(data, fitting: box, exactly: true, limits: limits, stop: stop) { frame, index in
                        guard streams, soFar.count == index else { return }
                        // Frames halved under the budget since the first: the rest come whole at the end.
                        if let first = soFar.first, first.image.width != frame.image.width { soFar = []; return }
                        soFar.append(frame)
                        // The frames so far from the second on, then at most four times a second.
                        let clock = ProcessInfo.processInfo.systemUptime
                        guard index >= 1, index == 1 || clock - posted >= 0.25 else { return }
                        posted = clock
                        post(.viewerFrames(photoID: photoID, AnimatedImage(frames: soFar, loops: 1, width: frame.image.width,
                                                                          height: frame.image.height, format: format)))
                    }
                } onCancel: {
                    stop.stop()
                }
                try Task.checkCancellation()
                // A damaged file is not kept: `r` (or the next time) fetches it anew, whatever of it played now.
                if animation.damaged { source.discard(url) }
                post(.viewerAnimation(photoID: photoID, animation, file: data, note: nil))
            } catch is CancellationError {
                return
            } catch {
                if Task.isCancelled { return }
                if error is ImageDecodingError { source.discard(url) }
                let note = (error as? ServiceError)?.message ?? String(describing: error)
                post(.viewerAnimation(photoID: photoID, nil, file: nil, note: "the animation could not be played: \(note); r tries again"))
            }
        }
    }

    /// Frame `index` drawn for the view, on the run loop (a frame is as large as the view's pixels already: a
    /// millisecond or two). A frame in pixels names the one before it and the cell rows they share, which need not
    /// be sent again.
    private func animationFrame(_ animation: AnimatedImage, index: Int, key: ViewerKey) -> CellPicture {
        if let shown = frameShown, shown.key == key, shown.frame == index { return shown.picture }
        if framesDrawn?.key != key { framesDrawn = (key, [:], 0) }
        var picture: CellPicture
        if let drawn = framesDrawn?.pictures[index] {
            picture = drawn
        } else {
            let image = animation.frames[min(index, animation.frames.count - 1)].image
            let rotated = ViewerRendering.rotate(image, quarterTurns: key.view.quarterTurns)
            picture = ViewerRendering.render(rotated, columns: key.columns, rows: key.rows, view: key.view, drawer: drawer)
            let bytes = picture.pixels?.image.pixels.count ?? picture.cells.count * MemoryLayout<CellPicture.Cell>.stride
            if let kept = framesDrawn, kept.bytes + bytes <= AnimationLimits.drawnFrameBytes {
                framesDrawn?.pictures[index] = picture
                framesDrawn?.bytes = kept.bytes + bytes
            }
        }
        if let pixels = picture.pixels, let shown = frameShown, shown.key == key, let before = shown.picture.pixels {
            picture = CellPicture(pixels: PixelPicture(image: pixels.image, columns: pixels.columns, rows: pixels.rows,
                                                       follows: .init(pictureID: before.id, unchangedRows: pixels.unchangedRows(since: before))))
        }
        frameShown = (key, index, picture)
        return picture
    }

    /// Every frame drawn for the view, off the run loop, as one picture the terminal plays.
    private func startMotionRender(_ animation: AnimatedImage, key: ViewerKey) {
        motionRender?.task.cancel()
        let drawer = self.drawer
        let post = self.post
        let file = animationFile
        let budget = animationLimits.bytes
        let task = Task.detached(priority: .userInitiated) {
            var frames: [RGBImage] = []
            // iTerm2 plays the GIF itself, as it came, when the whole of it is in view upright.
            let whole = key.view.zoom <= 1 && key.view.quarterTurns % 4 == 0
            let sources = file != nil && whole ? Array(animation.frames.prefix(1)) : animation.frames
            // The frames drawn for the view are held under the same budget as the frames read: past it they are made
            // smaller (the terminal scales them to the cells), never held all at the view's size.
            var scale = 1.0
            for frame in sources {
                if Task.isCancelled { return }
                let rotated = ViewerRendering.rotate(frame.image, quarterTurns: key.view.quarterTurns)
                guard var image = ViewerRendering.render(rotated, columns: key.columns, rows: key.rows, view: key.view, drawer: drawer).pixels?.image else { return }
                if frames.isEmpty {
                    let all = Double(image.pixels.count) * Double(sources.count)
                    if all > Double(budget) { scale = (Double(budget) / all).squareRoot() }
                }
                if scale < 1 {
                    image = AreaResampler.resize(image, width: max(1, Int(Double(image.width) * scale)), height: max(1, Int(Double(image.height) * scale)))
                }
                frames.append(image)
            }
            guard let first = frames.first else { return }
            // Kitty's payloads are made here, off the loop: compressing twenty frames there kept keys waiting.
            let payloads = drawer.playback == .terminalFrames ? frames.map { KittyGraphics.payload(of: $0) } : []
            if Task.isCancelled { return }
            let motion = PixelMotion(frames: frames, delays: animation.frames.map { Int(($0.delay * 1000).rounded()) },
                                     loops: animation.loops, file: whole ? file : nil, kittyPayloads: payloads)
            post(.viewerMotion(key, CellPicture(pixels: PixelPicture(image: first, columns: key.columns, rows: key.rows, motion: motion))))
        }
        motionRender = (key, task)
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
