import KineticGeometry
import Testing
@testable import KineticScene

/// Section 9: every problem, located as FILE:LINE:COLUMN: KEY.PATH: message.
@Suite struct SceneLoaderErrorTests {
    let header = """
    kinetic: 1
    scene: {size: [100, 100], duration: 1}

    """

    @Test func validSceneLoads() throws {
        let scene = try SceneLoader.load(text: header + "layers:\n  - {id: a, frame: [10, 20, 30, 40]}\n", file: "t.yaml")
        #expect(scene.layers.count == 1)
        // frame sets position from the anchor point and bounds from the size.
        #expect(scene.layers[0].position.x == 25)
        #expect(scene.layers[0].position.y == 40)
        #expect(scene.layers[0].bounds.size.width == 30)
        #expect(scene.frameCount == 50)
    }

    @Test func unknownKeyIsLocatedWithSuggestion() {
        let p = loadProblems(header + "layers:\n  - id: a\n    opacty: 0.5\n")
        #expect(p.count == 1)
        #expect(p.first?.description == "t.yaml:5:5: layers[0].opacty: unknown key 'opacty' (did you mean 'opacity'?)")
    }

    @Test func allProblemsAreReportedInFileOrder() {
        let p = loadProblems(header + """
        layers:
          - {id: a, opacity: 2}
          - {id: a, backgroundColor: "#12"}
          - {id: b, position: [.nan, 0]}
        """)
        let messages = p.map(\.message)
        #expect(p.count == 4)
        #expect(messages.contains { $0.contains("out of range 0…1") })
        #expect(messages.contains { $0.contains("duplicate id 'a'") })
        #expect(messages.contains { $0.contains("is not a color") })
        #expect(messages.contains { $0.contains("finite number") })
        #expect(p.map(\.location.line) == p.map(\.location.line).sorted())
    }

    @Test func versionMustBeKnown() {
        let p = loadProblems("kinetic: 2\nscene: {size: [1, 1], duration: 1}\n")
        #expect(p.first?.message.contains("unknown format version 2") == true)
        let missing = loadProblems("scene: {size: [1, 1], duration: 1}\n")
        #expect(missing.contains { $0.message.contains("'kinetic: 1'") || $0.message.contains("missing required key 'kinetic'") })
    }

    @Test func negativeSizeAndZeroFpsAreRejected() {
        let p = loadProblems("kinetic: 1\nscene: {size: [-1, 10], duration: 1, fps: 0}\n")
        #expect(p.contains { $0.keyPath == "scene.fps" && $0.message.contains("greater than 0") })
        #expect(p.contains { $0.keyPath == "scene.size" })
    }

    @Test func pathSyntaxErrorPointsAtTheCharacter() {
        // "M 0 0 L 10 x": the x is character 12, column 13 + 10 (indent and quote).
        let p = loadProblems(header + "layers:\n  - type: shape\n    path: \"M 0 0 L 10 x\"\n")
        #expect(p.count == 1)
        #expect(p.first?.location.line == 5)
        #expect(p.first?.location.column == 11 + 1 + 11)
        #expect(p.first?.keyPath == "layers[0].path")
    }

    @Test func unknownLayerInAnimationSuggestsId() {
        let p = loadProblems(header + "layers: [{id: ball}]\nanimations:\n  - {layer: bal, keyPath: opacity, to: 0}\n")
        #expect(p.first?.message == "unknown layer id 'bal' (did you mean 'ball'?)")
        #expect(p.first?.keyPath == "animations[0].layer")
    }

    @Test func keyPathMustFitTheLayer() {
        let p = loadProblems(header + "layers: [{id: ball}]\nanimations:\n  - {layer: ball, keyPath: strokeEnd, to: 0}\n")
        #expect(p.first?.message.contains("does not apply to layer layer 'ball'") == true)
        let typo = loadProblems(header + "layers: [{id: ball}]\nanimations:\n  - {layer: ball, keyPath: positon.x, to: 0}\n")
        #expect(typo.first?.message.hasSuffix("(did you mean 'position.x'?)") == true)
    }

    @Test func pathsOfDifferentStructureCannotAnimate() {
        let p = loadProblems(header + """
        layers: [{id: s, type: shape, path: "M 0 0 L 1 1"}]
        animations:
          - {layer: s, keyPath: path, from: "M 0 0 L 1 1", to: "M 0 0 C 1 1 2 2 3 3"}
        """)
        #expect(p.first?.message.contains("different structure") == true)
    }

    @Test func afterCyclesAreNamed() {
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations:
          - {id: one, layer: a, keyPath: opacity, to: 0, after: two}
          - {id: two, layer: a, keyPath: opacity, to: 1, after: one}
        """)
        #expect(p.contains { $0.message.contains("cycle") && $0.message.contains("one") && $0.message.contains("two") })
    }

    @Test func missingAssetIsReported() {
        let p = loadProblems(header + "layers: [{type: image, contents: nowhere.png}]\n")
        #expect(p.first?.message.contains("missing asset file 'nowhere.png'") == true)
    }

    @Test func canvasLimitIsCheckedBeforeAllocating() {
        let p = loadProblems("kinetic: 1\nscene: {size: [10000, 10000], scale: 2, duration: 1}\n")
        #expect(p.first?.message.contains("over the limit") == true)
    }

    @Test func notYetSupportedIsLoud() {
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations: [{layer: a, keyPath: backgroundColor, to: "= t"}]
        events: [{at: 1, set: {a.opacity: "= t"}}]

        """)
        #expect(p.count == 2)
        #expect(p.allSatisfy { $0.message.hasPrefix("not yet supported") })
    }

    @Test func yamlSyntaxErrorIsLocated() {
        let p = loadProblems("kinetic: 1\nscene: {size: [1, 1]\n")
        #expect(p.count == 1)
        #expect(p.first?.message.hasPrefix("YAML syntax error") == true)
    }

    @Test func jsonScenesLoad() throws {
        let json = #"{"kinetic": 1, "scene": {"size": [10, 10], "duration": 0.5, "fps": 10}, "layers": [{"id": "a", "opacity": 0.5}]}"#
        let scene = try SceneLoader.load(text: json, file: "t.json")
        #expect(scene.frameCount == 5)
        #expect(scene.layers[0].opacity == 0.5)
    }

    @Test func colorsParseEveryForm() {
        func color(_ s: String) -> String? { SceneValues.color(s)?.hexString }
        #expect(color("#F00") == "#FF0000FF")
        #expect(color("#3BA3F7") == "#3BA3F7FF")
        #expect(color("#3BA3F780") == "#3BA3F780")
        #expect(color("rgba(255, 0, 0, 0.5)") == "#FF000080")
        #expect(color("systemBlue") == "#007AFFFF")
        #expect(color("clear") == "#00000000")
        #expect(color("#GG0000") == nil)
    }

    @Test func suggestionsFindCloseWords() {
        #expect(NameSuggestion.closest(to: "backgroundColour", in: ["backgroundColor", "borderColor"]) == "backgroundColor")
        #expect(NameSuggestion.closest(to: "zzz", in: ["opacity"]) == nil)
    }
}
