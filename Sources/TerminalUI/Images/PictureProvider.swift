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

    /// The viewer's photo as the view shows it (zoomed, panned, turned), fitted in `columns` x `rows`.
    func viewerPicture(for photo: Photo, columns: Int, rows: Int, view: ViewTransform) -> PictureSlot
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
