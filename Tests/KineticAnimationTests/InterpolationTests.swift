import Foundation
import Testing
import KineticGeometry
@testable import KineticAnimation

private func near(_ a: Transform3D, _ b: Transform3D, _ tol: Double = 1e-9) -> Bool {
    zip(a.fields, b.fields).allSatisfy { abs($0 - $1) < tol }
}

private func transform(_ v: AnimatableValue?) -> Transform3D? {
    if case .transform(let t)? = v { t } else { nil }
}

@Test func scalarsAndStructsBlendComponentWise() {
    #expect(Interpolation.lerp(.number(10), .number(20), 0.25) == .number(12.5))
    #expect(Interpolation.lerp(.number(10), .number(20), 1.5) == .number(25))    // extrapolates
    #expect(Interpolation.lerp(.number(10), .number(20), -0.5) == .number(5))
    #expect(Interpolation.lerp(.point(Point(0, 10)), .point(Point(10, 30)), 0.5) == .point(Point(5, 20)))
    #expect(Interpolation.lerp(.size(Size(2, 4)), .size(Size(4, 8)), 0.5) == .size(Size(3, 6)))
    #expect(Interpolation.lerp(.rect(Rect(0, 0, 10, 20)), .rect(Rect(10, 20, 30, 40)), 0.5)
            == .rect(Rect(5, 10, 20, 30)))
    #expect(Interpolation.lerp(.numbers([0, 1]), .numbers([1, 3]), 0.5) == .numbers([0.5, 2]))
    #expect(Interpolation.lerp(.numbers([0, 1]), .numbers([1]), 0.5) == nil)
    #expect(Interpolation.lerp(.number(1), .point(.zero), 0.5) == nil)
}

@Test func colorsBlendInStraightRGBA() {
    let red = Color(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = Color(red: 0, green: 0, blue: 1, alpha: 0)
    #expect(Interpolation.lerp(.color(red), .color(blue), 0.25)
            == .color(Color(red: 0.75, green: 0, blue: 0.25, alpha: 0.75)))
    #expect(Interpolation.lerp(.colors([red, blue]), .colors([blue, red]), 0.5)
            == .colors([Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5),
                        Color(red: 0.5, green: 0, blue: 0.5, alpha: 0.5)]))
    #expect(Interpolation.lerp(.colors([red]), .colors([red, blue]), 0.5) == nil)
}

@Test func transformsBlendTheirComponents() {
    // Half-way from identity to a quarter turn is an eighth turn, not the matrix average
    // (which would shrink the layer to cos 45°).
    let half = transform(Interpolation.lerp(.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)), 0.5))
    #expect(half.map { near($0, .rotation(.pi / 4, 0, 0, 1)) } == true)

    // Scale 1 → 3 and translation (0,0) → (100, 50): (2, 2) scale and (50, 25) at 0.5.
    let end = Transform3D.scale(3, 3).concatenating(.translation(100, 50))
    let mid = transform(Interpolation.lerp(.transform(.identity), .transform(end), 0.5))
    #expect(mid.map { near($0, Transform3D.scale(2, 2).concatenating(.translation(50, 25))) } == true)

    // 170° → −170° turns 20° through 180°, the shorter way.
    let deg = Double.pi / 180
    let wrap = transform(Interpolation.lerp(.transform(.rotation(170 * deg, 0, 0, 1)),
                                            .transform(.rotation(-170 * deg, 0, 0, 1)), 0.5))
    #expect(wrap.map { near($0, .rotation(.pi, 0, 0, 1)) } == true)

    // An x rotation turns too (by quaternion; see TransformInterpolationTests).
    let tilt = Transform3D.rotation(.pi / 2, 1, 0, 0)
    let turned = transform(Interpolation.lerp(.transform(.identity), .transform(tilt), 0.5))
    #expect(turned.map { near($0, .rotation(.pi / 4, 1, 0, 0)) } == true)

    // A matrix that does not decompose (flattened along z) blends its entries.
    let flat = Transform3D(fields: [0.8, 0, 0, 0, 0, 0.77, 0.23, -0.00023, 0, 0, 0, 0, 0, 0, 0, 1])
    let blended = flat.flatMap { transform(Interpolation.lerp(.transform(.identity), .transform($0), 0.5)) }
    let average = flat.flatMap { f in Transform3D(fields: zip(Transform3D.identity.fields, f.fields).map { ($0 + $1) / 2 }) }
    #expect(blended != nil && blended == average)
}

