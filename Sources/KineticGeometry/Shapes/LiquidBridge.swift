import Foundation

/// The liquid neck LiquidLoader's `SimpleCircleLiquidEngine` draws between two circles
/// when they come within `threshold` of touching.
///
/// - Connected (`distance − fromRadius − toRadius < threshold`) and close (the
///   engine's `circleRatio` ≥ `angleThreshold`): one closed neck — from a point on the
///   `from` circle, a quadratic to the `to` circle, a line across it, a quadratic back.
/// - Connected but farther (ratio below `angleThreshold`): the neck has split into two
///   closed drops, one quadratic bump on each circle pointing at the other.
/// - Otherwise, or when the engine's line intersection fails (nearly parallel
///   chords), the empty path, as the engine then adds no layer.
///
/// `from` is the engine's first circle (`push(circle, other:)`, the moving circle in
/// LiquidLoader), `to` the second. Only the neck is the shape; the circles are drawn
/// by their own layers, as in the engine. The engine's `CGPoint.intersection` (with
/// its 0.1 area tolerance), `split` and `mid` are reproduced literally.
public struct LiquidBridge: Hashable, Sendable {
    public var from: Point
    public var fromRadius: Double
    public var to: Point
    public var toRadius: Double
    /// The gap between the circles' edges below which they connect (the engine's
    /// `radiusThresh`; LiquidLoader uses the static circle's radius, or 0.85 of it).
    public var threshold: Double
    /// The `circleRatio` below which the neck splits in two (the engine's
    /// `angleThresh`: 0.5 by default, LiquidLoader's line effect 0.2).
    public var angleThreshold: Double

    /// The engine's default `angleThresh`.
    public static let defaultAngleThreshold = 0.5
    /// The engine's `ConnectThresh`, which widens the neck's opening angle.
    public static let connectThreshold = 0.3

    public init(from: Point, fromRadius: Double, to: Point, toRadius: Double, threshold: Double,
                angleThreshold: Double = LiquidBridge.defaultAngleThreshold) {
        self.from = from; self.fromRadius = fromRadius; self.to = to; self.toRadius = toRadius
        self.threshold = threshold; self.angleThreshold = angleThreshold
    }

    public var distance: Double { from.distance(to: to) }

    /// The engine's `isConnected`: the edges are less than `threshold` apart.
    public var isConnected: Bool { distance - fromRadius - toRadius < threshold }

    /// The engine's `circleRatio`: 1 − (distance − threshold) / (r1 + r2 + threshold),
    /// clamped to 0…1 — 1 when the circles overlap deeply, falling as they part.
    public var ratio: Double {
        let value = 1.0 - (distance - threshold) / (fromRadius + toRadius + threshold)
        return min(max(value, 0.0), 1.0)
    }

    /// Whether the connected neck has split into two drops.
    public var isSplit: Bool { isConnected && ratio < angleThreshold }

    public var path: BezierPath {
        guard isConnected else { return BezierPath() }
        return ratio >= angleThreshold ? normalPath() : splitPath()
    }

    // MARK: The engine, step by step

    private typealias Circle = (center: Point, radius: Double)
    private var fromCircle: Circle { (from, fromRadius) }
    private var toCircle: Circle { (to, toRadius) }

    /// The points on `circle` at ±`angle` from the direction towards `other`.
    private func connectedPoints(_ circle: Circle, _ other: Circle, angle: Double) -> (Point, Point) {
        let vec = other.center - circle.center
        let radian = atan2(vec.y, vec.x)
        return (circlePoint(circle, radian + angle), circlePoint(circle, radian - angle))
    }

    /// As above, the angle opening with the ratio: π/2 · (ratio + 0.3) / 1.3.
    private func connectedPoints(_ circle: Circle, _ other: Circle) -> (Point, Point) {
        let opened = (ratio + Self.connectThreshold) / (1.0 + Self.connectThreshold)
        return connectedPoints(circle, other, angle: Double.pi / 2 * opened)
    }

    private func circlePoint(_ circle: Circle, _ rad: Double) -> Point {
        Point(circle.center.x + circle.radius * cos(rad), circle.center.y + circle.radius * sin(rad))
    }

    private func normalPath() -> BezierPath {
        let (p1, p2) = connectedPoints(fromCircle, toCircle)
        let (p3, p4) = connectedPoints(toCircle, fromCircle)
        guard let crossed = Self.intersection(p1, p3, p2, p4) else { return BezierPath() }
        // The controls slide from the chords' midpoints (ratio 1) towards the
        // crossing, reaching it at ratio 0.2, so the neck thins as the circles part.
        let weight = ratio * 1.25 - 0.25
        var path = BezierPath()
        path.move(to: p1)
        path.addQuadCurve(to: p4, control: Self.split((p1 + p4) / 2, crossed, weight))
        path.addLine(to: p3)
        path.addQuadCurve(to: p2, control: Self.split((p2 + p3) / 2, crossed, weight))
        path.close()
        return path
    }

    private func splitPath() -> BezierPath {
        let angle = 40 * Double.pi / 180
        let (p1, p2) = connectedPoints(fromCircle, toCircle, angle: angle)
        let (p3, p4) = connectedPoints(toCircle, fromCircle, angle: angle)
        guard let crossed = Self.intersection(p1, p3, p2, p4) else { return BezierPath() }
        let (d1, _) = connectedPoints(fromCircle, toCircle, angle: 0)
        let (d2, _) = connectedPoints(toCircle, fromCircle, angle: 0)
        let r = (ratio - Self.connectThreshold) / (angleThreshold - Self.connectThreshold)
        var path = BezierPath()
        path.move(to: p1)
        path.addQuadCurve(to: p2, control: Self.split(d1, Self.split(crossed, d2, 0.5), 1 - r))
        path.close()
        path.move(to: p3)
        path.addQuadCurve(to: p4, control: Self.split(d2, Self.split(crossed, d1, 0.5), 1 - r))
        path.close()
        return path
    }

    /// The engine's `split`: `a·ratio + b·(1 − ratio)`.
    private static func split(_ a: Point, _ b: Point, _ ratio: Double) -> Point {
        a * ratio + b * (1.0 - ratio)
    }

    /// The engine's `CGPoint.intersection`: where line a1→a2 meets line b1→b2, by
    /// the ratio of two cross products; nil when their sum is below 0.1 in size.
    private static func intersection(_ a1: Point, _ a2: Point, _ b1: Point, _ b2: Point) -> Point? {
        let ac = a2 - a1, bd = b2 - b1, ab = b1 - a1, bc = a2 - b1
        func cross(_ u: Point, _ v: Point) -> Double { u.x * v.y - u.y * v.x }
        let area = cross(bd, ab), area2 = cross(bd, bc)
        guard abs(area + area2) >= 0.1 else { return nil }
        let t = area / (area + area2)
        return Point(a1.x + t * ac.x, a1.y + t * ac.y)
    }
}
