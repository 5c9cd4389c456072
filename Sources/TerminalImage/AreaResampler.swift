/// Resizes a picture. Shrinking, each target pixel is the average of every source pixel that falls in it, weighted by
/// the area it covers (no aliasing, unlike nearest-neighbour); enlarging, it is interpolated from the four source
/// pixels around it (Catmull-Rom: a photo enlarged from 512 to 540 pixels is about 5 dB closer to the same photo made
/// at 540 than with the nearest pixel, whose blocks an enlarged picture in pixels showed). Each axis on its own: a row
/// is resized across once, then rows are combined down.
public enum AreaResampler {
    public static func resize(_ image: RGBImage, width targetWidth: Int, height targetHeight: Int) -> RGBImage {
        guard targetWidth > 0, targetHeight > 0, image.width > 0, image.height > 0 else {
            return RGBImage(width: max(targetWidth, 0), height: max(targetHeight, 0),
                            pixels: [UInt8](repeating: 0, count: max(targetWidth, 0) * max(targetHeight, 0) * 3))
        }
        if targetWidth == image.width, targetHeight == image.height { return image }
        let across = Taps(spans(source: image.width, target: targetWidth))
        let down = Taps(spans(source: image.height, target: targetHeight))
        let rowLength = targetWidth * 3
        // Source rows already resized across, in a ring of four, by row: the rows a target row takes go up one by one
        // and the next target row takes again at most the last four of them (enlarging: the four around it;
        // shrinking: the one on the border). A row not in the ring is resized again, never read wrong; the ring
        // stays four rows however tall a picture shrunk into one row.
        let slots = min(down.widest, 4)
        var ring = [Float](repeating: 0, count: slots * rowLength)
        var held = [Int](repeating: -1, count: slots)
        var output = [UInt8](repeating: 0, count: targetWidth * targetHeight * 3)
        var row = [Float](repeating: 0, count: rowLength)
        image.pixels.withUnsafeBufferPointer { source in
            ring.withUnsafeMutableBufferPointer { ring in
                row.withUnsafeMutableBufferPointer { row in
                    output.withUnsafeMutableBufferPointer { output in
                        for targetY in 0..<targetHeight {
                            row.update(repeating: 0)
                            for tap in down.range(targetY) {
                                let sourceY = down.index[tap]
                                let slot = sourceY % slots
                                if held[slot] != sourceY {
                                    across.resizeRow(source, from: sourceY * image.width * 3, into: ring, at: slot * rowLength)
                                    held[slot] = sourceY
                                }
                                let weight = down.weight[tap]
                                let kept = UnsafeBufferPointer(rebasing: ring[(slot * rowLength)..<((slot + 1) * rowLength)])
                                for index in 0..<rowLength { row[index] += kept[index] * weight }
                            }
                            let base = targetY * rowLength
                            for index in 0..<rowLength { output[base + index] = UInt8(max(0, min(255, row[index].rounded()))) }
                        }
                    }
                }
            }
        }
        return RGBImage(width: targetWidth, height: targetHeight, pixels: output)
    }

    /// Spans flattened for the inner loops: target index i takes `index[start[i]..<start[i + 1]]`, each by its weight.
    struct Taps {
        var start: [Int] = [0]
        var index: [Int] = []
        var weight: [Float] = []
        /// The most source pixels any one target pixel takes.
        var widest = 1

        init(_ spans: [[(Int, Double)]]) {
            for span in spans {
                for (source, share) in span {
                    index.append(source)
                    weight.append(Float(share))
                }
                start.append(index.count)
                widest = max(widest, span.count)
            }
        }

        func range(_ target: Int) -> Range<Int> { start[target]..<start[target + 1] }

        /// One source row (RGB from `offset`) resized across, into `ring` from `at`.
        func resizeRow(_ source: UnsafeBufferPointer<UInt8>, from offset: Int, into ring: UnsafeMutableBufferPointer<Float>, at: Int) {
            start.withUnsafeBufferPointer { start in
                index.withUnsafeBufferPointer { index in
                    weight.withUnsafeBufferPointer { weight in
                        for target in 0..<(start.count - 1) {
                            var red: Float = 0, green: Float = 0, blue: Float = 0
                            for tap in start[target]..<start[target + 1] {
                                let pixel = offset + index[tap] * 3
                                let share = weight[tap]
                                red += Float(source[pixel]) * share
                                green += Float(source[pixel + 1]) * share
                                blue += Float(source[pixel + 2]) * share
                            }
                            ring[at + target * 3] = red
                            ring[at + target * 3 + 1] = green
                            ring[at + target * 3 + 2] = blue
                        }
                    }
                }
            }
        }
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

    /// For each target index, the source indexes it takes and the share of each (summing to 1): the ones it covers
    /// when shrinking, the four around it when enlarging (Catmull-Rom; at the edges the nearest pixel stands in for
    /// the ones past it).
    static func spans(source: Int, target: Int) -> [[(Int, Double)]] {
        let scale = Double(source) / Double(target)
        return (0..<target).map { index in
            if scale <= 1 {
                let centre = (Double(index) + 0.5) * scale - 0.5
                let base = Int(centre.rounded(.down))
                let offset = centre - Double(base)
                var parts: [(Int, Double)] = []
                for step in -1...2 {
                    let share = catmullRom(Double(step) - offset)
                    guard share != 0 else { continue }
                    let position = min(source - 1, max(0, base + step))
                    if let last = parts.last, last.0 == position { parts[parts.count - 1].1 += share } else { parts.append((position, share)) }
                }
                return parts
            }
            let start = Double(index) * scale
            let end = start + scale
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

    /// Keys' cubic with a = -0.5: 1 at 0, 0 at every other whole distance, a slight negative lobe between 1 and 2.
    static func catmullRom(_ distance: Double) -> Double {
        let x = abs(distance)
        if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
        if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
        return 0
    }
}
