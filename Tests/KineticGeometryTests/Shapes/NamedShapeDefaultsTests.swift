import Foundation
import Testing
@testable import KineticGeometry

/// The required parameters and defaults documented in docs/extensions.md (Named shapes):
/// this pins the table to the code.
@Suite struct NamedShapeDefaultsTests {
    @Test func requiredParametersAreTheDocumentedOnes() {
        let required = Dictionary(uniqueKeysWithValues: NamedShape.allCases.map {
            ($0.rawValue, $0.parameters.filter(\.isRequired).map(\.name))
        })
        #expect(required == [
            "gooeyCircle": ["center", "size", "travel"],
            "gooeyMenu": ["rect"],
            "slideMenuEdge": ["width", "height"],
            "stickyBubble": ["from", "radius", "to"],
            "liquidBridge": ["from", "fromRadius", "to", "toRadius", "threshold"],
            "pullRefreshArrows": ["size"],
            "checkmark": ["rect"],
        ])
    }

    @Test func defaultsAreTheDocumentedOnes() {
        func defaults(_ shape: NamedShape) -> [String: AnimatableValue] {
            var d: [String: AnimatableValue] = [:]
            for p in shape.parameters { if let v = p.defaultValue { d[p.name] = v } }
            return d
        }
        #expect(defaults(.gooeyCircle) == ["progress": .number(0.5), "showControlPoints": .bool(false)])
        #expect(defaults(.gooeyMenu) == ["inset": .number(30), "xAxisPercent": .number(0), "state": .number(1)])
        #expect(defaults(.slideMenuEdge) == ["extraArea": .number(30), "diff": .number(0)])
        #expect(defaults(.stickyBubble) == ["viscosity": .number(20)])
        #expect(NamedShape.stickyBubble.parameter("toRadius")?.defaultParameter == "radius")
        #expect(defaults(.liquidBridge) == ["angleThreshold": .number(0.5)])
        #expect(defaults(.pullRefreshArrows) == ["progress": .number(0), "radius": .number(10),
                                                 "lineLength": .number(30), "space": .number(1)])
        #expect(defaults(.checkmark).isEmpty)
    }

    @Test func valueOfAParameterAppliesItsDefault() {
        let given: [String: AnimatableValue] = ["from": .point(Point(0, 0)), "radius": .number(12), "to": .point(Point(5, 0))]
        #expect(NamedShape.stickyBubble.value(of: "radius", in: given) == .number(12))
        // toRadius is radius when left out, viscosity its literal default.
        #expect(NamedShape.stickyBubble.value(of: "toRadius", in: given) == .number(12))
        #expect(NamedShape.stickyBubble.value(of: "toRadius", in: given.merging(["toRadius": .number(3)]) { $1 })
                == .number(3))
        #expect(NamedShape.stickyBubble.value(of: "viscosity", in: given) == .number(20))
        #expect(NamedShape.stickyBubble.value(of: "nope", in: given) == nil)
        #expect(NamedShape.liquidBridge.value(of: "threshold", in: [:]) == nil)
    }
}
