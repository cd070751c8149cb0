import Foundation

/// The ball of KYGooeyMenu's `MenuLayer`: four cubics through the midpoints of an
/// inset rect whose three top control points slide with the custom property
/// `xAxisPercent` in one of three animation states — state 1 drags the left and
/// middle points left, state 2 carries all three right, state 3 springs them back.
///
/// The seed mixes the layer's `frame` (for the center) with its own coordinates (the
/// literal `OFF` and `0.0f` edges); here everything is relative to `rect`, which is the
/// same when `rect`'s origin is zero as in the demo. The book's listing puts the left
/// points at x = `0.0f` while every other side is inset by `OFF`; the published
/// KYGooeyMenu uses `OFF` there, which keeps the ball round, so the left side is inset
/// by `inset` too. The unused `hightFactor` of state 2 is left out.
public struct GooeyMenu: Hashable, Sendable {
    /// The layer's frame (the seed's `self.frame`).
    public var rect: Rect
    /// The margin between `rect` and the ball (the seed's `OFF`, 30 in the demo).
    public var inset: Double
    /// The animated custom property: 0 → 1 in each state.
    public var xAxisPercent: Double
    /// Which of the three animation phases the top points follow.
    public var state: AnimationState

    /// The seed's `STATE1`, `STATE2`, `STATE3` (`animState`).
    public enum AnimationState: Int, Hashable, Sendable, CaseIterable {
        case state1 = 1, state2, state3
    }

    /// The demo's `OFF`.
    public static let defaultInset = 30.0

    public init(rect: Rect, inset: Double = GooeyMenu.defaultInset, xAxisPercent: Double = 0,
                state: AnimationState = .state1) {
        self.rect = rect; self.inset = inset; self.xAxisPercent = xAxisPercent; self.state = state
    }

    /// The twelve points, named as in the seed: three on each side, the middle one of
    /// each side an anchor, the others controls.
    public struct Points: Hashable, Sendable {
        public var topLeft, topCenter, topRight: Point
        public var rightTop, rightCenter, rightBottom: Point
        public var bottomLeft, bottomCenter, bottomRight: Point
        public var leftTop, leftCenter, leftBottom: Point
    }

    public var points: Points {
        let realRect = rect.insetBy(dx: inset, dy: inset)
        let offset = realRect.size.width / 3.6
        let center = rect.center
        let top = rect.minY + inset, left = rect.minX + inset
        let x = xAxisPercent
        let topXs: (left: Double, center: Double, right: Double)
        switch state {
        case .state1:
            let move1 = x * (realRect.size.width / 2 - offset) / 2
            topXs = (center.x - offset - move1 * 2, center.x - move1, center.x + offset)
        case .state2:
            let move1 = (realRect.size.width / 2 - offset) / 2
            let move2 = x * (realRect.size.width / 3)
            topXs = (center.x - offset - move1 * 2 + move2, center.x - move1 + move2, center.x + offset + move2)
        case .state3:
            let move1 = (realRect.size.width / 2 - offset) / 2
            let move2 = realRect.size.width / 3
            // Each point returns from where state 2 left it by xAxisPercent of that way.
            let gooey1 = x * (center.x - offset - move1 * 2 + move2 - (center.x - offset))
            let gooey2 = x * (center.x - move1 + move2 - center.x)
            let gooey3 = x * (center.x + offset + move2 - (center.x + offset))
            topXs = (center.x - offset - move1 * 2 + move2 - gooey1,
                     center.x - move1 + move2 - gooey2,
                     center.x + offset + move2 - gooey3)
        }
        return Points(
            topLeft: Point(topXs.left, top), topCenter: Point(topXs.center, top), topRight: Point(topXs.right, top),
            rightTop: Point(realRect.maxX, center.y - offset), rightCenter: Point(realRect.maxX, center.y),
            rightBottom: Point(realRect.maxX, center.y + offset),
            bottomLeft: Point(center.x - offset, realRect.maxY), bottomCenter: Point(center.x, realRect.maxY),
            bottomRight: Point(center.x + offset, realRect.maxY),
            leftTop: Point(left, center.y - offset), leftCenter: Point(left, center.y),
            leftBottom: Point(left, center.y + offset))
    }

    /// Move to the top center, cubics clockwise on screen through the right, bottom and
    /// left centers back to the top, close — the seed's `circlePath`.
    public var path: BezierPath {
        let p = points
        var path = BezierPath()
        path.move(to: p.topCenter)
        path.addCurve(to: p.rightCenter, control1: p.topRight, control2: p.rightTop)
        path.addCurve(to: p.bottomCenter, control1: p.rightBottom, control2: p.bottomRight)
        path.addCurve(to: p.leftCenter, control1: p.bottomLeft, control2: p.leftBottom)
        path.addCurve(to: p.topCenter, control1: p.leftTop, control2: p.topLeft)
        path.close()
        return path
    }
}
