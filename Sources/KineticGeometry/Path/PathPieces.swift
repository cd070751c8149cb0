/// One drawn segment of a path and where it sits in the element list.
struct PathPiece {
    var segment: PathSegment
    /// Index of the subpath (counting moves, and implicit subpaths after a close).
    var subpath: Int
    /// True for the segment a `.close` draws back to the subpath's start.
    var isClose: Bool
}

extension BezierPath {
    /// Every drawn segment in order, close segments as lines back to the subpath start.
    ///
    /// Follows CGPath: the current point starts at the origin, a move starts a subpath,
    /// and after a close the current point is the closed subpath's start, where the next
    /// drawing element implicitly begins a new subpath.
    var pieces: [PathPiece] {
        var result: [PathPiece] = []
        var current = Point.zero, subpathStart = Point.zero
        var subpath = -1, needsNewSubpath = true
        for e in elements {
            if case .move(let p) = e {
                current = p; subpathStart = p; subpath += 1; needsNewSubpath = false
                continue
            }
            if needsNewSubpath { subpath += 1; subpathStart = current; needsNewSubpath = false }
            let segment: PathSegment
            switch e {
            case .move: continue
            case .line(let p): segment = PathSegment(points: [current, p])
            case .quadCurve(let p, let c): segment = PathSegment(points: [current, c, p])
            case .curve(let p, let c1, let c2): segment = PathSegment(points: [current, c1, c2, p])
            case .close: segment = PathSegment(points: [current, subpathStart])
            }
            result.append(PathPiece(segment: segment, subpath: subpath, isClose: e == .close))
            current = segment.end
            if e == .close { needsNewSubpath = true }
        }
        return result
    }
}
