import KineticGeometry
import Yams

extension Field {
    /// A path value of section 3.1: SVG path data or a primitive. Named shapes, live
    /// cubics and references are reported as not yet supported.
    var path: BezierPath? {
        switch node {
        case .scalar(let s):
            let text = s.string
            if text.trimmingCharacters(in: .whitespaces).hasPrefix("@") || text.trimmingCharacters(in: .whitespaces).hasPrefix("=") {
                report("not yet supported: paths from references (section 4 of the scene format)")
                return nil
            }
            do {
                return try SVGPathData.parse(text)
            } catch {
                reportPathError(error, in: s)
                return nil
            }
        case .mapping:
            return primitivePath
        default:
            report("expected SVG path data or a path primitive, found \(node.kindName)")
            return nil
        }
    }

    /// Points the error at the offending character when the path is on one line.
    private func reportPathError(_ error: PathSyntaxError, in scalar: Node.Scalar) {
        let message = "path syntax error at character \(error.offset + 1): \(error.message)"
        diagnostics.report(message, offset: error.offset, in: scalar, keyPath: keyPath)
    }

    private static let primitiveKeys = ["rect", "roundedRect", "cornerRadius", "oval", "arc", "polyline", "closed",
                                        "star", "cubic", "shape"]

    private var primitivePath: BezierPath? {
        if case .mapping(let m) = node, m["shape"] != nil {
            report("a named shape is a shape layer's `path`; it cannot be used here")
            return nil
        }
        guard let m = mapping(allowed: Self.primitiveKeys) else { return nil }
        let kinds = ["rect", "roundedRect", "oval", "arc", "polyline", "star", "cubic"].filter { m[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let f = m[kind] else {
            report(kinds.isEmpty ? "a path primitive needs one of rect, roundedRect, oval, arc, polyline, star"
                                 : "a path primitive takes one of \(kinds.joined(separator: ", ")), not several")
            return nil
        }
        if m["cornerRadius"] != nil, kind != "roundedRect" { m["cornerRadius"]?.report("cornerRadius goes with roundedRect") }
        if m["closed"] != nil, kind != "polyline" { m["closed"]?.report("closed goes with polyline") }
        switch kind {
        case "rect":
            return f.rect.map { BezierPath.rect($0) }
        case "oval":
            return f.rect.map { BezierPath.oval(in: $0) }
        case "roundedRect":
            guard let r = f.rect else { return nil }
            let radius = m["cornerRadius"].map { $0.nonNegativeNumber } ?? 0
            return radius.map { BezierPath.roundedRect(r, cornerRadius: $0) }
        case "arc":
            guard let a = f.mapping(allowed: ["center", "radius", "startAngle", "endAngle", "clockwise"]) else { return nil }
            let center = a.required("center")?.point
            let radius = a.required("radius")?.nonNegativeNumber
            let start = a.required("startAngle")?.angle
            let end = a.required("endAngle")?.angle
            let clockwise = a["clockwise"].map { $0.bool } ?? true
            guard let center, let radius, let start, let end, let clockwise else { return nil }
            return BezierPath.arc(center: center, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
        case "polyline":
            guard let items = f.elements else { return nil }
            let points = items.map(\.point)
            guard !points.contains(where: { $0 == nil }) else { return nil }
            guard points.count >= 2 else { f.report("a polyline needs at least 2 points"); return nil }
            let closed = m["closed"].map { $0.bool } ?? false
            guard let closed else { return nil }
            return BezierPath.polyline(points.compactMap { $0 }, closed: closed)
        case "star":
            guard let s = f.mapping(allowed: ["center", "points", "outerRadius", "innerRadius"]) else { return nil }
            let center = s.required("center")?.point
            let count = s.required("points")?.integer
            let outer = s.required("outerRadius")?.nonNegativeNumber
            let inner = s.required("innerRadius")?.nonNegativeNumber
            guard let center, let count, let outer, let inner else { return nil }
            guard (2...1000).contains(count) else { s["points"]?.report("a star has 2 to 1000 points"); return nil }
            return BezierPath.star(center: center, points: count, outerRadius: outer, innerRadius: inner)
        default:
            f.report("not yet supported: `cubic` through live points (section 4 references)")
            return nil
        }
    }
}
