import Foundation
import ImageFeedCore
import TerminalImage

/// The viewer's animation: read while it plays, its frames drawn as they are due (or handed to the terminal that plays
/// them), held while the link cannot carry it.
extension ImagePipeline {
    /// Whether the terminal plays the viewer's animation itself (every frame sent once).
    var terminalPlays: Bool {
        guard hold == nil else { return false }
        switch drawer.playback {
        case .paced, .framesInPlace: return false
        case .terminalFrames: return true
        case .terminalGIF: return animationFile != nil && viewIsWhole
        }
    }

    /// Whether the viewer's animation goes to the terminal as one picture holding every frame, drawn off the loop: the
    /// terminal plays it, or the program paces the frames' uploads (`framesInPlace`: the placement names the frame due).
    var sendsMotionPicture: Bool { terminalPlays || drawer.playback == .framesInPlace }

    /// Where the viewer's animation is, for its status line.
    public var viewerAnimation: AnimationStatus? {
        guard let clock else {
            // Read and found not to move (or not readable): a status of no frames, with why.
            guard animationLoad == nil, viewerPhotoID != nil, let why = animationCut else { return nil }
            return AnimationStatus(frame: 0, frames: 0, loop: 1, loops: 1, paused: true, cut: why)
        }
        return AnimationStatus(frame: shownFrame, frames: clock.frameCount, loop: clock.loop, loops: clock.loops,
                               paused: clock.paused, finished: clock.finished, playedByTerminal: terminalPlays,
                               heldForLink: hold == .link, heldBecause: hold?.reason, linkTooSlow: hold == .tooSlow, cut: animationCut, reading: animationReading)
    }

    /// When the next frame is due (seconds on `now`'s clock), where the program paces the frames; over a slow link,
    /// not before the link has carried the last one.
    public var nextAnimationFrame: Double? {
        [viewerNextFrame, nextTileFrame].compactMap { $0 }.min()
    }

    private var viewerNextFrame: Double? {
        guard !terminalPlays, let clock else { return nil }
        guard let pacing = linkPacing, clock.isRunning, let ready = pacing.readyAt else { return clock.nextChange }
        if linkShownFrame != clock.frame { return ready }
        return clock.nextChange.map { max($0, ready) }
    }

    /// The frame the viewer shows: the clock's, or over a slow link the last the link was given time for.
    var shownFrame: Int {
        guard let clock else { return 0 }
        if linkPacing != nil, clock.isRunning, let shown = linkShownFrame { return shown }
        return clock.frame
    }

    /// The frame the program draws now and when it was due (nil: none, or the terminal plays them): how late frames
    /// reach the terminal is measured from it.
    public var drawnFrameDue: (frame: Int, due: Double)? {
        guard let clock, !terminalPlays, !sendsMotionPicture, hold == nil || clock.frame != 0 else { return nil }
        if linkPacing != nil, clock.isRunning, let shown = linkShownFrame { return (shown, linkShownDue) }
        return (clock.frame, clock.frameDue)
    }

    /// Over a slow link, the frames' size and cost ("frames at 46% each way, 9 KB each over 250 KB/s"); nil elsewhere.
    public var linkPacingSummary: String? {
        guard let pacing = linkPacing else { return hold == .tooSlow ? "held: link too slow" : nil }
        return "frames at \(Int((pacing.scale * 100).rounded()))% each way, \(Int(pacing.bytesPerFrame / 1_000)) KB each over "
            + "\(Int(pacing.rate / 1_000)) KB/s\(hold == .tooSlow ? ", held: link too slow" : "")"
    }

    /// Whether the program draws the animation's frames itself, one by one on the loop (not a picture of them all).
    var pacesOnLoop: Bool {
        switch drawer.playback {
        case .paced: true
        case .terminalFrames, .framesInPlace: false
        case .terminalGIF: !(animationFile != nil && viewIsWhole)
        }
    }

