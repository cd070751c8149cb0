import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticRender

/// A shape layer spanning the canvas (bounds = canvas), drawing `path` stroked in red.
private func strokedLine(_ configure: (inout ShapeStyle) -> Void) -> Layer {
    var layer = Layer(place: "s", type: .shape)
    layer.bounds = Rect(0, 0, 200, 200)
    layer.position = Point(100, 100)
    var style = ShapeStyle()
    style.path = BezierPath([.move(to: Point(0, 100)), .line(to: Point(200, 100))])
    style.fillColor = nil
    style.strokeColor = red
    style.lineWidth = 10
    configure(&style)
    layer.shape = style
    return layer
}

@Suite struct ShapeDrawingTests {
    @Test func fullStrokeCoversTheLineWidth() {
        let image = render([strokedLine { _ in }])
        #expect(image.isOpaque(red, 0, 100) && image.isOpaque(red, 199, 100))
        #expect(image.isOpaque(red, 50, 95) && image.isOpaque(red, 50, 104))
        #expect(image.isClear(50, 94) && image.isClear(50, 105))
    }

    @Test func strokeEndHalfColoursOnlyTheFirstHalf() {
        let image = render([strokedLine { $0.strokeEnd = 0.5 }], name: "strokeEnd")
        #expect(image.isOpaque(red, 1, 100) && image.isOpaque(red, 99, 100))
        #expect(image.isClear(100, 100) && image.isClear(150, 100))
    }

    @Test func strokeStartTrimsTheBeginning() {
        let image = render([strokedLine { $0.strokeStart = 0.25; $0.strokeEnd = 0.75 }])
        #expect(image.isClear(49, 100) && image.isOpaque(red, 50, 100))
        #expect(image.isOpaque(red, 149, 100) && image.isClear(150, 100))
    }

    @Test func strokeStartPastStrokeEndDrawsNoStroke() {
        let image = render([strokedLine { $0.strokeStart = 0.6; $0.strokeEnd = 0.4 }])
        #expect(image.bytes.allSatisfy { $0 == 0 })
    }

    @Test func fillIsNeverTrimmed() {
        var layer = strokedLine { $0.strokeEnd = 0 }
        layer.shape?.path = BezierPath([.move(to: Point(20, 20)), .line(to: Point(180, 20)),
                                        .line(to: Point(180, 180)), .line(to: Point(20, 180)), .close])
        layer.shape?.fillColor = blue
        let image = render([layer])
        #expect(image.isOpaque(blue, 100, 100) && image.isOpaque(blue, 21, 21))
        #expect(image.isClear(18, 100))  // no stroke outside the fill
    }

    @Test func dashPatternAlternatesOnAndOff() {
        // [20, 10]: on over [0, 20), off [20, 30), on [30, 50) …
        let image = render([strokedLine { $0.lineDashPattern = [20, 10] }], name: "dash")
        #expect(image.isOpaque(red, 10, 100) && image.isClear(25, 100) && image.isOpaque(red, 40, 100))
        #expect(image.isClear(55, 100) && image.isOpaque(red, 65, 100))
        // The phase shifts the pattern back: on [0, 15), off [15, 25), on [25, 45).
        let shifted = render([strokedLine { $0.lineDashPattern = [20, 10]; $0.lineDashPhase = 5 }])
        #expect(shifted.isOpaque(red, 10, 100) && shifted.isClear(17, 100) && shifted.isOpaque(red, 27, 100))
    }

    @Test func fillRuleDecidesTheHole() {
        var layer = Layer(place: "s", type: .shape)
        layer.bounds = Rect(0, 0, 200, 200)
        layer.position = Point(100, 100)
        var style = ShapeStyle()
        func square(_ a: Double, _ b: Double) -> [PathElement] {
            [.move(to: Point(a, a)), .line(to: Point(b, a)), .line(to: Point(b, b)), .line(to: Point(a, b)), .close]
        }
        style.path = BezierPath(square(20, 180) + square(60, 140))  // same winding
        style.fillColor = red
        layer.shape = style
        #expect(render([layer]).isOpaque(red, 100, 100))
        layer.shape?.fillRule = .evenOdd
        let evenOdd = render([layer])
        #expect(evenOdd.isClear(100, 100) && evenOdd.isOpaque(red, 40, 100))
    }