@Test func pathsBlendPointByPoint() {
    var a = BezierPath(); a.move(to: Point(0, 0)); a.addLine(to: Point(10, 0))
    a.addCurve(to: Point(10, 10), control1: Point(12, 2), control2: Point(12, 8))
    a.addQuadCurve(to: Point(0, 0), control: Point(4, 4)); a.close()
    var b = BezierPath(); b.move(to: Point(0, 10)); b.addLine(to: Point(30, 10))
    b.addCurve(to: Point(20, 30), control1: Point(20, 4), control2: Point(14, 10))
    b.addQuadCurve(to: Point(0, 10), control: Point(8, 0)); b.close()
    var mid = BezierPath(); mid.move(to: Point(0, 5)); mid.addLine(to: Point(20, 5))
    mid.addCurve(to: Point(15, 20), control1: Point(16, 3), control2: Point(13, 9))
    mid.addQuadCurve(to: Point(0, 5), control: Point(6, 2)); mid.close()
    #expect(Interpolation.lerp(.path(a), .path(b), 0.5) == .path(mid))

    var other = BezierPath(); other.move(to: .zero); other.addLine(to: Point(1, 1)); other.addLine(to: Point(2, 2)); other.close()
    #expect(Interpolation.lerp(.path(a), .path(other), 0.5) == nil)
    #expect(Interpolation.add(.path(a), .path(a)) == nil)
}

@Test func discreteKindsSwitchHalfWay() {
    #expect(Interpolation.lerp(.bool(false), .bool(true), 0.49) == .bool(false))
    #expect(Interpolation.lerp(.bool(false), .bool(true), 0.5) == .bool(true))
    #expect(Interpolation.lerp(.image("a.png"), .image(nil), 0.2) == .image("a.png"))
    #expect(Interpolation.lerp(.image("a.png"), .image(nil), 0.8) == .image(nil))
}

@Test func addAccumulatesAndSubtractUndoes() {
    #expect(Interpolation.add(.number(2), .number(3)) == .number(5))
    #expect(Interpolation.add(.point(Point(1, 2)), .point(Point(10, 20))) == .point(Point(11, 22)))
    #expect(Interpolation.add(.rect(Rect(1, 2, 3, 4)), .rect(Rect(1, 1, 1, 1))) == .rect(Rect(2, 3, 4, 5)))
    #expect(Interpolation.add(.color(Color(red: 0.5, green: 0, blue: 0, alpha: 0.5)),
                              .color(Color(red: 0.25, green: 0.5, blue: 0, alpha: 0.25)))
            == .color(Color(red: 0.75, green: 0.5, blue: 0, alpha: 0.75)))
    #expect(Interpolation.add(.bool(true), .bool(true)) == nil)
    #expect(Interpolation.subtract(.number(5), .number(3)) == .number(2))

    // A `by` rotation applies in the layer's own frame, before the base translation:
    // (1, 0) turns a quarter (clockwise in y-down space) to (0, 1), then moves by (10, 0).
    let sum = transform(Interpolation.add(.transform(.translation(10, 0)), .transform(.rotation(.pi / 2, 0, 0, 1))))
    let mapped = sum?.apply(to: Point(1, 0))
    #expect(mapped.map { abs($0.x - 10) < 1e-9 && abs($0.y - 1) < 1e-9 } == true)

    let a = Transform3D.scale(2, 3).concatenating(.translation(5, 7))
    let b = Transform3D.rotation(0.3, 0, 0, 1).concatenating(.perspective(500))
    let difference = Interpolation.subtract(.transform(a), .transform(b))
    let back = difference.flatMap { Interpolation.add($0, .transform(b)) }
    #expect(transform(back).map { near($0, a) } == true)
    #expect(Interpolation.subtract(.transform(a), .transform(.scale(0, 1))) == nil)
}
