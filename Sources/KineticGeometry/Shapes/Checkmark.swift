import Foundation

/// The check of the download button: two strokes through three points placed at
/// fixed fractions of the square it sits in — the seed's `checkAnimation` path,
/// meant to be stroked (round caps and joins, `strokeEnd` animated 0 → 1).
public struct Checkmark: Hashable, Sendable {
    /// The square the check sits in (the seed's `rectInCircle`).
    public var rect: Rect

    public init(rect: Rect) { self.rect = rect }

    /// The square inscribed in the circular button of `bounds`: `bounds` inset on
    /// every side by `width·(1 − 1/√2)/2`, as the seed computes `rectInCircle` (its
    /// listing writes `CGRectMake(self.bounds, …)` where `CGRectInset` is meant).
    public static func rectInCircle(bounds: Rect) -> Rect {
        let inset = bounds.size.width * (1 - 1 / 2.0.squareRoot()) / 2
        return bounds.insetBy(dx: inset, dy: inset)
    }

    /// Move to (w/9, 2h/3), line to (w/3, 9h/10), line to (8w/10, 2h/10), relative to
    /// `rect`'s origin; open, as the seed leaves it.
    public var path: BezierPath {
        let o = rect.origin, s = rect.size
        var path = BezierPath()
        path.move(to: Point(o.x + s.width / 9, o.y + s.height * 2 / 3))
        path.addLine(to: Point(o.x + s.width / 3, o.y + s.height * 9 / 10))
        path.addLine(to: Point(o.x + s.width * 8 / 10, o.y + s.height * 2 / 10))
        return path
    }
}
