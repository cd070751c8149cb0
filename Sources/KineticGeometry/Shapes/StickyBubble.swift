import Foundation

/// The neck between the two bubbles of the QQ unread-badge drag (KYCuteView): the
/// fixed bubble at `from` shrinks to r1 = `radius` − distance / `viscosity` as the
/// dragged bubble at `to` moves away, and two quadratic curves join the tangent
/// points A, B on the fixed bubble to D, C on the dragged one, bending through O and P.
///
/// Only the neck is the shape, as in the seed (its `cutePath`; the two bubbles are
/// separate round views). Once r1 falls to `breakRadius` or below the neck is gone —
/// `isBroken` is true and `path` is empty, as the seed hides the fixed bubble and
/// removes the neck's layer. The seed latches that state until the finger lifts;
/// here it is a pure function of the parameters, so dragging back un-breaks it.
/// The seed takes the distance with single-precision `sqrtf`; this uses doubles.
public struct StickyBubble: Hashable, Sendable {
    /// The fixed bubble's center (the seed's `backView.center`).
    public var from: Point
    /// The fixed bubble's radius before any drag (half the seed's `bubbleWidth`).
    public var radius: Double
    /// The dragged bubble's center (the seed's `frontView.center`).
    public var to: Point
    /// The dragged bubble's radius (the seed's r2).
    public var toRadius: Double
    /// How slowly the fixed bubble shrinks: r1 loses 1 pt per `viscosity` pt of
    /// distance (the demo uses 20).
    public var viscosity: Double

    /// The demo's `viscosity`.
    public static let defaultViscosity = 20.0
    /// The seed's break test, `if (r1 <= 6)`: at or below this r1 the neck is gone.
    public static let breakRadius = 6.0

    public init(from: Point, radius: Double, to: Point, toRadius: Double,
                viscosity: Double = StickyBubble.defaultViscosity) {
        self.from = from; self.radius = radius; self.to = to; self.toRadius = toRadius; self.viscosity = viscosity
    }

    /// The distance between the two centers.
    public var distance: Double { from.distance(to: to) }

    /// The fixed bubble's current radius, r1 = `radius` − distance / `viscosity`.
    public var fromRadius: Double { radius - distance / viscosity }

    /// True once r1 ≤ `breakRadius` (or is not a number): nothing joins the bubbles.
    public var isBroken: Bool { !(fromRadius > Self.breakRadius) }

    /// The seed's six points: A and B on the fixed bubble, D and C on the dragged one,
    /// O and P half the distance further along the axis from A and B.
    public struct Points: Hashable, Sendable {
        public var a, b, c, d, o, p: Point
    }

    public var points: Points {
        let (x1, y1, x2, y2) = (from.x, from.y, to.x, to.y)
        let d = distance
        // The seed's names: "cos" is the axis's y component and "sin" its x component,
        // which makes (cos, −sin) the axis turned a quarter.
        let cosDegree = d == 0 ? 1 : (y2 - y1) / d
        let sinDegree = d == 0 ? 0 : (x2 - x1) / d
        let r1 = fromRadius, r2 = toRadius
        let a = Point(x1 - r1 * cosDegree, y1 + r1 * sinDegree)
        let b = Point(x1 + r1 * cosDegree, y1 - r1 * sinDegree)
        return Points(
            a: a, b: b,
            c: Point(x2 + r2 * cosDegree, y2 - r2 * sinDegree),
            d: Point(x2 - r2 * cosDegree, y2 + r2 * sinDegree),
            o: Point(a.x + (d / 2) * sinDegree, a.y + (d / 2) * cosDegree),
            p: Point(b.x + (d / 2) * sinDegree, b.y + (d / 2) * cosDegree))
    }

    /// Move to A, quadratic to D through O, line to C, quadratic to B through P, then
    /// the seed's closing `moveToPoint:A` (a fill closes the neck implicitly); empty
    /// when `isBroken`.
    public var path: BezierPath {
        guard !isBroken else { return BezierPath() }
        let p = points
        var path = BezierPath()
        path.move(to: p.a)
        path.addQuadCurve(to: p.d, control: p.o)
        path.addLine(to: p.c)
        path.addQuadCurve(to: p.b, control: p.p)
        path.move(to: p.a)
        return path
    }
}
