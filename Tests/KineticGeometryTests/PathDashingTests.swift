import Foundation
import Testing
@testable import KineticGeometry

/// `BezierPath.dashes(pattern:phase:)`: the dashes Core Graphics strokes, worked by hand.
@Suite struct PathDashingTests {
    /// A 3-4-5 diagonal, 50 long: a point `s` along it is (0.6 s, 0.8 s).
    let diagonal = BezierPath([.move(to: Point(0, 0)), .line(to: Point(30, 40))])
    let square = BezierPath([.move(to: Point(0, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 10)),
                             .line(to: Point(0, 10)), .close])

    static func along(_ s: Double) -> Point { Point(0.6 * s, 0.8 * s) }

    static func same(_ a: [PathElement], _ b: [PathElement]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.kind == y.kind && zip(x.points, y.points).allSatisfy { $0.distance(to: $1) < 1e-9 }
        }
    }

    @Test func dashesLieWhereThePatternPutsThemAlongTheLine() throws {
        // On 10, off 5 from 0: 0–10, 15–25, 30–40, 45–50.
        let cut = try #require(diagonal.dashes(pattern: [10, 5], phase: 0))
        let expected: [PathElement] = [(0, 10), (15, 25), (30, 40), (45, 50)].flatMap { a, b in
            [.move(to: Self.along(a)), .line(to: Self.along(b))]
        }
        #expect(Self.same(cut.elements, expected))
    }

    @Test func thePhaseStartsThatFarIntoThePattern() throws {
        // 12 into (10, 5) is 2 into the gap: the first dash starts at 3.
        let cut = try #require(diagonal.dashes(pattern: [10, 5], phase: 12))
        let expected: [PathElement] = [(3, 13), (18, 28), (33, 43), (48, 50)].flatMap { a, b in
            [.move(to: Self.along(a)), .line(to: Self.along(b))]
        }
        #expect(Self.same(cut.elements, expected))
        // A negative phase counts back from the period: −3 is 12.
        #expect(try #require(diagonal.dashes(pattern: [10, 5], phase: -3)) == cut)
    }

    @Test func anOddPatternIsReadTwiceOver() throws {
        // [10] is on 10, off 10.
        let cut = try #require(diagonal.dashes(pattern: [10], phase: 0))
        #expect(Self.same(cut.elements, [(0, 10), (20, 30), (40, 50)].flatMap { a, b in
            [PathElement.move(to: Self.along(a)), .line(to: Self.along(b))]
        }))
    }

    @Test func aDashTurnsCornersAndTheLastMeetsTheFirstOnAClosedPath() throws {
        // Perimeter 40, on 6 off 4 from 2: 0–4, 8–14 (round the corner at 10), 18–24,
        // 28–34, and 38–40 running into the first dash at the start: one dash.
        let cut = try #require(square.dashes(pattern: [6, 4], phase: 2))
        let expected: [PathElement] = [
            .move(to: Point(8, 0)), .line(to: Point(10, 0)), .line(to: Point(10, 4)),
            .move(to: Point(10, 8)), .line(to: Point(10, 10)), .line(to: Point(6, 10)),
            .move(to: Point(2, 10)), .line(to: Point(0, 10)), .line(to: Point(0, 6)),
            .move(to: Point(0, 2)), .line(to: Point(0, 0)), .line(to: Point(4, 0)),
        ]
        #expect(Self.same(cut.elements, expected))
        // A dash longer than the perimeter is the closed square itself.
        #expect(try #require(square.dashes(pattern: [50, 1], phase: 0)) == square)
    }

    @Test func dashesOnACurveAddUpToThePatternsShareOfItsLength() throws {
        let circle = bezierCircle(radius: 20)
        let cut = try #require(circle.dashes(pattern: [3, 2], phase: 0))
        // Each dash 3 long, measured on the curve.
        var dashes: [BezierPath] = []
        for element in cut.elements {
            if case .move = element { dashes.append(BezierPath()) }
            dashes[dashes.count - 1].elements.append(element)
        }
        // 125.66 round: dashes start every 5; the one from 125 runs on past the start
        // into the first (closed path): 25 dashes, the first written last.
        let perimeter = circle.length
        #expect(dashes.count == 25)
        for dash in dashes.dropLast() { #expect(abs(dash.length - 3) < 1e-6) }
        #expect(abs((dashes.last?.length ?? 0) - (perimeter - 125 + 3)) < 1e-6)
        for (k, dash) in dashes.enumerated() {
            let start = try #require(circle.point(atLength: 5 * Double(k + 1))).point
            #expect(near(dash.elements.first?.points.first, start, 1e-6))
        }
    }

    @Test func aPatternThatDrawsNoDashesOrTooManyIsRefused() {
        #expect(diagonal.dashes(pattern: [], phase: 0) == nil)
        #expect(diagonal.dashes(pattern: [0, 0], phase: 0) == nil)
        #expect(diagonal.dashes(pattern: [1, -1], phase: 0) == nil)
        #expect(diagonal.dashes(pattern: [.infinity], phase: 0) == nil)
        #expect(diagonal.dashes(pattern: [0.001, 0.001], phase: 0) == nil)
        #expect(diagonal.dashes(pattern: [0.001, 0.001], phase: 0, maximumDashes: 30_000) != nil)
    }

    @Test func aZeroLengthDashIsAZeroLengthLine() throws {
        let cut = try #require(diagonal.dashes(pattern: [0, 25], phase: 0))
        #expect(Self.same(cut.elements, [.move(to: Self.along(0)), .line(to: Self.along(0)),
                                         .move(to: Self.along(25)), .line(to: Self.along(25)),
                                         .move(to: Self.along(50)), .line(to: Self.along(50))]))
    }
}
