import Foundation

/// CATransform3D: a 4×4 matrix in Core Animation's field order and row-vector
/// convention — a point `p` maps to `p·M`, translation lives in m41…m43, and
/// `a.concatenating(b)` applies `a` first, then `b` (CATransform3DConcat(a, b)).
public struct Transform3D: Hashable, Sendable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// From 16 values in field order m11, m12, …, m44.
    public init?(fields v: [Double]) {
        guard v.count == 16 else { return nil }
        self.init(m11: v[0], m12: v[1], m13: v[2], m14: v[3],
                  m21: v[4], m22: v[5], m23: v[6], m24: v[7],
                  m31: v[8], m32: v[9], m33: v[10], m34: v[11],
                  m41: v[12], m42: v[13], m43: v[14], m44: v[15])
    }

    /// The 16 values in field order.
    public var fields: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                             m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0,
                                             m41: 0, m42: 0, m43: 0, m44: 1)

    public var isIdentity: Bool { self == .identity }

    /// True when the matrix maps the z = 0 plane by a 2D affine map (no perspective, no
    /// x/y rotation): m13, m23, m14, m24, m34 vanish, m44 is 1.
    public var isAffine2D: Bool {
        m13 == 0 && m23 == 0 && m14 == 0 && m24 == 0 && m34 == 0 && m44 == 1
            && m31 == 0 && m32 == 0
    }

    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D {
        var t = identity; t.m41 = tx; t.m42 = ty; t.m43 = tz; return t
    }

    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double = 1) -> Transform3D {
        var t = identity; t.m11 = sx; t.m22 = sy; t.m33 = sz; return t
    }

    /// CATransform3DMakeRotation(angle, x, y, z): rotation about the axis (x, y, z).
    /// In y-down screen space a positive z angle turns clockwise, as on iOS.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0 else { return identity }
        let (ux, uy, uz) = (x / len, y / len, z / len)
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D(
            m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
            m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
            m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// A perspective matrix with `m34 = −1/distance` (the usual CA idiom).
    public static func perspective(_ distance: Double) -> Transform3D {
        var t = identity; t.m34 = distance == 0 ? 0 : -1 / distance; return t
    }

    /// CATransform3DConcat(self, other): `self` first, then `other`.
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// Maps a point of the z = 0 plane, with the perspective divide.
    public func apply(to p: Point) -> Point {
        let x = p.x * m11 + p.y * m21 + m41
        let y = p.x * m12 + p.y * m22 + m42
        let w = p.x * m14 + p.y * m24 + m44
        return w == 0 ? Point(x, y) : Point(x / w, y / w)
    }

    /// The depth (z after the perspective divide; larger is nearer the viewer) of a
    /// z = 0 point: what orders the layers of one 3D space back to front. Under a
    /// perspective m34 = −1/d it grows with the depth before the divide for every point
    /// in front of the eye, so the order is the same.
    public func depth(at p: Point) -> Double {
        let z = p.x * m13 + p.y * m23 + m43
        let w = w(at: p)
        return w == 0 ? z : z / w
    }

    /// The homogeneous w of a z = 0 point; ≤ 0 means it lies behind the eye.
    public func w(at p: Point) -> Double { p.x * m14 + p.y * m24 + m44 }

    /// The 2D affine part (a, b, c, d, tx, ty) in CGAffineTransform's order.
    public var affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (m11, m12, m21, m22, m41, m42)
    }

    public var isFinite: Bool { fields.allSatisfy { $0.isFinite } }
}

extension Transform3D {
    /// The components of the scene format's named form. `composed` applies, to a
    /// point first to last: scale, rotate (z), rotateY, rotateX, translate, then
    /// perspective — the order the contract states.
    public struct Components: Hashable, Sendable {
        public var scale: (x: Double, y: Double, z: Double) { get { (sx, sy, sz) } set { (sx, sy, sz) = newValue } }
        public var sx = 1.0, sy = 1.0, sz = 1.0
        public var rotationX = 0.0, rotationY = 0.0, rotationZ = 0.0
        public var tx = 0.0, ty = 0.0, tz = 0.0
        /// The m34 entry of the perspective factor (`−1/distance`), 0 for none.
        public var m34 = 0.0

        public init() {}

