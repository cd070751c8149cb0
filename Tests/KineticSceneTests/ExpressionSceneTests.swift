import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 through scene files: expressions and references drive layer properties.
@Suite struct ExpressionSceneTests {
    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: 50}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [SceneProblem] { sceneProblems(try load(body)) }

    func layer(_ scene: Scene, _ id: String, at time: Double) -> Layer? { timelineLayer(scene, id, at: time) }

    @Test func expressionsFollowTimeAndReferences() throws {
        let scene = try load("""
        layers:
          - {id: a, position: ["= 10 + 20 * t", 50]}
          - {id: b, position: "@a.position + [0, -30]", opacity: "= clamp(a.position.x / 100, 0, 1)"}
        """)
        let b = try #require(layer(scene, "b", at: 1.5))
        #expect(abs(b.position.x - 40) < 1e-9 && abs(b.position.y - 20) < 1e-9)
        #expect(abs(b.opacity - 0.4) < 1e-9)
    }

    @Test func miterLimitIsAnimatable() throws {
        // CAShapeLayer.miterLimit is animatable: an expression binds it, an animation runs.
        let scene = try load("""
        layers:
          - {id: s, type: shape, path: "M 0 0 L 10 10 L 20 0", miterLimit: "= 5 + t"}
          - {id: r, type: shape, path: "M 0 0 L 10 10 L 20 0"}
        animations:
          - {layer: r, keyPath: miterLimit, from: 1, to: 3, duration: 1}
        """)
        #expect(layer(scene, "s", at: 1.5)?.shape?.miterLimit == 6.5)
        #expect(layer(scene, "r", at: 0.5)?.shape?.miterLimit == 2)
        #expect(problems("layers: [{id: r, type: shape}]\nanimations: [{layer: r, keyPath: miterLimit, to: -1}]").map(\.message)
                == ["must not be negative, found -1"])
    }

    @Test func referencesReadAnimatedPresentationValues() throws {
        let scene = try load("""
        layers:
          - {id: helperSide, position: [0, 0]}
          - {id: helperCenter, position: [0, 0]}
          - {id: edge, properties: {diff: "= helperSide.position.x - helperCenter.position.x"}}
        animations:
          - {layer: helperSide, keyPath: position.x, from: 0, to: 100, duration: 1}
          - {layer: helperCenter, keyPath: position.x, from: 0, to: 40, duration: 1}
        """)
        let edge = try #require(layer(scene, "edge", at: 0.5))
        #expect(abs((edge.properties["diff"] ?? 0) - 30) < 1e-9)
    }

    @Test func bindingsRunInDependencyOrder() throws {
        // c reads b, which reads a: file order is the reverse of the evaluation order.
        let scene = try load("""
        layers:
          - {id: c, position: ["= b.position.x + 1", 0]}
          - {id: b, position: ["= a.position.x + 1", 0]}
          - {id: a, position: ["= 10 * t", 0]}
        """)
        #expect(abs((layer(scene, "c", at: 1)?.position.x ?? 0) - 12) < 1e-9)
    }

    @Test func liveCubicFollowsItems() throws {
        let scene = try load("""
        layers:
          - {id: p, position: [10, 10]}
          - {id: q, position: ["= 100 * t", 80]}
          - {id: rope, type: shape, fillColor: clear, strokeColor: red,
             path: {cubic: ["@p", [50, 0], [60, 90], "@q"]}}
        """)
        let rope = try #require(layer(scene, "rope", at: 1))
        #expect(rope.shape?.path.svgData() == "M 10 10 C 50 0 60 90 100 80")
    }

    /// One reader of a path: a `{cubic: …}` of fixed points is a path wherever a path is read,
    /// its constant expressions evaluated as a primitive's are (a shape layer's own `path`
    /// binds a cubic with any expression); live points are reported where no binding follows them.
    @Test func aCubicIsReadWhereverAPathIs() throws {
        let scene = try load("""
        layers:
          - {id: s, type: shape, path: {cubic: [[0, 0], [10, 0], [20, 10], [30, 30]]},
             shadowPath: {cubic: [[1, 1], [10, 0], ["= 2 * 10", 10], [30, 30]]}}
        """)
        let s = try #require(layer(scene, "s", at: 0.5))
        #expect(s.shape?.path.svgData() == "M 0 0 C 10 0 20 10 30 30")
        #expect(s.shadowPath?.svgData() == "M 1 1 C 10 0 20 10 30 30")
        #expect(scene.bindings.isEmpty)
        let p = problems("""
        layers:
          - {id: a, shadowPath: {cubic: ["@a", [10, 0], [20, 10], [30, 30]]}}
          - {id: b, shadowPath: "@a"}
          - {id: c, type: shape, path: {cubic: [[0, 0], [10, 0], [20, 10]]}}
        """)
        #expect(p.map(\.description) == [
            "t.yaml:4:34: layers[0].shadowPath.cubic[0]: 'cubic' reads 'a.position', but a path here is read once, "
                + "when the scene loads: only a shape layer's own `path` follows live values",
            "t.yaml:5:25: layers[1].shadowPath: not yet supported: a path from an expression (section 4 covers numbers "
                + "and points: write a primitive, a {cubic: …} or a named shape with expressions in its numbers)",
            "t.yaml:6:40: layers[2].path.cubic: a cubic takes 4 points [p0, c1, c2, p1], found 3",
        ])
    }

    @Test func randomIsDeterministicPerFrame() throws {
        let scene = try load("layers: [{id: r, opacity: \"= random()\"}]\n")
        let a = layer(scene, "r", at: 0.5)?.opacity, b = layer(scene, "r", at: 0.5)?.opacity
        let c = layer(scene, "r", at: 0.52)?.opacity
        #expect(a == b)
        #expect(a != c)
        #expect((0..<1).contains(a ?? -1))
    }

    /// Each `random()` is its own call site: a point's x and y, a size's width and height
    /// and an animation value's components draw different numbers.
    @Test func randomDiffersBetweenTheComponentsOfAValue() throws {
        let scene = try load("""
        layers:
          - {id: c, position: ["= random() * 100", "= random() * 100"], bounds: ["= random() * 100", "= random() * 100"]}
          - {id: a, position: [0, 0]}
        animations:
          - {layer: a, keyPath: position, to: ["= random() * 300", "= random() * 300"], duration: 1}
        """)
        for time in [0.0, 0.5, 0.9] {
            let c = try #require(layer(scene, "c", at: time))
            #expect(c.position.x != c.position.y, "t=\(time): \(c.position)")
            #expect(c.bounds.width != c.bounds.height, "t=\(time): \(c.bounds)")
        }
        let a = try #require(layer(scene, "a", at: 0.999))
        #expect(abs(a.position.x - a.position.y) > 1e-6, "\(a.position)")
    }

    @Test func cyclesAreNamed() {
        let p = problems("""
        layers:
          - {id: a, position: ["= b.position.y", 0]}
          - {id: b, position: [0, "= a.position.x"]}
        """)
        #expect(p.count == 1)
        #expect(p.first?.message.hasPrefix("reference cycle: ") == true)
        // Each component binds its own sub-key path: the cycle goes through them.
        #expect(p.first?.message.contains("a.position.x → b.position.y → a.position.x") == true
                || p.first?.message.contains("b.position.y → a.position.x → b.position.y") == true, "\(p.map(\.message))")
    }

    /// The components with sub-key paths come from the layer table: a size's too, so a
    /// cycle through bounds components is named by them.
    @Test func sizeComponentsBindTheirSubKeyPaths() {
        #expect(LayerDecoder.componentPaths.mapValues { $0.map(\.keyPath.description) }
                == ["position": ["position.x", "position.y"], "bounds": ["bounds.size.width", "bounds.size.height"],
                    // In the order a transform's live components are bound (their random() salts follow it).
                    "transform": ["transform.rotation.z", "transform.rotation.x", "transform.rotation.y", "transform.scale",
                                  "transform.scale.x", "transform.scale.y", "transform.translation.x",
                                  "transform.translation.y", "transform.translation.z"]])
        let p = problems("""
        layers:
          - {id: a, bounds: ["= b.bounds.size.height", 10]}
          - {id: b, bounds: [10, "= a.bounds.size.width"]}
        """)
        #expect(p.count == 1)
        #expect(p.first?.message.contains("a.bounds.size.width → b.bounds.size.height → a.bounds.size.width") == true
                || p.first?.message.contains("b.bounds.size.height → a.bounds.size.width → b.bounds.size.height") == true,
                "\(p.map(\.message))")
    }

    @Test func componentsOfOnePointAreApartForDependencies() throws {
        // a.x reads b.x (written), b.y reads a.y (written): no cycle; a whole point read
        // still depends on both components.
        let scene = try load("""
        layers:
          - {id: a, position: ["= b.position.x + 10", 50]}
          - {id: b, position: [100, "= a.position.y + 20"]}
          - {id: c, position: "@b"}
        """)
        let c = try #require(layer(scene, "c", at: 0))
        #expect(layer(scene, "a", at: 0)?.position == Point(110, 50) && layer(scene, "b", at: 0)?.position == Point(100, 70))
        #expect(c.position == Point(100, 70))
    }

    @Test func referencesReadComponentsOfPointsAndCellKeys() throws {
        let scene = try load("""
        layers:
          - {id: a, anchorPoint: [0.25, 0.75], bounds: [10, 20], shadowOffset: [3, 4]}
          - {id: em, type: emitter, emitterPosition: [30, 40], emitterSize: [50, 60], emitterCells: [{name: rocket, birthRate: 7}]}
          - id: out
            properties: {ax: "= a.anchorPoint.y", so: "= a.shadowOffset.height", ex: "= em.emitterPosition.x",
                         eh: "= em.emitterSize.height", br: "= em.emitterCells.rocket.birthRate"}
        """)
        let out = try #require(layer(scene, "out", at: 0)).properties
        #expect(out == ["ax": 0.75, "so": 4, "ex": 30, "eh": 60, "br": 7])
        let p = problems("""
        layers:
          - {id: a}
          - {id: em, type: emitter, emitterCells: [{name: rocket}]}
          - {id: out, properties: {p: "= a.anchorPoint.width", q: "= em.emitterCells.nope.birthRate"}}
        """)
        #expect(p.map(\.message) == ["'anchorPoint.width' is not a number or point property of 'a'",
                                     "'emitterCells.nope.birthRate' is not a number or point property of 'em'"])
    }

    @Test func aDynamicItemsPositionTakesNoExpression() {
        // Section 6: the simulation owns an item's position and rotation; other keys and
        // other layers reading it are fine.
        let p = problems("""
        layers:
          - {id: ball, bounds: [10, 10], position: ["= 100 + 50 * t", 50], opacity: "= 1 - t / 4"}
          - {id: box, bounds: [10, 10], transform: {rotate: "= t"}}
          - {id: other, bounds: [10, 10], position: "@ball"}
        dynamics: {behaviors: [{gravity: {items: [ball]}}]}
        events:
          - {at: 1, addBehaviors: [{push: {items: [box], magnitude: 1}}]}
        """)
        #expect(p.map(\.keyPath) == ["layers[0].position[0]", "layers[1].transform.rotate"], "\(p.map(\.message))")
        #expect(p.first?.message.hasPrefix("'ball' is a dynamic item: the simulation owns its position and rotation") == true)
        // A behavior's id is not a layer's.
        let behavior = problems("""
        layers: [{id: ball, bounds: [10, 10]}, {id: o, properties: {m: "= g.magnitude"}}]
        dynamics: {behaviors: [{gravity: {id: g, items: [ball]}}]}
        """)
        #expect(behavior.map(\.message) == ["'g' is a behavior: references read layers' properties"])
    }

    @Test func oneLiveComponentKeepsAnimationsOfTheOther() throws {
        let scene = try load("""
        layers:
          - {id: a, position: ["= 50 + 50 * t", 50]}
          - {id: b, bounds: ["= 20 + 10 * t", 20]}
        animations:
          - {layer: a, keyPath: position.y, from: 50, to: 150, duration: 2}
          - {layer: b, keyPath: bounds.size.height, from: 20, to: 60, duration: 2}
        """)
        #expect(layer(scene, "a", at: 1)?.position == Point(100, 100))
        #expect(layer(scene, "b", at: 1)?.bounds.size == Size(30, 40))
    }

    @Test func errorsPointIntoTheExpression() {
        // `sinn` starts at character 3 of "= sinn(t)", whose quote is at column 22.
        let p = problems("layers:\n  - {id: a, opacity: \"= sinn(t)\"}\n")
        #expect(p.count == 1)
        #expect(p.first?.location.line == 4)
        #expect(p.first?.location.column == 22 + 1 + 2)
        #expect(p.first?.message.contains("sin") == true)
        let unknown = problems("layers:\n  - {id: a, opacity: \"= bb.opacity\"}\n  - {id: b}\n")
        #expect(unknown.first?.message == "unknown layer id 'bb' (did you mean 'b'?)")
        let kind = problems("layers:\n  - {id: a, opacity: \"= [1, 2]\"}\n")
        #expect(kind.first?.message.contains("expected a number") == true)
    }

    @Test func aStickyBubblesBrokenFlagIsReadable() throws {
        // r1 = 20 − d/10 ≤ 6 breaks at d ≥ 140: the finger passes 140 pt at t = 1.4.
        let scene = try load("""
        layers:
          - {id: finger, position: ["= 100 + 100 * t", 100]}
          - {id: neck, type: shape, path: {shape: stickyBubble, from: [100, 100], radius: 20, to: "@finger", viscosity: 10}}
          - {id: badge, opacity: "= 1 - neck.path.broken"}
        """)
        #expect(layer(scene, "badge", at: 1.2)?.opacity == 1)
        #expect(layer(scene, "badge", at: 1.6)?.opacity == 0)
    }

    @Test func referencesReadPositionsAfterPhysics() throws {
        let scene = try load("""
        layers:
          - {id: ball, position: [150, 50], bounds: [20, 20]}
          - {id: follower, position: "@ball.position + [0, 30]"}
        dynamics:
          behaviors:
            - gravity: {items: [ball]}
        """)
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(25)
        let ball = try #require(frame.layers.first { $0.id == "ball" }).position
        let follower = try #require(frame.layers.first { $0.id == "follower" }).position
        // The ball has fallen ½·1000·0.5² = 125 pt; the follower sits 30 pt below it.
        #expect(abs(ball.y - 175) < 2)
        #expect(abs(follower.y - ball.y - 30) < 1e-9 && abs(follower.x - ball.x) < 1e-9)
    }
}

