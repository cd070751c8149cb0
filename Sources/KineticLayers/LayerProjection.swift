import KineticGeometry

/// A projective map of the plane in Core Animation's row-vector convention: a point
/// (x, y) maps to `[x y 1]·M`, then divides by the third component w.
///
/// It is what a CATransform3D does to the z = 0 plane when z is dropped afterwards —
/// rows and columns 1, 2 and 4 of the 4×4 — which is how a CALayer flattens its
/// sublayers into its own plane before its own transform applies.
public struct PlaneProjection: Hashable, Sendable {
    public var m11, m12, m13: Double
    public var m21, m22, m23: Double
    public var m31, m32, m33: Double

    public init(m11: Double, m12: Double, m13: Double,
                m21: Double, m22: Double, m23: Double,
                m31: Double, m32: Double, m33: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The z = 0 plane through `t`, z dropped.
    public init(_ t: Transform3D) {
        self.init(m11: t.m11, m12: t.m12, m13: t.m14,
                  m21: t.m21, m22: t.m22, m23: t.m24,
                  m31: t.m41, m32: t.m42, m33: t.m44)
    }

    /// A 2D affine map in CGAffineTransform's order (x' = a·x + c·y + tx, y' = b·x + d·y + ty).
    public init(affine a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double) {
        self.init(m11: a, m12: b, m13: 0, m21: c, m22: d, m23: 0, m31: tx, m32: ty, m33: 1)
    }

    public static let identity = PlaneProjection(affine: 1, 0, 0, 1, 0, 0)

    /// `self` first, then `b`.
    public func concatenating(_ b: PlaneProjection) -> PlaneProjection {
        let a = self
        return PlaneProjection(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
    }

    /// The homogeneous w of `p`: ≤ 0 means the point lies at or behind the eye, where
    /// Core Animation draws nothing.
    public func w(at p: Point) -> Double { p.x * m13 + p.y * m23 + m33 }

    /// Maps `p` with the perspective divide (an infinite point where w = 0).
    public func apply(to p: Point) -> Point {
        let x = p.x * m11 + p.y * m21 + m31
        let y = p.x * m12 + p.y * m22 + m32
        let w = w(at: p)
        return Point(x / w, y / w)
    }

    /// The affine map this projection equals when w does not vary over the plane (no
    /// perspective, no rotation about x or y under a perspective), normalized so that
    /// w = 1; nil when it is truly projective. The constant w itself is `m33`: a
    /// negative one puts the whole plane behind the eye.
    ///
    /// A w slope under 1e-12 per point counts as none: interpolated matrices land on
    /// identity only up to rounding, and such a slope moves nothing by a visible amount.
    public var affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)? {
        let flat = 1e-12 * abs(m33)
        guard abs(m13) <= flat, abs(m23) <= flat, m33 != 0 else { return nil }
        return (m11 / m33, m12 / m33, m21 / m33, m22 / m33, m31 / m33, m32 / m33)
    }

    /// The inverse map; nil when singular or not finite.
    public var inverted: PlaneProjection? {
        // The adjugate over the determinant (row-vector convention keeps the same form).
        let c11 = m22 * m33 - m23 * m32, c12 = m13 * m32 - m12 * m33, c13 = m12 * m23 - m13 * m22
        let c21 = m23 * m31 - m21 * m33, c22 = m11 * m33 - m13 * m31, c23 = m13 * m21 - m11 * m23
        let c31 = m21 * m32 - m22 * m31, c32 = m12 * m31 - m11 * m32, c33 = m11 * m22 - m12 * m21
        let det = m11 * c11 + m12 * c21 + m13 * c31
        guard det != 0, det.isFinite else { return nil }
        let r = PlaneProjection(m11: c11 / det, m12: c12 / det, m13: c13 / det,
                                m21: c21 / det, m22: c22 / det, m23: c23 / det,
                                m31: c31 / det, m32: c32 / det, m33: c33 / det)
        return r.isFinite ? r : nil
    }

    public var isFinite: Bool {
        [m11, m12, m13, m21, m22, m23, m31, m32, m33].allSatisfy(\.isFinite)
    }
}

extension Layer {
    /// Maps this layer's bounds plane into its superlayer's bounds plane, the way a
    /// CALayer renders: `toSuperlayer`, then the superlayer's `sublayerSpace` (whose
    /// perspective sees this layer's depth, zPosition included), then flattened into the
    /// superlayer's plane (z dropped; only a CATransformLayer would keep it).
    ///
    /// - Parameter superlayerSublayerSpace: the superlayer's `sublayerSpace`; identity
    ///   for a root layer (whose superlayer plane is the canvas, in points).
    public func projectionToSuperlayer(through superlayerSublayerSpace: Transform3D) -> PlaneProjection {
        if let flat = affineProjectionToSuperlayer(through: superlayerSublayerSpace) { return flat }
        return PlaneProjection(toSuperlayer.concatenating(superlayerSublayerSpace))
    }

