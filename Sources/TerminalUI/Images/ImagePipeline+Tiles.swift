import Foundation
import ImageFeedCore
import TerminalImage

/// Animated tiles that play where they stand (an Imgur album's items): with `animations = hover` the selected one,
/// with `on` every one in view (at most `tilesPlayingAtOnce`). Each is read at its tile's pixels, its frames drawn
/// once off the loop (kept by their picture ids, so a loop's bytes are the loop before's), and paced by a clock of its
/// own on the run loop. None plays over a slow link, in a hidden window, or where the setting asks for stillness
/// (`off`; `safe` plays one only once its frames were measured not to flash more than three times a second).
extension ImagePipeline {
    /// One tile's animation: its frames for the tile's cells, and where it is.
    struct TilePlayer {
        var columns: Int
        var rows: Int
        var load: Task<Void, Never>?
        var frames: [CellPicture] = []
        var clock: AnimationClock?
    }

    /// Tiles that play at once with `animations = on` (each holds its frames).
    static let tilesPlayingAtOnce = 4
    /// What one tile's frames may hold.
    static let tileLimits = AnimationLimits(bytes: 16 << 20, frames: 300)

    /// The tile's picture: its animation's frame due now where it plays, else the still (`picture(for:url:columns:rows:)`).
    public func picture(for photo: Photo, url: URL?, columns: Int, rows: Int, selected: Bool) -> PictureSlot {
        let still = picture(for: photo, url: url, columns: columns, rows: rows)
        guard photo.isAnimated == true, tilePlays(selected: selected), let file = photo.links.download ?? photo.urls.regular,
              tilesWanted.count < Self.tilesPlayingAtOnce || tilesWanted.contains(photo.id) else { return still }
        tilesWanted.insert(photo.id)
        if let player = tilePlayers[photo.id], player.columns == columns, player.rows == rows {
            guard let clock = player.clock, !player.frames.isEmpty else { return still }
            return .ready(player.frames[min(clock.frame, player.frames.count - 1)])
        }
        tilesToStart[photo.id] = (photo, file, columns, rows)
        return still
    }

    /// Whether a tile plays now: the setting, the link, the window.
    func tilePlays(selected: Bool) -> Bool {
        guard linkRate == nil, !windowHidden else { return false }
        switch animationSetting {
        case .off: return false
        case .on: return true
        case .hover, .safe: return selected
        }
    }

    /// After a frame: the tiles no longer wanted stop (their frames go); the new ones start reading.
    func prepareTiles() {
        for (id, player) in tilePlayers where !tilesWanted.contains(id) {
            player.load?.cancel()
            tilePlayers[id] = nil
        }
        for (id, start) in tilesToStart where tilesWanted.contains(id) {
            tilePlayers[id]?.load?.cancel()
            tilePlayers[id] = TilePlayer(columns: start.columns, rows: start.rows,
                                         load: readTile(start.photo, file: start.file, columns: start.columns, rows: start.rows))
        }
        tilesToStart.removeAll()
        tilesWanted.removeAll(keepingCapacity: true)
    }

    /// Reads the tile's animation at the tile's pixels (enough to fill it) and draws every frame for its cells.
    func readTile(_ photo: Photo, file url: URL, columns: Int, rows: Int) -> Task<Void, Never> {
        let source = self.source
        let post = self.post
        let drawer = self.drawer
        let measuresFlashes = animationSetting == .safe
        let pixels = drawer.pixelSize(columns: columns, rows: rows)
        // Fitted in a box as large as the tile each way, so that filling the tile (cropping its sides) needs no pixel
        // it does not have.
        let side = max(pixels.width, pixels.height)
        let photoID = photo.id
        return Task.detached(priority: .utility) {
            do {
                let data = try await source.imageData(at: url, of: photoID)
                try Task.checkCancellation()
                let stop = DecodeStop()
                let animation = try await withTaskCancellationHandler {
                    try ImageCodec.decodeAnimation(data, fitting: (side, side), limits: ImagePipeline.tileLimits, stop: stop)
                } onCancel: {
                    stop.stop()
                }
                try Task.checkCancellation()
                // A damaged file is not kept (the viewer fetches it anew).
                if animation.damaged { source.discard(url) }
                let delays = animation.frames.map(\.delay)
                if measuresFlashes,
                   Flashes.tooMany(Flashes.perSecond(luminances: animation.frames.map { Flashes.luminances($0.image) }, delays: delays)) {
                    return post(.tileFrames(photoID: photoID, columns: columns, rows: rows, [], delays: [], loops: 1))
                }
                var frames: [CellPicture] = []
                for frame in animation.frames where animation.moves {
                    try Task.checkCancellation()
                    frames.append(drawer.draw(frame.image, columns: columns, rows: rows, fill: true))
                }
                post(.tileFrames(photoID: photoID, columns: columns, rows: rows, frames, delays: delays, loops: animation.loops))
            } catch {
                // The still stays (the viewer says why an animation cannot be read); bytes that were no picture are not
                // kept.
                if error is ImageDecodingError { source.discard(url) }
                if !Task.isCancelled {
                    post(.tileFrames(photoID: photoID, columns: columns, rows: rows, [], delays: [], loops: 1))
                }
            }
        }
    }

    /// A tile's frames came (none: it stays a still).
    func deliverTile(photoID: String, columns: Int, rows: Int, frames: [CellPicture], delays: [Double], loops: Int) {
        guard var player = tilePlayers[photoID], player.columns == columns, player.rows == rows else { return }
        player.load = nil
        player.frames = frames
        player.clock = frames.count > 1 ? AnimationClock(delays: delays, loops: loops, now: now()) : nil
        tilePlayers[photoID] = player
    }

    /// When the next tile frame is due.
    var nextTileFrame: Double? {
        tilePlayers.values.compactMap { $0.clock?.nextChange }.min()
    }

    /// Moves each playing tile to the frame due now; whether any changed.
    func advanceTiles() -> Bool {
        guard !tilePlayers.isEmpty else { return false }
        let time = now()
        var changed = false
        for id in Array(tilePlayers.keys) where tilePlayers[id]?.clock != nil {
            if tilePlayers[id]!.clock!.advance(to: time) { changed = true }
        }
        return changed
    }
}
