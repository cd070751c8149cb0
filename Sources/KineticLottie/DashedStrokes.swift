import KineticGeometry

/// A dashed stroke written as its dashes: Lottie's dash pattern is measured by each player
/// along the path, and players measure differently — rlottie approximates a line's length
/// (`VLine::length`: the longer of |dx|, |dy| plus 3/8 of the shorter, up to 7 % long on a
/// diagonal, and a curve's by the same over its control polygon), so its dashes drift
/// along a slanted line or a curve. Cut where Core Graphics puts them
/// (`BezierPath.dashes(pattern:phase:)`), one subpath a dash and stroked without a
/// pattern, they are drawn alike by every player.
///
/// A path of horizontal and vertical lines only keeps its pattern: every player measures
/// those exactly, and the pattern is smaller. A trimmed stroke keeps it too: a trim measures
/// the path it is given, which the dashes are not.
enum DashedStrokes {
    /// The slot's paints (one per frame), with dashes cut out of every frame's path when
    /// some frame needs it and every frame can be (nil past the dash cap: the pattern stays).
    static func cut(_ paints: [Paint]) -> [Paint] {
        guard paints.contains(where: { $0.kind == .stroke && !$0.stroke.dash.isEmpty && !isAxisAligned($0.path) }),
              !paints.contains(where: { $0.stroke.start != 0 || $0.stroke.end != 1 }) else { return paints }
        var out: [Paint] = []
        for var paint in paints {
            if !paint.stroke.dash.isEmpty {
                guard let dashes = paint.path.dashes(pattern: paint.stroke.dash, phase: paint.stroke.dashPhase) else { return paints }
                paint.path = dashes
                paint.stroke.dash = []
                paint.stroke.dashPhase = 0
            }
            out.append(paint)
        }
        return out
    }

    /// Whether every drawn segment of `path` is a horizontal or vertical line.
    static func isAxisAligned(_ path: BezierPath) -> Bool {
        var current = Point.zero, start = Point.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                current = p; start = p
            case .line(let p):
                guard p.x == current.x || p.y == current.y else { return false }
                current = p
            case .close:
                guard start.x == current.x || start.y == current.y else { return false }
                current = start
            case .quadCurve, .curve:
                return false
            }
        }
        return true
    }
}
