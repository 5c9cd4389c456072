import Foundation

/// A decoded picture: packed 8-bit RGB, row after row, no padding.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "pixel count must match size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture of one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in stride(from: 0, to: pixels.count, by: 3) {
            pixels[index] = red
            pixels[index + 1] = green
            pixels[index + 2] = blue
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }

    /// How close `other` is to this picture: peak signal-to-noise ratio in dB over every channel of every pixel
    /// (infinity when identical, 0 when the sizes differ). The tests and benchmarks compare pictures with it.
    public func psnr(_ other: RGBImage) -> Double {
        guard width == other.width, height == other.height, !pixels.isEmpty else { return 0 }
        var sum = 0.0
        for index in pixels.indices {
            let difference = Double(pixels[index]) - Double(other.pixels[index])
            sum += difference * difference
        }
        let meanSquare = sum / Double(pixels.count)
        return meanSquare == 0 ? .infinity : 10 * log10(255 * 255 / meanSquare)
    }

    /// The mean colour, as Unsplash's `color` field gives it ("#RRGGBB").
    public var averageColorHex: String {
        guard width > 0, height > 0 else { return "#000000" }
        var sums = [Int](repeating: 0, count: 3)
        for index in stride(from: 0, to: pixels.count, by: 3) {
            sums[0] += Int(pixels[index])
            sums[1] += Int(pixels[index + 1])
            sums[2] += Int(pixels[index + 2])
        }
        let count = width * height
        let hex = sums.map { value -> String in
            let component = String(value / count, radix: 16, uppercase: true)
            return component.count == 1 ? "0" + component : component
        }
        return "#" + hex.joined()
    }
}
