import Foundation

/// The basic shapes of SVG 2 §10 as the path each one is equivalent to: the same start
/// point and direction, so `strokeEnd` draws them as a browser would.
extension SVGElement {
    /// The shape elements a path import reads.
    public static let shapeNames: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"]

    /// This shape element's outline in its own user space; nil when it renders nothing
    /// (a zero width, height or radius, empty path data). `viewport` is the nearest
    /// viewport's size in user units, what percentages refer to.
    public func shapePath(viewport: Size) throws(SVGError) -> BezierPath? {
        let diagonal = ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
        func length(_ name: String, _ percentOf: Double, default value: Double? = 0) throws(SVGError) -> Double? {
            guard let text = self[name] else { return value }
            do { return try SVGLength.parse(text, percentOf: percentOf, attribute: name) } catch {
                throw SVGError(error.message, line: line)
            }
        }
        func nonNegative(_ name: String, _ percentOf: Double) throws(SVGError) -> Double? {
            guard let v = try length(name, percentOf, default: nil) else { return nil }
            guard v >= 0 else { throw SVGError("<\(self.name)> \(name)='\(self[name] ?? "")' is negative", line: line) }
            return v
        }
        let (w, h) = (viewport.width, viewport.height)
        switch name {
        case "path":
            let data = self["d"] ?? ""
            do { return try SVGPathData.parse(data) } catch {
                throw SVGError("<path> d: \(error.message) at character \(error.offset + 1)", line: line)
            }
        case "rect":
            let x = try length("x", w) ?? 0, y = try length("y", h) ?? 0
            let width = try nonNegative("width", w) ?? 0, height = try nonNegative("height", h) ?? 0
            guard width > 0, height > 0 else { return nil }
            // An rx or ry alone stands for both (`auto`); each is clamped to half its side.
            var rx = try nonNegative("rx", w), ry = try nonNegative("ry", h)
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            return Self.roundedRect(Rect(x, y, width, height), rx: min(rx ?? 0, width / 2), ry: min(ry ?? 0, height / 2))
        case "circle":
            let cx = try length("cx", w) ?? 0, cy = try length("cy", h) ?? 0, r = try nonNegative("r", diagonal) ?? 0
            guard r > 0 else { return nil }
            return .oval(in: Rect(cx - r, cy - r, 2 * r, 2 * r))
        case "ellipse":
            let cx = try length("cx", w) ?? 0, cy = try length("cy", h) ?? 0
            var rx = try nonNegative("rx", w), ry = try nonNegative("ry", h)
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            guard let rx, let ry, rx > 0, ry > 0 else { return nil }
            return .oval(in: Rect(cx - rx, cy - ry, 2 * rx, 2 * ry))
        case "line":
            let p1 = Point(try length("x1", w) ?? 0, try length("y1", h) ?? 0)
            let p2 = Point(try length("x2", w) ?? 0, try length("y2", h) ?? 0)
            return BezierPath([.move(to: p1), .line(to: p2)])
        case "polyline", "polygon":
            let text = self["points"] ?? ""
            let v: [Double]
            do { v = try SVGPathData.numbers(text) } catch {
                throw SVGError("<\(name)> points: \(error.message) at character \(error.offset + 1)", line: line)
            }
            guard v.count.isMultiple(of: 2) else {
                throw SVGError("<\(name)> points has an odd count of numbers (\(v.count)): each point is x and y", line: line)
            }
            let points = stride(from: 0, to: v.count, by: 2).map { Point(v[$0], v[$0 + 1]) }
            guard points.count >= 2 else { return nil }
            return .polyline(points, closed: name == "polygon")
        default:
            return nil
        }
    }

    /// SVG 2's rect path: from (x + rx, y) along the top edge, each corner a quarter of
    /// the rx × ry ellipse, clockwise on screen; a plain rectangle without radii.
    static func roundedRect(_ r: Rect, rx: Double, ry: Double) -> BezierPath {
        guard rx > 0, ry > 0 else { return .rect(r) }
        var path = BezierPath()
        path.move(to: Point(r.minX + rx, r.minY))
        let centers = [Point(r.maxX - rx, r.minY + ry), Point(r.maxX - rx, r.maxY - ry),
                       Point(r.minX + rx, r.maxY - ry), Point(r.minX + rx, r.minY + ry)]
        for (i, center) in centers.enumerated() {
            // The top-right corner turns from −90° to 0°, each next one a quarter on.
            let start = -Double.pi / 2 + Double(i) * .pi / 2
            let u = EllipseArc.unitPoint(start)
            // The straight side up to the corner, kept when rx or ry takes it all (of no
            // length) so that every rounded rect has one structure and they morph.
            path.addLine(to: Point(center.x + u.x * rx, center.y + u.y * ry))
            path.elements += EllipseArc.curves(center: center, rx: rx, ry: ry, startAngle: start, sweep: .pi / 2)
        }
        path.close()
        return path
    }
}
