import Foundation
import Testing
@testable import KineticGeometry

/// LiquidLoader's `SimpleCircleLiquidEngine` (with its CGPoint helpers), written out
/// literally: what the engine's `push(circle, other:)` would add as layers, the paths
/// concatenated in order.
private struct SeedEngine {
    struct Circle { var center: Point; var radius: Double }
    let radiusThresh: Double
    let angleThresh: Double
    let ConnectThresh = 0.3

    func circlePoint(_ c: Circle, _ rad: Double) -> Point {
        Point(c.center.x + c.radius * cos(rad), c.center.y + c.radius * sin(rad))
    }
    func split(_ a: Point, _ point: Point, ratio: Double) -> Point {
        Point(a.x * ratio + point.x * (1.0 - ratio), a.y * ratio + point.y * (1.0 - ratio))
    }
    func mid(_ a: Point, _ point: Point) -> Point { split(a, point, ratio: 0.5) }
    func intersection(_ from: Point, to: Point, from2: Point, to2: Point) -> Point? {
        let ac = Point(to.x - from.x, to.y - from.y)
        let bd = Point(to2.x - from2.x, to2.y - from2.y)
        let ab = Point(from2.x - from.x, from2.y - from.y)
        let bc = Point(to.x - from2.x, to.y - from2.y)
        let area = bd.x * ab.y - bd.y * ab.x
        let area2 = bd.x * bc.y - bd.y * bc.x
        if abs(area + area2) >= 0.1 {
            let ratio = area / (area + area2)
            return Point(from.x + ratio * ac.x, from.y + ratio * ac.y)
        }
        return nil
    }
    func circleConnectedPoint(_ circle: Circle, other: Circle, angle: Double) -> (Point, Point) {
        let vec = Point(other.center.x - circle.center.x, other.center.y - circle.center.y)
        let radian = atan2(vec.y, vec.x)
        return (circlePoint(circle, radian + angle), circlePoint(circle, radian - angle))
    }
    func circleConnectedPoint(_ circle: Circle, other: Circle) -> (Point, Point) {
        var ratio = circleRatio(circle, other: other)
        ratio = (ratio + ConnectThresh) / (1.0 + ConnectThresh)
        let angle = Double.pi / 2 * ratio
        return circleConnectedPoint(circle, other: other, angle: angle)
    }
    func circleRatio(_ circle: Circle, other: Circle) -> Double {
        let distance = other.center.distance(to: circle.center)
        let ratio = 1.0 - (distance - radiusThresh) / (circle.radius + other.radius + radiusThresh)
        return min(max(ratio, 0.0), 1.0)
    }
    func isConnected(_ circle: Circle, other: Circle) -> Bool {
        let distance = circle.center.distance(to: other.center)
        return distance - circle.radius - other.radius < radiusThresh
    }
    func normalPath(_ circle: Circle, other: Circle) -> [PathElement]? {
        let (p1, p2) = circleConnectedPoint(circle, other: other)
        let (p3, p4) = circleConnectedPoint(other, other: circle)
        guard let crossed = intersection(p1, to: p3, from2: p2, to2: p4) else { return nil }
        let r = circleRatio(circle, other: other)
        let mul = split(Point((p1.x + p4.x) / 2, (p1.y + p4.y) / 2), crossed, ratio: r * 1.25 - 0.25)
        let mul2 = split(Point((p2.x + p3.x) / 2, (p2.y + p3.y) / 2), crossed, ratio: r * 1.25 - 0.25)
        return [.move(to: p1), .quadCurve(to: p4, control: mul), .line(to: p3), .quadCurve(to: p2, control: mul2), .close]
    }
    func splitPath(_ circle: Circle, other: Circle, ratio: Double) -> [[PathElement]] {
        let deg40 = 40 * Double.pi / 180
        let (p1, p2) = circleConnectedPoint(circle, other: other, angle: deg40)
        let (p3, p4) = circleConnectedPoint(other, other: circle, angle: deg40)
        guard let crossed = intersection(p1, to: p3, from2: p2, to2: p4) else { return [] }
        let (d1, _) = circleConnectedPoint(circle, other: other, angle: 0)
        let (d2, _) = circleConnectedPoint(other, other: circle, angle: 0)
        let r = (ratio - ConnectThresh) / (angleThresh - ConnectThresh)
        let a1 = split(d1, mid(crossed, d2), ratio: 1 - r)
        let part: [PathElement] = [.move(to: p1), .quadCurve(to: p2, control: a1), .close]
        let a2 = split(d2, mid(crossed, d1), ratio: 1 - r)
        let part2: [PathElement] = [.move(to: p3), .quadCurve(to: p4, control: a2), .close]
        return [part, part2]
    }
    func generateConnectedPath(_ circle: Circle, other: Circle) -> [[PathElement]]? {
        guard isConnected(circle, other: other) else { return nil }
        let ratio = circleRatio(circle, other: other)
        if ratio >= angleThresh && ratio <= 1.0 {
            return normalPath(circle, other: other).map { [$0] }
        } else if ratio >= 0.0 && ratio < angleThresh {
            return splitPath(circle, other: other, ratio: ratio)
        }
        return nil
    }
}

