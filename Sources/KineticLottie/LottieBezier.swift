import KineticGeometry

/// One subpath as Lottie spells a path (its `sh` value): vertices with in and out
/// tangents relative to them, open or closed. Lottie has cubics only, one subpath per
/// shape; a BezierPath of several subpaths becomes several shapes.
struct LottieBezier: Equatable {
    var closed = false
    var vertices: [Point] = []
    var inTangents: [Point] = []
    var outTangents: [Point] = []

    /// The path's subpaths. Quadratics become the cubic that traces the same curve; a
    /// closing vertex that repeats the first merges into it (its in tangent kept), since
    /// Lottie closes a shape with a segment of its own; a lone move draws nothing and
    /// goes.
    static func subpaths(of path: BezierPath) -> [LottieBezier] {
        var out: [LottieBezier] = []
        var current: LottieBezier? = nil
        var start = Point.zero
        func finish() {
            if var c = current, c.vertices.count > 1 || c.closed {
                if c.closed, c.vertices.count > 1, let first = c.vertices.first, let last = c.vertices.last,
                   first.distance(to: last) < 1e-9 {
                    c.inTangents[0] = c.inTangents[c.vertices.count - 1]
                    c.vertices.removeLast(); c.inTangents.removeLast(); c.outTangents.removeLast()
                }
                out.append(c)
            }
            current = nil
        }
        func begin(at p: Point) {
            current = LottieBezier(vertices: [p], inTangents: [.zero], outTangents: [.zero])
        }
        func add(_ p: Point, out o: Point?, in i: Point) {
            if current == nil { begin(at: start) }
            guard var c = current, let last = c.vertices.last else { return }
            if let o { c.outTangents[c.vertices.count - 1] = o - last }
            c.vertices.append(p); c.inTangents.append(i - p); c.outTangents.append(.zero)
            current = c
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish(); begin(at: p); start = p
            case .line(let p):
                add(p, out: nil, in: p)
            case .quadCurve(let p, let control):
                let from = current?.vertices.last ?? start
                add(p, out: from + (control - from) * (2.0 / 3), in: p + (control - p) * (2.0 / 3))
            case .curve(let p, let c1, let c2):
                add(p, out: c1, in: c2)
            case .close:
                current?.closed = true
                finish()
            }
        }
        finish()
        return out
    }

    /// The numbers a track follows: each vertex with its tangents.
    var values: [Double] {
        var v: [Double] = []
        v.reserveCapacity(vertices.count * 6)
        for k in vertices.indices {
            v += [vertices[k].x, vertices[k].y, inTangents[k].x, inTangents[k].y, outTangents[k].x, outTangents[k].y]
        }
        return v
    }

    /// Paths interpolate only between equal structures.
    var structure: Int { closed ? -vertices.count - 1 : vertices.count }

    /// The shape back from `values` and `structure`, its vertices and control points
    /// (vertex + tangent) rounded to multiples of `quantum` (0 keeps every digit): each
    /// control point moves by at most `quantum`/2 per coordinate, and so, the curve being
    /// a convex combination of them, does every point of it. `c` is written only when closed.
    static func json(values: [Double], closed: Bool, quantum: Double = 0) -> LottieJSON {
        func grid(_ x: Double) -> Double { quantum > 0 ? (x / quantum).rounded() * quantum : x }
        var v: [LottieJSON] = [], i: [LottieJSON] = [], o: [LottieJSON] = []
        var k = 0
        while k + 5 < values.count {
            let x = grid(values[k]), y = grid(values[k + 1])
            v.append(.numbers([x, y]))
            i.append(.numbers([grid(values[k] + values[k + 2]) - x, grid(values[k + 1] + values[k + 3]) - y]))
            o.append(.numbers([grid(values[k] + values[k + 4]) - x, grid(values[k + 1] + values[k + 5]) - y]))
            k += 6
        }
        // `c` defaults to false (lottie-spec): an open shape leaves it out, a tenth of a
        // two-point line's keyframe.
        return .object((closed ? [("c", true)] : []) + [("v", .array(v)), ("i", .array(i)), ("o", .array(o))])
    }
}
