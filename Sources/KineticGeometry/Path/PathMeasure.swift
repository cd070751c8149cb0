import Foundation

extension BezierPath {
    /// Lengths of the drawn segments, in order (see `pieces`).
    func pieceLengths(_ pieces: [PathPiece]) -> [Double] { pieces.map { $0.segment.length() } }

    /// The true arc length of the whole path: every subpath, close segments counted as
    /// the straight line they draw, moves not counted (what `strokeEnd` fractions of).
    ///
    /// Curves are integrated with adaptive Gauss–Legendre quadrature (≈1e-12 relative).
    public var length: Double { pieceLengths(pieces).reduce(0, +) }

    /// The tight bounds of the drawn geometry (curve extrema, not control points), as
    /// CGPath's `boundingBoxOfPath`. Move points count, so a lone `M` widens the box.
    /// An empty path gives `Rect.zero` (Core Graphics would give `CGRect.null`).
    public var boundingBox: Rect {
        var xs: [Double] = [], ys: [Double] = []
        for e in elements {
            if case .move(let p) = e { xs.append(p.x); ys.append(p.y) }
        }
        for piece in pieces {
            let s = piece.segment
            for p in [s.start, s.end] + s.extremaParameters().map(s.point(at:)) {
                xs.append(p.x); ys.append(p.y)
            }
        }
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return .zero }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }

    /// One polyline per subpath whose chords stay within `tolerance` points of the
    /// curves. A closed subpath ends with its start point repeated; a subpath that only
    /// moves yields no polyline.
    /// The points ``flattened(tolerance:)`` would give (repeats counted), without making
    /// them: what a path costs to stroke or to collide with.
    public func flattenedPointCount(tolerance: Double) -> Int {
        pieces.reduce(0) { $0 + $1.segment.flattenedCount(tolerance: tolerance) }
    }

    public func flattened(tolerance: Double) -> [[Point]] {
        var result: [[Point]] = []
        var currentSubpath = -1
        for piece in pieces {
            if piece.subpath != currentSubpath {
                result.append([piece.segment.start]); currentSubpath = piece.subpath
            }
            // Skip repeats, such as the zero-length close after an oval's last curve.
            for p in piece.segment.flattened(tolerance: tolerance) where p != result[result.count - 1].last {
                result[result.count - 1].append(p)
            }
        }
        return result
    }

    /// The point at arc length `s` from the path's start and the direction of travel
    /// there, as an angle in radians from +x towards +y (clockwise on a y-down screen —
    /// the angle `CAKeyframeAnimation.rotationMode = .rotateAuto` turns a layer by).
    ///
    /// `s` is clamped to 0…`length`. Nil when the path draws nothing.
    public func point(atLength s: Double) -> (point: Point, tangentAngle: Double)? {
        let pieces = self.pieces
        guard !pieces.isEmpty else { return nil }
        let lengths = pieceLengths(pieces)
        // Walk to the segment holding `s`; past the end, the last one's end.
        var remaining = max(0, s), index = 0
        while index < pieces.count - 1 && remaining > lengths[index] {
            remaining -= lengths[index]; index += 1
        }
        remaining = min(remaining, lengths[index])
        let segment = pieces[index].segment
        let t = segment.parameter(atLength: remaining, total: lengths[index])
        let d = segment.tangent(at: t)
        return (segment.point(at: t), atan2(d.y, d.x))
    }

    /// The point and tangent at `u` (0…1) of a motion in which every drawn segment takes
    /// the same time — CAKeyframeAnimation's `linear` mode along a path, whose key times
    /// fall on the path's vertices — moving at constant speed within each segment.
    /// Nil when the path draws nothing.
    public func point(atSegmentProgress u: Double) -> (point: Point, tangentAngle: Double)? {
        let pieces = self.pieces
        guard !pieces.isEmpty else { return nil }
        let lengths = pieceLengths(pieces)
        let scaled = min(max(u, 0), 1) * Double(pieces.count)
        let index = min(Int(scaled), pieces.count - 1)
        let segment = pieces[index].segment
        let t = segment.parameter(atLength: (scaled - Double(index)) * lengths[index], total: lengths[index])
        let d = segment.tangent(at: t)
        return (segment.point(at: t), atan2(d.y, d.x))
    }
}
