import Foundation
import Testing
@testable import KineticGeometry

@Suite struct PathSerializationTests {
    @Test func printsAbsoluteCommandsWithoutTrailingZeros() {
        let path = BezierPath([.move(to: Point(0, -0.0)), .line(to: Point(10.5, 0)),
                               .curve(to: Point(30, 20), control1: Point(20, 0), control2: Point(30, 10)),
                               .quadCurve(to: Point(1.25, -2), control: Point(-0.0000001, 1e-7)), .close])
        #expect(path.svgData() == "M 0 0 L 10.5 0 C 20 0 30 10 30 20 Q 0 0 1.25 -2 Z")
        #expect(BezierPath([.move(to: Point(1.23456789, 2))]).svgData(precision: 3) == "M 1.235 2")
        #expect(BezierPath([.move(to: Point(-0.0004, 1234567))]).svgData(precision: 3) == "M 0 1234567")
        #expect(BezierPath().svgData() == "")
    }

    @Test func roundTripThroughTheParserKeepsTheElements() throws {
        let source = try SVGPathData.parse("m10 10 h 20 q 5 -5 10 0 t 10 0 s 5 5 10 0 c 1 2 3 4 5 6 z M 0 0 a 5 3 30 1 0 8 2")
        let again = try SVGPathData.parse(source.svgData(precision: 12))
        #expect(again.structure == source.structure)
        for (a, b) in zip(again.elements, source.elements) {
            for (p, q) in zip(a.points, b.points) { #expect(p.distance(to: q) < 1e-10) }
        }
        // Paths of short decimals survive exactly.
        let simple = BezierPath.rect(Rect(1.5, 2, 3, 4.25))
        #expect(try SVGPathData.parse(simple.svgData()) == simple)
    }

    @Test func lerpInterpolatesEveryPointAndRefusesOtherStructures() {
        let a = BezierPath([.move(to: Point(0, 0)), .curve(to: Point(10, 0), control1: Point(0, 10), control2: Point(10, 10)),
                            .close])
        let b = BezierPath([.move(to: Point(20, 0)), .curve(to: Point(30, 20), control1: Point(20, 30), control2: Point(50, 10)),
                            .close])
        #expect(a.lerp(to: b, 0.25) == BezierPath([
            .move(to: Point(5, 0)), .curve(to: Point(15, 5), control1: Point(5, 15), control2: Point(20, 10)), .close,
        ]))
        #expect(a.lerp(to: b, 0) == a)
        #expect(a.lerp(to: .rect(Rect(0, 0, 1, 1)), 0.5) == nil)
    }
}
