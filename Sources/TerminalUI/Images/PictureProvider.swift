import Foundation
import ImageFeedCore
import TerminalImage

/// What a picture slot on screen can show right now.
public enum PictureSlot: Equatable, Sendable {
    /// The photo, drawn.
    case ready(CellPicture)
    /// Still loading: a stand-in drawn from the photo's BlurHash or colour, if there is one.
    case loading(CellPicture?)
    /// It could not be loaded or decoded.
    case failed
}

/// Gives screens the pictures to draw; asking for one that is not there yet starts loading it.
public protocol PictureProvider: AnyObject {
    /// The photo at `url` drawn in exactly `columns` x `rows` cells.
    func picture(for photo: Photo, url: URL?, columns: Int, rows: Int) -> PictureSlot

    /// An album's tile: its animation playing where the `animations` setting asks (`selected`: the tile the selection
    /// is on), else the still.
    func picture(for photo: Photo, url: URL?, columns: Int, rows: Int, selected: Bool) -> PictureSlot

    /// The viewer's photo as the view shows it (zoomed, panned, turned), fitted in `columns` x `rows`.
    func viewerPicture(for photo: Photo, columns: Int, rows: Int, view: ViewTransform) -> PictureSlot

    /// The pixels across `columns` cells show: the columns themselves for characters, more for pixels.
    func pixelWidth(columns: Int) -> Int

    /// Where the viewer's animation is (nil for a still, or while it loads).
    var viewerAnimation: AnimationStatus? { get }
    /// Whether `r` would read the viewer's animation again (it could not be read, or was damaged).
    var animationRetries: Bool { get }
}

extension PictureProvider {
    public func picture(for photo: Photo, url: URL?, columns: Int, rows: Int, selected: Bool) -> PictureSlot {
        picture(for: photo, url: url, columns: columns, rows: rows)
    }
    public func pixelWidth(columns: Int) -> Int { columns }
    public var viewerAnimation: AnimationStatus? { nil }
    public var animationRetries: Bool { false }
}

/// What the viewer's status line says of an animation: the frame and the loop, paused or not, and why it does not
/// play where it does not.
public struct AnimationStatus: Equatable, Sendable {
    /// The frame shown, 0-based.
    public var frame: Int
    public var frames: Int
    /// The play under way, 1-based, and how many the file asks for (0: for ever).
    public var loop: Int
    public var loops: Int
    public var paused: Bool
    public var finished: Bool
    /// The terminal plays it (Kitty graphics' animation, iTerm2's GIF): the frame is the terminal's to know.
    public var playedByTerminal: Bool
    /// Held as a still because the link is slow, until Space.
    public var heldForLink: Bool
    /// Held as a still for another reason, said ("animations are off", "it flashes 5 times a second"), until Space.
    public var heldBecause: String?
    /// Held because the link cannot carry even small frames; Space tries.
    public var linkTooSlow: Bool
    /// Frames left out (the budget, a damaged frame), said once.
    public var cut: String?
    /// It plays while the rest of its frames are read: `frames` is what was read so far.
    public var reading: Bool

    public init(frame: Int, frames: Int, loop: Int, loops: Int, paused: Bool, finished: Bool = false,
                playedByTerminal: Bool = false, heldForLink: Bool = false, heldBecause: String? = nil, linkTooSlow: Bool = false,
                cut: String? = nil, reading: Bool = false) {
        self.linkTooSlow = linkTooSlow
        self.reading = reading
        self.frame = frame
        self.frames = frames
        self.loop = loop
        self.loops = loops
        self.paused = paused
        self.finished = finished
        self.playedByTerminal = playedByTerminal
        self.heldForLink = heldForLink
        self.heldBecause = heldBecause
        self.cut = cut
    }
}

/// How the viewer shows its photo.
public struct ViewTransform: Hashable, Sendable {
    public var zoom: Double
    public var panX: Double
    public var panY: Double
    public var quarterTurns: Int
    /// The part of the (rotated) photo's width and height in view: 1/zoom when the zoomed photo keeps its
    /// fitted box, more when it spreads over the whole terminal.
    public var visibleX: Double
    public var visibleY: Double

    public init(zoom: Double = 1, panX: Double = 0, panY: Double = 0, quarterTurns: Int = 0,
                visibleX: Double? = nil, visibleY: Double? = nil) {
        self.zoom = zoom
        self.panX = panX
        self.panY = panY
        self.quarterTurns = quarterTurns
        self.visibleX = visibleX ?? 1 / max(1, zoom)
        self.visibleY = visibleY ?? 1 / max(1, zoom)
    }

