import Testing
import KineticGeometry
@testable import KineticExpressions

@Test(arguments: [
    ("[1, 2] + [3, 4]", Point(4, 6)),
    ("[1, 2] - [3, 5]", Point(-2, -3)),
    ("[1, 2] * 3", Point(3, 6)),
    ("2 * [1, 2]", Point(2, 4)),
    ("[3, 6] / 3", Point(1, 2)),
    ("-[1, 2]", Point(-1, -2)),
    ("[1 + 1, 2 * 3]", Point(2, 6)),
    ("[0, -30]", Point(0, -30)),
    ("lerp([0, 0], [10, 20], 0.5)", Point(5, 10)),
    ("[1, 2] + [3, 4] * 2", Point(7, 10)),
])
func vectors(source: String, expected: Point) throws {
    #expect(isClose(try evaluate(source).vector, expected))
    #expect(try kind(source) == .vector)
}

@Test func components() throws {
    #expect(try number("[1, 2].y") == 2)
    #expect(try number("([1, 2] + [3, 4]).x") == 4)
    #expect(try number("-[1, 2].x") == -1)
    #expect(try kind("[1, 2].x * 2") == .scalar)
}

@Test func namedReferencesParseWithOffsets() throws {
    let e = try SceneExpression.parse("helperSide.position.x - helperCenter.position.x")
    #expect(e.references == [
        Reference(id: "helperSide", keyPath: "position.x", offset: 0),
        Reference(id: "helperCenter", keyPath: "position.x", offset: 24),
    ])
    #expect(try SceneExpression.parse(" panel.bounds.size.width * 0.5").references
        == [Reference(id: "panel", keyPath: "bounds.size.width", offset: 1)])
    #expect(try SceneExpression.parse("a.properties.xAxisPercent").references
        == [Reference(id: "a", keyPath: "properties.xAxisPercent", offset: 0)])
    // A dotted name is a reference even when the id looks like a variable.
    #expect(try SceneExpression.parse("t.position.x").references
        == [Reference(id: "t", keyPath: "position.x", offset: 0)])
    // Every occurrence is listed, in source order.
    #expect(try SceneExpression.parse("b.opacity * b.opacity").references.map(\.offset) == [0, 12])
}

@Test func pointShorthand() throws {
    #expect(try SceneExpression.parsePointShorthand("@ball").references
        == [Reference(id: "ball", keyPath: "position", offset: 1)])
    #expect(try SceneExpression.parsePointShorthand("  @ball").references
        == [Reference(id: "ball", keyPath: "position", offset: 3)])
    #expect(try SceneExpression.parsePointShorthand("@ID.position + [0, -30]").references
        == [Reference(id: "ID", keyPath: "position", offset: 1)])
    #expect(try SceneExpression.parse("@ball.x").references
        == [Reference(id: "ball", keyPath: "position.x", offset: 1)])
    #expect(try SceneExpression.parse("@ball.bounds.size").references
        == [Reference(id: "ball", keyPath: "bounds.size", offset: 1)])
    // Ids may contain '-' after '@'; a '-' with spaces is minus.
    #expect(try SceneExpression.parse("@helper-side - @b").references == [
        Reference(id: "helper-side", keyPath: "position", offset: 1),
        Reference(id: "b", keyPath: "position", offset: 16),
    ])
    #expect(try SceneExpression.parse("@a-b").references.map(\.id) == ["a-b"])
    #expect(parseError("a-b.position.x")            // without '@', '-' is minus
        == ExpressionError(offset: 0, message: "unknown name 'a' (a reference names a property: 'a.position.x')"))
}

@Test func pointShorthandNeedsTheAt() {
    var caught: ExpressionError?
    do { _ = try SceneExpression.parsePointShorthand(" ball") } catch { caught = error }
    #expect(caught == ExpressionError(offset: 1, message: "expected '@' and a layer id"))
}

@Test func referencesEvaluateToTheResolvedPresentationValues() throws {
    let references: [String: Value] = [
        "a.position": .vector(Point(10, 50)),
        "a.opacity": .scalar(0.25),
        "helperSide.position.x": .scalar(300),
        "helperCenter.position.x": .scalar(180),
    ]
    #expect(try evaluate("@a + [0, -30]", references: references) == .vector(Point(10, 20)))
    #expect(try evaluate("a.opacity * 2", references: references) == .scalar(0.5))
    #expect(try evaluate("helperSide.position.x - helperCenter.position.x",
                         references: references) == .scalar(120))
    #expect(try evaluate("(@a).y / 5", references: references) == .scalar(10))
    // A resolver answering the wrong kind gives NaN, never a wrong number.
    #expect(try number("a.opacity + 1", references: ["a.opacity": .vector(.zero)])?.isNaN == true)
}

@Test func resultKindFollowsReferences() throws {
    let kinds: [String: ValueKind] = ["a.position": .vector, "a.opacity": .scalar]
    #expect(try kind("@a", kinds: kinds) == .vector)
    #expect(try kind("@a * a.opacity", kinds: kinds) == .vector)
    #expect(try kind("a.opacity + 1", kinds: kinds) == .scalar)
    #expect(try kind("lerp(@a, [0, 0], t)", kinds: kinds) == .vector)
    #expect(try kind("sin(t) * random()") == .scalar)
}
