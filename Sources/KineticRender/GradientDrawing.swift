import Foundation
import KineticCairo
import KineticGeometry
import KineticLayers

/// A gradient's color stops in offset order: `locations` when given (one per color),
/// else evenly spaced, as CAGradientLayer.
func gradientStops(_ gradient: Gradient) -> [(offset: Double, color: Color)] {
    let colors = gradient.colors
    let n = colors.count
    guard n > 0 else { return [] }
    let offsets: [Double]
    if let locations = gradient.locations, locations.count == n {
        offsets = locations
    } else {
        offsets = (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
    }
    return zip(offsets, colors).enumerated()
        .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
        .map { (offset: $0.element.0, color: $0.element.1) }
}

/// The color of sorted `stops` at `t`, linear between stops and the end colors beyond.
func gradientColor(at t: Double, stops: [(offset: Double, color: Color)]) -> Color {
    guard let first = stops.first, let last = stops.last else { return .clear }
    if t <= first.offset { return first.color }
    if t >= last.offset { return last.color }
    for (a, b) in zip(stops, stops.dropFirst()) where t <= b.offset {
        let span = b.offset - a.offset
        return span > 0 ? a.color.lerp(to: b.color, (t - a.offset) / span) : b.color
    }
    return last.color
}

extension LayerRenderer {
    /// CAGradientLayer's drawing in `rect` (startPoint/endPoint in its unit space),
    /// rounded by `corners` like the layer's background.
    func drawGradient(_ gradient: Gradient, in rect: Rect, corners: RoundedCorners, alpha: Double,
                      in ctx: CairoContext) {
        let stops = gradientStops(gradient).map { ($0.offset, $0.color.multiplyingAlpha(alpha)) }
        guard let last = stops.last, !rect.isEmpty else { return }
        func unit(_ p: Point) -> Point { Point(rect.minX + p.x * rect.width, rect.minY + p.y * rect.height) }
        let start = unit(gradient.startPoint), end = unit(gradient.endPoint)

        ctx.save()
        defer { ctx.restore() }
        ctx.newPath()
        Self.appendRoundedRect(rect, corners: corners, to: ctx)
        // Degenerate geometry shows the end color, as an extended gradient would.
        func solid() { ctx.setSource(last.1); ctx.fill() }
        guard stops.count > 1 else { return solid() }

        switch gradient.gradientType {
        case .axial:
            guard start != end else { return solid() }
            let pattern = CairoPattern.linear(from: start, to: end)
            for (offset, color) in stops { pattern.addColorStop(offset, color) }
            pattern.extendPad()
            ctx.setSource(pattern)
            ctx.fill()
        case .radial:
            // An ellipse centred on startPoint whose half-axes reach endPoint's x and y.
            let rx = abs(end.x - start.x), ry = abs(end.y - start.y)
            guard rx > 0, ry > 0 else { return solid() }
            let pattern = CairoPattern.radial(center: .zero, innerRadius: 0, outerRadius: 1)
            for (offset, color) in stops { pattern.addColorStop(offset, color) }
            pattern.extendPad()
            pattern.setMatrix((1 / rx, 0, 0, 1 / ry, -start.x / rx, -start.y / ry))
            ctx.setSource(pattern)
            ctx.fill()
        case .conic:
            ctx.setSource(conicPattern(stops: stops, center: start, toward: end, covering: rect))
            ctx.fill()
        }
    }

    /// A conic sweep as a mesh of thin sectors: the first color points from `center`
    /// towards `toward`, and colors advance clockwise on screen over a full turn. Sectors
    /// break at every stop and at least every 2°, so colors vary linearly with angle.
    private func conicPattern(stops: [(Double, Color)], center: Point, toward: Point,
                              covering rect: Rect) -> CairoPattern {
        let sorted = stops.map { (offset: $0.0, color: $0.1) }
        let startAngle = toward == center ? 0 : atan2(toward.y - center.y, toward.x - center.x)
        // Past the farthest corner, so the sectors' straight outer edges cover the rect.
        let radius = rect.corners.map { $0.distance(to: center) }.max().map { $0 * 1.05 + 1 } ?? 1
        var breaks = Set((0...180).map { Double($0) / 180 })
        for s in sorted where s.offset > 0 && s.offset < 1 { breaks.insert(s.offset) }
        let ts = breaks.sorted()
        let mesh = CairoPattern.mesh()
        func rim(_ t: Double) -> Point {
            let a = startAngle + 2 * Double.pi * t
            return Point(center.x + radius * cos(a), center.y + radius * sin(a))
        }
        for (t0, t1) in zip(ts, ts.dropFirst()) {
            let c0 = gradientColor(at: t0, stops: sorted)
            // Just below t1: a hard stop at t1 belongs to the next sector.
            let c1 = gradientColor(at: t1 - 1e-9, stops: sorted)
            mesh.addPatch([(center, c0), (rim(t0), c0), (rim(t1), c1), (center, c1)])
        }
        return mesh
    }
}
