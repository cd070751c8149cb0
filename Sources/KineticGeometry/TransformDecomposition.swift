import Foundation

extension Transform3D {
    /// A matrix split into the parts Core Animation interpolates a whole `transform` by:
    /// translation, scale, skew, perspective and a rotation quaternion — the "unmatrix"
    /// decomposition of Graphics Gems II, as the W3C CSS Transforms Level 2 spec writes it
    /// out ("Decomposing a 3D matrix").
    ///
    /// In `Transform3D`'s row-vector convention (a point `p` maps to `p·M`), `recomposed`
    /// is, applied to a point first to last:
    ///
    ///     M = S · K · R · T · P
    ///
    /// - S = diag(scale.x, scale.y, scale.z);
    /// - K, the skew: the unit lower-triangular matrix with rows (1, 0, 0),
    ///   (skew.xy, 1, 0), (skew.xz, skew.yz, 1) — the upper 3×3 of M is S·K·R, its rows
    ///   orthogonalised in order x, y, z (Gram–Schmidt);
    /// - R, the rotation of `quaternion`;
    /// - T, the translation (m41, m42, m43);
    /// - P, the identity with its fourth column replaced by `perspective` — for a plain
    ///   CA perspective (m34 = −1/d applied last) that column is (0, 0, −1/d, 1).
    ///
    /// This is the CSS spec's order (perspective, translate, rotate, skew, scale from the
    /// outside in, for column vectors) written for row vectors, and the named form's order
    /// (`Components.composed`: scale, rotations, translate, perspective), so a named-form
    /// matrix decomposes into its own parts.
    public struct Decomposed: Hashable, Sendable {
        /// m41, m42, m43 of the normalised matrix.
        public var translation: SIMD3<Double>
        /// Scale along x, y, z, applied first. A reflection (negative determinant)
        /// negates all three, as the CSS algorithm does.
        public var scale: SIMD3<Double>
        /// The skew factors (xy, xz, yz): how much of the x row the y row holds, of the x
        /// and y rows the z row holds, each relative to that row's own scale.
        public var skew: SIMD3<Double>
        /// The fourth column (m14, m24, m34, m44) of the perspective factor applied last;
        /// (0, 0, 0, 1) for none.
        public var perspective: SIMD4<Double>
        /// The rotation as a unit quaternion (x, y, z, w) with w ≥ 0: a turn by θ about the
        /// unit axis a, in the sense of `Transform3D.rotation(θ, a.x, a.y, a.z)`, is
        /// (a·sin(θ/2), cos(θ/2)). `recomposed` normalises it (a zero quaternion is no
        /// rotation).
        public var quaternion: SIMD4<Double>

        /// The identity's parts by default.
        public init(translation: SIMD3<Double> = .zero, scale: SIMD3<Double> = .one,
                    skew: SIMD3<Double> = .zero, perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1),
                    quaternion: SIMD4<Double> = SIMD4(0, 0, 0, 1)) {
            self.translation = translation; self.scale = scale; self.skew = skew
            self.perspective = perspective; self.quaternion = quaternion
        }

        /// Decomposes `m`; nil when it cannot be: an entry is not finite, m44 is 0, or the
        /// upper 3×3 is singular or nearly so (its rows span less than 10⁻¹² of the volume
        /// of a box with their lengths — a layer scaled to 0, or flattened along z).
        ///
        /// The matrix is first divided by m44 (the same projective map), so `recomposed`
        /// gives `m` divided by m44 to rounding.
        public init?(_ m: Transform3D) {
            guard m.isFinite, m.m44 != 0 else { return nil }
            let n = 1 / m.m44
            var rows = (SIMD3(m.m11, m.m12, m.m13) * n, SIMD3(m.m21, m.m22, m.m23) * n,
                        SIMD3(m.m31, m.m32, m.m33) * n)
            let column = SIMD3(m.m14, m.m24, m.m34) * n
            let t = SIMD3(m.m41, m.m42, m.m43) * n

            let lengths = Self.length(rows.0) * Self.length(rows.1) * Self.length(rows.2)
            let determinant = Self.dot(rows.0, Self.cross(rows.1, rows.2))
            guard lengths > 0, lengths.isFinite, abs(determinant) > 1e-12 * lengths else { return nil }

            // M = A·P, A being M with its fourth column set to (0, 0, 0, 1): P's fourth
            // column p solves A·p = (m14, m24, m34, 1), i.e. L·p.xyz = (m14, m24, m34) with
            // L the upper 3×3, and t·p.xyz + p.w = 1.
            if column == .zero {
                perspective = SIMD4(0, 0, 0, 1)
            } else {
                let p = (column.x * Self.cross(rows.1, rows.2) + column.y * Self.cross(rows.2, rows.0)
                         + column.z * Self.cross(rows.0, rows.1)) / determinant
                perspective = SIMD4(p.x, p.y, p.z, 1 - Self.dot(t, p))
            }
            translation = t

            // Gram–Schmidt on the rows: L = S·K·U with U orthonormal.
            var s = SIMD3<Double>.zero, k = SIMD3<Double>.zero
            s.x = Self.length(rows.0)
            rows.0 /= s.x
            k.x = Self.dot(rows.0, rows.1)
            rows.1 -= k.x * rows.0
            s.y = Self.length(rows.1)
            rows.1 /= s.y
            k.x /= s.y
            k.y = Self.dot(rows.0, rows.2)
            rows.2 -= k.y * rows.0
            k.z = Self.dot(rows.1, rows.2)
            rows.2 -= k.z * rows.1
            s.z = Self.length(rows.2)
            rows.2 /= s.z
            k.y /= s.z
            k.z /= s.z
            // A reflection: S·K·U = (−S)·K·(−U), and −U is a rotation.
            if Self.dot(rows.0, Self.cross(rows.1, rows.2)) < 0 {
                s = -s
                rows = (-rows.0, -rows.1, -rows.2)
            }
            scale = s
            skew = k
            quaternion = Self.quaternion(rows: rows)
            guard translation.isFinite, scale.isFinite, skew.isFinite,
                  perspective.isFinite, quaternion.isFinite else { return nil }
        }

