import Foundation

/// An sRGB color with straight (non-premultiplied) alpha, components 0…1, as UIColor.
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// 0–255 channel values with a 0–1 alpha, as CSS `rgba()`.
    public init(r255 r: Double, g255 g: Double, b255 b: Double, alpha: Double = 1) {
        self.init(red: r / 255, green: g / 255, blue: b / 255, alpha: alpha)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// `#RRGGBBAA`, as `kinetic inspect` prints colors.
    public var hexString: String {
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        return String(format: "#%02X%02X%02X%02X", byte(red), byte(green), byte(blue), byte(alpha))
    }

    /// Component-wise interpolation in straight sRGB, as Core Animation interpolates
    /// CGColor values.
    public func lerp(to other: Color, _ u: Double) -> Color {
        Color(red: red + (other.red - red) * u, green: green + (other.green - green) * u,
              blue: blue + (other.blue - blue) * u, alpha: alpha + (other.alpha - alpha) * u)
    }

    /// Each component clamped to 0…1.
    public var clamped: Color {
        func c(_ v: Double) -> Double { min(max(v, 0), 1) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    public var isFinite: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }
}

/// UIUserInterfaceStyle: which value a semantic color (`label`, `systemBackground`, …)
/// and a system color (`systemBlue`, …) resolve to.
public enum Appearance: String, Sendable, CaseIterable {
    case light, dark
}
