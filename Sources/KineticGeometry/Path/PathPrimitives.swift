import Foundation

/// The primitives of scene-format §3.1, built as UIBezierPath builds them in UIKit's
/// y-down space: "clockwise" means clockwise on screen, i.e. increasing angle.
extension BezierPath {
    /// UIBezierPath(rect:): a move to the top-left corner, lines clockwise on screen
    /// through top-right, bottom-right and bottom-left, then a close.
    public static func rect(_ r: Rect) -> BezierPath {
        polyline(r.corners, closed: true)
    }

    /// A rectangle with circular-arc corners of `cornerRadius`, clamped to half the
    /// shorter side (so a square with a large radius becomes a circle).
    ///
    /// Starts on the top edge where the top-left corner ends and runs clockwise on screen,
    /// each corner a 90° arc drawn like `addArc`, then closes. Unlike iOS 7+ UIKit, whose
    /// corners are "continuous" (curvature-matched, slightly larger) curves, these are
    /// true circular arcs — the `CGPath(roundedRect:cornerWidth:cornerHeight:)` shape. A
    /// radius ≤ 0 gives `rect(r)`.
    public static func roundedRect(_ r: Rect, cornerRadius: Double) -> BezierPath {
        let radius = min(cornerRadius, min(r.width, r.height) / 2)
        guard radius > 0 else { return rect(r) }
        var path = BezierPath()
        path.move(to: Point(r.minX + radius, r.minY))
        let centers = [Point(r.maxX - radius, r.minY + radius), Point(r.maxX - radius, r.maxY - radius),
                       Point(r.minX + radius, r.maxY - radius), Point(r.minX + radius, r.minY + radius)]
        for (i, center) in centers.enumerated() {
            // Top-right corner arcs from −90° to 0°, and each next corner a quarter on.
            let start = -Double.pi / 2 + Double(i) * .pi / 2
            path.addArc(center: center, radius: radius, startAngle: start, endAngle: start + .pi / 2, clockwise: true)
        }
        path.close()
        return path
    }

    /// UIBezierPath(ovalIn:): four cubics starting at the right-most point, clockwise on
    /// screen (down first), then a close.
    public static func oval(in r: Rect) -> BezierPath {
        var path = BezierPath()
        path.move(to: Point(r.maxX, r.midY))
        path.elements += EllipseArc.curves(center: r.center, rx: r.width / 2, ry: r.height / 2,
                                           startAngle: 0, sweep: 2 * .pi)
        path.close()
        return path
    }

    /// UIBezierPath(arcCenter:radius:startAngle:endAngle:clockwise:): a move to the
    /// start point, then the arc as cubics of at most 90° each. See `addArc`.
    public static func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double,
                           clockwise: Bool) -> BezierPath {
        var path = BezierPath()
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        return path
    }

    /// UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:).
    ///
    /// Angles are radians from +x; `clockwise: true` (clockwise on a y-down screen)
    /// sweeps increasing angles. The sweep is `endAngle − startAngle` brought into
    /// [0, 2π) in the chosen direction (so `0 → −π/2` clockwise is ¾ of a circle),
    /// except that a difference of 2π or more in the chosen direction draws exactly one
    /// full circle (the usual `0 → 2π, clockwise: true` circle). Equal angles draw no
    /// curve. The arc starts with a move when the path is empty, otherwise with a line
    /// from the current point, as UIKit does.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double,
                                clockwise: Bool) {
        let twoPi = 2 * Double.pi
        let delta = clockwise ? endAngle - startAngle : startAngle - endAngle
        var sweep = delta >= twoPi ? twoPi : delta - twoPi * (delta / twoPi).rounded(.down)
        if !clockwise { sweep = -sweep }
        let start = center + EllipseArc.unitPoint(startAngle) * radius
        if isEmpty { move(to: start) } else { addLine(to: start) }
        elements += EllipseArc.curves(center: center, rx: radius, ry: radius, startAngle: startAngle, sweep: sweep)
    }

    /// Lines through `points` in order, closed back to the first when `closed`. Fewer
    /// than one point gives the empty path.
    public static func polyline(_ points: [Point], closed: Bool) -> BezierPath {
        guard let first = points.first else { return BezierPath() }
        var path = BezierPath([.move(to: first)] + points.dropFirst().map { .line(to: $0) })
        if closed { path.close() }
        return path
    }

    /// A closed star of `points` tips: the first tip straight up (−y) at `outerRadius`,
    /// then alternating inner and outer vertices clockwise on screen, `π / points`
    /// apart. Fewer than 2 tips give the empty path.
    public static func star(center: Point, points: Int, outerRadius: Double, innerRadius: Double) -> BezierPath {
        guard points >= 2 else { return BezierPath() }
        let vertices = (0..<(2 * points)).map { i in
            let angle = -Double.pi / 2 + Double(i) * .pi / Double(points)
            return center + EllipseArc.unitPoint(angle) * (i.isMultiple(of: 2) ? outerRadius : innerRadius)
        }
        return polyline(vertices, closed: true)
    }
}
