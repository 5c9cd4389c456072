/// One colour, 8 bits a channel, in sRGB.
public struct RGB: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// "#RRGGBB" or "RRGGBB"; nil for anything else.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    /// Relative luminance (Rec. 709 weights on the sRGB values), 0...255: which of two colours is brighter.
    public var luma: Int {
        (Int(red) * 2_126 + Int(green) * 7_152 + Int(blue) * 722) / 10_000
    }

    /// 0xRRGGBB.
    public var packed: Int {
        Int(red) << 16 | Int(green) << 8 | Int(blue)
    }
}

/// sRGB transfer functions, for averaging and distances in linear light.
public enum SRGB {
    /// 0...255 sRGB to 0...1 linear, by table.
    public static let toLinear: [Float] = (0..<256).map { value in
        let c = Float(value) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// 0...1 linear to 0...255 sRGB.
    public static func fromLinear(_ value: Float) -> UInt8 {
        let c = max(0, min(1, value))
        let encoded = c <= 0.003_130_8 ? c * 12.92 : 1.055 * powf(c, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
