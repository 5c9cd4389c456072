/// Shrinks (or enlarges) a picture by averaging every source pixel that falls in each target pixel,
/// weighted by the area it covers: no aliasing when shrinking, unlike nearest-neighbour.
public enum AreaResampler {
    public static func resize(_ image: RGBImage, width targetWidth: Int, height targetHeight: Int) -> RGBImage {
        guard targetWidth > 0, targetHeight > 0, image.width > 0, image.height > 0 else {
            return RGBImage(width: max(targetWidth, 0), height: max(targetHeight, 0),
                            pixels: [UInt8](repeating: 0, count: max(targetWidth, 0) * max(targetHeight, 0) * 3))
        }
        if targetWidth == image.width, targetHeight == image.height { return image }
        let xSpans = spans(source: image.width, target: targetWidth)
        let ySpans = spans(source: image.height, target: targetHeight)
        var output = [UInt8](repeating: 0, count: targetWidth * targetHeight * 3)
        var row = [Double](repeating: 0, count: targetWidth * 3)
        image.pixels.withUnsafeBufferPointer { source in
            for (targetY, ySpan) in ySpans.enumerated() {
                for index in row.indices { row[index] = 0 }
                for (sourceY, yWeight) in ySpan {
                    let sourceRow = sourceY * image.width * 3
                    for (targetX, xSpan) in xSpans.enumerated() {
                        var red = 0.0, green = 0.0, blue = 0.0
                        for (sourceX, xWeight) in xSpan {
                            let index = sourceRow + sourceX * 3
                            red += Double(source[index]) * xWeight
                            green += Double(source[index + 1]) * xWeight
                            blue += Double(source[index + 2]) * xWeight
                        }
                        row[targetX * 3] += red * yWeight
                        row[targetX * 3 + 1] += green * yWeight
                        row[targetX * 3 + 2] += blue * yWeight
                    }
                }
                let base = targetY * targetWidth * 3
                for index in 0..<(targetWidth * 3) {
                    output[base + index] = UInt8(max(0, min(255, row[index].rounded())))
                }
            }
        }
        return RGBImage(width: targetWidth, height: targetHeight, pixels: output)
    }

    /// Crops the centred part of `image` that has the aspect ratio of width:height, then resizes.
    public static func fill(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else { return resize(image, width: width, height: height) }
        let sourceAspect = Double(image.width) / Double(image.height)
        let targetAspect = Double(width) / Double(height)
        var cropWidth = image.width
        var cropHeight = image.height
        if sourceAspect > targetAspect {
            cropWidth = max(1, Int(saturating: (Double(image.height) * targetAspect).rounded()))
        } else {
            cropHeight = max(1, Int(saturating: (Double(image.width) / targetAspect).rounded()))
        }
        let originX = (image.width - cropWidth) / 2
        let originY = (image.height - cropHeight) / 2
        var cropped = [UInt8](repeating: 0, count: cropWidth * cropHeight * 3)
        for y in 0..<cropHeight {
            let from = ((originY + y) * image.width + originX) * 3
            let to = y * cropWidth * 3
            cropped.replaceSubrange(to..<(to + cropWidth * 3), with: image.pixels[from..<(from + cropWidth * 3)])
        }
        return resize(RGBImage(width: cropWidth, height: cropHeight, pixels: cropped), width: width, height: height)
    }

    /// For each target index, the source indexes it covers and the share of each (summing to 1).
    static func spans(source: Int, target: Int) -> [[(Int, Double)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { index in
            let start = Double(index) * scale
            let end = start + scale
            if scale <= 1 {
                // Enlarging: the nearest source pixel.
                return [(min(source - 1, Int(start + scale / 2)), 1.0)]
            }
            var parts: [(Int, Double)] = []
            var position = Int(start)
            while Double(position) < end, position < source {
                let covered = min(end, Double(position + 1)) - max(start, Double(position))
                if covered > 0 { parts.append((position, covered / scale)) }
                position += 1
            }
            return parts
        }
    }
}
