import KineticCairo
import KineticGeometry
import KineticLayers

/// A device-space rectangle, as pixel edges (x0, y0, x1, y1).
typealias DeviceBox = (x0: Double, y0: Double, x1: Double, y1: Double)

extension LayerRenderer {
    /// A device rectangle holding every pixel `layer` paints when drawn with `matrix` as
    /// its bounds-space-to-device map (its own shadow counted when `ownShadow`): whole
    /// pixels, one more each way for antialiasing. Empty (x1 ≤ x0) when it paints nothing,
    /// nil when that is not known cheaply — particles, projected or filtered sublayers,
    /// text that could overflow… — and the caller falls back to the clip.
    ///
    /// Offscreen work (opacity groups, shadow silhouettes) is bounded by it, so it must
    /// never be smaller than the ink: every case it cannot bound is nil.
    func deviceInk(of layer: Layer, matrix m: Affine, ownShadow: Bool) -> DeviceBox? {
        Self.roundedOut(Self.ink(of: layer, matrix: m, ownShadow: ownShadow, images: images))
    }

    /// ``deviceInk(of:matrix:ownShadow:)`` of `layer` (its shadow counted) drawn as a
    /// sublayer: `m` is its superlayer's bounds-to-device map, `space` the superlayer's
    /// sublayer space. Empty when it draws nothing (hidden, behind the eye).
    func deviceInk(ofSublayer layer: Layer, matrix m: Affine, sublayerSpace space: Transform3D) -> DeviceBox? {
        Self.roundedOut(Self.ink(ofSublayer: layer, matrix: m, sublayerSpace: space, images: images))
    }

    /// A raw ink box in whole pixels, one more each way for antialiasing; nil past 1e9.
    private static func roundedOut(_ box: DeviceBox?) -> DeviceBox? {
        guard var box else { return nil }
        guard box.x1 > box.x0, box.y1 > box.y0 else { return (0, 0, 0, 0) }
        box = ((box.x0 - 1).rounded(.down), (box.y0 - 1).rounded(.down), (box.x1 + 1).rounded(.up), (box.y1 + 1).rounded(.up))
        guard [box.x0, box.y0, box.x1, box.y1].allSatisfy({ abs($0) < 1e9 }) else { return nil }
        return box
    }

    /// The empty box `union` starts from.
    private static let nothing: DeviceBox = (.infinity, .infinity, -.infinity, -.infinity)

    static func union(_ a: DeviceBox, _ b: DeviceBox) -> DeviceBox {
        (min(a.x0, b.x0), min(a.y0, b.y0), max(a.x1, b.x1), max(a.y1, b.y1))
    }

    /// The device box of a bounds-space rectangle.
    static func device(_ r: Rect, _ m: Affine) -> DeviceBox {
        var box = nothing
        for p in r.corners {
            let x = m.a * p.x + m.c * p.y + m.tx, y = m.b * p.x + m.d * p.y + m.ty
            box = union(box, (x, y, x, y))
        }
        return box
    }

    /// `m` after `inner`: the map of a space `inner` maps into `m`'s space (Cairo's
    /// `transform` order).
    static func concatenate(_ inner: Affine, _ m: Affine) -> Affine {
        (inner.a * m.a + inner.b * m.c, inner.a * m.b + inner.b * m.d,
         inner.c * m.a + inner.d * m.c, inner.c * m.b + inner.d * m.d,
         inner.tx * m.a + inner.ty * m.c + m.tx, inner.tx * m.b + inner.ty * m.d + m.ty)
    }