    /// `projectionToSuperlayer(through:)` without its three 4×4 products, where both the
    /// layer's `transform` and the superlayer's sublayer space keep planes flat
    /// (`Transform3D.isAffine2D`: z moves neither x nor y, no perspective): the plane's
    /// map is then the 2D chain — anchor point removed, the transform's 2D part, position
    /// added, the sublayer space's 2D part — and `zPosition` and `anchorPointZ` drop out
    /// when z is dropped, as Core Animation flattens. These are the 4×4 path's products
    /// and sums that do not vanish, in its order, so the result equals it (up to the sign
    /// of a zero). nil where a map is 3D, or where a term is not finite (the 4×4 path
    /// then gives what it gives, NaN where 0 × ∞ arises).
    func affineProjectionToSuperlayer(through s: Transform3D) -> PlaneProjection? {
        let t = transform
        guard t.isAffine2D, s.isAffine2D else { return nil }
        // Terms the 4×4 path multiplies by zero: finite, they add nothing.
        guard zPosition.isFinite, anchorPointZ.isFinite, t.m33.isFinite, t.m43.isFinite else { return nil }
        let anchor = anchorInBounds
        let tx = ((-anchor.x * t.m11 + -anchor.y * t.m21) + t.m41) + position.x
        let ty = ((-anchor.x * t.m12 + -anchor.y * t.m22) + t.m42) + position.y
        let p = PlaneProjection(m11: t.m11 * s.m11 + t.m12 * s.m21, m12: t.m11 * s.m12 + t.m12 * s.m22, m13: 0,
                                m21: t.m21 * s.m11 + t.m22 * s.m21, m22: t.m21 * s.m12 + t.m22 * s.m22, m23: 0,
                                m31: (tx * s.m11 + ty * s.m21) + s.m41, m32: (tx * s.m12 + ty * s.m22) + s.m42, m33: 1)
        return p.isFinite ? p : nil
    }

    /// Calls `body` with every layer of the trees `roots` (depth first, masks excluded)
    /// and the map from its bounds plane to the canvas, in points. This is "layer space →
    /// canvas" for `inspect`; the renderer walks the same composition one level at a
    /// time through `projectionToSuperlayer(through:)`.
    public static func forEachCanvasProjection(_ roots: [Layer], _ body: (Layer, PlaneProjection) -> Void) {
        func visit(_ layer: Layer, _ parentSpace: Transform3D, _ parentToCanvas: PlaneProjection) {
            let toCanvas = layer.projectionToSuperlayer(through: parentSpace).concatenating(parentToCanvas)
            body(layer, toCanvas)
            let (space, plane) = layer.sublayersSpace(parentSpace: parentSpace, toCanvas: toCanvas, parentToCanvas: parentToCanvas)
            for s in layer.sublayers { visit(s, space, plane) }
        }
        for root in roots { visit(root, .identity, .identity) }
    }
}

extension Layer {
    /// The trees `roots` with every layer whose `isDoubleSided` is false hidden while it
    /// faces away from the viewer, as Core Animation hides it: its bounds plane maps to
    /// the canvas reversed — turned over by a rotation about x or y, or mirrored. A
    /// layer's facing is that of its whole map to the canvas (`forEachCanvasProjection`'s
    /// composition), so a card's front and back inside a turning container each hide
    /// when their side turns away. Replicator copies are laid out by then, each facing
    /// its own way.
    public static func hidingBackFaces(_ roots: [Layer]) -> [Layer] {
        func visit(_ layer: Layer, _ parentSpace: Transform3D, _ parentToCanvas: PlaneProjection) -> Layer {
            var layer = layer
            let toCanvas = layer.projectionToSuperlayer(through: parentSpace).concatenating(parentToCanvas)
            if !layer.isDoubleSided, toCanvas.facesAway(at: layer.anchorInBounds) {
                layer.isHidden = true
                return layer
            }
            let (space, plane) = layer.sublayersSpace(parentSpace: parentSpace, toCanvas: toCanvas, parentToCanvas: parentToCanvas)
            layer.sublayers = layer.sublayers.map { visit($0, space, plane) }
            // A mask lies in its host's bounds plane, without the sublayer transform.
            layer.mask = layer.mask.map { visit($0, .identity, toCanvas) }
            return layer
        }
        return roots.map { visit($0, .identity, .identity) }
    }
}

extension Layer {
    /// The 3D space a sublayer maps into and the plane map after it: this layer's
    /// `sublayerSpace` and its own map to the canvas — or, for a CATransformLayer, which
    /// does not flatten, the whole 3D way into the plane it is drawn in (`parentSpace`,
    /// `parentToCanvas`), so its sublayers share one 3D space.
    func sublayersSpace(parentSpace: Transform3D, toCanvas: PlaneProjection, parentToCanvas: PlaneProjection)
        -> (Transform3D, PlaneProjection) {
        guard type == .transformLayer else { return (sublayerSpace, toCanvas) }
        return (sublayerSpace.concatenating(toSuperlayer).concatenating(parentSpace), parentToCanvas)
    }
}

extension PlaneProjection {
    /// Whether the plane's image is reversed near `p`: the Jacobian of (x/w, y/w) there
    /// has a negative determinant (det / w³ for a homography). Both spaces are y-down, so
    /// the identity faces the viewer.
    func facesAway(at p: Point) -> Bool {
        let det = m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
        return det * w(at: p) < 0
    }
}
