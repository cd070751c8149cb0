import Foundation

/// The deforming ball of KYAnimatedPageControl (the book's AnimatedCircleDemo): four
/// cubic arcs A→B→C→D→A inside an outer square that slides across `travel` with
/// `progress`; at `progress` 0.5 it is round, towards either end one side point is
/// pulled out and the top and bottom flatten.
///
/// Coordinates are the seed's, which are already y-down: `center` plays the layer's
/// `position` and `travel` its `frame.size.width`, so the square's left edge runs from
/// `center.x − travel/2` (progress 0) to its right edge at `center.x + travel/2`
/// (progress 1). The seed's debug drawing is available as `outerSquare`,
/// `helperLines` and `pointSquares`; `showControlPoints` only records whether the
/// renderer should draw them, it never changes `path`.
public struct GooeyCircle: Hashable, Sendable {
    /// The outer square's center at progress 0.5 (the seed's `self.position`).
    public var center: Point
    /// The outer square's side (the seed's `outsideRectSize`).
    public var size: Double
    /// The width the square moves across (the seed's `self.frame.size.width`).
    public var travel: Double
    /// 0…1; 0.5 is round.
    public var progress: Double
    /// Whether the seed's debug drawing (outer square, helper lines, point squares)
    /// should be drawn over the ball.
    public var showControlPoints: Bool

    public init(center: Point, size: Double, travel: Double, progress: Double = 0.5, showControlPoints: Bool = false) {
        self.center = center; self.size = size; self.travel = travel
        self.progress = progress; self.showControlPoints = showControlPoints
    }

    /// The side point that moves: B (right) while the square is in the left half
    /// (`progress ≤ 0.5`), D (left) otherwise — the seed's `movePoint`.
    public enum MovingPoint: Hashable, Sendable { case b, d }

    public var movingPoint: MovingPoint { progress <= 0.5 ? .b : .d }

    /// The dashed outer square of the seed (`outsideRect`).
    public var outsideRect: Rect {
        Rect(center.x - size / 2 + (progress - 0.5) * (travel - size), center.y - size / 2, size, size)
    }

    /// The anchor points A (top), B (right), C (bottom), D (left) and the control
    /// points c1…c8 (two per arc, in drawing order), as the seed names them.
    public struct Points: Hashable, Sendable {
        public var a, b, c, d: Point
        public var c1, c2, c3, c4, c5, c6, c7, c8: Point

        /// A, B, C, D, c1…c8: the order the seed marks them in.
        public var all: [Point] { [a, b, c, d, c1, c2, c3, c4, c5, c6, c7, c8] }
    }

    /// The seed's `drawInContext:` arithmetic, term for term.
    public var points: Points {
        let rect = outsideRect
        let offset = rect.size.width / 3.6
        // How far A and C come in (and B or D goes out, twice as far): 0 at progress
        // 0.5, a sixth of the side at either end.
        let moved = (rect.size.width * 1 / 6) * abs(progress - 0.5) * 2
        let rectCenter = Point(rect.origin.x + rect.size.width / 2, rect.origin.y + rect.size.height / 2)
        let dMoves = movingPoint == .d
        let a = Point(rectCenter.x, rect.origin.y + moved)
        let b = Point(dMoves ? rectCenter.x + rect.size.width / 2 : rectCenter.x + rect.size.width / 2 + moved * 2,
                      rectCenter.y)
        let c = Point(rectCenter.x, rectCenter.y + rect.size.height / 2 - moved)
        let d = Point(dMoves ? rect.origin.x - moved * 2 : rect.origin.x, rectCenter.y)
        return Points(
            a: a, b: b, c: c, d: d,
            c1: Point(a.x + offset, a.y),
            c2: Point(b.x, dMoves ? b.y - offset : b.y - offset + moved),
            c3: Point(b.x, dMoves ? b.y + offset : b.y + offset - moved),
            c4: Point(c.x + offset, c.y),
            c5: Point(c.x - offset, c.y),
            c6: Point(d.x, dMoves ? d.y + offset - moved : d.y + offset),
            c7: Point(d.x, dMoves ? d.y - offset + moved : d.y - offset),
            c8: Point(a.x - offset, a.y))
    }

    /// The ball: move to A, cubics to B (c1, c2), C (c3, c4), D (c5, c6), A (c7, c8),
    /// close — the seed's `ovalPath`.
    public var path: BezierPath {
        let p = points
        var path = BezierPath()
        path.move(to: p.a)
        path.addCurve(to: p.b, control1: p.c1, control2: p.c2)
        path.addCurve(to: p.c, control1: p.c3, control2: p.c4)
        path.addCurve(to: p.d, control1: p.c5, control2: p.c6)
        path.addCurve(to: p.a, control1: p.c7, control2: p.c8)
        path.close()
        return path
    }

    /// `outsideRect` as `UIBezierPath(rect:)`. The seed strokes it black, 1 pt wide,
    /// dashed 5-on 5-off; the dash is a stroke style, so the renderer applies it.
    public var outerSquare: BezierPath { .rect(outsideRect) }

    /// The closed polyline A c1 c2 B c3 c4 C c5 c6 D c7 c8 — the seed's `helperline`,
    /// stroked black, dashed 2-on 2-off.
    public var helperLines: BezierPath {
        let p = points
        return .polyline([p.a, p.c1, p.c2, p.b, p.c3, p.c4, p.c, p.c5, p.c6, p.d, p.c7, p.c8], closed: true)
    }

    /// A 4 × 4 pt square centered on each of A, B, C, D, c1…c8 (the seed's
    /// `drawPoint:` fills them yellow).
    public var pointSquares: BezierPath {
        var path = BezierPath()
        for p in points.all { path.append(.rect(Rect(p.x - 2, p.y - 2, 4, 4))) }
        return path
    }

    /// The control-point helpers in the seed's drawing order: `pointSquares` (filled)
    /// then `helperLines` (stroked, dashed). The dashed `outerSquare` is kept apart
    /// because it is stroked with a different dash; use the parts to style each.
    public var controlPointsOverlay: BezierPath {
        var path = pointSquares
        path.append(helperLines)
        return path
    }
}
