import Foundation
import Testing
@testable import KineticGeometry

/// Records an issue unless `actual` has exactly `expected`'s element kinds and every
/// point within `tolerance` — how each named shape is compared with its seed formula.
func expectSamePath(_ actual: BezierPath, _ expected: [PathElement], tolerance: Double = 1e-6,
                    _ label: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let kinds = actual.elements.map(\.kind), expectedKinds = expected.map(\.kind)
    guard kinds == expectedKinds else {
        Issue.record("\(label): structure \(kinds) != \(expectedKinds)", sourceLocation: sourceLocation)
        return
    }
    for (i, (a, e)) in zip(actual.elements, expected).enumerated() {
        for (p, q) in zip(a.points, e.points) where !(p.distance(to: q) <= tolerance) {
            Issue.record("\(label): element \(i) point \(p) != \(q)", sourceLocation: sourceLocation)
        }
    }
}

/// UIBezierPath(rect:) written out: TL, TR, BR, BL, close.
func rectElements(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [PathElement] {
    [.move(to: Point(x, y)), .line(to: Point(x + w, y)), .line(to: Point(x + w, y + h)),
     .line(to: Point(x, y + h)), .close]
}

/// `p` mirrored about the vertical line x = `axis`.
func mirrored(_ p: Point, about axis: Double) -> Point { Point(2 * axis - p.x, p.y) }
