import Foundation
import KineticGeometry

/// A silhouette whose drawn subpaths are convex and apart (a card, a button, a disc, in
/// perspective too), the others lying inside one of them: what a shadow's inner bands
/// need, the silhouette shrunk by a distance (Lottie 1.0 has no offset path, and rlottie
/// draws neither an offset-path modifier nor a mask's expansion). Shrinking a convex
/// outline by d is exact: the intersection of its edges' half-planes, each moved d in.
struct ConvexSilhouette {
    /// The outline: the convex subpaths as drawn (curves kept).
    let outline: BezierPath
    /// The same subpaths flattened, each counter-clockwise in y-up terms (interior on the
    /// left), without its closing repeat.
    let polygons: [[Point]]

    /// Within `tolerance` points of the curves.
    static let tolerance = 0.25

    /// Nil when a subpath is neither convex nor inside a convex one, or two convex ones
    /// overlap: their insets would not be the union's.
    init?(_ path: BezierPath) {
        var subpaths: [BezierPath] = []
        for element in path.elements {
            if case .move = element { subpaths.append(BezierPath()) }
            if subpaths.isEmpty { subpaths.append(BezierPath()) }
            subpaths[subpaths.count - 1].elements.append(element)
        }
        var convex: [(BezierPath, [Point])] = []
        var concave: [[Point]] = []
        for subpath in subpaths {
            guard var points = subpath.flattened(tolerance: Self.tolerance).first else { continue }
            if points.count > 1, points.first == points.last { points.removeLast() }
            guard points.count >= 3, let oriented = Self.convex(points) else {
                if points.count >= 3 { concave.append(points) }
                continue
            }
            convex.append((subpath, oriented))
        }
        guard !convex.isEmpty else { return nil }
        // Inside another convex subpath, a subpath adds nothing to the union.
        func inside(_ points: [Point], _ polygon: [Point]) -> Bool { points.allSatisfy { Self.contains(polygon, $0) } }
        guard concave.allSatisfy({ c in convex.contains { inside(c, $0.1) } }) else { return nil }
        var kept: [(BezierPath, [Point])] = []
        for (i, c) in convex.enumerated() where !convex.indices.contains(where: { $0 != i && inside(c.1, convex[$0].1) && ($0 < i || !inside(convex[$0].1, c.1)) }) {
            kept.append(c)
        }
        for (i, a) in kept.enumerated() {
            for b in kept[(i + 1)...] where Self.overlap(a.1, b.1) { return nil }
        }
        outline = BezierPath(kept.flatMap(\.0.elements))
        polygons = kept.map(\.1)
    }

    /// The outline shrunk by `distance` (≥ 0), as straight edges; empty where it vanishes.
    func inset(by distance: Double) -> BezierPath {
        var path = BezierPath()
        for polygon in polygons {
            var shrunk = polygon
            for (i, a) in polygon.enumerated() {
                let b = polygon[(i + 1) % polygon.count]
                guard let normal = Self.inwardNormal(a, b) else { continue }
                shrunk = Self.clip(shrunk) { ($0 - a).dot(normal) - distance }
                if shrunk.count < 3 { break }
            }
            guard shrunk.count >= 3 else { continue }
            path.move(to: shrunk[0])
            for p in shrunk.dropFirst() { path.addLine(to: p) }
            path.close()
        }
        return path
    }

    /// The unit normal to the left of a → b (inside, for the orientation `convex` gives).
    private static func inwardNormal(_ a: Point, _ b: Point) -> Point? {
        let d = b - a
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        guard length > 1e-12 else { return nil }
        return Point(-d.y / length, d.x / length)
    }

    /// The part of a convex polygon where `side` ≥ 0 (Sutherland–Hodgman, one edge).
    private static func clip(_ polygon: [Point], side: (Point) -> Double) -> [Point] {
        var out: [Point] = []
        for (i, p) in polygon.enumerated() {
            let q = polygon[(i + 1) % polygon.count]
            let sp = side(p), sq = side(q)
            if sp >= 0 { out.append(p) }
            if (sp >= 0) != (sq >= 0) { out.append(p + (q - p) * (sp / (sp - sq))) }
        }
        return out
    }

    private static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// The polygon turned so that its interior lies left of every edge, or nil when it
    /// turns both ways (straight runs allowed) or winds more than once.
    static func convex(_ points: [Point]) -> [Point]? {
        let n = points.count
        var area = 0.0
        for i in 0..<n { area += cross(Point(0, 0), points[i], points[(i + 1) % n]) }
        guard abs(area) > 1e-9 else { return nil }
        let oriented = area > 0 ? points : points.reversed()
        // A turn the other way counts only when the point lies off its neighbours' chord
        // by more than the flattening's tolerance (joins of a curve's pieces wobble).
        var turning = 0.0
        for i in 0..<n {
            let a = oriented[i], b = oriented[(i + 1) % n], c = oriented[(i + 2) % n]
            if cross(a, b, c) < -tolerance * a.distance(to: c) { return nil }
            let u = b - a, v = c - b
            turning += atan2(u.x * v.y - u.y * v.x, u.dot(v))
        }
        return turning < 3 * Double.pi ? oriented : nil
    }

    /// Whether `p` lies in the convex polygon (its edge included).
    static func contains(_ polygon: [Point], _ p: Point) -> Bool {
        polygon.indices.allSatisfy { cross(polygon[$0], polygon[($0 + 1) % polygon.count], p) >= -1e-9 }
    }

    /// Whether two convex polygons share interior: no edge of either separates them.
    private static func overlap(_ a: [Point], _ b: [Point]) -> Bool {
        for (polygon, other) in [(a, b), (b, a)] {
            for i in polygon.indices {
                let p = polygon[i], q = polygon[(i + 1) % polygon.count]
                if other.allSatisfy({ cross(p, q, $0) <= 1e-9 }) { return false }
            }
        }
        return true
    }
}
