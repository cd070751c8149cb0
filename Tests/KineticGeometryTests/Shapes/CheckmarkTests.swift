import Foundation
import Testing
@testable import KineticGeometry

@Suite struct CheckmarkTests {
    /// The download button's `checkAnimation` path, written out literally, with
    /// `rectInCircle` as CGRectInset(bounds, w(1 − 1/√2)/2, w(1 − 1/√2)/2).
    func seedPath(bounds: Rect) -> [PathElement] {
        let inset = bounds.size.width * (1 - 1 / sqrt(2.0)) / 2
        let rectInCircle = Rect(bounds.origin.x + inset, bounds.origin.y + inset,
                                bounds.size.width - 2 * inset, bounds.size.height - 2 * inset)
        return [
            .move(to: Point(rectInCircle.origin.x + rectInCircle.size.width / 9,
                            rectInCircle.origin.y + rectInCircle.size.height * 2 / 3)),
            .line(to: Point(rectInCircle.origin.x + rectInCircle.size.width / 3,
                            rectInCircle.origin.y + rectInCircle.size.height * 9 / 10)),
            .line(to: Point(rectInCircle.origin.x + rectInCircle.size.width * 8 / 10,
                            rectInCircle.origin.y + rectInCircle.size.height * 2 / 10)),
        ]
    }

    @Test func pathMatchesTheSeedFormula() {
        for bounds in [Rect(0, 0, 100, 100), Rect(20, 35, 64, 64), Rect(-10, 5, 44, 44)] {
            let check = Checkmark(rect: Checkmark.rectInCircle(bounds: bounds))
            expectSamePath(check.path, seedPath(bounds: bounds), "bounds \(bounds)")
        }
    }

    @Test func rectInCircleIsInscribed() {
        let bounds = Rect(10, 20, 80, 80)
        let square = Checkmark.rectInCircle(bounds: bounds)
        for corner in square.corners { #expect(abs(corner.distance(to: bounds.center) - 40) < 1e-9) }
        // A plain rect is used as given: the check spans from w/9 to 8w/10 across it.
        let box = Checkmark(rect: Rect(0, 0, 90, 90)).path.boundingBox
        #expect(abs(box.minX - 10) < 1e-12 && abs(box.maxX - 72) < 1e-12)
        #expect(abs(box.minY - 18) < 1e-12 && abs(box.maxY - 81) < 1e-12)
    }
}
