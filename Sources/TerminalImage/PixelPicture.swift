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

    public init(image: RGBImage, columns: Int, rows: Int) {
        var next = Self.counter.add(1, ordering: .relaxed).newValue
        if next == 0 { next = Self.counter.add(1, ordering: .relaxed).newValue }
        id = next
        self.image = image
        self.columns = columns
        self.rows = rows
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
