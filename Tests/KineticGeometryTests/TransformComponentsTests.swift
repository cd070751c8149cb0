import Foundation
import Testing
import KineticGeometry

/// `Transform3D.components`, the decomposition behind `transform.rotation.x|y|z`,
/// `transform.scale…` and `transform.translation…`, against the named form it inverts.
@Suite struct TransformComponentsTests {
    let deg = Double.pi / 180

    func near(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-12) -> Bool {
        zip(a.fields, b.fields).allSatisfy { abs($0 - $1) < tolerance }
    }

    @Test func rotationsComposeYBeforeX() {
        // The named form applies rotateY, then rotateX (row vectors: p·Ry·Rx). Ry(20°)·Rx(30°)
        // by hand: rows (cos 20°, sin 20°·sin 30°, −sin 20°·cos 30°), (0, cos 30°, sin 30°),
        // (sin 20°, −cos 20°·sin 30°, cos 20°·cos 30°).
        var c = Transform3D.Components()
        c.rotationX = 30 * deg
        c.rotationY = 20 * deg
        let expected = Transform3D(fields: [0.9396926208, 0.1710100717, -0.2961981327, 0,
                                            0, 0.8660254038, 0.5, 0,
                                            0.3420201433, -0.4698463104, 0.8137976813, 0,
                                            0, 0, 0, 1])
        #expect(expected.map { near(c.composed, $0, 1e-9) } == true)
    }

    @Test func theNamedFormRoundTripsWithEveryComponent() {
        var c = Transform3D.Components()
        (c.sx, c.sy, c.sz) = (2, 0.5, 1.5)
        (c.rotationX, c.rotationY, c.rotationZ) = (30 * deg, -20 * deg, -70 * deg)
        (c.tx, c.ty, c.tz) = (10, -20, 5)
        c.m34 = -1.0 / 500
        let d = c.composed.components
        let pairs = [(d.sx, c.sx), (d.sy, c.sy), (d.sz, c.sz), (d.rotationX, c.rotationX), (d.rotationY, c.rotationY),
                     (d.rotationZ, c.rotationZ), (d.tx, c.tx), (d.ty, c.ty), (d.tz, c.tz), (d.m34, c.m34)]
        for (k, (got, want)) in pairs.enumerated() { #expect(abs(got - want) < 1e-12, "component \(k): \(got) vs \(want)") }
    }

    @Test func pastNinetyDegreesAboutYAnEquivalentTripleIsFound() {
        // rotateY 120° is also rotateX 180°, rotateY 60°, rotate 180°: the matrix is kept.
        var c = Transform3D.Components()
        c.rotationY = 120 * deg
        c.rotationX = 20 * deg
        let d = c.composed.components
        #expect(abs(d.rotationY - 60 * deg) < 1e-12)
        #expect(near(d.composed, c.composed))
    }

    @Test func edgeOnAboutYPutsTheTurnOnX() {
        var c = Transform3D.Components()
        c.rotationY = 90 * deg
        c.rotationX = 0.3
        let d = c.composed.components
        #expect(abs(d.rotationY - 90 * deg) < 1e-7)
        #expect(near(d.composed, c.composed, 1e-7))
    }

    @Test func twoDimensionalMatricesGiveZRotationOnly() {
        let m = Transform3D.scale(2, 3).concatenating(.rotation(0.4, 0, 0, 1)).concatenating(.translation(5, 6))
        let d = m.components
        #expect(d.rotationX == 0 && d.rotationY == 0)
        #expect(abs(d.rotationZ - 0.4) < 1e-12 && abs(d.sx - 2) < 1e-12 && abs(d.sy - 3) < 1e-12)
        #expect(d.tx == 5 && d.ty == 6)
    }

    @Test func aReflectionStaysOnY() {
        var c = Transform3D.Components()
        c.sy = -1
        c.rotationX = 0.3
        c.rotationY = -0.2
        let d = c.composed.components
        #expect(d.sy < 0 && d.sx > 0 && d.sz > 0)
        #expect(near(d.composed, c.composed))
    }
}
