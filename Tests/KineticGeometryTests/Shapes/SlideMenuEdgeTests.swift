import Foundation
import Testing
@testable import KineticGeometry

@Suite struct SlideMenuEdgeTests {
    let EXTRAAREA = 30.0
    let keyWindow = Size(375, 667)

    /// GooeySlideMenu's `drawRect:` written out literally, with the menu's frame as the
    /// seed sets it: `keyWindow.width/2 + EXTRAAREA` wide, the window's height tall.
    func seedPath(diff: Double) -> [PathElement] {
        let frame = Size(keyWindow.width / 2 + EXTRAAREA, keyWindow.height)
        return [
            .move(to: Point(0, 0)),
            .line(to: Point(frame.width - EXTRAAREA, 0)),
            .quadCurve(to: Point(frame.width - EXTRAAREA, frame.height),
                       control: Point(keyWindow.width / 2 + diff, keyWindow.height / 2)),
            .line(to: Point(0, frame.height)),
            .close,
        ]
    }

    @Test func pathMatchesTheSeedFormula() {
        for diff in [-42.5, -10, 0, 7.25, 60] {
            let edge = SlideMenuEdge(width: keyWindow.width / 2 + EXTRAAREA, height: keyWindow.height, diff: diff)
            expectSamePath(edge.path, seedPath(diff: diff), "diff \(diff)")
        }
    }

    @Test func bulgeIsHalfTheDiffAtMidHeight() {
        // A quadratic's midpoint is (p0 + 2c + p1)/4: the edge, at x = 170, bulges by diff/2.
        let edge = SlideMenuEdge(width: 200, height: 400, extraArea: 30, diff: 40)
        let box = edge.path.boundingBox
        #expect(abs(box.maxX - (170 + 20)) < 1e-9)
        #expect(SlideMenuEdge(width: 200, height: 400).extraArea == 30)
    }
}
