import Testing
import KineticGeometry
@testable import KineticLayers

/// CALayer.anchorPointZ: the transform turns about a point that far in front of the layer.
@Suite struct AnchorPointZTests {
    func layer(anchorPointZ: Double) -> Layer {
        var l = Layer(place: "t")
        l.bounds = Rect(0, 0, 100, 100)
        l.position = Point(200, 200)
        l.transform = .rotation(.pi / 2, 0, 1, 0)
        l.anchorPointZ = anchorPointZ
        return l
    }

    @Test func aQuarterTurnAboutYSwingsThePlaneAroundTheAnchorsDepth() {
        // Hand computation: a corner (x, y, 0) less the anchor (50, 50, 50) is (x − 50, y − 50, −50);
        // rotation(π/2, 0, 1, 0) sends (x, y, z) to (z, y, −x); plus position (200, 200):
        // every corner lands at x = 200 − 50 = 150, y = y + 150.
        let l = layer(anchorPointZ: 50)
        for corner in l.bounds.corners {
            let p = l.toSuperlayer.apply(to: corner)
            #expect(abs(p.x - 150) < 1e-9 && abs(p.y - (corner.y + 150)) < 1e-9, "\(corner) → \(p)")
        }
        // At anchorPointZ 0 the turned layer is edge-on at x = 200.
        let flat = layer(anchorPointZ: 0)
        #expect(flat.bounds.corners.allSatisfy { abs(flat.toSuperlayer.apply(to: $0).x - 200) < 1e-9 })
    }

    @Test func zeroLeavesTheMatrixAsBefore() {
        var l = layer(anchorPointZ: 0)
        l.transform = .rotation(0.3, 1, 1, 0)
        let before = Transform3D.translation(-50, -50).concatenating(l.transform).concatenating(.translation(200, 200, 0))
        #expect(l.toSuperlayer == before)
    }
}
