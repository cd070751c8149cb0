import Foundation
import Testing
@testable import KineticGeometry

@Suite struct GooeyMenuTests {
    let OFF = 30.0
    let frameSize = Size(200, 200)

    /// MenuLayer's `drawInContext:` written out literally for a layer whose frame is at
    /// the origin. The left points use `OFF` as the published KYGooeyMenu does (the
    /// book's listing prints `0.0f` there; see `GooeyMenu`).
    func seedPath(_ xAxisPercent: Double, _ animState: Int) -> [PathElement] {
        let frame = Rect(0, 0, frameSize.width, frameSize.height)
        let real_rect = Rect(frame.minX + OFF, frame.minY + OFF, frame.width - 2 * OFF, frame.height - 2 * OFF)
        let offset = real_rect.size.width / 3.6
        let center = Point(frame.midX, frame.midY)
        var top_left = Point.zero, top_center = Point.zero, top_right = Point.zero
        let _xAxisPercent = xAxisPercent
        if animState == 1 {
            let moveDistance_1 = _xAxisPercent * (real_rect.size.width / 2 - offset) / 2
            top_left = Point(center.x - offset - moveDistance_1 * 2, OFF)
            top_center = Point(center.x - moveDistance_1, OFF)
            top_right = Point(center.x + offset, OFF)
        } else if animState == 2 {
            let moveDistance_1 = (real_rect.size.width / 2 - offset) / 2
            let moveDistance_2 = _xAxisPercent * (real_rect.size.width / 3)
            top_left = Point(center.x - offset - moveDistance_1 * 2 + moveDistance_2, OFF)
            top_center = Point(center.x - moveDistance_1 + moveDistance_2, OFF)
            top_right = Point(center.x + offset + moveDistance_2, OFF)
        } else if animState == 3 {
            let moveDistance_1 = (real_rect.size.width / 2 - offset) / 2
            let moveDistance_2 = (real_rect.size.width / 3)
            let gooeyDis_1 = _xAxisPercent * (center.x - offset - moveDistance_1 * 2 + moveDistance_2 - (center.x - offset))
            let gooeyDis_2 = _xAxisPercent * (center.x - moveDistance_1 + moveDistance_2 - (center.x))
            let gooeyDis_3 = _xAxisPercent * (center.x + offset + moveDistance_2 - (center.x + offset))
            top_left = Point(center.x - offset - moveDistance_1 * 2 + moveDistance_2 - gooeyDis_1, OFF)
            top_center = Point(center.x - moveDistance_1 + moveDistance_2 - gooeyDis_2, OFF)
            top_right = Point(center.x + offset + moveDistance_2 - gooeyDis_3, OFF)
        }
        let right_top = Point(real_rect.maxX, center.y - offset)
        let right_center = Point(real_rect.maxX, center.y)
        let right_bottom = Point(real_rect.maxX, center.y + offset)
        let bottom_left = Point(center.x - offset, real_rect.maxY)
        let bottom_center = Point(center.x, real_rect.maxY)
        let bottom_right = Point(center.x + offset, real_rect.maxY)
        let left_top = Point(OFF, center.y - offset)
        let left_center = Point(OFF, center.y)
        let left_bottom = Point(OFF, center.y + offset)
        return [
            .move(to: top_center),
            .curve(to: right_center, control1: top_right, control2: right_top),
            .curve(to: bottom_center, control1: right_bottom, control2: bottom_right),
            .curve(to: left_center, control1: bottom_left, control2: left_bottom),
            .curve(to: top_center, control1: left_top, control2: top_left),
            .close,
        ]
    }

    func menu(_ x: Double, _ state: GooeyMenu.AnimationState, origin: Point = .zero) -> GooeyMenu {
        GooeyMenu(rect: Rect(origin: origin, size: frameSize), inset: OFF, xAxisPercent: x, state: state)
    }

    @Test func pathMatchesTheSeedFormulaInEveryState() {
        for state in GooeyMenu.AnimationState.allCases {
            for x in [0, 0.25, 0.5, 0.75, 1, -0.3, 1.15] {
                expectSamePath(menu(x, state).path, seedPath(x, state.rawValue), "state \(state.rawValue) x \(x)")
            }
        }
    }

    @Test func statesChainWithoutJumps() {
        // Each state starts where the previous one ended, and state 3 ends at rest.
        #expect(menu(1, .state1).path == menu(0, .state2).path)
        expectSamePath(menu(1, .state2).path, menu(0, .state3).path.elements)
        expectSamePath(menu(1, .state3).path, menu(0, .state1).path.elements)
        // At rest the ball is left-right symmetric about the rect's center.
        let rest = menu(0, .state1).points
        #expect(near(mirrored(rest.topLeft, about: 100), rest.topRight, 1e-12))
        #expect(near(mirrored(rest.leftCenter, about: 100), rest.rightCenter, 1e-12))
    }

    @Test func followsTheRectOrigin() {
        let moved = menu(0.4, .state2, origin: Point(15, -7)).path
        expectSamePath(moved, menu(0.4, .state2).path.mapPoints { $0 + Point(15, -7) }.elements, tolerance: 1e-9)
    }
}
