import Foundation
import Testing
import KineticGeometry
@testable import KineticAnimation

/// Whole-`transform` animations: 2D matrices blend their named-form components as before;
/// matrices with rotation about x or y blend by `Transform3D.Decomposed` (quaternion
/// slerp), as Core Animation does, so a card flip under perspective turns in perspective.
@Suite struct TransformInterpolationTests {
    let deg = Double.pi / 180

    /// `{perspective: d, rotateY: degrees}` as a scene builds it.
    func flip(_ degrees: Double, perspective d: Double = 500) -> Transform3D {
        var c = Transform3D.Components()
        c.rotationY = degrees * deg
        c.m34 = -1 / d
        return c.composed
    }

    func near(_ a: Transform3D?, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return zip(a.fields, b.fields).allSatisfy { abs($0 - $1) <= tolerance }
    }

    func lerp(_ a: Transform3D, _ b: Transform3D, _ u: Double) -> Transform3D? {
        transform(Interpolation.lerp(.transform(a), .transform(b), u))
    }

    func transform(_ v: AnimatableValue?) -> Transform3D? {
        if case .transform(let t)? = v { t } else { nil }
    }

    /// The on-screen width of a 120-pt-wide layer centred on its anchor.
    func width(_ m: Transform3D) -> Double {
        m.apply(to: Point(60, 0)).x - m.apply(to: Point(-60, 0)).x
    }

    // MARK: - 3D: by decomposition

    @Test func aQuarterFlipHalfWayIsAnEighthTurnInPerspective() {
        let mid = lerp(flip(0), flip(90), 0.5)
        #expect(near(mid, flip(45)))
        // A true 45° turn under perspective 500 shows a 120-pt card 85.5 pt wide; the
        // average of the entries showed 60.
        #expect(mid.map { abs(width($0) - width(flip(45))) < 1e-9 && width($0) > 85 && width($0) < 86 } == true)
    }

    @Test func aHalfFlipKeepsItsPerspectiveAllTheWay() {
        for (u, degrees) in [(0.25, 45.0), (0.5, 90), (0.75, 135)] {
            let m = lerp(flip(0), flip(180), u)
            #expect(near(m, flip(degrees)), "u = \(u)")
            // The perspective factor stays −1/500 (the entry blend weakened it to −1/1000
            // at u = 0.25).
            #expect(m.map { abs($0.components.m34 + 0.002) < 1e-12 } == true, "u = \(u)")
        }
        #expect(near(lerp(flip(0), flip(180), 0), flip(0)))
        #expect(near(lerp(flip(0), flip(180), 1), flip(180)))
    }

