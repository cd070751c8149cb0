import Foundation
import Testing
@testable import KineticGeometry

@Suite struct NamedShapeTests {
    @Test func parameterNamesAreTheContractTable() {
        #expect(NamedShape.parameterNames == [
            "gooeyCircle": ["center", "size", "travel", "progress", "showControlPoints"],
            "gooeyMenu": ["rect", "inset", "xAxisPercent", "state"],
            "slideMenuEdge": ["width", "height", "extraArea", "diff"],
            "stickyBubble": ["from", "radius", "to", "toRadius", "viscosity"],
            "liquidBridge": ["from", "fromRadius", "to", "toRadius", "threshold", "angleThreshold"],
            "pullRefreshArrows": ["size", "progress", "radius", "lineLength", "space"],
            "checkmark": ["rect"],
        ])
    }

    @Test func buildsEachShapeFromADictionary() throws {
        let circle = try NamedShape.gooeyCircle.geometry(parameters: [
            "center": .point(Point(100, 50)), "size": .number(40), "travel": .number(200), "progress": .number(0.3),
        ])
        #expect(circle.path == GooeyCircle(center: Point(100, 50), size: 40, travel: 200, progress: 0.3).path)
        #expect(circle.controlPoints == nil)

        let menu = try NamedShape.gooeyMenu.path(parameters: [
            "rect": .numbers([0, 0, 180, 180]), "xAxisPercent": .number(0.4), "state": .number(2),
        ])
        #expect(menu == GooeyMenu(rect: Rect(0, 0, 180, 180), inset: 30, xAxisPercent: 0.4, state: .state2).path)

        let edge = try NamedShape.slideMenuEdge.path(parameters: ["width": .number(217.5), "height": .number(667),
                                                                  "diff": .number(12)])
        #expect(edge == SlideMenuEdge(width: 217.5, height: 667, extraArea: 30, diff: 12).path)

        let arrows = try NamedShape.pullRefreshArrows.path(parameters: ["size": .size(Size(320, 120)),
                                                                        "progress": .number(0.7)])
        #expect(arrows == PullRefreshArrows(size: Size(320, 120), progress: 0.7, radius: 10, lineLength: 30,
                                            space: 1).path)

        let check = try NamedShape(name: "checkmark").path(parameters: ["rect": .rect(Rect(5, 5, 60, 60))])
        #expect(check == Checkmark(rect: Rect(5, 5, 60, 60)).path)
    }

    @Test func flagsAndOverlay() throws {
        let near = try NamedShape.stickyBubble.geometry(parameters: [
            "from": .point(Point(0, 0)), "radius": .number(17.5), "to": .numbers([0, 100]),
        ])
        // toRadius defaults to radius, viscosity to 20.
        #expect(near.path == StickyBubble(from: .zero, radius: 17.5, to: Point(0, 100), toRadius: 17.5,
                                          viscosity: 20).path)
        #expect(near.flags == ["broken": false])
        let far = try NamedShape.stickyBubble.geometry(parameters: [
            "from": .point(Point(0, 0)), "radius": .number(17.5), "to": .point(Point(0, 300)),
        ])
        #expect(far.flags == ["broken": true] && far.path.isEmpty)

        let bridge = try NamedShape.liquidBridge.geometry(parameters: [
            "from": .point(Point(0, 0)), "fromRadius": .number(10), "to": .point(Point(20, 0)),
            "toRadius": .number(8), "threshold": .number(10),
        ])
        #expect(bridge.flags == ["connected": true])
        #expect(bridge.path == LiquidBridge(from: .zero, fromRadius: 10, to: Point(20, 0), toRadius: 8,
                                            threshold: 10, angleThreshold: 0.5).path)

        let shown = try NamedShape.gooeyCircle.geometry(parameters: [
            "center": .point(Point(100, 50)), "size": .number(40), "travel": .number(200),
            "showControlPoints": .bool(true),
        ])
        let circle = GooeyCircle(center: Point(100, 50), size: 40, travel: 200)
        #expect(shown.controlPoints == ControlPointsOverlay(outerSquare: circle.outerSquare,
                                                            pointSquares: circle.pointSquares,
                                                            helperLines: circle.helperLines))
    }

    @Test func reportsBadParametersAsTypedErrors() throws {
        #expect(throws: NamedShapeError.unknownShape("gooeyBall", known: NamedShape.allCases.map(\.rawValue))) {
            try NamedShape(name: "gooeyBall")
        }
        #expect(throws: NamedShapeError.missingParameter(shape: .checkmark, name: "rect")) {
            try NamedShape.checkmark.path(parameters: [:])
        }
        #expect(throws: NamedShapeError.unknownParameter(shape: .checkmark, name: "frame", allowed: ["rect"])) {
            try NamedShape.checkmark.path(parameters: ["frame": .rect(.zero), "rect": .rect(.zero)])
        }
        #expect(throws: NamedShapeError.wrongType(shape: .slideMenuEdge, name: "width", expected: .number,
                                                  found: .point)) {
            try NamedShape.slideMenuEdge.path(parameters: ["width": .point(.zero), "height": .number(1)])
        }
        #expect(throws: NamedShapeError.wrongType(shape: .gooeyMenu, name: "rect", expected: .rect,
                                                  found: .numbers)) {
            try NamedShape.gooeyMenu.path(parameters: ["rect": .numbers([0, 0, 10])])
        }
        #expect(throws: NamedShapeError.invalidValue(shape: .gooeyMenu, name: "state", reason: "must be 1, 2 or 3")) {
            try NamedShape.gooeyMenu.path(parameters: ["rect": .rect(Rect(0, 0, 100, 100)), "state": .number(4)])
        }
        #expect(throws: NamedShapeError.invalidValue(shape: .stickyBubble, name: "viscosity", reason: "must be positive")) {
            try NamedShape.stickyBubble.path(parameters: ["from": .point(.zero), "radius": .number(10),
                                                          "to": .point(.zero), "viscosity": .number(0)])
        }
        // Lengths must not be negative (section 9's "negative size"); zero is a point.
        #expect(throws: NamedShapeError.invalidValue(shape: .stickyBubble, name: "radius", reason: "must not be negative")) {
            try NamedShape.stickyBubble.path(parameters: ["from": .point(.zero), "radius": .number(-20), "to": .point(.zero)])
        }
        #expect(throws: NamedShapeError.invalidValue(shape: .liquidBridge, name: "toRadius", reason: "must not be negative")) {
            try NamedShape.liquidBridge.path(parameters: ["from": .point(.zero), "fromRadius": .number(5), "to": .point(.zero),
                                                          "toRadius": .number(-1), "threshold": .number(10)])
        }
        #expect(throws: NamedShapeError.invalidValue(shape: .gooeyCircle, name: "size", reason: "must not be negative")) {
            try NamedShape.gooeyCircle.path(parameters: ["center": .point(.zero), "size": .number(-1), "travel": .number(10)])
        }
        _ = try NamedShape.stickyBubble.path(parameters: ["from": .point(.zero), "radius": .number(0), "to": .point(.zero)])
        #expect(throws: NamedShapeError.invalidValue(shape: .checkmark, name: "rect", reason: "must be finite")) {
            try NamedShape.checkmark.path(parameters: ["rect": .rect(Rect(0, 0, .nan, 1))])
        }
    }

    @Test func stateRoundsToTheNearestPhase() throws {
        let rect = AnimatableValue.rect(Rect(0, 0, 100, 100))
        let almostTwo = try NamedShape.gooeyMenu.path(parameters: ["rect": rect, "state": .number(1.6)])
        #expect(almostTwo == GooeyMenu(rect: Rect(0, 0, 100, 100), state: .state2).path)
    }
}