    @Test func quadraticCurvesBecomeTheSameCurve() {
        // M 0 100 Q 100 0 200 100 peaks at (100, 50): the quadratic's midpoint.
        let image = render([strokedLine {
            $0.path = BezierPath([.move(to: Point(0, 100)), .quadCurve(to: Point(200, 100), control: Point(100, 0))])
            $0.lineWidth = 4
        }])
        #expect(image.isOpaque(red, 100, 50) && image.isClear(100, 46) && image.isClear(100, 54))
    }
}

@Suite struct GradientDrawingTests {
    private func gradientLayer(_ configure: (inout Gradient) -> Void) -> Layer {
        var layer = Layer(place: "g", type: .gradient)
        layer.bounds = Rect(0, 0, 100, 100)
        layer.position = Point(50, 50)
        var g = Gradient()
        configure(&g)
        layer.gradient = g
        return layer
    }

    @Test func axialGradientIsLinearFromStartToEnd() {
        let image = render([gradientLayer { $0.colors = [.black, .white] }], size: Size(100, 100), name: "axial")
        for y in [0, 25, 50, 75, 99] {
            let expected = 255 * (Double(y) + 0.5) / 100
            let p = image.rgba(x: 50, y: y)
            #expect(p.a == 255 && abs(Double(p.r) - expected) <= 2, "row \(y): \(p.r) vs \(expected)")
        }
    }

    @Test func middleOfThreeEvenlySpacedColorsIsTheMiddleColor() {
        var layer = gradientLayer { $0.colors = [red, green, blue]; $0.startPoint = Point(0, 0.5); $0.endPoint = Point(1, 0.5) }
        layer.bounds = Rect(0, 0, 101, 20)
        layer.position = Point(50.5, 10)
        let p = render([layer], size: Size(101, 20)).rgba(x: 50, y: 10)
        #expect(p.g >= 253 && p.r <= 2 && p.b <= 2)
    }

    @Test func locationsPlaceTheStops() {
        // Black until 0.5, then white: a hard step in the middle.
        let image = render([gradientLayer { $0.colors = [.black, .black, .white, .white]; $0.locations = [0, 0.5, 0.5, 1] }],
                           size: Size(100, 100))
        #expect(image.rgba(x: 50, y: 48).r <= 2 && image.rgba(x: 50, y: 52).r >= 253)
    }

    @Test func radialGradientFillsTheEllipseFromStartPointToEndPoint() {
        let image = render([gradientLayer {
            $0.colors = [.white, .black]; $0.gradientType = .radial
            $0.startPoint = Point(0.5, 0.5); $0.endPoint = Point(1, 1)
        }], size: Size(100, 100), name: "radial")
        // Radius 50 around (50, 50): 25 away is the middle, the corner is past the end.
        let mid = Double(image.rgba(x: 74, y: 49).r)  // centre (74.5, 49.5): 24.5 away
        #expect(abs(mid - 255 * (1 - 24.5 / 50)) <= 3)
        #expect(image.rgba(x: 50, y: 50).r >= 250)
        #expect(image.rgba(x: 1, y: 1).r == 0 && image.alpha(1, 1) == 255)
    }