    @Test func rotationsAboutXAndCombinedAxesTurnBySlerp() {
        #expect(near(lerp(.identity, .rotation(90 * deg, 1, 0, 0), 0.5), .rotation(45 * deg, 1, 0, 0)))
        // Any axis: half-way along the great circle, the shorter way.
        let axis = (1.0, -2.0, 0.5)
        #expect(near(lerp(.rotation(20 * deg, axis.0, axis.1, axis.2), .rotation(-100 * deg, axis.0, axis.1, axis.2), 0.5),
                     .rotation(-40 * deg, axis.0, axis.1, axis.2)))
        #expect(near(lerp(.rotation(150 * deg, 0, 1, 0), .rotation(-150 * deg, 0, 1, 0), 0.5),
                     .rotation(180 * deg, 0, 1, 0)))
        // Translation, scale and perspective distance blend linearly beside the turn.
        var a = Transform3D.Components(), b = Transform3D.Components()
        (a.tx, a.sx, a.m34) = (0, 1, -1.0 / 500)
        (b.tx, b.sx, b.m34, b.rotationX) = (100, 3, -1.0 / 250, 60 * deg)
        var mid = Transform3D.Components()
        (mid.tx, mid.sx, mid.m34, mid.rotationX) = (50, 2, -0.003, 30 * deg)
        #expect(near(lerp(a.composed, b.composed, 0.5), mid.composed))
    }

    @Test func springsOvershootAlongTheTurn() {
        #expect(near(lerp(flip(0), flip(90), 1.2), flip(108)))
        #expect(near(lerp(flip(0), flip(90), -0.1), flip(-9)))
    }

    @Test func singularMatricesStillBlendTheirEntries() throws {
        let flat = try #require(Transform3D(fields: [0.8, 0, 0, 0, 0, 0.77, 0.23, -0.00023, 0, 0, 0, 0, 0, 0, 0, 1]))
        let m = try #require(lerp(flip(30), flat, 0.25))
        let expected = zip(flip(30).fields, flat.fields).map { $0 + ($1 - $0) * 0.25 }
        #expect(m.fields == expected)
    }

    // MARK: - Keyframes, by, additive

    @Test func keyframesTurnFromValueToValue() {
        let values = [flip(0), flip(120), flip(240)].map(AnimatableValue.transform)
        let linear = KeyframeAnimation(values: values)
        #expect(near(transform(linear.value(at: 0.25)), flip(60)))
        #expect(near(transform(linear.value(at: 0.5)), flip(120)))
        // 120° → 240° is a turn of +120°, through 180°, not −240° back through 0.
        #expect(near(transform(linear.value(at: 0.75)), flip(180)))

        let cubic = KeyframeAnimation(values: values, calculationMode: .cubic)
        #expect(near(transform(cubic.value(at: 0)), flip(0)))
        #expect(near(transform(cubic.value(at: 0.5)), flip(120)))
        #expect(near(transform(cubic.value(at: 1)), flip(240)))
        // Between values the spline (on sign-aligned quaternions, normalised) keeps to the
        // y axis, the perspective and roughly the even pace.
        for (p, degrees) in [(0.25, 60.0), (0.75, 180)] {
            guard let m = transform(cubic.value(at: p)) else { Issue.record("no value at \(p)"); continue }
            let angle = atan2(m.m31, m.m11) / deg
            let turn = abs(remainder(angle - degrees, 360))
            #expect(turn < 5, "at \(p): \(angle)°")
            #expect(abs(m.m12) < 1e-12 && abs(m.m21) < 1e-12 && abs(m.m23) < 1e-12 && abs(m.m32) < 1e-12)
            #expect(abs(m.components.m34 + 0.002) < 1e-12)
        }
    }

    @Test func byTurnsFromThePresentValue() throws {
        // base {perspective: 500}, by: {rotateY: 180°} → the flip of the user's scene.
        let base = AnimatableValue.transform(flip(0))
        let animation = BasicAnimation(by: .transform(.rotation(180 * deg, 0, 1, 0)))
        let ends = try #require(animation.endpoints(base: base))
        #expect(near(transform(ends.to), flip(180)))
        #expect(near(transform(animation.value(at: 0.25, base: base)), flip(45)))
    }

    @Test func additiveOffsetsTurnAndThenAddToTheBase() throws {
        // As the timeline applies an additive animation: from zero = base − base, the value
        // is an offset, added (concatenated first) to the base.
        let base = AnimatableValue.transform(flip(0))
        let zero = try #require(Interpolation.subtract(base, base))
        let animation = BasicAnimation(from: .transform(.identity), to: .transform(.rotation(90 * deg, 0, 1, 0)))
        let offset = try #require(animation.value(at: 0.5, base: zero))
        #expect(near(transform(Interpolation.add(base, offset)), flip(45)))
        let byOnly = BasicAnimation(by: .transform(.rotation(90 * deg, 0, 1, 0)))
        let byOffset = try #require(byOnly.value(at: 0.5, base: zero))
        #expect(near(transform(Interpolation.add(base, byOffset)), flip(45)))
    }

    // MARK: - 2D: unchanged

    /// The blend of the 2D path as it was before decomposition existed: named-form
    /// components, z rotation unwrapped to the shorter way, recomposed.
    func componentBlend(_ a: Transform3D, _ b: Transform3D, _ u: Double) -> Transform3D {
        let ca = a.components, cb = b.components
        let endAngle = ca.rotationZ + remainder(cb.rotationZ - ca.rotationZ, 2 * Double.pi)
        let x = [ca.sx, ca.sy, ca.sz, ca.rotationZ, ca.tx, ca.ty, ca.tz, ca.m34]
        let y = [cb.sx, cb.sy, cb.sz, endAngle, cb.tx, cb.ty, cb.tz, cb.m34]
        let v = zip(x, y).map { $0 + ($1 - $0) * u }
        var c = Transform3D.Components()
        (c.sx, c.sy, c.sz, c.rotationZ, c.tx, c.ty, c.tz, c.m34) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
        return c.composed
    }

    @Test func twoDimensionalTransformsBlendExactlyAsBefore() {
        let cases: [(Transform3D, Transform3D)] = [
            (.identity, .rotation(90 * deg, 0, 0, 1)),
            (Transform3D.scale(2, 0.5).concatenating(.rotation(170 * deg, 0, 0, 1)).concatenating(.translation(10, 20)),
             Transform3D.rotation(-170 * deg, 0, 0, 1).concatenating(.translation(-30, 5))),
            (.identity, .scale(-1, 1)),
            // Perspective after a z turn and a z translation is still the 2D named form.
            (Transform3D.rotation(30 * deg, 0, 0, 1).concatenating(.translation(0, 0, 50)).concatenating(.perspective(500)),
             Transform3D.rotation(300 * deg, 0, 0, 1).concatenating(.perspective(250))),
        ]
        for (k, (a, b)) in cases.enumerated() {
            for u in [0.0, 0.3, 0.5, 1, 1.25] {
                #expect(lerp(a, b, u) == componentBlend(a, b, u), "case \(k), u = \(u)")
            }
        }
        // And the values themselves: 170° → −170° passes 180°, the shorter way.
        let wrap = lerp(.rotation(170 * deg, 0, 0, 1), .rotation(-170 * deg, 0, 0, 1), 0.5)
        #expect(near(wrap, .rotation(180 * deg, 0, 0, 1)))
    }

    @Test func twoDimensionalKeyframesUnwrapPastHalfATurn() {
        // Steps of 170° keep turning one way: 0 → 170 → 340 → 510 (= 150).
        let values = [0.0, 170, 340, 510].map { AnimatableValue.transform(.rotation($0 * deg, 0, 0, 1)) }
        let linear = KeyframeAnimation(values: values)
        #expect(near(transform(linear.value(at: 5.0 / 6)), .rotation(425 * deg, 0, 0, 1)))
        let cubic = KeyframeAnimation(values: values, calculationMode: .cubic)
        #expect(near(transform(cubic.value(at: 0.5)), .rotation(255 * deg, 0, 0, 1)))
    }
}
