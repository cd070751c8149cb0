import Foundation

/// The fill of GooeySlideMenu: the menu rectangle whose right edge is one quadratic
/// curve, bulging right (positive `diff`) or left (negative) by the control point's
/// offset `diff` — the seed's `drawRect:`.
///
/// The seed places the control point at `keyWindow.width/2 + diff, keyWindow.height/2`.
/// The menu's frame is `keyWindow.width/2 + EXTRAAREA` wide and the window's height
/// tall, so those are `width − extraArea` and `height / 2` here.
public struct SlideMenuEdge: Hashable, Sendable {
    /// The menu view's width, the transparent `extraArea` included.
    public var width: Double
    /// The menu view's height (the window's).
    public var height: Double
    /// The transparent strip right of the edge that leaves room for the bulge
    /// (the seed's `EXTRAAREA`, 30).
    public var extraArea: Double
    /// The horizontal offset of the curve's control point (the seed's `diff`, the
    /// distance between its two spring-animated helper views).
    public var diff: Double

    /// The demo's `EXTRAAREA`.
    public static let defaultExtraArea = 30.0

    public init(width: Double, height: Double, extraArea: Double = SlideMenuEdge.defaultExtraArea, diff: Double = 0) {
        self.width = width; self.height = height; self.extraArea = extraArea; self.diff = diff
    }

    /// The curve's control point.
    public var controlPoint: Point { Point(width - extraArea + diff, height / 2) }

    /// Move to (0, 0), line to the top of the edge, quadratic down to its bottom, line
    /// to (0, height), close.
    public var path: BezierPath {
        var path = BezierPath()
        path.move(to: Point(0, 0))
        path.addLine(to: Point(width - extraArea, 0))
        path.addQuadCurve(to: Point(width - extraArea, height), control: controlPoint)
        path.addLine(to: Point(0, height))
        path.close()
        return path
    }
}
