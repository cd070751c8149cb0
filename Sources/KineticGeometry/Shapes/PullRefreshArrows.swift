import Foundation

/// The two arrows of AnimatedCurveDemo's pull-to-refresh control (`CurveLayer`): two
/// vertical strokes, `radius` either side of the middle, that slide towards the center
/// line for `progress` 0…0.5, then for 0.5…1 shorten while each curls onto a circle of
/// `radius` (up to 162°), each with a 3-pt arrow barb at its head, 30° off the stroke.
///
/// Coordinates are the layer's own (y down), `size` its frame size. The seed's macros
/// become parameters: `radius` (`Radius`, 10), `lineLength` (`LineLength`, 30),
/// `space` (`Space`, 1); the barb keeps the demo's fixed `Degree` = π/3 from the
/// horizontal and length 3. The seed uses single-precision `cosf`/`sinf` for the barb;
/// this uses doubles.
///
/// The seed builds `curvePath1` (stroke, arc, its barb), then `curvePath2`, but reuses
/// one `arrowPath` for both barbs, so `curvePath2` and `arrowPath` also carry the first
/// barb and it is stroked three times over. The shape draws each piece once, in
/// `curvePath1`'s then `curvePath2`'s order: stroke 1 [, arc 1], barb 1, stroke 2
/// [, arc 2], barb 2 — eight or more elements, each barb its own move + line.
public struct PullRefreshArrows: Hashable, Sendable {
    /// The layer's frame size.
    public var size: Size
    /// 0…1: ≤ 0.5 the strokes close in, > 0.5 they curl.
    public var progress: Double
    /// The horizontal distance of each stroke from the middle, and the curl's radius.
    public var radius: Double
    /// Each stroke's length while straight.
    public var lineLength: Double
    /// Half the vertical gap between the two curls' centers.
    public var space: Double

    /// The demo's `Radius`, `LineLength` and `Space`.
    public static let defaultRadius = 10.0
    public static let defaultLineLength = 30.0
    public static let defaultSpace = 1.0
    /// The barb's angle from the horizontal (the demo's `Degree`, 60°, i.e. 30° off
    /// the vertical stroke) and its length.
    public static let arrowAngle = Double.pi / 3
    public static let arrowLength = 3.0
    /// How far each stroke curls at progress 1: 9π/10.
    public static let maximumCurl = Double.pi * 9 / 10

    public init(size: Size, progress: Double, radius: Double = PullRefreshArrows.defaultRadius,
                lineLength: Double = PullRefreshArrows.defaultLineLength,
                space: Double = PullRefreshArrows.defaultSpace) {
        self.size = size; self.progress = progress; self.radius = radius
        self.lineLength = lineLength; self.space = space
    }

    public var path: BezierPath {
        var path = leftStroke
        path.append(rightStroke)
        return path
    }

    /// The seed's `CenterY`.
    private var centerY: Double { size.height / 2 }
    /// How far the curls have turned (0 for progress ≤ 0.5).
    private var curl: Double { progress > 0.5 ? Self.maximumCurl * (progress - 0.5) * 2 : 0 }

    /// `curvePath1`: the stroke left of the middle, its head at the top, rising to the
    /// center line and then curling clockwise over the top.
    private var leftStroke: BezierPath {
        let x = size.width / 2 - radius
        var path = BezierPath()
        if progress <= 0.5 {
            let a = Point(x, centerY - space + lineLength + (1 - 2 * progress) * (centerY - lineLength))
            let b = Point(x, centerY - space + (1 - 2 * progress) * (centerY - lineLength))
            path.move(to: a)
            path.addLine(to: b)
        } else {
            path.move(to: Point(x, centerY - space + lineLength - lineLength * (progress - 0.5) * 2))
            path.addLine(to: Point(x, centerY - space))
            path.addArc(center: Point(size.width / 2, centerY - space), radius: radius,
                        startAngle: .pi, endAngle: .pi + curl, clockwise: true)
        }
        // The barb turns with the curl; the left barb points down-left from the head.
        appendBarb(to: &path, direction: Point(-cos(Self.arrowAngle - curl), sin(Self.arrowAngle - curl)))
        return path
    }

    /// `curvePath2`: the stroke right of the middle, its head at the bottom, sinking to
    /// the center line and then curling clockwise under the bottom.
    private var rightStroke: BezierPath {
        let x = size.width / 2 + radius
        var path = BezierPath()
        if progress <= 0.5 {
            let a = Point(x, 2 * progress * (centerY + space - lineLength))
            let b = Point(x, lineLength + 2 * progress * (centerY + space - lineLength))
            path.move(to: a)
            path.addLine(to: b)
        } else {
            path.move(to: Point(x, centerY + space - lineLength + lineLength * (progress - 0.5) * 2))
            path.addLine(to: Point(x, centerY + space))
            path.addArc(center: Point(size.width / 2, centerY + space), radius: radius,
                        startAngle: 0, endAngle: curl, clockwise: true)
        }
        appendBarb(to: &path, direction: Point(cos(Self.arrowAngle - curl), -sin(Self.arrowAngle - curl)))
        return path
    }

    /// A move to the path's current point and a line `arrowLength` along `direction`.
    private func appendBarb(to path: inout BezierPath, direction: Point) {
        guard let head = path.elements.last?.points.last else { return }
        path.move(to: head)
        path.addLine(to: head + direction * Self.arrowLength)
    }
}