    /// Moves the animation to the frame due now. Returns whether the screen shows something else. Over a slow link a
    /// frame is shown once the link has carried the last (frames due meanwhile are skipped), and the frames are made
    /// smaller while one takes more than a tenth of a second to cross; where even the smallest would, it stops and says so.
    public func advanceAnimation() -> Bool {
        let tiles = advanceTiles()
        return advanceViewerAnimation() || tiles
    }

    private func advanceViewerAnimation() -> Bool {
        guard clock != nil else { return false }
        let time = now()
        let changed = clock!.advance(to: time)
        if terminalPlays { return false }
        followLink()
        guard linkPacing != nil, clock!.isRunning else {
            linkShownFrame = nil
            return changed
        }
        guard linkShownFrame != clock!.frame, linkPacing!.mayShow(at: time) else { return false }
        linkShownFrame = clock!.frame
        linkShownDue = clock!.frameDue
        if !linkPacing!.shown(at: time, bytesWritten: bytesWritten) {
            hold = .tooSlow
            clock!.togglePause(now: time)
        }
        return true
    }

    /// The link found slow (or fast again) while the program draws the frames: paced to it (or not).
    func followLink() {
        guard let rate = linkRate, pacesOnLoop else {
            linkPacing = nil
            return
        }
        if linkPacing != nil { linkPacing!.follow(rate: rate) }
        guard linkPacing == nil, let key = viewerLastKey, key.photoID == viewerPhotoID else { return }
        let whole: Double
        if drawer.drawsPixels {
            let size = drawer.pixelSize(columns: key.columns, rows: key.rows)
            whole = LinkPacing.estimate(pixels: size.width * size.height)
        } else {
            whole = LinkPacing.estimate(cells: key.columns * key.rows, trueColor: drawer.blitter.mode == .truecolor)
        }
        // What changes from frame to frame is what is sent.
        if animationChangedShare == nil, let animation { animationChangedShare = LinkPacing.changedShare(animation.frames.map(\.image)) }
        linkPacing = LinkPacing(rate: rate, wholeFrame: whole * (animationChangedShare ?? 1), anyway: playedOnRequest)
        if linkPacing == nil, hold == nil, clock?.isRunning == true {
            // Not even a third of the picture each way crosses in a tenth of a second: it stands, and says why.
            hold = .tooSlow
            clock!.togglePause(now: now())
        }
    }

    /// Whether `r` has an animation to read again: it could not be read, or only the frames before damage were.
    public var animationRetries: Bool {
        guard animationLoad == nil, viewerPhotoID != nil else { return false }
        return (clock == nil && animationCut != nil) || animation?.damaged == true
    }

    /// `r` in the viewer over an animation that could not be read (or was damaged): it is fetched and read again.
    func retryAnimation() {
        guard animationRetries else { return }
        forgetAnimation()
        // Read when the frame that shows the viewer ends (it knows the view's size).
        animationRetryWanted = true
    }

    /// The clock for `animation`'s frames: a new one, or, when it played while it was read, the same one with the
    /// frames read since (it plays on from where it is).
    func play(_ animation: AnimatedImage, loops: Int) {
        let delays = animation.frames.map(\.delay)
        if clock != nil {
            clock!.extend(delays: delays, loops: loops, now: now())
        } else {
            // Where the terminal is given every frame, on a slow link it stands still until Space; where the program
            // draws them, they are sized and paced to the link (`followLink`). Every animation stands still where the
            // setting asks for stillness.
            hold = animationSetting == .off ? .off : linkRate.map { !pacesOnLoop && !uploadCrosses(animation, rate: $0) } == true ? .link : nil
            clock = AnimationClock(delays: delays, loops: loops, now: now(), paused: hold != nil)
            if hold == nil { followLink() }
        }
        // `safe`: the frames read so far, measured before they play; one that flashes too often stands still.
        if animationSetting == .safe, !playedOnRequest, hold != .off, hold?.isFlashes != true {
            // Only the frames not measured yet (the frames so far come again with more at each post; frames halved
            // under the budget since come as a new start).
            if frameLuminances.count > animation.frames.count { frameLuminances = [] }
            frameLuminances += animation.frames[frameLuminances.count...].map { Flashes.luminances($0.image) }
            let rate = Flashes.perSecond(luminances: frameLuminances, delays: delays)
            if Flashes.tooMany(rate) {
                hold = .flashes(rate)
                if clock?.paused == false { clock!.togglePause(now: now()) }
            }
        }
    }

