import Foundation

/// Decodes a BlurHash (https://blurha.sh), the few characters Unsplash sends to stand for a photo
/// while it loads, into a small picture.
public enum BlurHash {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
    private static let values: [Character: Int] = Dictionary(uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    /// The picture the hash stands for, at the given size; nil when the hash is not valid.
    public static func decode(_ hash: String, width: Int, height: Int, punch: Float = 1) -> RGBImage? {
        let characters = Array(hash)
        guard characters.count >= 6, width > 0, height > 0, width * height <= 1_000_000,
              let sizeFlag = value(characters[0...0]) else { return nil }
        let componentsY = sizeFlag / 9 + 1
        let componentsX = sizeFlag % 9 + 1
        guard characters.count == 4 + 2 * componentsX * componentsY,
              let quantisedMaximum = value(characters[1...1]),
              let dc = value(characters[2..<6]) else { return nil }
        let maximum = Float(quantisedMaximum + 1) / 166 * punch
        var colors: [(Float, Float, Float)] = [(SRGB.toLinear[dc >> 16 & 255], SRGB.toLinear[dc >> 8 & 255], SRGB.toLinear[dc & 255])]
        for index in 1..<(componentsX * componentsY) {
            let start = 4 + index * 2
            guard let ac = value(characters[start..<(start + 2)]) else { return nil }
            func component(_ quantised: Int) -> Float {
                let unit = (Float(quantised) - 9) / 9
                return copysignf(unit * unit, unit) * maximum
            }
            colors.append((component(ac / (19 * 19)), component((ac / 19) % 19), component(ac % 19)))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var cosinesX = [Float](repeating: 0, count: width * componentsX)
        for x in 0..<width {
            for i in 0..<componentsX { cosinesX[x * componentsX + i] = cosf(Float.pi * Float(x) * Float(i) / Float(width)) }
        }
        for y in 0..<height {
            let cosinesY = (0..<componentsY).map { cosf(Float.pi * Float(y) * Float($0) / Float(height)) }
            for x in 0..<width {
                var red: Float = 0, green: Float = 0, blue: Float = 0
                for j in 0..<componentsY {
                    for i in 0..<componentsX {
                        let basis = cosinesX[x * componentsX + i] * cosinesY[j]
                        let color = colors[i + j * componentsX]
                        red += color.0 * basis
                        green += color.1 * basis
                        blue += color.2 * basis
                    }
                }
                let index = (y * width + x) * 3
                pixels[index] = SRGB.fromLinear(red)
                pixels[index + 1] = SRGB.fromLinear(green)
                pixels[index + 2] = SRGB.fromLinear(blue)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private static func value(_ characters: ArraySlice<Character>) -> Int? {
        var total = 0
        for character in characters {
            guard let digit = values[character] else { return nil }
            total = total * 83 + digit
        }
        return total
    }
}
