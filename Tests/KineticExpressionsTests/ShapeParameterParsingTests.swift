import Testing
import KineticGeometry
@testable import KineticExpressions

/// `ID.path.PARAM` (a named shape's parameter) is an ordinary reference, and what the
/// loader needs to tell a constant expression (a named shape's parameter in a path value,
/// built once) from a live one.
@Suite struct ShapeParameterParsingTests {
    @Test func shapeParametersParseAsReferences() throws {
        let e = try SceneExpression.parse("50 + 300*gc.path.progress")
        #expect(e.references == [Reference(id: "gc", keyPath: "path.progress", offset: 9)])
        #expect(try SceneExpression.parsePointShorthand("@gc.path.center + [0, -40]").references
            == [Reference(id: "gc", keyPath: "path.center", offset: 1)])
        // Read through the resolver like any reference: a number and a point.
        #expect(isClose(try number("50 + 300*gc.path.progress", references: ["gc.path.progress": .scalar(0.25)]), 125))
        #expect(isClose(try evaluate("gc.path.center + [0, -40]", references: ["gc.path.center": .vector(Point(200, 50))]).vector,
                        Point(200, 10)))
        #expect(try SceneExpression.parse("gc.path.center.x").references == [Reference(id: "gc", keyPath: "path.center.x", offset: 0)])
    }

    @Test func constantExpressionsAreTellable() throws {
        for source in ["2 * 15", "[10, 20] * 2", "sqrt(2) + pi"] {
            let e = try SceneExpression.parse(source)
            #expect(e.references.isEmpty && !e.usesTime && !e.usesRandom, "\(source)")
        }
        #expect(try SceneExpression.parse("10 * t").usesTime)
        #expect(try SceneExpression.parse("frame / 2").usesTime)
        #expect(try SceneExpression.parse("40 * random()").usesRandom)
        #expect(try !SceneExpression.parsePointShorthand("@front").references.isEmpty)
    }
}