    public init(_ viewer: ViewerState, visibleX: Double? = nil, visibleY: Double? = nil) {
        self.init(zoom: viewer.zoom, panX: viewer.panX, panY: viewer.panY, quarterTurns: viewer.quarterTurns,
                  visibleX: visibleX, visibleY: visibleY)
    }
}

/// Stand-ins for pictures that are loading: the BlurHash of the photo, else its colour, at the slot's size.
public enum PicturePlaceholder {
    public static func make(for photo: Photo, columns: Int, rows: Int, blitter: HalfBlockBlitter) -> CellPicture? {
        guard columns > 0, rows > 0, blitter.mode != .none else { return nil }
        if let hash = photo.blurHash,
           let image = BlurHash.decode(hash, width: min(columns, 32), height: min(rows * 2, 32)) {
            return blitter.render(image, columns: columns, rows: rows)
        }
        if let hex = photo.color, let color = RGB(hex: hex) {
            return blitter.render(RGBImage(width: 1, height: 2, red: color.red, green: color.green, blue: color.blue),
                                  columns: columns, rows: rows)
        }
        return nil
    }
}

/// Turns decoded photos into what a picture slot shows: coloured characters, or, on a terminal that shows
/// pictures itself, pixels for exactly the slot's cells.
public struct PictureDrawer: Sendable {
    public let blitter: HalfBlockBlitter
    /// The characters photos are drawn with when the terminal does not draw pixels.
    public let kind: BlitterKind
    /// One cell's size in pixels when the terminal draws pixels; nil for characters.
    public let cellWidth: Int?
    public let cellHeight: Int?
    /// How animations reach the terminal.
    public var playback: AnimationPlayback = .paced
    /// The terminal shows a part of a picture it keeps over any cells (Kitty's placements): a zoomed view of an
    /// animation it holds is placed from the same upload, not drawn and sent again.
    public var cropsPlacements = false

    /// How an animation is played.
    public enum AnimationPlayback: Sendable, Equatable {
        /// The program draws each frame when it is due (characters, Sixel).
        case paced
        /// The terminal is given every frame once and plays them (Kitty graphics' animation).
        case terminalFrames
        /// The program paces the frames, each sent whole when it is due and shown in place of the last (Kitty graphics in
        /// a terminal that keeps pictures but plays no frames: Ghostty, Konsole, Zellij, xterm.js): made off the loop
        /// once, under at most two picture ids, so what the terminal holds stays flat.
        case framesInPlace
        /// The terminal plays a GIF file sent as it is (iTerm2's images); other animations are paced.
        case terminalGIF
    }

    public init(blitter: HalfBlockBlitter, kind: BlitterKind = .half, cellWidth: Int? = nil, cellHeight: Int? = nil,
                playback: AnimationPlayback = .paced) {
        self.blitter = blitter
        self.kind = kind
        self.playback = cellWidth == nil ? .paced : playback
        if let cellWidth, let cellHeight, cellWidth > 0, cellHeight > 0 {
            self.cellWidth = cellWidth
            self.cellHeight = cellHeight
        } else {
            self.cellWidth = nil
            self.cellHeight = nil
        }
    }

    public var drawsPixels: Bool { cellWidth != nil }

    /// A cell's height over its width: 2 for half blocks (two square pixels a cell), the font's own for pixels.
    public var cellAspect: Double {
        guard let cellWidth, let cellHeight else { return 2 }
        return Double(cellHeight) / Double(cellWidth)
    }

    /// The pixels a slot of `columns` x `rows` cells shows.
    public func pixelSize(columns: Int, rows: Int) -> (width: Int, height: Int) {
        guard let cellWidth, let cellHeight else {
            let cell = kind.cellPixels
            return (columns * cell.width, rows * cell.height)
        }
        return (columns * cellWidth, rows * cellHeight)
    }

    /// `image` in `columns` x `rows` cells; `fill` crops it to the slot's shape first (cards), else it is
    /// stretched to the slot (the viewer's slot already has the photo's shape).
    public func draw(_ image: RGBImage, columns: Int, rows: Int, fill: Bool = false) -> CellPicture {
        guard columns > 0, rows > 0 else { return CellPicture(columns: 0, rows: 0, cells: []) }
        guard drawsPixels else {
            guard kind != .half else { return blitter.render(image, columns: columns, rows: rows) }
            return MosaicBlitter(kind: kind, mode: blitter.mode, unicode: blitter.unicode).render(image, columns: columns, rows: rows)
        }
        let size = pixelSize(columns: columns, rows: rows)
        let scaled = fill ? AreaResampler.fill(image, width: size.width, height: size.height)
            : AreaResampler.resize(image, width: size.width, height: size.height)
        return CellPicture(pixels: PixelPicture(image: scaled, columns: columns, rows: rows))
    }
}