extension ExpressionSceneTests {
    /// Of two expressions with the same text in one value, the error is reported at the
    /// one that has it (found by its place in the file, not by its text).
    @Test func anErrorInTheSecondOfTwoEqualExpressionsPointsAtTheSecond() throws {
        let line = #"  - {id: a, transform: {translate: "= b.position", rotate: "= b.position"}}"#
        let problems = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers:
          - {id: b, position: [10, 20]}
        \(line)
        """)
        let p = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(p.message == "expected a number, but the expression gives a point")
        // At rotate's expression, where it starts (`b`, after "= "), not at translate's.
        let rotate = try #require(line.range(of: #"rotate: "= "#))
        let column = line.distance(from: line.startIndex, to: rotate.upperBound) + 1
        #expect(p.location.line == 5 && p.location.column == column, "\(p.description)")
    }
}

extension ExpressionSceneTests {
    /// A YAML alias copies its anchor's node, place and all: two expressions of one value
    /// with the same text at the same place. Each term keeps its own source range (its
    /// key path, the character after the anchor `&x`), so each error is its own.
    @Test func twoEqualExpressionsFromOneAnchorEachGetTheirOwnPlace() throws {
        let line = #"  - {id: a, position: [&x "= nope.x", *x]}"#
        let problems = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers:
        \(line)
        """)
        #expect(problems.map(\.message) == ["unknown layer id 'nope'", "unknown layer id 'nope'"])
        #expect(problems.map(\.keyPath) == ["layers[0].position[0]", "layers[0].position[1]"])
        // Both at `nope`, the id the message names (the anchor's text, which the alias repeats).
        let id = try #require(line.range(of: "nope"))
        let column = line.distance(from: line.startIndex, to: id.lowerBound) + 1
        #expect(problems.allSatisfy { $0.location.line == 4 && $0.location.column == column }, "\(problems)")
    }
}
