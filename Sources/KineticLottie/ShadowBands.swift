import Foundation
import KineticGeometry
import KineticLayers

/// CALayer's shadow within Lottie 1.0, which has no blur: the silhouette drawn several
/// times, each copy grown by a band's width (a stroke of twice that width with round
/// joins around the fill) and tinted so that the copies stacked over one another give,
/// band by band, the coverage of the Gaussian blur the renderer draws: at a distance d
/// outside the silhouette's edge, opacity × Φ(−d/σ), σ = `shadowRadius` (docs/lottie.md).
enum ShadowBands {
    /// Bands out to 3σ, where the blur's coverage falls under 0.14 % of its opacity.
    static let bandsPerSigma = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    /// The σ (points) under which a shadow is drawn as one crisp copy.
    static let crispRadius = 1.0 / 3

    /// The silhouette's grown copies as paints, outermost (widest, faintest) first.
    /// A σ under a third of a point is one crisp copy.
    /// - Parameter lineWidth: the silhouette is the path stroked this wide (a shape
    ///   layer with a stroke and no fill), not filled.
    static func paints(silhouette: BezierPath, lineWidth: Double? = nil, color: Color, sigma: Double) -> [Paint] {
        let opacity = min(max(color.alpha, 0), 1)
        func tinted(_ alpha: Double) -> Color { Color(red: color.red, green: color.green, blue: color.blue, alpha: alpha) }
        func copy(grownBy d: Double, _ c: Color) -> [Paint] {
            var stroke = StrokeStyle()
            stroke.width = 2 * d + (lineWidth ?? 0)
            stroke.join = .round
            stroke.cap = .round
            let grown = Paint(kind: .stroke, path: silhouette, color: c, stroke: stroke)
            if lineWidth != nil { return [grown] }
            return [Paint(kind: .fill, path: silhouette, color: c)] + (d > 0 ? [grown] : [])
        }
        guard sigma >= crispRadius else { return copy(grownBy: 0, tinted(opacity)) }
        // Coverage wanted in each band, at its middle distance; inside the silhouette, the
        // full opacity (what lies under the layer's own painting).
        let edges = bandsPerSigma.map { $0 * sigma }
        var wanted: [Double] = [opacity]
        var inner = 0.0
        for edge in edges {
            wanted.append(opacity * normalTail((inner + edge) / 2 / sigma))
            inner = edge
        }
        // Copy k covers bands k… inwards: its alpha is what turns the coverage of the
        // copies outside it into the band's.
        var paints: [Paint] = []
        var outside = 0.0
        for k in stride(from: edges.count, through: 0, by: -1) {
            let alpha = outside < 1 ? 1 - (1 - wanted[k]) / (1 - outside) : 0
            outside = wanted[k]
            paints += copy(grownBy: k > 0 ? edges[k - 1] : 0, tinted(max(0, alpha)))
        }
        return paints
    }

    /// The line width when the layer's only painting is a shape's stroke: its shadow is
    /// the stroke's.
    static func strokeOnlyWidth(of layer: Layer) -> Double? {
        guard layer.shadowPath == nil, let shape = layer.shape, (shape.fillColor?.alpha ?? 0) == 0,
              (shape.strokeColor?.alpha ?? 0) > 0, shape.lineWidth > 0, (layer.backgroundColor?.alpha ?? 0) == 0
        else { return nil }
        return shape.lineWidth
    }

    /// Φ(−z): the share of a unit Gaussian beyond z standard deviations.
    static func normalTail(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }

    /// What casts the shadow: `shadowPath`, else the layer's own painting's outline —
    /// its rounded bounds when it has a background or a gradient, a shape's path when
    /// filled, a text's glyphs (as Pango lays them out: a shadow is blurred, whole-pixel
    /// glyph placement does not show in it). Sublayers are not part of it (docs/lottie.md).
    static func silhouette(of layer: Layer, glyphs: ((TextStyle, Rect, PlaneProjection?) -> BezierPath)?) -> BezierPath {
        if let path = layer.shadowPath { return path }
        if strokeOnlyWidth(of: layer) != nil, let shape = layer.shape { return shape.path }
        var path = BezierPath()
        var solid: SolidBounds? = nil
        if (layer.backgroundColor?.alpha ?? 0) > 0 || layer.gradient != nil {
            path.append(layer.corners.path(in: layer.bounds))
            solid = SolidBounds(layer.bounds, corners: layer.corners)
        }
        if let shape = layer.shape, (shape.fillColor?.alpha ?? 0) > 0 { path.append(shape.path) }
        if let text = layer.text, let glyphs { path.append(glyphs(text, layer.bounds, nil)) }
        // Core Animation casts the shadow of the composited layer, sublayers included:
        // theirs join, mapped into this plane (in perspective too: outlines' points
        // projected, as the baked drawables are).
        for sublayer in layer.sublayers where !sublayer.isHidden && sublayer.opacity > 0 {
            let m = sublayer.projectionToSuperlayer(through: layer.sublayerSpace)
            guard m.isFinite, m.m33 > 0 else { continue }
            var inner = sublayer
            inner.shadowPath = nil
            let outline = silhouette(of: inner, glyphs: glyphs).mapPoints(m.apply(to:))
            path.append(solid.map { dropping(outline, inside: $0) } ?? outline)
        }
        return path
    }

    /// `path` less its subpaths whose points all lie in `solid`: inside the layer's own
    /// rounded bounds a sublayer's outline (a label's glyphs) adds nothing to the
    /// silhouette, nor, grown by a band's width, to the bounds grown by as much; a curve
    /// stays within its control points' hull, so the test is exact.
    static func dropping(_ path: BezierPath, inside solid: SolidBounds) -> BezierPath {
        var kept = BezierPath()
        var subpath: [PathElement] = []
        func flush() {
            if !subpath.allSatisfy({ $0.points.allSatisfy(solid.contains) }) { kept.elements += subpath }
            subpath = []
        }
        for element in path.elements {
            if case .move = element { flush() }
            subpath.append(element)
        }
        flush()
        return kept
    }
}
