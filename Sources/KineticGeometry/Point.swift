import Foundation

/// A location or vector in points (UIKit's y-down space), as CGPoint/CGVector.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    public static let zero = Point(0, 0)

    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to other: Point) -> Double { (self - other).length }
    public func dot(_ other: Point) -> Double { x * other.x + y * other.y }
    public var isFinite: Bool { x.isFinite && y.isFinite }

    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    public static func / (a: Point, s: Double) -> Point { Point(a.x / s, a.y / s) }
    public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }

    /// Linear interpolation: `self` at 0, `other` at 1.
    public func lerp(to other: Point, _ u: Double) -> Point { self + (other - self) * u }

    public var description: String { "[\(x), \(y)]" }
}

/// A width and height in points, as CGSize.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    public init(width: Double, height: Double) { self.width = width; self.height = height }

    public static let zero = Size(0, 0)
}

/// An origin and size in points, as CGRect (y down).
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        origin = Point(x, y); size = Size(width, height)
    }

    public static let zero = Rect(0, 0, 0, 0)

    public var minX: Double { min(origin.x, origin.x + size.width) }
    public var minY: Double { min(origin.y, origin.y + size.height) }
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    public var width: Double { abs(size.width) }
    public var height: Double { abs(size.height) }
    public var midX: Double { (minX + maxX) / 2 }
    public var midY: Double { (minY + maxY) / 2 }
    public var center: Point { Point(midX, midY) }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Corners clockwise from the top-left in y-down space: TL, TR, BR, BL.
    public var corners: [Point] {
        [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
    }

    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(minX + dx, minY + dy, width - 2 * dx, height - 2 * dy)
    }

    public func union(_ other: Rect) -> Rect {
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x0, y0, max(maxX, other.maxX) - x0, max(maxY, other.maxY) - y0)
    }

    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
}
