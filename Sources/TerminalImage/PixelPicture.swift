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

    /// Pixels per cell across and down (the picture fills its cells exactly).
    public var cellWidth: Double { Double(image.width) / Double(max(1, columns)) }
    public var cellHeight: Double { Double(image.height) / Double(max(1, rows)) }

    /// The pixels under the cells `columns` x `rows` from cell (`column`, `row`) of the picture.
    public func pixelRect(column: Int, row: Int, columns: Int, rows: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let x0 = Int((Double(column) * cellWidth).rounded())
        let y0 = Int((Double(row) * cellHeight).rounded())
        let x1 = min(image.width, Int((Double(column + columns) * cellWidth).rounded()))
        let y1 = min(image.height, Int((Double(row + rows) * cellHeight).rounded()))
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
