import Foundation
import Synchronization

/// A photo drawn in pixels for a terminal that shows pictures itself (Kitty graphics, Sixel, iTerm2): the
/// pixels for exactly `columns` x `rows` cells, with a number of its own, so the terminal can keep it once
/// uploaded and a frame can say where it goes without sending it again.
public final class PixelPicture: Sendable {
    private static let counter = Atomic<UInt32>(0)

    /// Unique in this process (Kitty's image id: 1 … 2³²-1; 0 is never used).
    public let id: UInt32
    public let image: RGBImage
    public let columns: Int
    public let rows: Int
    /// An animation the terminal plays itself (Kitty graphics' animation frames, iTerm2's GIF); `image` is its
    /// first frame.
    public let motion: PixelMotion?
    /// The frame of an animation the program plays, and the picture it follows on screen: the cell rows equal to
    /// that picture's need not be drawn again.
    public let follows: Succession?
    /// The part of `image` the picture shows over its cells (nil: all of it): a zoomed view of a picture the terminal
    /// keeps, placed from the same upload under the same id (an animation the terminal holds is not sent again).
    public let crop: Crop?

    /// A rectangle of the image, in its pixels.
    public struct Crop: Hashable, Sendable {
        public var x: Int, y: Int, width: Int, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    public struct Succession: Sendable {
        public let pictureID: UInt32
        /// The picture's cell rows (0-based) whose pixels are the same in both.
        public let unchangedRows: Set<Int>

        public init(pictureID: UInt32, unchangedRows: Set<Int>) {
            self.pictureID = pictureID
            self.unchangedRows = unchangedRows
        }
    }

    /// A new id, unique in this process among pictures in pixels and in cells alike (never 0).
    static func makeID() -> UInt32 {
        var next = counter.add(1, ordering: .relaxed).newValue
        if next == 0 { next = counter.add(1, ordering: .relaxed).newValue }
        return next
    }

    public init(image: RGBImage, columns: Int, rows: Int, motion: PixelMotion? = nil, follows: Succession? = nil) {
        id = Self.makeID()
        self.image = image
        self.columns = columns
        self.rows = rows
        self.motion = motion
        self.follows = follows
        crop = nil
    }

    /// A picture under an id reserved for it beforehand (`reserveID`): an animation's frame keeps its id from one loop
    /// to the next, so a terminal layer that kept its bytes sends them again without making them anew.
    public init(id: UInt32, image: RGBImage, columns: Int, rows: Int, follows: Succession? = nil) {
        self.id = id
        self.image = image
        self.columns = columns
        self.rows = rows
        motion = nil
        self.follows = follows
        crop = nil
    }

    /// An id no other picture has or will have (for `init(id:…)`).
    public static func reserveID() -> UInt32 { makeID() }

    private init(of picture: PixelPicture, crop: Crop, columns: Int, rows: Int) {
        id = picture.id
        image = picture.image
        self.columns = columns
        self.rows = rows
        motion = picture.motion
        follows = nil
        self.crop = crop
    }

    /// The same picture (its id, its pixels, its animation) showing only `crop` of its image over `columns` x `rows`
    /// cells: a terminal that keeps it places that part without being sent anything.
    public func showing(_ crop: Crop, columns: Int, rows: Int) -> PixelPicture {
        let x = min(max(0, crop.x), max(0, image.width - 1)), y = min(max(0, crop.y), max(0, image.height - 1))
        let bounded = Crop(x: x, y: y, width: max(1, min(crop.width, image.width - x)), height: max(1, min(crop.height, image.height - y)))
        return PixelPicture(of: self, crop: bounded, columns: columns, rows: rows)
    }

    /// The cell rows (0-based) whose pixels are the same in `other`, a picture of the same size (all or none
    /// otherwise).
    public func unchangedRows(since other: PixelPicture) -> Set<Int> {
        guard other.image.width == image.width, other.image.height == image.height, other.rows == rows else { return [] }
        var same = Set<Int>()
        image.pixels.withUnsafeBufferPointer { now in
            other.image.pixels.withUnsafeBufferPointer { before in
                for row in 0..<rows {
                    let rect = pixelRect(column: 0, row: row, columns: columns, rows: 1)
                    let start = rect.y * image.width * 3, length = rect.height * image.width * 3
                    if length == 0 || memcmp(now.baseAddress! + start, before.baseAddress! + start, length) == 0 { same.insert(row) }
                }
            }
        }
        return same
    }

    /// Pixels per cell across and down (the picture, or its crop, fills its cells exactly).
    public var cellWidth: Double { Double(crop?.width ?? image.width) / Double(max(1, columns)) }
    public var cellHeight: Double { Double(crop?.height ?? image.height) / Double(max(1, rows)) }

    /// The pixels under the cells `columns` x `rows` from cell (`column`, `row`) of the picture.
    public func pixelRect(column: Int, row: Int, columns: Int, rows: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let left = crop?.x ?? 0, top = crop?.y ?? 0
        let right = left + (crop?.width ?? image.width), bottom = top + (crop?.height ?? image.height)
        let x0 = left + Int((Double(column) * cellWidth).rounded())
        let y0 = top + Int((Double(row) * cellHeight).rounded())
        let x1 = min(right, left + Int((Double(column + columns) * cellWidth).rounded()))
        let y1 = min(bottom, top + Int((Double(row + rows) * cellHeight).rounded()))
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
    }

    /// A part of the pixels, as its own image.
    public func crop(x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        guard x != 0 || y != 0 || width != image.width || height != image.height else { return image }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for line in 0..<height {
            let from = ((y + line) * image.width + x) * 3
            pixels.replaceSubrange((line * width * 3)..<((line + 1) * width * 3), with: image.pixels[from..<(from + width * 3)])
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// An animation for a terminal that plays it itself: every frame at the picture's size (the first is the picture's
/// own), how long each shows, and the loops; and the file as it came, for a terminal that plays the file itself
/// (iTerm2 plays a GIF).
public final class PixelMotion: Sendable {
    public let frames: [RGBImage]
    /// Milliseconds each frame shows.
    public let delays: [Int]
    /// How many times the whole plays; 0 for ever.
    public let loops: Int
    public let file: Data?
    /// Each frame's Kitty payload (compressed, in base64), made with the frames off the run loop; empty when not.
    public let kittyPayloads: [KittyGraphics.Payload]

    public init(frames: [RGBImage], delays: [Int], loops: Int, file: Data? = nil, kittyPayloads: [KittyGraphics.Payload] = []) {
        self.frames = frames
        self.delays = delays
        self.loops = loops
        self.file = file
        self.kittyPayloads = kittyPayloads
    }
}