@Suite struct LiquidBridgeTests {
    let from = Point(50, 40)
    let fromRadius = 10.0, toRadius = 8.0, threshold = 10.0
    let direction = Point(cos(0.7), sin(0.7))

    func bridge(distance: Double, angleThreshold: Double = 0.5) -> LiquidBridge {
        LiquidBridge(from: from, fromRadius: fromRadius, to: from + direction * distance, toRadius: toRadius,
                     threshold: threshold, angleThreshold: angleThreshold)
    }

    @Test func pathMatchesTheEngine() {
        // ratio = 1 − (d − 10)/28: normal neck for d ≤ 24 (ratio ≥ 0.5), two drops for
        // 24 < d < 28, nothing from 28 on.
        for angleThreshold in [0.5, 0.2] {
            let engine = SeedEngine(radiusThresh: threshold, angleThresh: angleThreshold)
            for d in [4.0, 12, 18, 23.9, 24.5, 26, 27.9, 28, 35] {
                let shape = bridge(distance: d, angleThreshold: angleThreshold)
                let circle = SeedEngine.Circle(center: shape.from, radius: fromRadius)
                let other = SeedEngine.Circle(center: shape.to, radius: toRadius)
                let expected = engine.generateConnectedPath(circle, other: other)?.flatMap { $0 } ?? []
                expectSamePath(shape.path, expected, "d \(d) angle \(angleThreshold)")
                #expect(shape.isConnected == engine.isConnected(circle, other: other))
            }
        }
        // The cases above cover each branch.
        #expect(bridge(distance: 18).path.structure == [.move, .quadCurve, .line, .quadCurve, .close])
        #expect(bridge(distance: 26).path.structure == [.move, .quadCurve, .close, .move, .quadCurve, .close])
        #expect(bridge(distance: 26).isSplit && !bridge(distance: 18).isSplit)
    }

    @Test func disconnectsWhenTheGapReachesTheThreshold() {
        // Gap = d − 18; connected while the gap is below 10 (exact distances along x).
        func horizontal(_ d: Double) -> LiquidBridge {
            LiquidBridge(from: from, fromRadius: fromRadius, to: from + Point(d, 0), toRadius: toRadius,
                         threshold: threshold)
        }
        #expect(horizontal(27.999).isConnected && !horizontal(27.999).path.isEmpty)
        #expect(!horizontal(28).isConnected)
        #expect(horizontal(28).path.isEmpty)
        #expect(!horizontal(40).isConnected && horizontal(40).path.isEmpty)
    }

    @Test func neckIsSymmetricAboutTheAxis() {
        // Reflecting across the line of centers swaps the two sides of the neck.
        let shape = bridge(distance: 16)
        func reflect(_ p: Point) -> Point {
            let v = p - from, along = direction * v.dot(direction)
            return from + along * 2 - v
        }
        let e = shape.path.elements
        guard case .move(let p1) = e[0], case .quadCurve(let p4, let c1) = e[1], case .line(let p3) = e[2],
              case .quadCurve(let p2, let c2) = e[3] else { Issue.record("unexpected structure"); return }
        #expect(near(reflect(p1), p2, 1e-9))
        #expect(near(reflect(p4), p3, 1e-9))
        #expect(near(reflect(c1), c2, 1e-9))
        #expect(abs(p1.distance(to: from) - fromRadius) < 1e-9)
        #expect(abs(p4.distance(to: shape.to) - toRadius) < 1e-9)
    }
}
