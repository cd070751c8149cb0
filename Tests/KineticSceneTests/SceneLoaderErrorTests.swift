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
        #expect(p.first?.message == "'strokeEnd' is a key path of shape layers, and 'ball' is a plain layer")
        let scale = loadProblems(header + "layers: [{id: ball}]\nanimations:\n  - {layer: ball, keyPath: scale, to: 2}\n")
        #expect(scale.first?.message == "'scale' is a key path of emitter layers, and 'ball' is a plain layer "
                + "(a layer's scale is 'transform.scale')")
        let typo = loadProblems(header + "layers: [{id: ball}]\nanimations:\n  - {layer: ball, keyPath: positon.x, to: 0}\n")
        #expect(typo.first?.message.hasSuffix("(did you mean 'position.x'?)") == true)
    }

    @Test func pathsOfDifferentStructureCannotAnimate() {
        let p = loadProblems(header + """
        layers: [{id: s, type: shape, path: "M 0 0 L 1 1"}]
        animations:
          - {layer: s, keyPath: path, from: "M 0 0 L 1 1", to: "M 0 0 C 1 1 2 2 3 3"}
        """)
        #expect(p.map(\.description) == ["t.yaml:5:56: animations[0].to: 'from' (M L) and 'to' (M C) have different "
                                         + "structures: paths of different structure cannot animate into each other"])
    }

    @Test func coreAnimationKeyNamesNameTheContractKey() {
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations:
          - {layer: a, keyPath: opacity, fromValue: 0, toValue: 1, beginTime: 1, removedOnCompletion: false}
          - {layer: a, keyPath: opacity, byValue: 1, isAdditive: true, timingFunctionName: easeIn}
        """)
        // Not also "an animation needs 'to', …": the unknown key says what to write.
        #expect(p.map(\.description) == [
            "t.yaml:5:34: animations[0].fromValue: unknown key 'fromValue' (Core Animation's fromValue is 'from' here)",
            "t.yaml:5:48: animations[0].toValue: unknown key 'toValue' (Core Animation's toValue is 'to' here)",
            "t.yaml:5:60: animations[0].beginTime: unknown key 'beginTime' (Core Animation's beginTime is 'begin' here)",
            "t.yaml:5:74: animations[0].removedOnCompletion: unknown key 'removedOnCompletion' "
                + "(use 'fillMode': forwards, the default, keeps the end value; removed drops it)",
            "t.yaml:6:34: animations[1].byValue: unknown key 'byValue' (Core Animation's byValue is 'by' here)",
            "t.yaml:6:46: animations[1].isAdditive: unknown key 'isAdditive' (Core Animation's isAdditive is 'additive' here)",
            "t.yaml:6:64: animations[1].timingFunctionName: unknown key 'timingFunctionName' "
                + "(a timing function's name goes in 'timingFunction')",
        ])
    }

    @Test func aMisspeltValueKeyIsReportedOnce() {
        let p = loadProblems(header + "layers: [{id: a}]\nanimations:\n  - {layer: a, keyPath: opacity, too: 1}\n")
        #expect(p.map(\.description) == ["t.yaml:5:34: animations[0].too: unknown key 'too' (did you mean 'to'?)"])
        // Without any value key, the animation still needs one.
        let none = loadProblems(header + "layers: [{id: a}]\nanimations:\n  - {layer: a, keyPath: opacity, beginTime: 1}\n")
        #expect(none.map(\.message) == ["an animation needs 'to', 'by', 'from' or 'values'",
                                         "unknown key 'beginTime' (Core Animation's beginTime is 'begin' here)"])
    }

    @Test func everyInvalidValueOfABasicAnimationIsReported() {
        // Each of `from`, `to` and `by` is read before the animation is given up.
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations:
          - {layer: a, keyPath: opacity, from: red, to: [1, 2]}
        """)
        #expect(p.map(\.description) == [
            "t.yaml:5:40: animations[0].from: expected a number, found 'red'",
            "t.yaml:5:49: animations[0].to: expected a single value, found a list",
        ])
    }

    @Test func uiKitCurveNamesNameTheTimingFunction() {
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations:
          - {layer: a, keyPath: opacity, to: 0, timingFunction: easeInOut}
          - {layer: a, keyPath: opacity, to: 0, timingFunction: curveEaseIn}
        """)
        let names = "use default, easeIn, easeInEaseOut, easeOut, linear or [c1x, c1y, c2x, c2y]"
        #expect(p.map(\.description) == [
            "t.yaml:5:57: animations[0].timingFunction: 'easeInOut' is not a timing function: \(names) "
                + "(UIKit's easeInOut is 'easeInEaseOut' here)",
            "t.yaml:6:57: animations[1].timingFunction: 'curveEaseIn' is not a timing function: \(names) "
                + "(UIKit's curveEaseIn is 'easeIn' here)",
        ])
    }

    @Test func aTruncatedExpressionSaysItEnded() {
        // The column is just after the last character: the closing quote, or the first of
        // the trailing spaces.
        let p = loadProblems(header + """
        layers:
          - {id: a, opacity: "= 1 +"}
          - {id: b, position: ["= sin(  ", 0]}
        """)
        #expect(p.map(\.description) == [
            "t.yaml:4:28: layers[0].opacity: expected a number or a name, found the end of the expression",
            "t.yaml:5:31: layers[1].position[0]: expected a number or a name, found the end of the expression",
        ])
    }

    @Test func repeatCountNamesForever() {
        let p = loadProblems(header + "layers: [{id: a}]\nanimations:\n  - {layer: a, keyPath: opacity, to: 0, repeatCount: always}\n")
        #expect(p.map(\.description) == ["t.yaml:5:54: animations[0].repeatCount: expected a number or 'forever', found 'always'"])
    }

    @Test func aSingleValueForAListSaysWhatIsExpected() {
        let p = loadProblems(header + """
        layers: [{id: a, position: 5}]
        animations:
          - {layer: a, keyPath: position, to: 100}
          - {layer: a, keyPath: bounds.size, to: 100}
          - {layer: a, keyPath: bounds, from: {x: 1}, to: [0, 0, 1, 1]}
        """)
        #expect(p.map(\.description) == [
            "t.yaml:3:28: layers[0].position: expected a point [x, y], found a single value",
            "t.yaml:5:39: animations[0].to: expected a point [x, y], found a single value",
            "t.yaml:6:42: animations[1].to: expected a size [w, h], found a single value",
            "t.yaml:7:39: animations[2].from: expected a size [w, h] or a rect [x, y, w, h], found a mapping",
        ])
    }

    @Test func anUnknownColorListsTheForms() {
        let p = loadProblems(header + """
        layers:
          - {id: a, backgroundColor: UIColor.red}
          - {id: b, backgroundColor: "#GG0000"}
          - {id: c, backgroundColor: blu}
        """)
        let forms = "#RGB, #RRGGBB, #RRGGBBAA, rgb(r, g, b), rgba(r, g, b, a) or a color name"
        #expect(p.map(\.description) == [
            "t.yaml:4:30: layers[0].backgroundColor: 'UIColor.red' is not a color: use \(forms) (did you mean 'red'?)",
            "t.yaml:5:30: layers[1].backgroundColor: '#GG0000' is not a color: use #RGB, #RRGGBB or #RRGGBBAA",
            "t.yaml:6:30: layers[2].backgroundColor: 'blu' is not a color: use \(forms) (did you mean 'blue'?)",
        ])
    }

    @Test func aPrimitiveWrittenAsANamedShapeIsNamed() {
        let p = loadProblems(header + "layers:\n  - {type: shape, path: {shape: star, points: 5}}\n")
        #expect(p.map(\.description) == [
            "t.yaml:4:33: layers[0].path.shape: unknown shape 'star' (star is a path primitive: "
                + "{star: {center, points, outerRadius, innerRadius}}); shapes: "
                + NamedShape.allCases.map(\.rawValue).joined(separator: ", "),
        ])
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

    @Test func canvasLimitIsCheckedAtTheScaleDrawn() throws {
        // Loading draws nothing (inspect, validate): a 4096 pt @3x scene loads. Drawing it
        // is checked at the scale it is drawn at: 12288² px is over 64 Mpx, 4096² is not.
        let scene = try SceneLoader.load(text: "kinetic: 1\nscene: {size: [4096, 4096], scale: 3, duration: 1}\n", file: "t.yaml")
        let limits = SceneLimits()
        let over = limits.canvasProblem(size: scene.settings.size, scale: scene.settings.scale)
        #expect(over?.contains("150994944 px") == true && over?.contains("--scale") == true)
        #expect(limits.canvasProblem(size: scene.settings.size, scale: 1) == nil)
        #expect(limits.canvasProblem(size: Size(20000, 10), scale: 1)?.contains("a side") == true)
    }

    @Test func notYetSupportedIsLoud() {
        let p = loadProblems(header + """
        layers: [{id: a}]
        animations: [{layer: a, keyPath: backgroundColor, to: "= t"}]
        events: [{at: 1, set: {a.backgroundColor: "= t"}}]

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

    /// JSON nesting is read with the scanner's own stack: a million nested brackets (a
    /// stack overflow in 340a5e0, whose scanner called itself for each opening one) are
    /// valid JSON (JSONSyntaxTests), and the YAML parser's nesting limit refuses them, located.
    @Test func deeplyNestedJSONIsAnErrorNotACrash() {
        let depth = 1_000_000
        let json = #"{"kinetic": 1, "x": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let p = loadProblems(json, file: "t.json")
        #expect(p.count == 1)
        #expect(p.first?.message.hasPrefix("YAML syntax error: Maximum nesting level") == true)
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
        // Ties go to the longer shared start, then alphabetically, in any candidate order.
        let names = ["borderWidth", "bounds.size", "bounds.size.width", "position"]
        for order in [names, names.reversed(), names.shuffled()] {
            #expect(NameSuggestion.closest(to: "bounds.width", in: order) == "bounds.size")
        }
        #expect(NameSuggestion.closest(to: "ab", in: ["ax", "ay", "xb"]) == "ax")
    }
}
