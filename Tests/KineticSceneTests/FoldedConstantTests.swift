import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Constant expressions are folded into values once, at load, and read by the same typed
/// readers as literals: a problem the reader finds in the folded value points at the
/// expression itself, not at its key or at the enclosing list or mapping.
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
}
