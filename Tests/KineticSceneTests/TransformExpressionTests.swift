import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 in transforms' named components: a live component drives its sub-key path
/// (`rotate` → `transform.rotation.z`) and keeps the others; constant ones are evaluated
/// at load, in `sublayerTransform` and `instanceTransform` too.
@Suite struct TransformExpressionTests {
    let header = "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: 50}\n"

    func load(_ body: String) throws -> Scene { try SceneLoader.load(text: header + body, file: "t.yaml") }

    func problems(_ body: String) -> [SceneProblem] { loadProblems(header + body) }

    func layer(_ scene: Scene, _ id: String, at time: Double) throws -> Layer { try #require(timelineLayer(scene, id, at: time)) }

    /// The transform of layer `a` whose `transform` is `transform`, at `time`.
    func transform(_ transform: String, at time: Double = 0) throws -> Transform3D {
        try layer(try load("layers: [{id: a, bounds: [50, 50], transform: \(transform)}]"), "a", at: time).transform
    }

    func expectNear(_ a: Transform3D, _ b: Transform3D, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (k, (x, y)) in zip(a.fields, b.fields).enumerated() {
            #expect(abs(x - y) < 1e-9, "m[\(k)] = \(x), expected \(y)", sourceLocation: sourceLocation)
        }
    }

    @Test func liveRotateDrivesRotationZ() throws {
        let scene = try load("layers: [{id: a, bounds: [50, 50], transform: {rotate: \"= 2 * pi * t\", scale: 2, translate: [10, 0]}}]")
        #expect(scene.bindings.map(\.keyPath) == [.transformRotationZ])
        for time in [0.0, 0.125, 0.3, 1.7] {
            let a = try layer(scene, "a", at: time)
            #expect(abs(a.transformComponents.rotationZ - 2 * .pi * time) < 1e-12)
            // The other components stay as written.
            expectNear(a.transform, try transform("{rotate: \(2 * Double.pi * time), scale: 2, translate: [10, 0]}"))
        }
    }

    @Test func everyNamedComponentTakesAnExpression() throws {
        let live = try transform("""
        {rotateX: "= t", rotateY: "= 2*t", rotate: "= -t", scale: ["= 1 + t", 3], translate: ["= 10*t", 5, "= -t"],
         perspective: "= 250 * 2"}
        """, at: 0.5)
        expectNear(live, try transform("{rotateX: 0.5, rotateY: 1, rotate: -0.5, scale: [1.5, 3], translate: [5, 5, -0.5], perspective: 500}"))
    }

    @Test func liveComponentsAreBoundAndSaltedInSlotOrder() throws {
        // Written in another order: the bindings' random() salts follow rotate, rotateX, rotateY, scale, translate
        // (`TransformComponents.keyPaths`), which existing scenes' random() keeps.
        let scene = try load("""
        layers:
          - {id: a, transform: {translate: ["= t", "= t", "= t"], scale: ["= t", "= t"], rotateY: "= t", rotateX: "= t",
                                rotate: "= t"}}
        """)
        let salts = Dictionary(uniqueKeysWithValues: scene.bindings.map { ($0.keyPath, $0.seedSalt) })
        #expect(salts == [.transformRotationZ: 1, .transformRotationX: 2, .transformRotationY: 3, .transformScaleX: 4,
                          .transformScaleY: 5, .transformTranslationX: 6, .transformTranslationY: 7, .transformTranslationZ: 8])
    }

    @Test func liveScaleNumberDrivesTransformScale() throws {
        let scene = try load("layers: [{id: a, bounds: [50, 50], transform: {scale: \"= 1 + t\", rotate: 0.5}}]")
        #expect(scene.bindings.map(\.keyPath) == [.transformScale])
        let c = try layer(scene, "a", at: 1).transformComponents
        // transform.scale sets x, y and z, as Core Animation's key path does.
        #expect(c.sx == 2 && c.sy == 2 && c.sz == 2 && c.rotationZ == 0.5)
    }

    @Test func componentsFollowReferencesAndAnimationsOfOtherComponents() throws {
        let scene = try load("""
        layers:
          - {id: a, position: [0, 0]}
          - {id: card, bounds: [50, 50], transform: {rotate: "= a.position.x * pi / 100", perspective: 500}}
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: card, keyPath: transform.rotation.x, from: 0, to: 60deg, duration: 1}
        """)
        let card = try layer(scene, "card", at: 0.5)
        #expect(abs(card.transformComponents.rotationZ - .pi / 2) < 1e-12)
        // The animation's component shows beside the expression's.
        #expect(abs(card.transformComponents.rotationX - .pi / 6) < 1e-12)
        expectNear(card.transform, try transform("{rotate: \(Double.pi / 2), rotateX: \(Double.pi / 6), perspective: 500}"))
    }

    @Test func constantExpressionsInEveryTransform() throws {
        expectNear(try transform("{translate: \"= [10, 20]\", rotate: \"= pi / 2\"}"), try transform("{translate: [10, 20], rotate: 90deg}"))
        expectNear(try transform("{matrix: [\"= 1/2\", 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, \"= 3 * 4\", 0, 0, 1]}"),
                   try transform("{matrix: [0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 12, 0, 0, 1]}"))
        let scene = try load("""
        layers:
          - {id: a, bounds: [50, 50], sublayerTransform: {rotateY: "= pi / 4", perspective: "= 2 * 250"}}
          - {id: r, type: replicator, instanceTransform: {translate: ["= 20 + 5", 0], scale: "= 1 / 2"}}
        """)
        #expect(scene.bindings.isEmpty)
        expectNear(try #require(findLayer(scene.layers, id: "a")).sublayerTransform,
                   try transform("{rotateY: 45deg, perspective: 500}"))
        expectNear(try #require(findLayer(scene.layers, id: "r")?.replicator).instanceTransform,
                   try transform("{translate: [25, 0], scale: 0.5}"))
    }

    @Test func componentCyclesAreNamedByKeyPath() {
        let p = problems("""
        layers:
          - {id: a, transform: {rotate: "= b.transform.rotation.z"}}
          - {id: b, transform: {rotateX: "= a.transform.rotation.z"}}
        """)
        #expect(p.count == 1)
        #expect(p.first?.message == "reference cycle: a.transform.rotation.z → b.transform.rotation.x → a.transform.rotation.z",
                "\(p.map(\.message))")
    }

    @Test func liveComponentsWithoutSubKeyPathsBindTheWholeTransform() throws {
        // A live perspective or whole-vector translate has no sub-key path: the whole
        // transform is composed every frame, the constant components with it.
        let scene = try load("""
        layers:
          - {id: a, position: [0, 0]}
          - {id: card, bounds: [50, 50], transform: {perspective: "= 100 + t", translate: "= [t, 2]", rotateY: 30deg},
             sublayerTransform: {rotate: "= t", scale: ["= a.position.x / 100", 1]}}
          - {id: r, type: replicator, instanceCount: 3,
             instanceTransform: {matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, "= 10 * t", 0, 0, 1]},
             sublayers: [{id: dot, bounds: [4, 4]}]}
        animations:
          - {layer: a, keyPath: position.x, from: 0, to: 200, duration: 1}
        """)
        #expect(Set(scene.bindings.map(\.keyPath)) == [.transform, .sublayerTransform, .instanceTransform])
        for time in [0.25, 0.5, 1.5] {
            let card = try layer(scene, "card", at: time)
            expectNear(card.transform, try transform("{perspective: \(100 + time), translate: [\(time), 2], rotateY: 30deg}"))
            expectNear(card.sublayerTransform, try transform("{rotate: \(time), scale: [\(min(time, 1) * 2), 1]}"))
            // Copy k of a replicator is moved by k instance transforms.
            let copy = try layer(scene, "dot#2", at: time)
            #expect(abs(copy.transform.m41 - 2 * 10 * time) < 1e-9)
        }
    }

    @Test func aLiveTransformReportsItsProblemsAtEachExpression() {
        let p = problems("""
        layers:
          - {id: a, transform: {perspective: "= 100 + t", rotate: "= 1 +"}}
          - {id: r, type: replicator, instanceTransform: {rotate: "@a", translate: "= t", scale: [1, "= r.instanceTransform"]}}
        """)
        let found = p.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(found == [
            // A syntax error at its character (the end of "= 1 +").
            "4:65 expected a number or a name, found the end of the expression",
            "5:60 expected a number, but the expression gives a point",
            "5:79 expected a point, but the expression gives a number",
            "5:97 'instanceTransform' of 'r' is a transform: references read numbers and points",
        ], "\(found)")
    }

    @Test func aLivePerspectiveNotAboveZeroLeavesTheTransformAsItWas() throws {
        // perspective 1 − t: a transform until t = 1, then none: the model's (the identity,
        // as the whole transform is bound), as for any binding whose value is not finite;
        // later bindings still run.
        let scene = try load("""
        layers:
          - {id: a, bounds: [50, 50], transform: {perspective: "= 1 - t", rotateX: 10deg}}
          - {id: b, opacity: "= t / 4"}
        """)
        let before = try layer(scene, "a", at: 0.5).transform
        expectNear(before, try transform("{perspective: 0.5, rotateX: 10deg}"))
        let after = try layer(scene, "a", at: 1.5)
        expectNear(after.transform, .identity)
        #expect(try layer(scene, "b", at: 1.5).opacity == 1.5 / 4)
    }
}

/// Section 9 for points written as two expressions: both components' problems at once.
@Suite struct PointExpressionProblemTests {
    @Test func bothComponentsOfAPointReportTheirProblems() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [200, 200], duration: 1}
        layers:
          - {id: a, position: ["= 1 +", "= sin("], anchorPoint: ["= nope", "= 1 *"]}
          - {id: e, type: emitter, emitterPosition: ["= 2 *", "= (1"]}
          - {id: s, type: shape, path: {cubic: [[0, 0], ["= 1 +", "= )"], [1, 1], [2, 2]]}}
        """)
        #expect(p.map(\.keyPath) == [
            "layers[0].position[0]", "layers[0].position[1]", "layers[0].anchorPoint[0]", "layers[0].anchorPoint[1]",
            "layers[1].emitterPosition[0]", "layers[1].emitterPosition[1]",
            "layers[2].path.cubic[1][0]", "layers[2].path.cubic[1][1]",
        ], "\(p.map { "\($0.keyPath): \($0.message)" })")
    }
}
