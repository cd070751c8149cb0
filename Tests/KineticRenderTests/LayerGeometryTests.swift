import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

@Suite struct LayerGeometryTests {
    @Test func squareCoversExactlyItsPixels() {
        // Centre (50, 50), 100 points wide: covers [0, 100) in x and y, pixel-aligned.
        let image = render([solid(red, size: Size(100, 100), at: Point(50, 50))], name: "square")
        #expect(image.width == 200 && image.height == 200)
        var wrong = 0
        for y in 0..<200 {
            for x in 0..<200 {
                let inside = x < 100 && y < 100
                if inside ? !image.isOpaque(red, x, y) : !image.isClear(x, y) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test func anchorPointZeroPutsTheTopLeftCornerAtPosition() {
        var layer = solid(red, size: Size(100, 100), at: Point(50, 50))
        layer.anchorPoint = Point(0, 0)
        let image = render([layer])
        #expect(image.isOpaque(red, 50, 50) && image.isOpaque(red, 149, 149))
        #expect(image.isClear(49, 49) && image.isClear(150, 150))
    }

    @Test func rotationByFortyFiveDegreesMakesADiamondAboutTheCentre() {
        var layer = solid(red, size: Size(100, 100), at: Point(100, 100))
        layer.transform = .rotation(Double.pi / 4, 0, 0, 1)
        let image = render([layer], name: "rotated")
        // The rotated square is |dx| + |dy| ≤ 50·√2 around the centre.
        let halfDiagonal = 50 * 2.0.squareRoot()
        var wrong = 0
        for y in stride(from: 0, to: 200, by: 3) {
            for x in stride(from: 0, to: 200, by: 3) {
                let d = abs(Double(x) + 0.5 - 100) + abs(Double(y) + 0.5 - 100)
                if d < halfDiagonal - 1.5 && !image.isOpaque(red, x, y) { wrong += 1 }
                if d > halfDiagonal + 1.5 && !image.isClear(x, y) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        // The corner that started at (150, 50) now points right, at (100 + 70.7, 100).
        #expect(image.isOpaque(red, 168, 100))
        #expect(image.isClear(55, 55))
    }

    @Test func layerScaledToZeroDrawsNothingAndSpoilsNothing() {
        var vanished = solid(red, size: Size(100, 100), at: Point(100, 100), place: "a")
        vanished.transform = .scale(0, 0)
        var parent = solid(green, size: Size(100, 100), at: Point(100, 100), place: "p")
        parent.sublayerTransform = .scale(0, 1)
        parent.sublayers = [solid(red, size: Size(10, 10), at: Point(50, 50))]
        let later = solid(blue, size: Size(20, 20), at: Point(10, 10), place: "b")
        let image = render([vanished, parent, later])
        #expect(image.isOpaque(green, 100, 100) && image.isOpaque(blue, 10, 10))
    }

    @Test func scaleTwoDoublesPixelCoordinates() {
        let image = render([solid(red, size: Size(100, 100), at: Point(50, 50))], scale: 2)
        #expect(image.width == 400 && image.height == 400)
        #expect(image.isOpaque(red, 199, 199) && image.isClear(200, 200) && image.isClear(199, 200))
    }

    @Test func canvasSizeRoundsFrameSizeTimesScale() {
        let image = Renderer(scale: 1.5).render(frame([], size: Size(101, 33)))
        #expect(image.width == 152 && image.height == 50)
        let empty = Renderer(scale: 2).render(frame([solid(red, size: Size(10, 10), at: .zero)], size: Size(0, 0)))
        #expect(empty.width == 0 && empty.height == 0 && empty.bytes.isEmpty)
    }

    @Test func zPositionDrawsInFrontRegardlessOfFileOrder() {
        var front = solid(red, size: Size(100, 100), at: Point(100, 100), place: "a")
        front.zPosition = 1
        let back = solid(blue, size: Size(100, 100), at: Point(100, 100), place: "b")
        #expect(render([front, back]).isOpaque(red, 100, 100))
        // Equal z: file order, later on top.
        front.zPosition = 0
        #expect(render([front, back]).isOpaque(blue, 100, 100))
    }

    @Test func hiddenAndTransparentLayersDrawNothing() {
        var hidden = solid(red, size: Size(100, 100), at: Point(100, 100))
        hidden.isHidden = true
        var transparent = solid(red, size: Size(100, 100), at: Point(100, 100))
        transparent.opacity = 0
        let image = render([hidden, transparent])
        #expect(image.bytes.allSatisfy { $0 == 0 })
    }

    @Test func halfOpacityGivesHalfAlpha() {
        var layer = solid(red, size: Size(100, 100), at: Point(100, 100))
        layer.opacity = 0.5
        let p = render([layer]).rgba(x: 100, y: 100)
        #expect(abs(Int(p.a) - 128) <= 1)
        #expect(p.r >= 254 && p.g == 0 && p.b == 0)
    }

    @Test func opacityAppliesToTheSubtreeAsOneGroup() {
        // An opaque sublayer over the parent's background: the overlap shows the
        // sublayer at the parent's opacity, not the two blended (which would be 0.75).
        var parent = solid(red, size: Size(100, 100), at: Point(100, 100))
        parent.opacity = 0.5
        parent.sublayers = [solid(blue, size: Size(50, 50), at: Point(25, 25))]
        let image = render([parent])
        let overlap = image.rgba(x: 60, y: 60)
        #expect(abs(Int(overlap.a) - 128) <= 1)
        #expect(overlap.b >= 254 && overlap.r == 0)
        let parentOnly = image.rgba(x: 140, y: 140)
        #expect(abs(Int(parentOnly.a) - 128) <= 1 && parentOnly.r >= 254)
    }

    @Test func cornerRadiusLeavesTheCornerTransparent() {
        var layer = solid(red, size: Size(100, 100), at: Point(50, 50))
        layer.cornerRadius = 20
        let image = render([layer])
        // The corner circle is centred at (20, 20) with radius 20.
        #expect(image.isClear(0, 0) && image.isClear(3, 3))      // (3.5, 3.5) is 23.3 away
        #expect(image.isOpaque(red, 10, 10))                      // 13.4 away
        #expect(image.isOpaque(red, 0, 50) && image.isOpaque(red, 50, 0))
        #expect(image.isClear(99, 99) && image.isClear(0, 99) && image.isClear(99, 0))
    }

    @Test func masksToBoundsClipsSublayers() {
        var parent = solid(red, size: Size(100, 100), at: Point(50, 50))
        parent.sublayers = [solid(blue, size: Size(100, 100), at: Point(100, 50))]  // spans x 50…150
        #expect(render([parent]).isOpaque(blue, 120, 50))
        parent.masksToBounds = true
        let image = render([parent])
        #expect(image.isClear(120, 50))
        #expect(image.isOpaque(blue, 80, 50) && image.isOpaque(red, 20, 50))
    }

    @Test func sublayersLiveInTheBoundsSpace() {
        // Bounds origin (−50, −50): the sublayer at (0, 0) sits at the parent's centre.
        var parent = solid(red, size: Size(100, 100), at: Point(100, 100))
        parent.bounds = Rect(-50, -50, 100, 100)
        parent.sublayers = [solid(blue, size: Size(20, 20), at: .zero)]
        let image = render([parent])
        #expect(image.isOpaque(blue, 91, 91) && image.isOpaque(blue, 108, 108))
        #expect(image.isOpaque(red, 88, 88) && image.isOpaque(red, 111, 111))
    }

    @Test func sublayerTransformActsAboutTheAnchorPoint() {
        // Scale 0.5 about the parent's centre: a sublayer filling the parent shrinks to
        // its middle half, (75…125) on the canvas.
        var parent = Layer(place: "p")
        parent.bounds = Rect(0, 0, 100, 100)
        parent.position = Point(100, 100)
        parent.sublayerTransform = .scale(0.5, 0.5)
        parent.sublayers = [solid(red, size: Size(100, 100), at: Point(50, 50))]
        let image = render([parent])
        #expect(image.isOpaque(red, 75, 75) && image.isOpaque(red, 124, 124))
        #expect(image.isClear(74, 74) && image.isClear(125, 125))
    }

    @Test func borderLiesInsideTheBoundsAboveSublayers() {
        var layer = solid(red, size: Size(100, 100), at: Point(50, 50))
        layer.borderWidth = 10
        layer.borderColor = blue
        layer.sublayers = [solid(green, size: Size(100, 100), at: Point(50, 50))]
        let image = render([layer])
        #expect(image.isOpaque(blue, 0, 50) && image.isOpaque(blue, 9, 50) && image.isOpaque(blue, 99, 50))
        #expect(image.isOpaque(green, 10, 50) && image.isOpaque(green, 50, 50))
        #expect(image.isClear(100, 50))
    }

    @Test func maskShowsTheLayerOnlyWhereTheMaskHasAlpha() {
        var layer = solid(red, size: Size(100, 100), at: Point(50, 50))
        layer.sublayers = [solid(blue, size: Size(20, 100), at: Point(90, 50))]
        // The mask covers the left 60 points of the layer, at half alpha.
        layer.mask = solid(Color(red: 0, green: 0, blue: 0, alpha: 0.5), size: Size(60, 100), at: Point(30, 50))
        let image = render([layer], name: "mask")
        let left = image.rgba(x: 30, y: 50)
        #expect(abs(Int(left.a) - 128) <= 1 && left.r >= 254)
        #expect(image.isClear(70, 50) && image.isClear(90, 50))
    }
}
