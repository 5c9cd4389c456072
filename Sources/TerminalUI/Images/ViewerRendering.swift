import TerminalImage

/// Turns the viewer's photo into cells for a view: rotated, then the zoomed part around the pan centre.
public enum ViewerRendering {
    /// The photo turned clockwise by quarter turns.
    public static func rotate(_ image: RGBImage, quarterTurns: Int) -> RGBImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return image }
        let width = image.width
        let height = image.height
        let outWidth = turns == 2 ? width : height
        let outHeight = turns == 2 ? height : width
        var pixels = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        let (tx, ty): (Int, Int)
                        switch turns {
                        case 1: (tx, ty) = (height - 1 - y, x)
                        case 2: (tx, ty) = (width - 1 - x, height - 1 - y)
                        default: (tx, ty) = (y, width - 1 - x)
                        }
                        let from = (y * width + x) * 3
                        let to = (ty * outWidth + tx) * 3
                        target[to] = source[from]
                        target[to + 1] = source[from + 1]
                        target[to + 2] = source[from + 2]
                    }
                }
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// The part of an (already rotated) picture of `width` x `height` pixels the view shows: the zoom's share of it
    /// around the pan centre, kept inside it.
    public static func visibleRect(width: Int, height: Int, view: ViewTransform) -> (x: Int, y: Int, width: Int, height: Int) {
        let cropWidth = max(1, min(width, Int(saturating: (Double(width) * view.visibleX).rounded())))
        let cropHeight = max(1, min(height, Int(saturating: (Double(height) * view.visibleY).rounded())))
        // The pan is in the photo's own frame; turn it to the rotated frame.
        let (panX, panY): (Double, Double)
        switch ((view.quarterTurns % 4) + 4) % 4 {
        case 1: (panX, panY) = (-view.panY, view.panX)
        case 2: (panX, panY) = (-view.panX, -view.panY)
        case 3: (panX, panY) = (view.panY, -view.panX)
        default: (panX, panY) = (view.panX, view.panY)
        }
        let centreX = Double(width) * (0.5 + panX)
        let centreY = Double(height) * (0.5 + panY)
        let originX = min(max(0, Int(centreX - Double(cropWidth) / 2)), width - cropWidth)
        let originY = min(max(0, Int(centreY - Double(cropHeight) / 2)), height - cropHeight)
        return (originX, originY, cropWidth, cropHeight)
    }

    /// The part of an (already rotated) photo the view shows, drawn in `columns` x `rows` cells.
    public static func render(_ rotated: RGBImage, columns: Int, rows: Int, view: ViewTransform, drawer: PictureDrawer) -> CellPicture {
        guard rotated.width > 0, rotated.height > 0, columns > 0, rows > 0 else {
            return CellPicture(columns: 0, rows: 0, cells: [])
        }
        let (originX, originY, cropWidth, cropHeight) = visibleRect(width: rotated.width, height: rotated.height, view: view)
        var cropped = rotated
        if cropWidth != rotated.width || cropHeight != rotated.height {
            var pixels = [UInt8](repeating: 0, count: cropWidth * cropHeight * 3)
            for y in 0..<cropHeight {
                let from = ((originY + y) * rotated.width + originX) * 3
                pixels.replaceSubrange((y * cropWidth * 3)..<((y + 1) * cropWidth * 3), with: rotated.pixels[from..<(from + cropWidth * 3)])
            }
            cropped = RGBImage(width: cropWidth, height: cropHeight, pixels: pixels)
        }
        return drawer.draw(cropped, columns: columns, rows: rows)
    }
}
