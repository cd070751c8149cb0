import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `transform.rotation.x|y|z`, `transform.scale…` and `transform.translation…` animations
/// on one layer: each sets its component and keeps the others (an interactive card tilted
/// about x and y at once), composed in the named form's order.
@Suite struct TransformSubKeyPathTests {
    func layer(_ body: String, _ id: String, at time: Double) throws -> Layer? {
        let yaml = "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: 50}\n" + body
        let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
        return findLayer(Timeline(scene: scene).frame(at: time, index: 0).layers, id: id)
    }

    func expectNear(_ m: Transform3D?, _ fields: [Double], _ tolerance: Double = 1e-9,
                    sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let m else { Issue.record("no layer", sourceLocation: sourceLocation); return }
        for (k, (got, want)) in zip(m.fields, fields).enumerated() {
            #expect(abs(got - want) < tolerance, "m[\(k)] = \(got), expected \(want)", sourceLocation: sourceLocation)
        }
    }

    /// Ry(y)·Rx(x) (row vectors: y applied first), written out by hand.
    func tilt(x: Double, y: Double) -> [Double] {
        [cos(y), sin(y) * sin(x), -sin(y) * cos(x), 0,
         0, cos(x), sin(x), 0,
         sin(y), -cos(y) * sin(x), cos(y) * cos(x), 0,
         0, 0, 0, 1]
    }

    @Test func rotationsAboutXAndYBothShow() throws {
        for order in [["x", "y"], ["y", "x"]] {
            let animations = order.map { axis in
                "  - {layer: card, keyPath: transform.rotation.\(axis), to: \(axis == "x" ? 30 : 20)deg, duration: 1}"
            }.joined(separator: "\n")
            let body = "layers: [{id: card, position: [100, 100], bounds: [100, 100]}]\nanimations:\n" + animations
            // The end: Ry(20°)·Rx(30°) as computed by hand, whichever animation comes first.
            expectNear(try layer(body, "card", at: 1.5)?.transform,
                       [0.9396926208, 0.1710100717, -0.2961981327, 0,
                        0, 0.8660254038, 0.5, 0,
                        0.3420201433, -0.4698463104, 0.8137976813, 0,
                        0, 0, 0, 1], 1e-9)
            // Half-way (linear): 15° about x, 10° about y.
            expectNear(try layer(body, "card", at: 0.5)?.transform, tilt(x: 15 * .pi / 180, y: 10 * .pi / 180))
        }
    }

    @Test func componentsStayExactPastNinetyDegreesAboutY() throws {
        // A flip with a tilt: 120° about y is no Euler angle a matrix gives back, so the
        // layer keeps the components it was given — in the model and between animations.
        let p = -1.0 / 500
        // Ry(120°)·Rx(20°), then m34 = −1/500 multiplies the third column into the fourth.
        var expected = tilt(x: 20 * .pi / 180, y: 120 * .pi / 180)
        for row in 0..<3 { expected[row * 4 + 3] = expected[row * 4 + 2] * p }
        expectNear(try layer("""
        layers: [{id: card, bounds: [100, 100], transform: {perspective: 500}}]
        animations:
          - {layer: card, keyPath: transform.rotation.y, to: 120deg, duration: 1}
          - {layer: card, keyPath: transform.rotation.x, to: 20deg, duration: 1}
        """, "card", at: 1)?.transform, expected)
        expectNear(try layer("""
        layers: [{id: card, bounds: [100, 100], transform: {perspective: 500, rotateY: 120deg}}]
        animations:
          - {layer: card, keyPath: transform.rotation.x, to: 20deg, duration: 1}
        """, "card", at: 1)?.transform, expected)
        // A `by` animation reads the model's 120°, not an equivalent 60°.
        let turned = try #require(try layer("""
        layers: [{id: card, bounds: [100, 100], transform: {rotateY: 120deg}}]
        animations:
          - {layer: card, keyPath: transform.rotation.y, by: 10deg, duration: 1}
        """, "card", at: 1))
        #expect(abs(turned.transformComponents.rotationY - 130 * .pi / 180) < 1e-12)
    }

    @Test func scaleTranslationAndZRotationStillCompose() throws {
        // S(2, 2, 2) (transform.scale sets all three), then Rz(90°), then translate (10, 0).
        expectNear(try layer("""
        layers: [{id: a, bounds: [10, 10]}]
        animations:
          - {layer: a, keyPath: transform.translation.x, to: 10, duration: 1}
          - {layer: a, keyPath: transform.rotation, to: 90deg, duration: 1}
          - {layer: a, keyPath: transform.scale, to: 2, duration: 1}
        """, "a", at: 1)?.transform, [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 10, 0, 0, 1], 1e-12)
    }

    @Test func aWholeTransformAnimationFeedsTheSubKeyPaths() throws {
        // The whole transform sets a matrix; rotation.y then reads its x rotation back.
        expectNear(try layer("""
        layers: [{id: card, bounds: [100, 100]}]
        animations:
          - {layer: card, keyPath: transform, to: {rotateX: 30deg}, duration: 1}
          - {layer: card, keyPath: transform.rotation.y, to: 20deg, duration: 1}
        """, "card", at: 1)?.transform, tilt(x: 30 * .pi / 180, y: 20 * .pi / 180))
    }
}