        /// The matrix S · K · R · T · P (see the type's documentation).
        public var recomposed: Transform3D {
            let u = Self.rotationRows(quaternion)
            // Rows of S·K·U.
            let r0 = scale.x * u.0
            let r1 = scale.y * (skew.x * u.0 + u.1)
            let r2 = scale.z * (skew.y * u.0 + skew.z * u.1 + u.2)
            let p = SIMD3(perspective.x, perspective.y, perspective.z)
            let t = translation
            return Transform3D(
                m11: r0.x, m12: r0.y, m13: r0.z, m14: Self.dot(r0, p),
                m21: r1.x, m22: r1.y, m23: r1.z, m24: Self.dot(r1, p),
                m31: r2.x, m32: r2.y, m33: r2.z, m34: Self.dot(r2, p),
                m41: t.x, m42: t.y, m43: t.z, m44: Self.dot(t, p) + perspective.w)
        }

        /// The parts a fraction `u` of the way to `other` (`self` at 0, `other` at 1; u
        /// outside 0…1 extrapolates): translation, scale, skew and perspective linearly,
        /// the quaternion by `slerp` (the shorter way round).
        public func interpolated(to other: Decomposed, _ u: Double) -> Decomposed {
            Decomposed(translation: translation + (other.translation - translation) * u,
                       scale: scale + (other.scale - scale) * u,
                       skew: skew + (other.skew - skew) * u,
                       perspective: perspective + (other.perspective - perspective) * u,
                       quaternion: Self.slerp(quaternion, other.quaternion, u))
        }

        /// Spherical linear interpolation of unit quaternions: `a` at 0, `b` at 1, at
        /// constant angular speed along the great circle, extrapolating for u outside 0…1.
        /// `b` is negated first when it lies more than 90° from `a` (q and −q are the same
        /// rotation), so the turn is the shorter one — at most half a revolution. A turn of
        /// exactly half a revolution has no shorter way; the signs of the inputs decide.
        public static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ u: Double) -> SIMD4<Double> {
            let b = (a * b).sum() < 0 ? -b : b
            // The angle between a and b, accurate near 0 as acos(a·b) is not.
            let d = a - b, e = a + b
            let theta = 2 * atan2(((d * d).sum()).squareRoot(), ((e * e).sum()).squareRoot())
            let q: SIMD4<Double>
            if theta < 1e-9 {
                q = a + (b - a) * u   // the limit; the error is of order θ²
            } else {
                let s = sin(theta)
                q = a * (sin((1 - u) * theta) / s) + b * (sin(u * theta) / s)
            }
            let norm = ((q * q).sum()).squareRoot()
            return norm > 0 ? q / norm : q
        }

        // MARK: - Helpers

        private static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        private static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
        private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }

        /// The rows of the row-vector rotation matrix of a quaternion (normalised first;
        /// zero gives the identity). With row vectors the matrix is the transpose of the
        /// textbook column-vector one, e.g. m12 = 2(xy + zw): `rotation(θ, 0, 0, 1)` has
        /// m12 = sin θ.
        private static func rotationRows(_ q: SIMD4<Double>) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
            let norm = ((q * q).sum()).squareRoot()
            guard norm > 0, norm.isFinite else {
                return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
            }
            let (x, y, z, w) = (q.x / norm, q.y / norm, q.z / norm, q.w / norm)
            return (SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                    SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                    SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
        }

        /// The unit quaternion (w ≥ 0) of an orthonormal, right-handed row-vector matrix —
        /// the inverse of `rotationRows`. Shepperd's method: the largest of 4w², 4x², 4y²,
        /// 4z² is taken from the diagonal and the others from off-diagonal sums and
        /// differences, which keeps every case well conditioned.
        private static func quaternion(rows u: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) -> SIMD4<Double> {
            let (a, b, c) = (u.0, u.1, u.2)
            let trace = a.x + b.y + c.z
            var q: SIMD4<Double>
            if trace >= a.x, trace >= b.y, trace >= c.z {
                let s = 2 * max(1 + trace, 0).squareRoot()          // 4w
                q = SIMD4((b.z - c.y) / s, (c.x - a.z) / s, (a.y - b.x) / s, s / 4)
            } else if a.x >= b.y, a.x >= c.z {
                let s = 2 * max(1 + a.x - b.y - c.z, 0).squareRoot() // 4x
                q = SIMD4(s / 4, (a.y + b.x) / s, (a.z + c.x) / s, (b.z - c.y) / s)
            } else if b.y >= c.z {
                let s = 2 * max(1 + b.y - a.x - c.z, 0).squareRoot() // 4y
                q = SIMD4((a.y + b.x) / s, s / 4, (b.z + c.y) / s, (c.x - a.z) / s)
            } else {
                let s = 2 * max(1 + c.z - a.x - b.y, 0).squareRoot() // 4z
                q = SIMD4((a.z + c.x) / s, (b.z + c.y) / s, s / 4, (a.y - b.x) / s)
            }
            let norm = ((q * q).sum()).squareRoot()
            if norm > 0 { q /= norm }
            return q.w < 0 ? -q : q
        }
    }

    /// `Decomposed(self)`: nil when the matrix cannot be decomposed.
    public var decomposed: Decomposed? { Decomposed(self) }
}

private extension SIMD3 where Scalar == Double {
    var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

private extension SIMD4 where Scalar == Double {
    var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }
}