    /// The bounding box of a path's points and control points (the curve lies inside).
    static func controlBounds(_ path: BezierPath) -> Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        func add(_ p: Point) { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quadCurve(let p, let c): add(p); add(c)
            case .curve(let p, let c1, let c2): add(p); add(c1); add(c2)
            case .close: break
            }
        }
        return x1 >= x0 ? Rect(x0, y0, x1 - x0, y1 - y0) : nil
    }

    /// How far a mitered stroke of `path` reaches beyond half its line width, as a factor
    /// of it: the largest miter ratio 1 / cos(φ / 2) over its joins (φ the turn from one
    /// segment to the next) that stays within `miterLimit` (Cairo bevels the others, which
    /// reach no further than half the width), at least 1. A circle drawn as four curves
    /// turns nowhere at its joins: 1, not the limit. When a segment has no direction
    /// (every point the same), the limit.
    static func miterSpread(_ path: BezierPath, miterLimit: Double) -> Double {
        var spread = 1.0
        var current = Point(0, 0), start = Point(0, 0)
        var incoming: Point?, first: Point?
        // The join where `outgoing` leaves a point `incoming` arrived along.
        func join(_ outgoing: Point) {
            guard let incoming else { return }
            let cosine = max(-1, min(1, incoming.x * outgoing.x + incoming.y * outgoing.y))
            let ratio = 1 / ((1 + cosine) / 2).squareRoot()
            // A little past the limit still counts: Cairo's own test rounds differently.
            if ratio <= miterLimit * 1.01 { spread = max(spread, ratio) }
        }
        func unit(_ from: Point, _ to: Point) -> Point? {
            let dx = to.x - from.x, dy = to.y - from.y, length = (dx * dx + dy * dy).squareRoot()
            return length > 1e-9 && length.isFinite ? Point(dx / length, dy / length) : nil
        }
        func segment(_ points: [Point]) -> Bool {
            // Directions at both ends: toward the first distinct point, from the last one.
            guard let end = points.last,
                  let out = points.lazy.compactMap({ unit(current, $0) }).first,
                  let last = points.dropLast().reversed().lazy.compactMap({ unit($0, end) }).first ?? unit(current, end)
            else { return false }
            join(out)
            if first == nil { first = out }
            incoming = last
            current = end
            return true
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                current = p; start = p; incoming = nil; first = nil
            case .line(let p):
                // A line to where the pen is draws nothing and turns nothing.
                if unit(current, p) != nil, !segment([p]) { return max(miterLimit, 1) }
            case .quadCurve(let p, let c):
                if !segment([c, p]) { return max(miterLimit, 1) }
            case .curve(let p, let c1, let c2):
                if !segment([c1, c2, p]) { return max(miterLimit, 1) }
            case .close:
                if unit(current, start) != nil, !segment([start]) { return max(miterLimit, 1) }
                if let first { join(first) }
                current = start; incoming = nil; first = nil
            }
        }
        return spread
    }

    /// The device reach of a layer's shadow whose silhouette covers `silhouette`: moved
    /// by the offset, grown by the blur's 3σ and two pixels, as `drawShadow` crops it.
    static func shadowBox(of layer: Layer, silhouette: DeviceBox, matrix m: Affine) -> DeviceBox {
        let sigma = max(0, layer.shadowRadius) * abs(m.a * m.d - m.b * m.c).squareRoot()
        let margin = (3 * sigma).rounded(.up) + 2
        let dx = m.a * layer.shadowOffset.width + m.c * layer.shadowOffset.height
        let dy = m.b * layer.shadowOffset.width + m.d * layer.shadowOffset.height
        return (silhouette.x0 + dx - margin, silhouette.y0 + dy - margin, silhouette.x1 + dx + margin, silhouette.y1 + dy + margin)
    }

    private static func ink(of layer: Layer, matrix m: Affine, ownShadow: Bool, images: ImageSurfaces) -> DeviceBox? {
        let bounds = layer.bounds
        // Layers that draw through other machinery, or whose ink is not geometry we know.
        if drawsOffscreen(layer) { return nil }
        var box = nothing
        if layer.masksToBounds {
            // Everything but the border (which lies inside the bounds) is clipped to them,
            // the layer's own shadow included.
            return device(bounds, m)
        }
        if layer.backgroundColor.map({ $0.alpha > 0 }) == true || layer.borderWidth > 0 {
            box = union(box, device(bounds, m))
        }
        // Contents overflow the bounds per their gravity (the faded-out image too).
        for path in [layer.contents, layer.contentsCrossFade?.from].compactMap({ $0 }) {
            guard let size = images.contentsSize(for: path, scale: layer.contentsScale(for: path)) else { continue }
            box = union(box, device(contentsRect(gravity: layer.contentsGravity, imageSize: size, bounds: bounds), m))
        }
        switch layer.content {
        case .plain, .replicator: break
        case .gradient, .text: box = union(box, device(bounds, m))  // both clipped to the bounds
        case .emitter(let e): if e.particles.count > 0 { return nil }
        case .shape(let s):
            if s.namedShape?.controlPoints != nil { return nil }
            if let r = controlBounds(s.path) {
                // A miter join reaches lineWidth / 2 × its ratio from the path (at most the
                // limit; see miterSpread); a square cap √2 × half.
                let spread = s.lineJoin == .miter ? max(miterSpread(s.path, miterLimit: s.miterLimit), 1.5) : 1.5
                let reach = s.strokeColor != nil ? s.lineWidth / 2 * spread + 1 : 0
                guard reach.isFinite else { return nil }
                box = union(box, device(Rect(r.minX - reach, r.minY - reach, r.width + 2 * reach, r.height + 2 * reach), m))
            }
        }
        for sublayer in layer.sublayers {
            guard let inner = ink(ofSublayer: sublayer, matrix: m, sublayerSpace: layer.sublayerSpace, images: images) else {
                return nil
            }
            box = union(box, inner)
        }
        if ownShadow && layer.shadowOpacity > 0 {
            var silhouette = box
            if let path = layer.shadowPath {
                silhouette = controlBounds(path).map { device($0, m) } ?? nothing
            }
            if silhouette.x1 > silhouette.x0 {
                box = union(box, shadowBox(of: layer, silhouette: silhouette, matrix: m))
            }
        }
        return box
    }

    /// ``ink(of:matrix:ownShadow:images:)`` of `layer` drawn as a sublayer (under `m`, its
    /// superlayer's map, and `space`, its sublayer space), as ``draw(_:alpha:sublayerSpace:in:)``
    /// places it: nothing when hidden, not finite or behind the eye; nil for a transform
    /// layer or a projection.
    private static func ink(ofSublayer layer: Layer, matrix m: Affine, sublayerSpace space: Transform3D,
                            images: ImageSurfaces) -> DeviceBox? {
        guard layer.isVisible else { return nothing }
        if layer.type == .transformLayer { return nil }
        let projection = layer.projectionToSuperlayer(through: space)
        guard projection.isFinite else { return nothing }
        guard let affine = projection.affine else { return nil }
        guard projection.m33 > 0 else { return nothing }
        return ink(of: layer, matrix: concatenate(affine, m), ownShadow: true, images: images)
    }

    /// Whether `layer` draws through an offscreen image that reads pixels beyond its own
    /// (filters, backdrop filters, blend modes, a colour multiplier).
    static func drawsOffscreen(_ layer: Layer) -> Bool {
        isFiltered(layer) || layer.colorMultiplier.map { $0 != .white } == true
    }
}
