import Foundation
import Testing
import KineticGeometry

/// `Transform3D.Decomposed`: the translation / scale / skew / perspective / quaternion
/// split a whole `transform` animation interpolates, in CATransform3D's row-vector layout.
@Suite struct TransformDecompositionTests {
    let deg = Double.pi / 180

    func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.fields, b.fields).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
    }

    func near<V: SIMD>(_ a: V, _ b: V, _ tolerance: Double = 1e-12) -> Bool where V.Scalar == Double {
        (0..<V.scalarCount).allSatisfy { abs(a[$0] - b[$0]) <= tolerance }
    }

    /// The matrix divided by m44, as `recomposed` returns it.
    func normalised(_ m: Transform3D) -> Transform3D {
        Transform3D(fields: m.fields.map { $0 / m.m44 }) ?? .identity
    }

    func roundTrips(_ m: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        guard let d = m.decomposed else { return false }
        return near(d.recomposed, normalised(m), tolerance)
    }

    // MARK: - Layout: which entries are which

    @Test func translationIsReadFromTheFourthRow() throws {
        let d = try #require(Transform3D.translation(10, -20, 30).decomposed)
        #expect(d.translation == SIMD3(10, -20, 30))
        #expect(d.scale == SIMD3(1, 1, 1))
        #expect(d.perspective == SIMD4(0, 0, 0, 1))
        #expect(d.quaternion == SIMD4(0, 0, 0, 1))
    }

    @Test func caPerspectiveIsTheThirdEntryOfTheFourthColumn() throws {
        // m34 = −1/500 applied last: the perspective factor's column is (0, 0, −1/500, 1),
        // also after a translation and a rotation (the named form's order).
        let d = try #require(Transform3D.perspective(500).decomposed)
        #expect(near(d.perspective, SIMD4(0, 0, -0.002, 1)))
        let m = Transform3D.rotation(0.7, 0, 1, 0).concatenating(.translation(5, 6)).concatenating(.perspective(500))
        let e = try #require(m.decomposed)
        #expect(near(e.perspective, SIMD4(0, 0, -0.002, 1)))
        #expect(near(e.translation, SIMD3(5, 6, 0)))
        // A z translation before the perspective makes m44 = 1 + 7·(−0.002) = 0.986; the
        // decomposition divides by it (the same projective map), keeping m34's factor.
        let deep = Transform3D.translation(5, 6, 7).concatenating(.perspective(500))
        let f = try #require(deep.decomposed)
        #expect(near(f.translation, SIMD3(5, 6, 7) / 0.986))
        #expect(near(f.perspective, SIMD4(0, 0, -0.002, 1 + 7 / 0.986 * 0.002)))
        #expect(near(f.recomposed, normalised(deep)))
    }

    @Test func quaternionsTurnTheWayTransform3DRotationDoes() throws {
        // rotation(θ, axis) is (axis·sin(θ/2), cos(θ/2)): positive about each axis.
        let s = sin(20 * deg), c = cos(20 * deg)
        let x = try #require(Transform3D.rotation(40 * deg, 1, 0, 0).decomposed)
        let y = try #require(Transform3D.rotation(40 * deg, 0, 1, 0).decomposed)
        let z = try #require(Transform3D.rotation(40 * deg, 0, 0, 1).decomposed)
        #expect(near(x.quaternion, SIMD4(s, 0, 0, c)))
        #expect(near(y.quaternion, SIMD4(0, s, 0, c)))
        #expect(near(z.quaternion, SIMD4(0, 0, s, c)))
    }

    @Test func recomposedAppliesScaleSkewRotationTranslationPerspectiveInThatOrder() {
        // Built by hand from Transform3D's own factors, row vectors, first applied first.
        let q = SIMD4(0.3, -0.5, 0.1, 0.8)
        let unit = q / ((q * q).sum()).squareRoot()
        let angle = 2 * acos(unit.w)
        let axis = SIMD3(unit.x, unit.y, unit.z)
        var skew = Transform3D.identity
        (skew.m21, skew.m31, skew.m32) = (0.2, -0.1, 0.4)
        var perspective = Transform3D.identity
        // w chosen so m44 = 7·0.001 + 8·0.002 − 9·0.004 + w = 1: the decomposition, which
        // divides by m44, then finds these very parts.
        (perspective.m14, perspective.m24, perspective.m34, perspective.m44) = (0.001, -0.002, -0.004, 1.013)
        let expected = Transform3D.scale(2, 3, 0.5)
            .concatenating(skew)
            .concatenating(.rotation(angle, axis.x, axis.y, axis.z))
            .concatenating(.translation(7, -8, 9))
            .concatenating(perspective)
        let d = Transform3D.Decomposed(translation: SIMD3(7, -8, 9), scale: SIMD3(2, 3, 0.5),
                                       skew: SIMD3(0.2, -0.1, 0.4),
                                       perspective: SIMD4(0.001, -0.002, -0.004, 1.013), quaternion: q)
        #expect(near(d.recomposed, expected))
        #expect(abs(d.recomposed.m44 - 1) < 1e-12)
        // And the decomposition finds those parts again.
        let back = Transform3D.Decomposed(d.recomposed)
        #expect(back.map { near($0.scale, d.scale) && near($0.skew, d.skew) && near($0.translation, d.translation)
                    && near($0.perspective, d.perspective) && near($0.quaternion, unit) } == true)
    }

    // MARK: - Round trips

    @Test func translationsAndScalesRoundTrip() {
        #expect(roundTrips(.identity))
        #expect(roundTrips(.translation(100, -50, 25)))
        #expect(roundTrips(.scale(2, 0.5, 3)))
        #expect(roundTrips(.scale(-1, 1)))            // a reflection
        #expect(roundTrips(.scale(-2, -3, -4)))
        #expect(roundTrips(Transform3D.scale(1.5, 0.25).concatenating(.translation(3, 4, 5))))
    }

    @Test(arguments: [(1.0, 0.0, 0.0), (0, 1, 0), (0, 0, 1), (1, 2, 3), (-0.3, 0.9, 0.2)])
    func rotationsRoundTrip(axis: (Double, Double, Double)) {
        for a in [-270.0, -180, -135, -90, -30, 0, 1e-7, 45, 90, 120, 179.9, 180, 270] {
            let m = Transform3D.rotation(a * deg, axis.0, axis.1, axis.2)
            #expect(roundTrips(m), "\(a)° about \(axis)")
        }
    }

    @Test func combinedRotationsAndPerspectiveRoundTrip() {
        var c = Transform3D.Components()
        (c.sx, c.sy, c.sz) = (2, 0.5, 1.5)
        (c.rotationX, c.rotationY, c.rotationZ) = (30 * deg, 120 * deg, -70 * deg)
        (c.tx, c.ty, c.tz) = (10, -20, 5)
        c.m34 = -1.0 / 500
        #expect(roundTrips(c.composed))
        // Perspective applied first (not the named form), then a turn about y.
        #expect(roundTrips(Transform3D.perspective(300).concatenating(.rotation(60 * deg, 0, 1, 0))))
        // A general matrix with skew, perspective in every column entry and m44 ≠ 1.
        let general = Transform3D(fields: [1.2, 0.3, -0.4, 0.001,
                                           0.5, 0.9, 0.2, -0.002,
                                           -0.1, 0.7, 1.1, 0.003,
                                           15, -25, 35, 2])
        #expect(general.map { roundTrips($0) } == true)
        // A card flip under perspective, end and middle.
        for a in [0.0, 45, 90, 180] {
            #expect(roundTrips(Transform3D.rotation(a * deg, 0, 1, 0).concatenating(.perspective(500))))
        }
    }

    @Test func singularMatricesDoNotDecompose() {
        #expect(Transform3D.scale(0, 1).decomposed == nil)
        #expect(Transform3D.scale(1, 1, 0).concatenating(.rotation(0.3, 0, 1, 0)).decomposed == nil)
        // Flattened along z (the third row zero), as a tilted card's matrix may be.
        #expect(Transform3D(fields: [0.8, 0, 0, 0, 0, 0.77, 0.23, -0.00023, 0, 0, 0, 0, 0, 0, 0, 1])?.decomposed == nil)
        var noW = Transform3D.identity
        noW.m44 = 0
        #expect(noW.decomposed == nil)
        var nan = Transform3D.identity
        nan.m12 = .nan
        #expect(nan.decomposed == nil)
    }

    // MARK: - Interpolation

    @Test func slerpTurnsAtConstantSpeedTheShorterWay() throws {
        let a = SIMD4<Double>(0, 0, 0, 1)
        let half = SIMD4<Double>(0, 1, 0, 0)                          // 180° about y
        let quarter = SIMD4<Double>(0, sin(22.5 * deg), 0, cos(22.5 * deg))   // 45° about y
        #expect(near(Transform3D.Decomposed.slerp(a, half, 0.25), quarter))
        // q and −q are one rotation: the blend is the same either way.
        let b = SIMD4<Double>(0, sin(45 * deg), 0, cos(45 * deg))     // 90°
        #expect(near(Transform3D.Decomposed.slerp(a, -b, 0.5), quarter))
        // 350° about z is −10°: the way through 0, not the long way round.
        let z350 = try #require(Transform3D.rotation(350 * deg, 0, 0, 1).decomposed).quaternion
        let mid = Transform3D.Decomposed.slerp(a, z350, 0.5)
        #expect(near(mid, SIMD4(0, 0, -sin(2.5 * deg), cos(2.5 * deg))))
        // Extrapolates along the same great circle (a spring's overshoot).
        #expect(near(Transform3D.Decomposed.slerp(a, b, 1.5), SIMD4(0, sin(67.5 * deg), 0, cos(67.5 * deg))))
        // Equal ends stay put.
        #expect(Transform3D.Decomposed.slerp(b, b, 0.3) == b)
    }

    @Test func interpolatedBlendsPartsLinearlyAndTurnsByTheQuaternion() throws {
        let from = try #require(Transform3D.scale(1, 2).concatenating(.translation(0, 10)).concatenating(.perspective(500)).decomposed)
        let to = try #require(Transform3D.scale(3, 2).concatenating(.rotation(90 * deg, 1, 0, 0))
            .concatenating(.translation(20, 30)).concatenating(.perspective(250)).decomposed)
        let mid = from.interpolated(to: to, 0.5).recomposed
        let expected = Transform3D.scale(2, 2).concatenating(.rotation(45 * deg, 1, 0, 0))
            .concatenating(.translation(10, 20)).concatenating(Transform3D.Decomposed(perspective: SIMD4(0, 0, -0.003, 1)).recomposed)
        #expect(near(mid, expected))
        #expect(near(from.interpolated(to: to, 0).recomposed, from.recomposed))
        #expect(near(from.interpolated(to: to, 1).recomposed, to.recomposed))
    }
}