    @Test func conicGradientTurnsClockwiseFromEndPoint() {
        let image = render([gradientLayer {
            $0.colors = [red, blue]; $0.gradientType = .conic
            $0.startPoint = Point(0.5, 0.5); $0.endPoint = Point(1, 0.5)
        }], size: Size(100, 100), name: "conic")
        func expect(_ x: Int, _ y: Int) {
            let angle = atan2(Double(y) + 0.5 - 50, Double(x) + 0.5 - 50)
            let t = (angle < 0 ? angle + 2 * Double.pi : angle) / (2 * Double.pi)
            let p = image.rgba(x: x, y: y)
            #expect(abs(Double(p.r) - 255 * (1 - t)) <= 3 && abs(Double(p.b) - 255 * t) <= 3,
                    "(\(x), \(y)): \(p) at t \(t)")
        }
        expect(50, 80)   // straight down: a quarter turn clockwise on screen
        expect(20, 50)   // left: half a turn
        expect(50, 20)   // up: three quarters
        expect(85, 60)
    }

    @Test func backgroundGradientFillsTheCanvas() {
        var g = Gradient()
        g.colors = [red, blue]
        g.startPoint = Point(0, 0.5); g.endPoint = Point(1, 0.5)
        let image = render([], size: Size(100, 10), background: .gradient(g))
        #expect(image.rgba(x: 0, y: 5).r >= 250 && image.rgba(x: 99, y: 5).b >= 250)
        let middle = image.rgba(x: 50, y: 5)  // pixel centre at 50.5 of 100
        #expect(abs(Double(middle.r) - 255 * 0.495) <= 2 && abs(Double(middle.b) - 255 * 0.505) <= 2)
    }

    @Test func clearBackgroundIsTransparentAndColorFillsAll() {
        #expect(render([], size: Size(10, 10)).bytes.allSatisfy { $0 == 0 })
        let filled = render([], size: Size(10, 10), background: .color(green))
        #expect(filled.isOpaque(green, 0, 0) && filled.isOpaque(green, 9, 9))
    }
}

@Suite struct TextDrawingTests {
    private func textLayer(_ string: String, width: Double = 200, align: TextAlignment = .natural,
                           wrapped: Bool = false) -> Layer {
        var layer = Layer(place: "t", type: .text)
        layer.bounds = Rect(0, 0, width, 60)
        layer.anchorPoint = Point(0, 0)
        layer.position = Point(0, 20)
        var style = TextStyle()
        style.string = string
        style.fontSize = 30
        style.foregroundColor = blue
        style.alignmentMode = align
        style.isWrapped = wrapped
        layer.text = style
        return layer
    }

    /// Pixels with ink, as (x, y).
    private func ink(_ image: PixelImage) -> [(Int, Int)] {
        var found: [(Int, Int)] = []
        for y in 0..<image.height { for x in 0..<image.width where image.alpha(x, y) > 128 { found.append((x, y)) } }
        return found
    }

    @Test func textDrawsForegroundPixelsInsideTheBounds() {
        let image = render([textLayer("Hello")], name: "text")
        let pixels = ink(image)
        #expect(pixels.count > 100)
        #expect(pixels.allSatisfy { $0.1 >= 20 && $0.1 < 80 })
        #expect(pixels.allSatisfy { let p = image.rgba(x: $0.0, y: $0.1); return p.b > 200 && p.r < 40 && p.g < 40 })
    }

    @Test func unwrappedTextIsClippedToTheBounds() {
        let image = render([textLayer("Wide wide wide wide wide", width: 100)])
        #expect(ink(image).allSatisfy { $0.0 < 100 })
        #expect(!ink(image).isEmpty)
    }

    @Test func alignmentModePlacesTheLineInTheBounds() {
        func centroid(_ align: TextAlignment) -> Double {
            let pixels = ink(render([textLayer("Hi", align: align)]))
            return Double(pixels.map(\.0).reduce(0, +)) / Double(max(pixels.count, 1))
        }
        #expect(centroid(.left) < 40)
        #expect(abs(centroid(.center) - 100) < 10)
        #expect(centroid(.right) > 160)
    }

    @Test func wrappedTextBreaksIntoMoreLines() {
        let long = "one two three four"
        let oneLine = ink(render([textLayer(long, width: 200)])).map(\.1).max() ?? 0
        let wrapped = ink(render([textLayer(long, width: 90, wrapped: true)], name: "wrapped")).map(\.1).max() ?? 0
        #expect(wrapped > oneLine + 15)
    }
}
