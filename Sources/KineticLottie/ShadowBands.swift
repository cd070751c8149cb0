import Foundation
import KineticGeometry
import KineticLayers

/// CALayer's shadow within Lottie 1.0, which has no blur: the silhouette drawn several
/// times, each copy grown or shrunk by a band's width and tinted so that the copies
/// stacked over one another give, band by band, the coverage of the Gaussian blur the
/// renderer draws: at a signed distance d from the silhouette's edge (outside positive),
/// opacity × Φ(−d/σ), σ = `shadowRadius` (docs/lottie.md). Half the opacity at the edge,
/// the full one only 3σ inside: what an offset shadow shows below its layer.
enum ShadowBands {
    /// Bands out to 3σ on either side of the edge, where the blur's coverage is within
    /// 0.14 % of 0 or of its opacity.
    static let bandsPerSigma = [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]
    /// The σ (points) under which a shadow is drawn as one crisp copy.
    static let crispRadius = 1.0 / 3

    /// The copies as paints, strokes (widest, faintest first) then fills. A copy grown by
    /// d is a stroke of width 2d about the outline with round joins, and the silhouette
    /// shrunk by d inside it (a convex one: `ConvexSilhouette`), so that no point is
    /// painted twice; one shrunk by d is that inset's fill. Copies over one outline are
    /// one paint: same-coloured paints stack to 1 − ∏(1 − alpha) in any order.
    /// A silhouette that cannot be shrunk keeps the full opacity inside, its grown copies
    /// filling the whole silhouette. A σ under a third of a point is one crisp copy.
    /// - Parameter lineWidth: the silhouette is the path stroked this wide (a shape
    ///   layer with a stroke and no fill), not filled; it is only grown.
    static func paints(silhouette: BezierPath, lineWidth: Double? = nil, color: Color, sigma: Double) -> [Paint] {
        let opacity = min(max(color.alpha, 0), 1)
        func tinted(_ alpha: Double) -> Color { Color(red: color.red, green: color.green, blue: color.blue, alpha: alpha) }
        func stroke(_ width: Double) -> StrokeStyle {
            var stroke = StrokeStyle()
            stroke.width = width
            stroke.join = .round
            stroke.cap = .round
            return stroke
        }
        guard sigma >= crispRadius else {
            if let lineWidth { return [Paint(kind: .stroke, path: silhouette, color: tinted(opacity), stroke: stroke(lineWidth))] }
            return [Paint(kind: .fill, path: silhouette, color: tinted(opacity))]
        }
        let convex = lineWidth == nil ? ConvexSilhouette(silhouette) : nil
        let outline = convex?.outline ?? silhouette
        // Signed levels, innermost first: a copy fills all within its level.
        let outer = bandsPerSigma.map { $0 * sigma }
        let levels = (convex == nil ? [] : outer.reversed().map { -$0 }) + [0] + outer
        let alphas = bandAlphas(levels: levels, opacity: opacity, sigma: sigma)
        var paints: [Paint] = []
        for (level, alpha) in zip(levels, alphas).reversed() where level > 0 {
            paints.append(Paint(kind: .stroke, path: outline, color: tinted(alpha), stroke: stroke(2 * level + (lineWidth ?? 0))))
        }
        if let lineWidth {
            // The stroke itself: the copies inside the silhouette, as one.
            let inside = 1 - zip(levels, alphas).filter { $0.0 <= 0 }.reduce(1) { $0 * (1 - $1.1) }
            return paints + [Paint(kind: .stroke, path: silhouette, color: tinted(inside), stroke: stroke(lineWidth))]
        }
        // Fills, from the silhouette inwards: the copy at level ±d shrunk by d (grown
        // ones have it under their stroke), each fill taking every copy over its outline.
        for inset in Set(levels.map(abs)).sorted() {
            let survive = zip(levels, alphas).filter { convex == nil || abs($0.0) == inset }.reduce(1.0) { $0 * (1 - $1.1) }
            if convex == nil {
                return paints + [Paint(kind: .fill, path: outline, color: tinted(1 - survive))]
            }
            let path = inset == 0 ? outline : convex?.inset(by: inset) ?? outline
            paints.append(Paint(kind: .fill, path: path, color: tinted(path.isEmpty ? 0 : 1 - survive)))
        }
        return paints
    }

    /// Each copy's alpha, for copies filling within `levels` (signed distances from the
    /// edge, ascending): the band between two levels wants the blur's coverage at its
    /// middle, opacity × Φ(−d/σ), all within the innermost level the full opacity; copy k
    /// turns the coverage of the copies beyond it into band k's.
    static func bandAlphas(levels: [Double], opacity: Double, sigma: Double) -> [Double] {
        var wanted = [opacity]
        for (inner, outer) in zip(levels, levels.dropFirst()) {
            wanted.append(opacity * normalTail((inner + outer) / 2 / sigma))
        }
        var alphas = Array(repeating: 0.0, count: levels.count)
        var beyond = 0.0
        for k in levels.indices.reversed() {
            alphas[k] = beyond < 1 ? max(0, 1 - (1 - wanted[k]) / (1 - beyond)) : 0
            beyond = wanted[k]
        }
        return alphas
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
        // projected, as the baked drawables are). Those of a solid layer that masks to
        // its bounds are cut to them: nothing to add.
        if layer.masksToBounds, solid != nil { return path }
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
