import Foundation
import KineticGeometry

/// CAKeyframeAnimation with a `path`: the point (and direction of travel) a layer's
/// `position` takes along the path at each moment of a cycle.
///
/// The path's keyframes are its vertices: the start of the first drawn segment and the
/// end of every drawn segment (a `close` draws the line back to its subpath's start; a
/// move between subpaths is a jump, as it draws nothing). So a path of n drawn segments
/// has n + 1 vertices, and `keyTimes` (n + 1 of them) give the time at which each
/// vertex is reached, as CAKeyframeAnimation maps key times to the points of the path's
/// elements. Between two vertices the motion keeps a constant speed along the segment,
/// eased by that segment's entry of `timingFunctions` (n of them).
public struct PathKeyframeAnimation: Hashable, Sendable {
    public var path: BezierPath
    /// Fractions 0…1 of the cycle at which each vertex is reached; nil gives every drawn
    /// segment the same time. Ignored by `paced`.
    public var keyTimes: [Double]?
    /// One per drawn segment, easing the motion along it; nil is linear. Ignored by
    /// `paced` and `discrete`.
    public var timingFunctions: [TimingFunction]?
    /// `linear`, `discrete` or `paced` (`cubic` has no meaning along a path here).
    public var calculationMode: KeyframeAnimation.CalculationMode

    public init(path: BezierPath, keyTimes: [Double]? = nil, timingFunctions: [TimingFunction]? = nil,
                calculationMode: KeyframeAnimation.CalculationMode = .linear) {
        self.path = path; self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions; self.calculationMode = calculationMode
    }

    /// One drawn segment as a path of its own (a move to its start, then its element; a
    /// close becomes the line it draws), so it can be measured on its own.
    public struct Segment: Hashable, Sendable {
        public var start: Point
        public var end: Point
        public var path: BezierPath
    }

    /// The drawn segments in order: every element but the moves, as `BezierPath`
    /// measures them.
    public var segments: [Segment] {
        var result: [Segment] = []
        var current = Point.zero, subpathStart = Point.zero
        for e in path.elements {
            let end: Point
            let element: PathElement
            switch e {
            case .move(let p):
                current = p; subpathStart = p
                continue
            case .line(let p): end = p; element = e
            case .quadCurve(let p, _): end = p; element = e
            case .curve(let p, _, _): end = p; element = e
            case .close: end = subpathStart; element = .line(to: subpathStart)
            }
            result.append(Segment(start: current, end: end, path: BezierPath([.move(to: current), element])))
            current = end
        }
        return result
    }

    /// The vertices: the first segment's start, then every segment's end.
    public var vertices: [Point] {
        let s = segments
        guard let first = s.first else { return [] }
        return [first.start] + s.map(\.end)
    }

    /// The vertices as the `values` of a keyframe animation with the same key times,
    /// timing functions and mode: what CAKeyframeAnimation's rules are checked on.
    private var vertexKeyframes: KeyframeAnimation {
        KeyframeAnimation(values: vertices.map { .point($0) }, keyTimes: keyTimes,
                          timingFunctions: timingFunctions, calculationMode: calculationMode)
    }

    /// Checks key times and timing functions as `KeyframeAnimation.validate()` does for
    /// the vertices: `linear` needs n + 1 key times from 0 to 1, non-decreasing, and n
    /// timing functions for n drawn segments; `discrete` takes n + 1 or n + 2 key times
    /// (the vertices' counts of values); `paced` ignores both. `noValues` when the path
    /// draws nothing.
    public func validate() throws(KeyframeAnimation.ValidationError) {
        try vertexKeyframes.validate()
    }

    /// The point and direction of travel (radians from +x towards +y, the angle
    /// `rotationMode` turns a layer by) at the un-eased fraction `progress` of the cycle,
    /// clamped to 0…1. Nil when the path draws nothing or `validate()` fails.
    public func point(at progress: Double) -> (point: Point, tangentAngle: Double)? {
        let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
        switch calculationMode {
        case .paced, .cubicPaced:
            // Along a path the curve is the path's own: cubicPaced travels it as paced does.
            return path.point(atLength: p * path.length)
        case .linear where keyTimes == nil && timingFunctions == nil:
            // Every segment the same time, at constant speed in each.
            return path.point(atSegmentProgress: p)
        case .discrete:
            return discretePoint(at: p)
        case .linear, .cubic:
            return blendedPoint(at: p)
        }
    }

    /// Along segment i from its start (`s` = 0) to its end (1) at constant speed.
    private static func point(on segment: Segment, _ s: Double) -> (point: Point, tangentAngle: Double)? {
        segment.path.point(atLength: min(max(s, 0), 1) * segment.path.length)
    }

    private func blendedPoint(at p: Double) -> (point: Point, tangentAngle: Double)? {
        guard (try? validate()) != nil else { return nil }
        let segments = self.segments
        let n = segments.count
        let times = keyTimes ?? (0...n).map { Double($0) / Double(n) }
        // The segment [times[i], times[i + 1]] holding p; with repeated key times the
        // last one wins, as for `values` keyframes.
        let i = min(Instant.lastIndex(reachedBy: p, in: times.prefix(n)) ?? 0, n - 1)
        let span = times[i + 1] - times[i]
        var s = span > 0 ? max(p - times[i], 0) / span : 1
        if let fns = timingFunctions, i < fns.count { s = fns[i](s) }
        return Self.point(on: segments[i], s)
    }

    /// Each vertex holds from its key time to the next (the last to the end of the
    /// cycle), facing the way the path arrives at it (the first: the way it leaves).
    private func discretePoint(at p: Double) -> (point: Point, tangentAngle: Double)? {
        guard (try? validate()) != nil else { return nil }
        let segments = self.segments
        let m = segments.count + 1
        let times = keyTimes ?? (0..<m).map { Double($0) / Double(m) }
        let index = Instant.lastIndex(reachedBy: p, in: times.prefix(m)) ?? 0
        return index == 0 ? Self.point(on: segments[0], 0) : Self.point(on: segments[index - 1], 1)
    }
}
