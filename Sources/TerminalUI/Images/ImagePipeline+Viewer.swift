import Foundation
import ImageFeedCore
import TerminalImage

/// The viewer's picture: the photo fitted, zoomed and panned, drawn off the terminal thread; a larger file asked for
/// when the zoom goes past what the one at hand can show.
extension ImagePipeline {
    /// What the viewer shows for this frame; what it lacks is loaded or drawn when the frame ends.
    public func viewerPicture(for photo: Photo, columns: Int, rows: Int, view: ViewTransform) -> PictureSlot {
        guard columns > 0, rows > 0 else { return .failed }
        let key = ViewerKey(photoID: photo.id, columns: columns, rows: rows, view: view)
        viewerWanted = (photo, key)
        viewerLastKey = key
        let placeholder = { PicturePlaceholder.make(for: photo, columns: columns, rows: rows, blitter: self.blitter) }
        // Another photo than the one loaded: it is opened when the frame ends.
        guard viewerPhotoID == photo.id else { return .loading(placeholder()) }
        viewIsWhole = view.zoom <= 1 && view.quarterTurns % 4 == 0
        if let animation, let clock {
            if sendsMotionPicture {
                // Held for the link at its first frame, the still shows (as where frames are drawn on the loop).
                if terminalPlays || hold == nil || clock.frame != 0 {
                    if let shown = motionShown, shown.key == key { return .ready(shown.picture) }
                    if let zoomed = zoomedMotion(key) { return .ready(zoomed) }
                }
            } else if hold == nil || clock.frame != 0 {
                return .ready(animationFrame(animation, index: shownFrame, key: key))
            }
        }
        if let shown = viewerShown, shown.key == key { return .ready(shown.picture) }
        if viewerFailed { return .failed }
        // Until the new view is drawn, the previous one stays (no flash of the placeholder while zooming).
        if viewerSource != nil, let shown = viewerShown, shown.key.photoID == photo.id { return .ready(shown.picture) }
        return .loading(placeholder())
    }

    /// After the frame: loads the viewer's photo, draws the view it showed, or asks for the larger file.
    func prepareViewer(_ photo: Photo, key: ViewerKey) {
        if viewerPhotoID != photo.id { openViewer(photo, columns: key.columns, rows: key.rows, turns: key.view.quarterTurns) }
        if animationRetryWanted {
            animationRetryWanted = false
            openAnimation(photo, columns: key.columns, rows: key.rows, turns: key.view.quarterTurns)
        }
        if let animation, sendsMotionPicture, motionShown?.key != key, motionRender?.key != key, zoomedMotion(key) == nil {
            startMotionRender(animation, key: key)
        }
        if let shown = viewerShown, shown.key == key, !viewerShownIsCoarse { return }
        guard !viewerFailed, let image = viewerSource else { return }
        askForDetailIfZoomedPast(image, photo: photo, columns: key.columns, rows: key.rows, view: key.view)
        if let shown = viewerShown, shown.key == key, viewerShownIsCoarse {
            startViewerRender(image, key: key) // drawn again from the larger file; the old one shows meanwhile
        } else if viewerRender?.key != key {
            startViewerRender(image, key: key)
        }
    }

    /// A zoomed or panned view of the animation the terminal holds whole (its motion picture for the same photo and
    /// turn, unzoomed), where the terminal places a part of a picture over any cells: the same picture showing that
    /// part (`PixelPicture.showing`), so that nothing is drawn or sent again; nil where it must be drawn anew.
    func zoomedMotion(_ key: ViewerKey) -> CellPicture? {
        guard drawer.cropsPlacements, let base = motionShown, base.key.photoID == key.photoID,
              base.key.view.quarterTurns == key.view.quarterTurns, base.key.view.visibleX >= 1, base.key.view.visibleY >= 1,
              key.view.visibleX < 1 || key.view.visibleY < 1, let pixels = base.picture.pixels else { return nil }
        let rect = ViewerRendering.visibleRect(width: pixels.image.width, height: pixels.image.height, view: key.view)
        return CellPicture(pixels: pixels.showing(PixelPicture.Crop(x: rect.x, y: rect.y, width: rect.width, height: rect.height),
                                                  columns: key.columns, rows: key.rows))
    }

    func startViewerRender(_ image: RGBImage, key: ViewerKey) {
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
    func askForDetailIfZoomedPast(_ image: RGBImage, photo: Photo, columns: Int, rows: Int, view: ViewTransform) {
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
    func openViewer(_ photo: Photo, columns: Int, rows: Int, turns: Int = 0) {
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
}
