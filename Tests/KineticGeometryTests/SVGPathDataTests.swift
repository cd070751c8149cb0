import Foundation
import Testing
@testable import KineticGeometry

@Suite struct SVGPathDataTests {
    func parse(_ text: String) -> [PathElement]? { try? SVGPathData.parse(text).elements }

    func failure(_ text: String) -> PathSyntaxError? {
        do { _ = try SVGPathData.parse(text); return nil } catch { return error }
    }

    @Test func absoluteCommands() {
        #expect(parse("M 10 20 L 30 40 H 50 V 60 C 1 2 3 4 5 6 Q 7 8 9 10 Z") == [
            .move(to: Point(10, 20)), .line(to: Point(30, 40)), .line(to: Point(50, 40)), .line(to: Point(50, 60)),
            .curve(to: Point(5, 6), control1: Point(1, 2), control2: Point(3, 4)),
            .quadCurve(to: Point(9, 10), control: Point(7, 8)), .close,
        ])
    }

    @Test func relativeCommandsAreRelativeToTheCurrentPoint() {
        #expect(parse("m 10 20 l 5 5 h 10 v -5 c 1 1 2 2 3 3 q 1 0 2 2 z") == [
            .move(to: Point(10, 20)), .line(to: Point(15, 25)), .line(to: Point(25, 25)), .line(to: Point(25, 20)),
            .curve(to: Point(28, 23), control1: Point(26, 21), control2: Point(27, 22)),
            .quadCurve(to: Point(30, 25), control: Point(29, 23)), .close,
        ])
    }

    @Test func implicitRepeatsAfterMoveAreLines() {
        #expect(parse("M0 0 10 0 10 10") == [.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10))])
        #expect(parse("m1 1 2 2") == [.move(to: Point(1, 1)), .line(to: Point(3, 3))])
        #expect(parse("M0 0 L1 1 2 2") == [.move(to: Point(0, 0)), .line(to: Point(1, 1)), .line(to: Point(2, 2))])
        #expect(parse("M0 0 h1 1") == [.move(to: Point(0, 0)), .line(to: Point(1, 0)), .line(to: Point(2, 0))])
    }

    @Test func compactNumbers() {
        #expect(parse("M.5.5-1-2 1e1,2E-1") ==
                [.move(to: Point(0.5, 0.5)), .line(to: Point(-1, -2)), .line(to: Point(10, 0.2))])
        #expect(parse("M1e-3 +4.\n\t,5 6") == [.move(to: Point(0.001, 4)), .line(to: Point(5, 6))])
        #expect(parse("M 1e-3,  +4.") == [.move(to: Point(0.001, 4))])
        #expect(parse("") == [])
        #expect(parse("  \n ") == [])
    }

    @Test func smoothCurvesReflectThePreviousControl() {
        #expect(parse("M0 0 C 0 10 10 10 10 0 S 20 -10 20 0")?.last ==
                .curve(to: Point(20, 0), control1: Point(10, -10), control2: Point(20, -10)))
        // Without a preceding cubic the first control is the current point.
        #expect(parse("M0 0 Q 1 1 2 0 S 5 5 10 0")?.last ==
                .curve(to: Point(10, 0), control1: Point(2, 0), control2: Point(5, 5)))
        #expect(parse("M0 0 Q 5 10 10 0 T 20 0")?.last == .quadCurve(to: Point(20, 0), control: Point(15, -10)))
        #expect(parse("M0 0 q 5 10 10 0 t 10 0 t 10 0")?.suffix(2) == [
            .quadCurve(to: Point(20, 0), control: Point(15, -10)),
            .quadCurve(to: Point(30, 0), control: Point(25, 10)),
        ])
        #expect(parse("M0 0 s 5 5 10 0")?.last == .curve(to: Point(10, 0), control1: Point(0, 0), control2: Point(5, 5)))
        #expect(parse("M0 0 L 4 4 T 8 0")?.last == .quadCurve(to: Point(8, 0), control: Point(4, 4)))
    }

    @Test func drawingAfterCloseStartsAtTheSubpathStart() {
        #expect(parse("M 10 10 L 20 10 Z l 5 5") == [
            .move(to: Point(10, 10)), .line(to: Point(20, 10)), .close, .move(to: Point(10, 10)), .line(to: Point(15, 15)),
        ])
        #expect(parse("M 10 10 L 20 10 z m 1 1") ==
                [.move(to: Point(10, 10)), .line(to: Point(20, 10)), .close, .move(to: Point(11, 11))])
    }

    /// Every curve end point of `elements` lies on the circle around `center`.
    func endPointsOnCircle(_ elements: [PathElement], _ center: Point, _ r: Double) -> Bool {
        elements.allSatisfy { e in e.points.last.map { abs($0.distance(to: center) - r) < 1e-9 } ?? true }
    }

    @Test func halfCircleArc() throws {
        let path = try SVGPathData.parse("M 0 0 A 10 10 0 0 1 20 0")
        #expect(path.structure == [.move, .curve, .curve])
        #expect(path.elements.last?.points.last == Point(20, 0))
        #expect(endPointsOnCircle(path.elements, Point(10, 0), 10))
        // Sweep 1 turns with increasing angle: clockwise on a y-down screen, so the
        // arc from the left end passes over the top, (10, −10).
        #expect(near(path.elements[1].points.last, Point(10, -10)))
        let mid = path.point(atLength: path.length / 2)?.point
        #expect(mid.map { abs($0.distance(to: Point(10, 0)) - 10) < 1e-3 } == true)
        #expect(near(mid, Point(10, -10), 1e-3))
        // The other sweep passes under.
        let under = try SVGPathData.parse("M 0 0 A 10 10 0 0 0 20 0")
        #expect(near(under.elements[1].points.last, Point(10, 10)))
    }

    @Test func compactArcFlagsAndRelativeArc() {
        #expect(parse("M0 0a10 10 0 0120 0") == parse("M 0 0 A 10 10 0 0 1 20 0"))
        #expect(parse("M0 0a10,10,0,0,1,20,0") == parse("M 0 0 A 10 10 0 0 1 20 0"))
    }

    @Test func arcRadiiTooSmallAreScaledUp() {
        #expect(parse("M 0 0 A 1 1 0 0 1 20 0")?.last?.points.last == Point(20, 0))
        #expect(endPointsOnCircle(parse("M 0 0 A 1 1 0 0 1 20 0") ?? [], Point(10, 0), 10))
        // Negative radii are their absolute values.
        #expect(parse("M 0 0 A -10 -10 0 0 1 20 0") == parse("M 0 0 A 10 10 0 0 1 20 0"))
    }

    @Test func largeArcFlagPicksTheThreeQuarterArc() throws {
        // Radius 10 through (0,0) and (10,10): centers (10,0) and (0,10). Sweep 0 is
        // decreasing angle; round (10,0) that is π → π/2, only 90°, so the large arc
        // goes round (0,10): −π/2 → −2π, passing (−10,10) and (0,20).
        let path = try SVGPathData.parse("M 0 0 A 10 10 0 1 0 10 10")
        #expect(path.structure == [.move, .curve, .curve, .curve])
        #expect(path.elements.last?.points.last == Point(10, 10))
        #expect(endPointsOnCircle(path.elements, Point(0, 10), 10))
        #expect(near(path.elements[1].points.last, Point(-10, 10)))
        #expect(near(path.elements[2].points.last, Point(0, 20)))
        #expect(abs(path.length - 0.75 * 2 * .pi * 10) < 2e-4 * path.length)
    }

    @Test func rotatedEllipseArc() throws {
        // rx = 20 along the rotated x axis (now +y): a half ellipse from (0,0) to (0,40)
        // around (0,20), clockwise on screen, so its middle is the right-most (10, 20).
        let path = try SVGPathData.parse("M 0 0 A 20 10 90 0 1 0 40")
        #expect(path.elements.last?.points.last == Point(0, 40))
        #expect(near(path.elements[1].points.last, Point(10, 20)))
    }

    @Test func degenerateArcs() {
        #expect(parse("M0 0 A 0 5 0 0 1 10 0") == [.move(to: Point(0, 0)), .line(to: Point(10, 0))])
        #expect(parse("M 5 5 A 3 3 0 0 1 5 5") == [.move(to: Point(5, 5))])
    }

    @Test func errorsPointAtTheOffendingCharacter() {
        #expect(failure("M 0 0 L 10") == PathSyntaxError(offset: 10, message: "expected a number"))
        #expect(failure("M 0 0 X 5") == PathSyntaxError(offset: 6, message: "unknown command 'X'"))
        #expect(failure("L 0 0") == PathSyntaxError(offset: 0, message: "path must start with M"))
        #expect(failure("  10 0")?.offset == 2)
        #expect(failure("M 0 0 L 1 # 2") == PathSyntaxError(offset: 10, message: "expected a number"))
        #expect(failure("M 0 0 A 1 1 0 2 1 5 5")?.offset == 14)
        #expect(failure("M 0 0 Z 5") == PathSyntaxError(offset: 8, message: "expected a command"))
        // Offsets count Characters, not bytes or UTF-16 units.
        #expect(failure("M 0 0 L 👍 1")?.offset == 8)
        #expect(failure("M 0 0 é")?.offset == 6)
        #expect(failure("M 0 0 L 1 2,") == PathSyntaxError(offset: 12, message: "expected a number"))
    }
}
