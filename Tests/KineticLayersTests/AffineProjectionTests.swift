import Testing
import KineticGeometry
@testable import KineticLayers

/// The 2D path of `projectionToSuperlayer(through:)`: where the layer's transform and
/// the superlayer's sublayer space keep planes flat, it must give what the three 4×4
/// products give — equal, not merely close, so that frames keep every pixel.
@Suite struct AffineProjectionTests {
    /// The 4×4 path, as `projectionToSuperlayer` computed it before the 2D one.
    func product(_ layer: Layer, _ space: Transform3D) -> PlaneProjection {
        PlaneProjection(layer.toSuperlayer.concatenating(space))
    }

    func randomLayer(_ g: inout SplitMix64) -> Layer {
        func value(_ range: Double) -> Double { (g.unit() * 2 - 1) * range }
        var l = Layer(place: "r")
        l.bounds = Rect(value(50), value(50), g.unit() * 400, g.unit() * 300)
        l.position = Point(value(1000), value(1000))
        l.anchorPoint = Point(g.unit(), g.unit())
        l.zPosition = value(100)
        l.anchorPointZ = value(40)
        var parts = Transform3D.Components()
        parts.sx = value(3); parts.sy = value(3); parts.sz = value(2)
        parts.rotationZ = value(.pi)
        parts.tx = value(200); parts.ty = value(200); parts.tz = value(50)
        l.transformComponents = parts
        return l
    }

    func randomSpace(_ g: inout SplitMix64) -> Transform3D {
        func value(_ range: Double) -> Double { (g.unit() * 2 - 1) * range }
        return Transform3D.translation(value(100), value(100))
            .concatenating(.rotation(value(.pi), 0, 0, 1))
            .concatenating(.scale(value(2), value(2)))
    }

    @Test func flatLayersMapExactlyAsTheFourByFourProductMapsThem() {
        var g = SplitMix64(seed: 42)
        for i in 0..<2000 {
            let layer = randomLayer(&g)
            let space = i % 3 == 0 ? Transform3D.identity : randomSpace(&g)
            #expect(layer.transform.isAffine2D && space.isAffine2D)
            let flat = layer.affineProjectionToSuperlayer(through: space)
            #expect(flat == product(layer, space), "layer \(i)")
            #expect(layer.projectionToSuperlayer(through: space) == product(layer, space))
        }
    }

    @Test func depthDropsOutOfAFlatMap() {
        // Hand computation: bounds (0, 0, 100, 50), anchor at the centre (50, 25), a
        // quarter turn about z sends (x, y) to (−y, x), position (300, 200): the origin
        // corner (−50, −25) turns to (25, −50) and lands at (325, 150); zPosition and
        // anchorPointZ move nothing once z is dropped.
        var l = Layer(place: "q")
        l.bounds = Rect(0, 0, 100, 50)
        l.position = Point(300, 200)
        l.transform = .rotation(.pi / 2, 0, 0, 1)
        l.zPosition = 70
        l.anchorPointZ = -30
        let p = l.projectionToSuperlayer(through: .identity).apply(to: Point(0, 0))
        #expect(abs(p.x - 325) < 1e-9 && abs(p.y - 150) < 1e-9, "\(p)")
    }

    @Test func threeDimensionalMapsTakeTheFourByFourPath() {
        var l = Layer(place: "p")
        l.bounds = Rect(0, 0, 100, 100)
        l.position = Point(100, 100)
        l.zPosition = 50
        // A perspective above the layer sees its zPosition: no 2D map can say that.
        let perspective = Transform3D.perspective(500)
        #expect(l.affineProjectionToSuperlayer(through: perspective) == nil)
        #expect(l.projectionToSuperlayer(through: perspective) == product(l, perspective))
        #expect(l.projectionToSuperlayer(through: perspective) != l.projectionToSuperlayer(through: .identity))
        // A turn about y tilts the plane: x then depends on the layer's depth.
        l.transform = .rotation(0.4, 0, 1, 0)
        #expect(l.affineProjectionToSuperlayer(through: .identity) == nil)
        #expect(l.projectionToSuperlayer(through: .identity) == product(l, .identity))
    }

    @Test func aNonFiniteTermLeavesTheResultToTheFourByFourPath() {
        var l = Layer(place: "n")
        l.bounds = Rect(0, 0, 10, 10)
        l.zPosition = .infinity
        // 0 × ∞ in the product: NaN there, where a 2D map would have dropped the term.
        #expect(l.affineProjectionToSuperlayer(through: .identity) == nil)
        #expect(!l.projectionToSuperlayer(through: .identity).isFinite)
    }
}
