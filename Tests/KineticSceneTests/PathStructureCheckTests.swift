import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Contract 3.1: a path animation that gives only `to` (or only `from`) blends with the
/// layer's underlying path — the model path, or what an earlier animation leaves — so a
/// structure none of those has is a load error, located like the others (section 9).
@Suite struct PathStructureCheckTests {
    func problems(_ yaml: String, file: String = "t.yaml") -> [String] { loadProblems(yaml, file: file).map(\.description) }

    let head = """
    kinetic: 1
    scene: {size: [200, 200], duration: 2}
    layers:
      - {id: m, type: shape, path: "M 20 20 L 180 180", strokeColor: black}
    animations:

    """

    /// The new user's bad-03.yaml, verbatim.
    @Test func toAloneOfAnotherStructureThanTheModelPath() {
        let p = problems("""
        kinetic: 1
        scene:
          size: [200, 200]
          scale: 1
          duration: 1
        layers:
          - id: m
            type: shape
            path: "M 20 20 L 180 180"
            strokeColor: black
            lineWidth: 4
        animations:
          - layer: m
            keyPath: path
            to: "M 20 180 C 60 20 140 20 180 180"
        """, file: "bad-03.yaml")
        #expect(p == ["bad-03.yaml:15:9: animations[0].to: 'to' (M C) and the path of layer 'm' (M L) have different "
                      + "structures: paths of different structure cannot animate into each other; give 'from' too"])
    }

    @Test func fromAloneIsCheckedToo() {
        let p = problems(head + """
          - {layer: m, keyPath: path, from: {rect: [0, 0, 10, 10]}, duration: 1}
        """)
        #expect(p == ["t.yaml:6:37: animations[0].from: 'from' (M L L L Z) and the path of layer 'm' (M L) have different "
                      + "structures: paths of different structure cannot animate into each other; give 'to' too"])
    }

    @Test func aMatchingStructureLoadsAndAnimates() throws {
        let scene = try SceneLoader.load(text: head + """
          - {layer: m, keyPath: path, to: "M 20 180 L 180 20", duration: 1}
        """, file: "t.yaml")
        let layer = try #require(Timeline(scene: scene).frame(at: 0.5, index: 0).layers.first)
        #expect(layer.shape?.path == BezierPath([.move(to: Point(20, 100)), .line(to: Point(180, 100))]))
    }

    /// An earlier animation with an explicit pair leaves a path of another structure: a
    /// later `to` of that structure blends with it (valid), one of the model's structure
    /// would not be reported either (the model shows before the first begins).
    @Test func anEarlierAnimationCanLeaveTheStructure() throws {
        let scene = try SceneLoader.load(text: head + """
          - {id: bend, layer: m, keyPath: path, from: "M 20 180 C 60 20 140 20 180 180", to: "M 20 180 C 60 100 140 100 180 180", duration: 1}
          - {layer: m, keyPath: path, to: "M 20 20 C 60 20 140 20 180 20", duration: 1, after: bend}
        """, file: "t.yaml")
        // Half-way through the second: the control points between the two curves.
        let layer = try #require(Timeline(scene: scene).frame(at: 1.5, index: 0).layers.first)
        #expect(layer.shape?.path == BezierPath([.move(to: Point(20, 100)),
                                                 .curve(to: Point(180, 100), control1: Point(60, 60), control2: Point(140, 60))]))
        // Within a group, an earlier child counts too.
        #expect(problems(head + """
          - group:
              - {keyPath: path, values: ["M 0 0 Q 5 5 10 0", "M 0 0 Q 5 9 10 0"]}
              - {keyPath: path, to: "M 0 0 Q 5 0 10 0", begin: 0.5}
            layer: m
            duration: 1
        """).isEmpty)
    }

    /// Animations apply in file order: one further down cannot lie under an earlier one.
    @Test func aLaterAnimationDoesNotCount() {
        let p = problems(head + """
          - {layer: m, keyPath: path, from: "M 0 0 C 1 1 9 9 10 0", to: "M 0 0 C 1 5 9 5 10 0", duration: 1}
          - {layer: m, keyPath: path, to: "M 0 0 Q 5 0 10 0", duration: 1}
          - {layer: m, keyPath: path, values: ["M 0 0 Q 5 5 10 0", "M 0 0 Q 5 9 10 0"], begin: 1}
        """)
        #expect(p == ["t.yaml:7:35: animations[1].to: 'to' (M Q) has the structure of neither the path of layer 'm' (M L) "
                      + "nor any path an earlier animation leaves there: paths of different structure cannot animate "
                      + "into each other; give 'from' too"])
        // With only the model path before it, the message names the two structures.
        #expect(problems(head + """
          - {layer: m, keyPath: path, to: "M 0 0 Q 5 0 10 0", duration: 1}
          - {layer: m, keyPath: path, values: ["M 0 0 Q 5 5 10 0", "M 0 0 Q 5 9 10 0"], begin: 1}
        """) == ["t.yaml:6:35: animations[0].to: 'to' (M Q) and the path of layer 'm' (M L) have different structures: "
                 + "paths of different structure cannot animate into each other; give 'from' too"])
    }

    @Test func aShapeWithoutAPathHasNothingToBlendWith() {
        let p = problems("""
        kinetic: 1
        scene: {size: [200, 200], duration: 2}
        layers: [{id: s, type: shape}]
        animations:
          - {layer: s, keyPath: path, to: "M 0 0 L 10 10"}
        """)
        #expect(p == ["t.yaml:5:35: animations[0].to: the path of layer 's' is empty: 'to' (M L) has no path of its "
                      + "structure to animate from; give 'from' too"])
    }

    /// An event's animation runs over every animation of `animations:`, so any of their
    /// paths may lie under it; with none of its structure it is reported.
    @Test func eventAnimationsBlendWithAnyAnimationsPath() {
        #expect(problems(head + """
          - {layer: m, keyPath: path, from: "M 0 0 Q 5 0 10 0", to: "M 0 0 Q 5 5 10 0", begin: 1}
        events:
          - at: 0.5
            animate: {layer: m, keyPath: path, to: "M 0 0 Q 9 9 10 0", duration: 1}
        """).isEmpty)
        let p = problems(head + """
          - {layer: m, keyPath: path, from: "M 0 0 Q 5 0 10 0", to: "M 0 0 Q 5 5 10 0", begin: 1}
        events:
          - at: 0.5
            animate: {layer: m, keyPath: path, to: "M 0 0 C 1 1 9 9 10 0", duration: 1}
        """)
        #expect(p == ["t.yaml:9:44: events[0].animate.to: 'to' (M C) has the structure of neither the path of layer 'm' (M L) "
                      + "nor any path the layer's other animations leave there: paths of different structure cannot "
                      + "animate into each other; give 'from' too"])
    }

    /// `by` cannot make a path (paths do not add): reported as before.
    @Test func byIsNotForPaths() {
        let p = problems(head + """
          - {layer: m, keyPath: path, by: "M 0 0 L 1 1"}
        """)
        #expect(p == ["t.yaml:6:35: animations[0].by: 'by' cannot be used with path values"])
    }

    /// `additive` cannot offset a path (paths do not add), with `to` or with `values`;
    /// `additive: false` is fine.
    @Test func additiveIsNotForPaths() {
        #expect(problems(head + """
          - {layer: m, keyPath: path, to: "M 0 0 L 5 5", additive: true}
          - {layer: m, keyPath: path, values: ["M 0 0 L 5 5", "M 0 0 L 9 9"], additive: true}
          - {layer: m, keyPath: path, to: "M 0 0 L 5 5", additive: false}
        """) == ["t.yaml:6:60: animations[0].additive: 'additive' cannot be used with path values: they do not add",
                 "t.yaml:7:81: animations[1].additive: 'additive' cannot be used with path values: they do not add"])
    }

    /// A named shape's path is rebuilt from its parameters every frame: a `path`
    /// animation of it would never show, so it is an error pointing at `path.PARAM`.
    @Test func aNamedShapesPathIsAnimatedByItsParameters() {
        let p = problems("""
        kinetic: 1
        scene: {size: [200, 200], duration: 2}
        layers:
          - {id: ball, type: shape, path: {shape: gooeyCircle, center: [100, 100], size: 60, travel: 200}}
        animations:
          - {layer: ball, keyPath: path, to: {shape: gooeyCircle, center: [50, 50], size: 20, travel: 200}, duration: 1}
          - {layer: ball, keyPath: path.progress, to: 1, duration: 1}
        """)
        #expect(p == ["t.yaml:6:28: animations[0].keyPath: the path of 'ball' is the gooeyCircle shape, rebuilt from "
                      + "its parameters: animate path.PARAM"])
    }

    /// Every scene of the gallery still loads.
    @Test func theGalleryStillLoads() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scenes").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(!files.isEmpty)
        for name in files {
            let url = folder.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            do {
                _ = try SceneLoader.load(text: text, file: name, baseDirectory: folder.path)
            } catch {
                Issue.record("\(name): \(error)")
            }
        }
    }
}