        public var composed: Transform3D {
            var t = Transform3D.scale(sx, sy, sz)
            if rotationZ != 0 { t = t.concatenating(.rotation(rotationZ, 0, 0, 1)) }
            if rotationY != 0 { t = t.concatenating(.rotation(rotationY, 0, 1, 0)) }
            if rotationX != 0 { t = t.concatenating(.rotation(rotationX, 1, 0, 0)) }
            t = t.concatenating(.translation(tx, ty, tz))
            if m34 != 0 { var p = Transform3D.identity; p.m34 = m34; t = t.concatenating(p) }
            return t
        }

        public static func == (a: Components, b: Components) -> Bool {
            a.sx == b.sx && a.sy == b.sy && a.sz == b.sz && a.rotationX == b.rotationX
                && a.rotationY == b.rotationY && a.rotationZ == b.rotationZ
                && a.tx == b.tx && a.ty == b.ty && a.tz == b.tz && a.m34 == b.m34
        }
        public func hash(into h: inout Hasher) {
            for v in [sx, sy, sz, rotationX, rotationY, rotationZ, tx, ty, tz, m34] { h.combine(v) }
        }
    }

    /// Decomposes a matrix built by `Components.composed` (as Core Animation does for
    /// `transform.rotation.x`, `transform.scale.y` and friends).
    ///
    /// Exact for the named form whenever rotation about y lies within ±90° (Euler angles
    /// of the order z, y, x cannot tell rotateY 120° from rotateX 180°, rotateY 60°,
    /// rotate 180°: both give the same matrix, and the second is returned; a layer keeps
    /// the components it was given, so this only matters for matrices from elsewhere).
    /// A matrix whose rotation keeps the z axis (any 2D transform) gives z rotation only,
    /// read from its first row; a matrix that is not of the named form (skew, perspective
    /// applied first) gives components that approximate it.
    public var components: Components {
        var c = Components()
        c.tx = m41; c.ty = m42; c.tz = m43
        let rows = (SIMD3(m11, m12, m13), SIMD3(m21, m22, m23), SIMD3(m31, m32, m33))
        c.sx = (rows.0 * rows.0).sum().squareRoot()
        c.sy = (rows.1 * rows.1).sum().squareRoot()
        c.sz = (rows.2 * rows.2).sum().squareRoot()
        let keepsZAxis = m13 == 0 && m23 == 0 && m31 == 0 && m32 == 0
        if keepsZAxis || c.sx == 0 || c.sy == 0 || c.sz == 0 {
            // A reflection shows as a negative determinant: keep it on y.
            if m11 * m22 - m12 * m21 < 0 { c.sy = -c.sy }
            if c.sx != 0 { c.rotationZ = atan2(m12, m11) }
            // The perspective factor multiplies the third column (0, 0, sz) into the fourth.
            c.m34 = keepsZAxis && m33 != 0 ? m34 / m33 : m34
            return c
        }
        let determinant = (rows.0 * SIMD3(rows.1.y * rows.2.z - rows.1.z * rows.2.y,
                                          rows.1.z * rows.2.x - rows.1.x * rows.2.z,
                                          rows.1.x * rows.2.y - rows.1.y * rows.2.x)).sum()
        if determinant < 0 { c.sy = -c.sy }
        // The perspective factor multiplies the third column into the fourth (m14…m34).
        let third = SIMD3(m13, m23, m33)
        c.m34 = (third * SIMD3(m14, m24, m34)).sum() / (third * third).sum()
        // The rows of Rz·Ry·Rx (row vectors, z applied first), cZ = cos(rotationZ) …:
        //   ( cZ·cY,  sZ·cX + cZ·sY·sX,  sZ·sX − cZ·sY·cX)
        //   (−sZ·cY,  cZ·cX − sZ·sY·sX,  cZ·sX + sZ·sY·cX)
        //   ( sY,    −cY·sX,             cY·cX)
        let r = (rows.0 / c.sx, rows.1 / c.sy, rows.2 / c.sz)
        let cosY = (r.2.y * r.2.y + r.2.z * r.2.z).squareRoot()
        c.rotationY = atan2(r.2.x, cosY)
        if cosY > 1e-12 {
            c.rotationX = atan2(-r.2.y, r.2.z) + 0
            c.rotationZ = atan2(-r.1.x, r.0.x) + 0
        } else {
            // Edge-on about y: x and z turn about the same axis; all of it goes to x.
            c.rotationX = atan2(r.1.z, r.1.y) + 0
        }
        return c
    }
}