    /// The viewer's animation and its reading given up: the still stays.
    func forgetAnimation() {
        animationLoad?.cancel()
        motionRender?.task.cancel()
        animationLoad = nil
        motionRender = nil
        animation = nil
        animationFile = nil
        clock = nil
        hold = nil
        playedOnRequest = false
        frameLuminances = []
        animationCut = nil
        animationReading = false
        frameShown = nil
        framesDrawn = nil
        frameIDs = nil
        motionShown = nil
        linkPacing = nil
        linkShownFrame = nil
        framesScale = 1
        frameAhead?.task.cancel()
        frameAhead = nil
        animationChangedShare = nil
    }

    /// Space, `.` and `,` in the viewer; `r` over an animation that could not be read.
    public func control(_ request: PlaybackRequest) {
        if request == .retry { return retryAnimation() }
        guard clock != nil else { return }
        if hold != nil {
            // The first Space plays it, slow link, setting or flashes: frames that cannot cross in time are skipped.
            let tooSlow = hold == .tooSlow
            hold = nil
            playedOnRequest = true
            // Space tries: no smaller than a third each way, whatever the link.
            if tooSlow {
                linkPacing = nil
                followLink()
            }
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
        linkPacing?.restart()
    }

    /// Where the terminal is given every frame before it plays them (Kitty graphics' animation, iTerm2's GIF), whether the
    /// link carries them all within `uploadSeconds` (the still shows meanwhile, keys go between the chunks): then it
    /// plays over a slow link too, every byte sent once. A Kitty frame is taken at three bytes a pixel (compressed, in
    /// base64), a GIF at its file's size in base64.
    func uploadCrosses(_ animation: AnimatedImage, rate: Double) -> Bool {
        let bytes: Double
        switch drawer.playback {
        case .terminalFrames:
            bytes = Double(animation.frames.count) * Double(animation.width) * Double(animation.height) * 3
        case .terminalGIF:
            guard let file = animationFile, viewIsWhole else { return false }
            bytes = Double(file.count) * 4 / 3
        case .paced, .framesInPlace:
            return false
        }
        return bytes <= rate * Self.uploadSeconds
    }

    /// The longest a slow link may take to carry every frame of an animation the terminal plays before it plays.
    static let uploadSeconds = 4.0

    /// The animation's frames are read as soon as the viewer opens, fitted to the view's pixels (the still shows
    /// meanwhile).
    func openAnimation(_ photo: Photo, columns: Int, rows: Int, turns: Int) {
        guard let url = photo.links.download ?? photo.urls.regular else { return }
        let source = self.source
        let post = self.post
        var box = drawer.pixelSize(columns: columns, rows: rows)
        if turns % 2 == 1 { box = (box.height, box.width) }
        let photoID = photo.id
        // Where the program paces the frames, they play while the rest are read (a terminal that plays them is given
        // them all at once).
        let streams = drawer.playback == .paced
        // Frames drawn on the loop are made at the view's pixels exactly; frames the terminal holds no larger than they
        // are (`startMotionRender` makes them the view's size, or on a slow link leaves a small one at its own).
        let exactly = drawer.playback == .paced
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
                    try ImageCodec.decodeAnimation(data, fitting: box, exactly: exactly, limits: limits, stop: stop) { frame, index in
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

    /// Frame `index` for the view: kept drawn, drawn ahead off the loop, or drawn on the loop (a frame is as large as
    /// the view's pixels already: a few milliseconds); for a view just changed, drawn off the loop while the last frame
    /// stays. A frame in pixels names the one before it and the cell rows they share, which need not
    /// be sent again.
    func animationFrame(_ animation: AnimatedImage, index: Int, key: ViewerKey) -> CellPicture {
        // Over a slow link, frames smaller than the view (centred in it): drawn again when their size changes.
        let scale = linkPacing?.scale ?? 1
        if scale != framesScale {
            framesScale = scale
            frameShown = nil
            framesDrawn = nil
            frameIDs = nil
        }
        if let shown = frameShown, shown.key == key, shown.frame == index { return shown.picture }
        if framesDrawn?.key != key { framesDrawn = (key, [:], 0) }
        var picture: CellPicture
        if let drawn = framesDrawn?.pictures[index] {
            picture = drawn
        } else {
            if let ahead = frameAhead, ahead.key == key, ahead.index == index, ahead.scale == scale, let drawn = ahead.picture {
                // Drawn off the loop while the frame before it showed.
                picture = drawn
            } else if let shown = frameShown, shown.key.photoID == key.photoID, shown.key != key {
                // The view changed (a zoom, a pan, a turn): the frame for it is drawn off the loop, and the last frame
                // stays until it is, as the still's view does. Drawn while the clock moved on: it shows now, as the frame
                // it is.
                if let ahead = frameAhead, ahead.key == key, ahead.scale == scale, ahead.picture != nil, ahead.index != index {
                    return animationFrame(animation, index: ahead.index, key: key)
                }
                draw(animation, index: index, ahead: false, key: key, scale: scale)
                return shown.picture
            } else {
                picture = Self.drawFrame(animation.frames[min(index, animation.frames.count - 1)].image, key: key, scale: scale, drawer: drawer)
            }
            let bytes = picture.pixels?.image.pixels.count ?? picture.cells.count * MemoryLayout<CellPicture.Cell>.stride
            if let kept = framesDrawn, kept.bytes + bytes <= AnimationLimits.drawnFrameBytes {
                framesDrawn?.pictures[index] = picture
                framesDrawn?.bytes = kept.bytes + bytes
            }
        }
        if let pixels = picture.pixels {
            // Frame `index` under its own id for this view, following the frame before it in the file: shown after
            // that one, only the cell rows they do not share are drawn, and a loop's frames are the loop before's.
            let count = animation.frames.count
            // Reserved as the frames come (those read so far keep theirs while the rest are read).
            if frameIDs?.key != key { frameIDs = (key, []) }
            while frameIDs!.ids.count < count { frameIDs!.ids.append(PixelPicture.reserveID()) }
            let ids = frameIDs!.ids
            let previous = (index + count - 1) % count
            var before: PixelPicture?
            if let shown = frameShown, shown.key == key, shown.frame == previous { before = shown.picture.pixels }
            if before == nil { before = framesDrawn?.pictures[previous]?.pixels }
            let unchanged = before.map { pixels.unchangedRows(since: $0) } ?? []
            picture = CellPicture(pixels: PixelPicture(id: ids[min(index, count - 1)], image: pixels.image, columns: pixels.columns,
                                                       rows: pixels.rows, follows: .init(pictureID: ids[previous], unchangedRows: unchanged)))
        }
        frameShown = (key, index, picture)
        draw(animation, index: (index + 1) % animation.frames.count, ahead: true, key: key, scale: scale)
        return picture
    }

    /// A frame of the animation drawn for the view (at `scale` of its cells each way, centred, over a slow link).
    static func drawFrame(_ image: RGBImage, key: ViewerKey, scale: Double, drawer: PictureDrawer) -> CellPicture {
        let rotated = ViewerRendering.rotate(image, quarterTurns: key.view.quarterTurns)
        let columns = scale < 1 ? max(1, Int((Double(key.columns) * scale).rounded())) : key.columns
        let rows = scale < 1 ? max(1, Int((Double(key.rows) * scale).rounded())) : key.rows
        return ViewerRendering.render(rotated, columns: columns, rows: rows, view: key.view, drawer: drawer)
    }

    /// Frame `next` drawn off the loop, where it is not kept drawn already: the frame after the one that shows (`ahead`),
    /// so that when it is due the loop only places it (drawing a frame at the view's pixels on the loop kept a key
    /// waiting behind it); or the frame due for a view just changed.
    func draw(_ animation: AnimatedImage, index next: Int, ahead: Bool, key: ViewerKey, scale: Double) {
        guard animation.frames.count > 1 || !ahead, animation.frames.indices.contains(next) else { return }
        guard framesDrawn?.key != key || framesDrawn?.pictures[next] == nil else { return }
        if let ahead = frameAhead, ahead.key == key, ahead.index == next, ahead.scale == scale { return }
        frameAhead?.task.cancel()
        let image = animation.frames[next].image
        let drawer = self.drawer
        let post = self.post
        let task = Task.detached(priority: .userInitiated) {
            let picture = ImagePipeline.drawFrame(image, key: key, scale: scale, drawer: drawer)
            if Task.isCancelled { return }
            post(.viewerFrameAhead(key, index: next, scale: scale, picture))
        }
        frameAhead = (key, next, scale, nil, task)
    }

    /// Every frame drawn for the view, off the run loop, as one picture the terminal plays.
    func startMotionRender(_ animation: AnimatedImage, key: ViewerKey) {
        motionRender?.task.cancel()
        let drawer = self.drawer
        let post = self.post
        let file = animationFile
        let budget = animationLimits.bytes
        let slowLink = linkRate != nil
        let task = Task.detached(priority: .userInitiated) {
            var frames: [RGBImage] = []
            // iTerm2 plays the GIF itself, as it came, when the whole of it is in view upright.
            let whole = key.view.zoom <= 1 && key.view.quarterTurns % 4 == 0
            let sources = file != nil && whole ? Array(animation.frames.prefix(1)) : animation.frames
            // The frames drawn for the view are held under the same budget as the frames read: past it they are made
            // smaller (the terminal scales them to the cells), never held all at the view's size.
            var scale = 1.0
            let view = drawer.pixelSize(columns: key.columns, rows: key.rows)
            for frame in sources {
                if Task.isCancelled { return }
                let rotated = ViewerRendering.rotate(frame.image, quarterTurns: key.view.quarterTurns)
                // On a slow link a frame of at most half the view's pixels, shown whole, goes up at its own size and the
                // terminal scales it to the cells (a fifth of the bytes for a 320x180 GIF in a 900x500 view). On a fast
                // one every frame is made at the view's pixels, exactly as the still is drawn.
                let ownSize = slowLink && key.view.visibleX >= 1 && key.view.visibleY >= 1
                    && rotated.width <= view.width && rotated.height <= view.height
                    && rotated.width * rotated.height * 2 <= view.width * view.height
                guard var image = ownSize ? rotated
                    : ViewerRendering.render(rotated, columns: key.columns, rows: key.rows, view: key.view, drawer: drawer).pixels?.image else { return }
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
            let payloads = [.terminalFrames, .framesInPlace].contains(drawer.playback) ? frames.map { KittyGraphics.payload(of: $0) } : []
            if Task.isCancelled { return }
            let motion = PixelMotion(frames: frames, delays: animation.frames.map { Int(($0.delay * 1000).rounded()) },
                                     loops: animation.loops, file: whole ? file : nil, kittyPayloads: payloads)
            post(.viewerMotion(key, CellPicture(pixels: PixelPicture(image: first, columns: key.columns, rows: key.rows, motion: motion))))
        }
        motionRender = (key, task)
    }
}
