import Foundation
import KineticGeometry

/// UIKit's mass unit: a 100×100 item of density 1 has mass 1.
func itemMass(density: Double, size: Size) -> Double {
    density * size.width * size.height / 10_000
}

/// An item's collision shape and its moment of inertia for `mass` (uniform density).
struct ItemBody {
    var shape: ChipmunkShape
    var momentPerMass: Double

    /// Builds the body of `item`, or says why it is degenerate.
    init(_ item: DynamicItem) throws(DynamicsError) {
        let w = item.size.width, h = item.size.height
        // Beyond these, masses and moments leave the range Chipmunk's solver stays finite in.
        guard w.isFinite, h.isFinite, w >= 1e-3, h >= 1e-3, w <= 1e7, h <= 1e7 else {
            throw .invalidValue(path: "item \(item.id).size", reason: "each side must be 0.001…10000000 pt, got \(w)×\(h)")
        }
        switch item.collisionBoundsType {
        case .rectangle:
            let x = w / 2, y = h / 2
            shape = .polygon([Point(-x, -y), Point(x, -y), Point(x, y), Point(-x, y)])
            momentPerMass = (w * w + h * h) / 12
        case .ellipse:
            if abs(w - h) <= 1e-9 * max(w, h) {
                shape = .circle(radius: w / 2)
            } else {
                // Chipmunk has no ellipse: a 48-gon follows it within 0.2% of its radius.
                let n = 48
                shape = .polygon((0..<n).map { k in
                    let t = 2 * Double.pi * Double(k) / Double(n)
                    return Point(w / 2 * cos(t), h / 2 * sin(t))
                })
            }
            momentPerMass = (w * w + h * h) / 16
        case .path(let path):
            guard path.isFinite, path.elements.flatMap(\.points).allSatisfy({ abs($0.x) <= 1e7 && abs($0.y) <= 1e7 }) else {
                throw .invalidValue(path: "item \(item.id).collisionBoundingPath", reason: "must be finite and within ±10000000")
            }
            let hull = convexHull(path.flattened(tolerance: 0.25).flatMap { $0 })
            let area = polygonArea(hull)
            guard hull.count >= 3, area > 1e-6 else {
                throw .invalidValue(path: "item \(item.id).collisionBoundingPath",
                                    reason: "encloses no area (a collision path needs three points not on one line)")
            }
            shape = .polygon(hull)
            momentPerMass = polygonMomentPerMass(hull)
        }
    }
}

/// The convex hull, counter-clockwise in y-up terms (Andrew's monotone chain).
func convexHull(_ points: [Point]) -> [Point] {
    let sorted = Set(points).sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
    guard sorted.count >= 3 else { return sorted }
    func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
    var lower: [Point] = [], upper: [Point] = []
    for p in sorted {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
        lower.append(p)
    }
    for p in sorted.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
        upper.append(p)
    }
    return Array(lower.dropLast() + upper.dropLast())
}

/// The unsigned area of a simple polygon.
func polygonArea(_ p: [Point]) -> Double {
    guard p.count >= 3 else { return 0 }
    var sum = 0.0
    for i in p.indices {
        let a = p[i], b = p[(i + 1) % p.count]
        sum += a.x * b.y - b.x * a.y
    }
    return abs(sum) / 2
}

/// The moment of inertia about the origin of a uniform polygon of unit mass.
func polygonMomentPerMass(_ p: [Point]) -> Double {
    var numerator = 0.0, denominator = 0.0
    for i in p.indices {
        let a = p[i], b = p[(i + 1) % p.count]
        let cross = a.x * b.y - b.x * a.y   // signed: the fan's triangles may lie outside
        numerator += cross * (a.dot(a) + a.dot(b) + b.dot(b))
        denominator += cross
    }
    return denominator != 0 ? numerator / (6 * denominator) : 0
}

/// Rotates a vector by `angle` radians (clockwise on a y-down screen).
func rotate(_ v: Point, by angle: Double) -> Point {
    let c = cos(angle), s = sin(angle)
    return Point(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The z component of the cross product (torque of force `f` applied at arm `r`).
func cross(_ r: Point, _ f: Point) -> Double { r.x * f.y - r.y * f.x }
