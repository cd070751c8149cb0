import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Constant expressions are evaluated once, at load, by the same typed readers as literals
/// (`Field.value(_:use:)`, whose terms are literals or constant expressions), and checked
/// by the one range check: a problem found in the value points at the expression itself,
/// not at its key or at the enclosing list or mapping.
@Suite struct FoldedConstantTests {
    let header = "kinetic: 1\nscene: {size: [400, 400], duration: 1, fps: 10}\n"

    @Test func errorsInFoldedConstantsPointAtTheExpression() {
        // Columns by hand: line 6 is 4 spaces, "opacity:" (8), 3 spaces, then the quote at 16.
        // Line 7 holds `    transform: {perspective: ` (29 characters) then the quote at 30.
        // Line 9's `  - {id: e, type: emitter, emitterSize: ` is 40 characters: the quote at 41.
        // Line 10's `    emitterCells: [{name: c, birthRate: ` is 40 characters: the quote at 41.
        let problems = loadProblems(header + """
        layers:
          - id: a
            bounds: [0, 0, 10, 10]
            opacity:   "= 1 + 1"
            transform: {perspective: "= 0 - 1"}
          - {id: r, type: replicator, instanceCount: "= 5 / 2"}
          - {id: e, type: emitter, emitterSize: "= [-1, 2]",
            emitterCells: [{name: c, birthRate: "= -3"}]}
        """)
        let found = problems.map { "\($0.location.line):\($0.location.column) \($0.keyPath): \($0.message)" }
        #expect(found == [
            "6:16 layers[0].opacity: 2 is out of range 0…1",
            "7:30 layers[0].transform.perspective: must be greater than 0, found -1",
            "8:46 layers[1].instanceCount: expected a whole number, found 2.5",
            "9:41 layers[2].emitterSize: a size must not be negative",
            "10:41 layers[2].emitterCells[0].birthRate: must not be negative, found -3",
        ])
    }

    @Test func foldedValuesEqualTheLiteralsTheyStandFor() throws {
        func layer(_ body: String) throws -> Layer {
            let scene = try SceneLoader.load(text: header + "layers:\n  - {id: a, " + body + "}\n", file: "t.yaml")
            #expect(scene.bindings.isEmpty)
            return try #require(findLayer(scene.layers, id: "a"))
        }
        let folded = try layer("""
        type: gradient, frame: [10, "= 4 * 5", "= 60 / 2", 40], anchorPoint: "= [1 / 4, 0.5]", opacity: "= 1 / 2",
        locations: ["= 0.25", 1], colors: [red, blue], transform: {rotate: "= pi / 2", scale: ["= 3", 2]}
        """)
        let literal = try layer("""
        type: gradient, frame: [10, 20, 30, 40], anchorPoint: [0.25, 0.5], opacity: 0.5,
        locations: [0.25, 1], colors: [red, blue], transform: {rotate: 1.5707963267948966, scale: [3, 2]}
        """)
        #expect(folded.position == literal.position && folded.bounds == literal.bounds)
        #expect(folded.anchorPoint == Point(0.25, 0.5) && folded.opacity == 0.5)
        #expect(folded.gradient?.locations == [0.25, 1])
        #expect(folded.transform == literal.transform)
    }

    /// A list is read element by element whether its numbers are literals or constant
    /// expressions, so each element's problem is reported, as in a list of literals (when
    /// constants were folded into the list first, the first bad one hid the others).
    @Test func everyElementOfAListWithConstantsIsChecked() {
        // Line 4: `  - {id: c, bounds: [0, 0, ` is 27 characters, so "= 1/0" starts at 28;
        // `"= 1/0", "= ` is 11 more and `2 +` starts at 40: a number is missing at 43.
        // Line 5: `  - {id: d, frame: [0, ` is 23 characters: "= 1/0" at 24, then `abc` at 33.
        let problems = loadProblems(header + """
        layers:
          - {id: c, bounds: [0, 0, "= 1/0", "= 2 +"]}
          - {id: d, frame: [0, "= 1/0", abc, "= 0 - 1"]}
        """)
        let found = problems.map { "\($0.location.line):\($0.location.column) \($0.keyPath): \($0.message)" }
        #expect(found == [
            "4:28 layers[0].bounds[2]: the expression's value is not finite",
            "4:43 layers[0].bounds[3]: expected a number or a name, found the end of the expression",
            "5:24 layers[1].frame[1]: the expression's value is not finite",
            "5:33 layers[1].frame[2]: expected a number, found 'abc'",
        ])
    }

    /// A mapping is no point whether the numbers in it are literals or constant expressions
    /// (a `{cubic: …}` among them): the literal reader's message, at a layer's key and in a
    /// primitive read once alike.
    @Test func aMappingIsNoPointWhateverItsNumbers() {
        let problems = loadProblems(header + """
        layers:
          - {id: a, position: {cubic: [[0, 0], [1, 1], [2, 2], [3, 3]]}}
          - {id: b, position: {cubic: [["= 1", 0], [1, 1], [2, 2], [3, 3]]}}
          - {id: c, shadowPath: {arc: {center: {cubic: [["= 1", 0]]}, radius: "= 2", startAngle: 0, endAngle: 1}}}
        """)
        #expect(problems.map { "\($0.keyPath): \($0.message)" } == [
            "layers[0].position: expected a point [x, y], found a mapping",
            "layers[1].position: expected a point [x, y], found a mapping",
            "layers[2].shadowPath.arc.center: expected a point [x, y], found a mapping",
        ])
    }

    /// A frame given by one expression is read as a rect of four numbers, whatever its
    /// expression: an expression gives a number or a point, neither of which is a frame.
    @Test func aFrameOfOneExpressionIsNoRect() {
        let problems = loadProblems(header + "layers:\n  - {id: b, frame: \"= [1, 2]\"}\n  - {id: c, frame: \"= 5\"}\n")
        #expect(problems.map(\.message) == Array(repeating: "expected a rect [x, y, w, h], found a single value", count: 2))
    }
}
