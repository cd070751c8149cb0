import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticScene

/// Section 6 through the loader and the runtime: scene files in, laws out.
@Suite struct DynamicsSceneTests {
    func load(_ yaml: String) throws -> Scene { try SceneLoader.load(text: yaml, file: "t.yaml") }

    func layer(_ frame: SceneFrame, _ id: String) -> Layer? { frame.layers.first { $0.id == id } }

    @Test func freeFallWritesPositionEveryFrame() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [400, 2000], fps: 50, duration: 1}
        layers:
          - {id: ball, position: [200, 100], bounds: [0, 0, 40, 40]}
          - {id: still, position: [50, 50], bounds: [0, 0, 10, 10]}
        dynamics:
          behaviors:
            - gravity: {items: [ball], magnitude: 2}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        for index in [0, 10, 25, 50] {
            let frame = try simulation.frame(index)
            let t = Double(index) / 50
            let y = try #require(layer(frame, "ball")).position.y
            // y0 + ½·2000·t², within 0.5 % of the one-second drop (1000 pt).
            #expect(abs(y - (100 + 1000 * t * t)) <= 5, "frame \(index)")
            #expect(try #require(layer(frame, "still")).position == Point(50, 50))
        }
        let state = try #require(simulation.itemStates["ball"])
        #expect(abs(state.velocity.y - 2000) < 1e-6)
        #expect(simulation.itemStates["still"] == nil)
    }

    @Test func framesDoNotDependOnTheOrderOrFpsTheyAreAskedIn() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [400, 400], fps: 30, duration: 2}
        layers:
          - {id: a, position: [100, 100], bounds: [0, 0, 40, 40]}
          - {id: b, position: [120, 20], bounds: [0, 0, 40, 40]}
        dynamics:
          items: {a: {collisionBoundsType: ellipse}}
          behaviors:
            - gravity: {items: [a, b]}
            - collision: {items: [a, b], translatesReferenceBoundsIntoBoundary: true}
        """)
        let timeline = Timeline(scene: scene)
        let sequential = Simulation(timeline: timeline)
        for i in 0...45 { _ = try sequential.frame(i) }
        let jumped = Simulation(timeline: timeline)
        _ = try jumped.frame(50)                  // later first: the simulation restarts for 45
        let direct = try jumped.frame(45)
        let ref = try sequential.frame(45)
        #expect(layer(direct, "b")?.position == layer(ref, "b")?.position)
        #expect(layer(direct, "b")?.transform == layer(ref, "b")?.transform)
        // 1.5 s at 60 fps is the same simulated instant as frame 45 at 30 fps.
        let other = try Simulation(timeline: timeline).frame(90, fps: 60)
        #expect(layer(other, "b")?.position == layer(ref, "b")?.position)
    }

    @Test func pendulumFromASceneHasPeriodTwoPiRootLOverG() throws {
        // L = 250 pt, g = 1000 pt/s²: T = 2π√0.25 = π s. Released 4° out.
        let theta = 4.0 * .pi / 180
        let x = 200 + 250 * sin(theta), y = 100 + 250 * cos(theta)
        let scene = try load("""
        kinetic: 1
        scene: {size: [400, 600], fps: 100, duration: 8}
        layers:
          - {id: bob, position: [\(x), \(y)], bounds: [0, 0, 30, 30]}
        dynamics:
          behaviors:
            - gravity: {items: [bob]}
            - attachment: {item: bob, attachedToAnchor: [200, 100]}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var crossings: [Double] = []
        var previous = x - 200
        for i in 1..<800 {
            let dx = try #require(layer(try simulation.frame(i), "bob")).position.x - 200
            if previous < 0, dx >= 0 { crossings.append((Double(i) - 1 + -previous / (dx - previous)) / 100) }
            previous = dx
        }
        try #require(crossings.count >= 2)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        #expect(abs(period - .pi) / .pi < 0.01)
    }

    @Test func pushAngleAndMagnitudeAreOneVector() throws {
        // UIPushBehavior: `angle` and `pushDirection` are two views of one vector, so
        // angle 0.5 with magnitude 1 pushes along (cos 0.5, sin 0.5). A 100×100 item of
        // density 1 has mass 1, so it accelerates at 100 pt/s²; after 0.5 s its velocity
        // is 50·(cos 0.5, sin 0.5) = (43.88, 23.97) pt/s (the old loader gave (50, 0)).
        let scene = try load("""
        kinetic: 1
        scene: {size: [1000, 1000], fps: 50, duration: 1}
        layers:
          - {id: box, position: [500, 500], bounds: [0, 0, 100, 100]}
        dynamics:
          behaviors:
            - push: {items: [box], angle: 0.5, magnitude: 1}
            - push: {items: [box], magnitude: 0, angle: -1}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(25)
        let v = try #require(simulation.itemStates["box"]).velocity
        #expect(abs(v.x - 50 * cos(0.5)) < 1e-6 && abs(v.x - 43.88) < 0.01, "\(v)")
        #expect(abs(v.y - 50 * sin(0.5)) < 1e-6 && abs(v.y - 23.97) < 0.01, "\(v)")
        // The angle given with magnitude 0 is kept: the behavior reads it back.
        guard case .push(let quiet) = scene.dynamics?.behaviors[1].kind else { Issue.record("not a push"); return }
        #expect(quiet.angle == -1 && quiet.magnitude == 0)
    }

    @Test func rotationIsWrittenToTheTransform() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [400, 400], duration: 1}
        layers:
          - {id: box, position: [200, 200], bounds: [0, 0, 100, 100]}
        dynamics:
          behaviors:
            - itemBehavior: {items: [box], angularVelocity: 2}
        """)
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(25)   // 0.5 s
        let angle = try #require(layer(frame, "box")).transform.components.rotationZ
        #expect(abs(angle - 1) < 1e-9)
        #expect(try #require(layer(frame, "box")).position == Point(200, 200))
    }

    @Test func decodesEveryBehaviorKind() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [375, 667], duration: 1}
        layers:
          - {id: a, position: [100, 100], bounds: [0, 0, 40, 40]}
          - {id: b, position: [200, 100], bounds: [0, 0, 40, 40]}
          - {id: groove, type: shape, path: "M 0 0 L 100 0 L 100 50"}
        dynamics:
          referenceBounds: [0, 0, 375, 600]
          stepsPerSecond: 120
          items:
            a: {collisionBoundsType: path, collisionBoundingPath: "M -20 -20 L 20 -20 L 0 20 Z"}
          behaviors:
            - gravity: {id: g, items: [a], angle: "90deg", magnitude: 0.5, begin: 0.2, end: 0.8}
            - collision:
                items: [a, b]
                collisionMode: boundaries
                insets: [1, 2, 3, 4]
                boundaries:
                  - {identifier: floor, from: [0, 500], to: [375, 500]}
                  - {identifier: g2, path: "@groove"}
            - push: {id: p, items: [b], mode: instantaneous, pushDirection: [1, 0.3], targetOffsetFromCenter: [0, 5]}
            - attachment: {item: b, attachedTo: a, attachedOffsetFromCenter: [0, -30], length: 64, damping: 0.5, frequency: 1}
            - attachment: {kind: sliding, item: a, attachmentAnchor: [100, 100], axisOfTranslation: [1, 0], attachmentRange: [-50, 50]}
            - snap: {item: b, snapPoint: [200, 300], damping: 0.3}
            - itemBehavior: {items: [a, b], elasticity: 0.5, friction: 0.2, density: 2, resistance: 1, allowsRotation: false, charge: 1}
            - field: {kind: vortex, items: [a], position: [0, 0], region: {radius: 100}, strength: 0.5}
        """)
        let d = try #require(scene.dynamics)
        #expect(d.referenceBounds == Rect(0, 0, 375, 600))
        #expect(d.stepsPerSecond == 120)
        #expect(d.behaviors.count == 8)
        #expect(d.itemIDs == ["a", "b"])
        guard case .gravity(let g) = d.behaviors[0].kind else { Issue.record("gravity"); return }
        #expect(abs(g.gravityDirection.y - 0.5) < 1e-12 && abs(g.gravityDirection.x) < 1e-12)
        #expect(d.behaviors[0].begin == 0.2 && d.behaviors[0].end == 0.8)
        guard case .collision(let c) = d.behaviors[1].kind else { Issue.record("collision"); return }
        #expect(c.collisionMode == .boundaries && c.insets.right == 4 && c.boundaries.count == 2)
        if case .path(let p) = c.boundaries[1].shape { #expect(p.elements.count == 3) } else { Issue.record("path boundary") }
        #expect(d.behaviors[1].id == "dynamics.behaviors[1]")
        guard case .attachment(let slide) = d.behaviors[4].kind else { Issue.record("sliding"); return }
        #expect(slide.kind == .sliding && slide.axisOfTranslation == Point(1, 0) && slide.attachmentRange == -50...50)
        // The scene runs.
        _ = try Simulation(timeline: Timeline(scene: scene)).frame(40)
    }

    @Test func dynamicsProblemsAreLocatedWithSuggestions() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 10, 10]}]
        dynamics:
          behaviors:
            - gravity: {items: [bal], magnitud: 1}
            - snap: {item: ball, snapPoint: [1, 2], damping: 2}
            - spin: {items: [ball]}
        """)
        let text = p.map(\.description)
        #expect(text.contains("t.yaml:6:31: dynamics.behaviors[0].gravity.magnitud: unknown key 'magnitud' (did you mean 'magnitude'?)"))
        #expect(text.contains("t.yaml:6:25: dynamics.behaviors[0].gravity.items[0]: unknown layer id 'bal' (did you mean 'ball'?)"))
        #expect(p.contains { $0.keyPath == "dynamics.behaviors[1].snap.damping" && $0.message.contains("must be ≥ 0 and ≤ 1, got 2") })
        #expect(p.contains { $0.keyPath == "dynamics.behaviors[2].spin" && $0.message.contains("unknown key 'spin'") })
        #expect(p.count == 4)
    }

    /// Each behavior is read from its table in one pass: a key that does not parse is
    /// reported even when the items (or a snap's item, a field's kind) do not read either.
    @Test func everyKeyOfABehaviorIsReadFromItsTable() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 10, 10]}]
        dynamics:
          behaviors:
            - gravity: {items: [bal], magnitude: x}
            - snap: {snapPoint: [1], damping: x}
            - field: {kind: radial, items: [ball], strength: x}
        """).map(\.description)
        #expect(p.contains("t.yaml:6:25: dynamics.behaviors[0].gravity.items[0]: unknown layer id 'bal' (did you mean 'ball'?)"))
        #expect(p.contains("t.yaml:6:42: dynamics.behaviors[0].gravity.magnitude: expected a number, found 'x'"))
        #expect(p.contains("t.yaml:7:13: dynamics.behaviors[1].snap: missing required key 'item'"))
        #expect(p.contains { $0.hasPrefix("t.yaml:7:25: dynamics.behaviors[1].snap.snapPoint: ") })
        #expect(p.contains("t.yaml:7:39: dynamics.behaviors[1].snap.damping: expected a number, found 'x'"))
        #expect(p.contains { $0.hasPrefix("t.yaml:8:21: dynamics.behaviors[2].field.kind: 'radial' is not one of") })
        #expect(p.contains("t.yaml:8:54: dynamics.behaviors[2].field.strength: expected a number, found 'x'"))
        #expect(p.count == 7, "\(p)")
    }

    /// A boundary and a field's region are read from their tables: a line's missing ends are
    /// each reported, a path beside them wins (their values unread), and no step sets a
    /// region, so an expression there is refused.
    @Test func boundariesAndRegionsAreReadFromTheirTables() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 10, 10]}, {id: s, type: shape, path: "M 0 90 L 99 90 L 99 95 Z"}]
        dynamics:
          behaviors:
            - collision: {items: [ball], boundaries: [{identifier: 5}, {path: "@s", from: x}, {from: [1], to: [0, 1]}]}
            - field: {kind: vortex, items: [ball], region: {radius: "=2+3"}}
        """).map(\.description)
        let at = "dynamics.behaviors[0].collision.boundaries"
        #expect(p.contains("t.yaml:6:47: \(at)[0]: missing required key 'from'"))
        #expect(p.contains("t.yaml:6:47: \(at)[0]: missing required key 'to'"))
        #expect(p.contains { $0.hasPrefix("t.yaml:6:60: \(at)[0].identifier: expected text") })
        #expect(p.contains("t.yaml:6:71: \(at)[1].path: give 'from' or 'path', not both: a boundary is a path or a line from + to"))
        #expect(p.contains("t.yaml:6:94: \(at)[2].from: expected 2 numbers, found 1"))
        #expect(p.contains("t.yaml:7:61: dynamics.behaviors[1].field.region.radius: "
                           + "not yet supported: expressions and references (section 4 of the scene format)"))
        #expect(p.count == 6, "\(p)")
    }

    @Test func blowUpIsATypedErrorWithTimeAndItem() throws {
        let scene = try load("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: ball, bounds: [0, 0, 0.01, 0.01]}]
        dynamics:
          behaviors:
            - push: {items: [ball], pushDirection: [1e7, 0], begin: 0.5}
        """)
        let simulation = Simulation(timeline: Timeline(scene: scene))
        _ = try simulation.frame(20)
        do {
            _ = try simulation.frame(40)
            Issue.record("no error")
        } catch {
            guard case .blewUp(let time, let item) = error.kind else { Issue.record("wrong kind"); return }
            #expect(abs(time - 0.5) <= 1.0 / 240 + 1e-12 && item == "ball")
        }
    }
}

@Suite struct DynamicsItemCheckTests {
    @Test func anItemNeedsBounds() {
        do {
            _ = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [100, 100], duration: 1}
            layers: [{id: dot, position: [5, 5]}]
            dynamics: {behaviors: [{gravity: {items: [dot]}}]}
            """, file: "t.yaml")
            Issue.record("loaded")
        } catch let e as SceneLoadError {
            #expect(e.problems.map(\.keyPath) == ["dynamics.behaviors[0].gravity.items[0]"])
            #expect(e.problems.first?.message.contains("empty bounds") == true)
        } catch { Issue.record("\(error)") }
    }
}

@Suite struct DynamicsEventTests {
    let scene = """
    kinetic: 1
    scene: {size: [375, 667], fps: 25, duration: 3}
    layers:
      - {id: a, position: [100, 100], bounds: [0, 0, 40, 40]}
      - {id: b, position: [250, 100], bounds: [0, 0, 40, 40]}
    dynamics:
      behaviors:
        - gravity: {id: g, items: [a]}
        - collision:
            items: [a, b]
            boundaries: [{identifier: floor, from: [0, 500], to: [375, 500]}]
    events:
      - at: 1.0
        addBehaviors:
          - push: {id: shove, items: [b], pushDirection: [0, 2]}
        set: {g.magnitude: 0.5}
      - on: {contact: began, boundary: floor}
        do:
          - set: {$item.opacity: 0.5}
          - removeLayers: [$item]
            delay: 0.5
      - at: 2
        set: {b.backgroundColor: red, g.magnitude: 1}
    """

    @Test func timeEventsAddBehaviorsAndSetProperties() throws {
        let loaded = try SceneLoader.load(text: scene, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: loaded))
        _ = try simulation.frame(25)                       // t = 1: the push starts now
        #expect(try #require(simulation.itemStates["b"]).velocity == .zero)
        _ = try simulation.frame(30)                       // 0.2 s of push 200 on mass 0.16
        let vb = try #require(simulation.itemStates["b"]).velocity.y
        #expect(abs(vb - 200 / 0.16 * 0.2) < 1e-6)
    }

    @Test func contactHandlerRemovesTheItemAfterItsDelay() throws {
        let loaded = try SceneLoader.load(text: scene, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: loaded))
        // a's bottom falls 380 pt at 1000 pt/s²: it lands at √0.76 ≈ 0.87 s, and goes 0.5 s later.
        let landing = 0.76.squareRoot()
        let before = try simulation.frame(at: landing + 0.45, index: 0)
        #expect(before.layers[0].isHidden == false)
        #expect(before.layers[0].opacity == 0.5)           // set by the handler at landing
        #expect(before.layers[1].opacity == 1)
        let after = try simulation.frame(at: landing + 0.55, index: 1)
        #expect(after.layers[0].isHidden == true)
        #expect(after.layers[1].isHidden == false)
        #expect(after.layers[1].backgroundColor == nil)
        let late = try simulation.frame(at: 2, index: 2)
        #expect(late.layers[1].backgroundColor == Color(r255: 255, g255: 0, b255: 0))
    }

    @Test func eventProblemsAreReported() {
        do {
            _ = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [100, 100], duration: 1}
            layers: [{id: a, bounds: [0, 0, 10, 10]}]
            dynamics: {behaviors: [{gravity: {id: g, items: [a]}}]}
            events:
              - {at: 0.5, set: {gg.magnitude: 2, g.magnitud: 1}, removeBehaviors: [h]}
              - {on: {contact: begun}, do: [{removeLayers: [$item]}]}
              - {on: {contact: began, items: [5, b]}, do: [{removeLayers: [$item]}]}
            """, file: "t.yaml")
            Issue.record("loaded")
        } catch let e as SceneLoadError {
            let text = e.problems.map(\.description).joined(separator: "\n")
            #expect(text.contains("events[0].set.gg.magnitude: unknown behavior or layer id 'gg' (did you mean 'g'?)"))
            #expect(text.contains("events[0].set.g.magnitud: behavior 'g': no property 'magnitud'"))
            #expect(text.contains("events[0].removeBehaviors[0]: unknown behavior id 'h'"))
            #expect(text.contains("events[1].on.contact: 'begun' is not one of began, ended (did you mean 'began'?)"))
            // Each item's problem at its own place: the number at items[0], the unknown id at items[1].
            #expect(text.contains("events[2].on.items[0]: expected text"), "\(text)")
            #expect(text.contains("events[2].on.items[1]: unknown layer id 'b'"), "\(text)")
        } catch { Issue.record("\(error)") }
    }

    /// A `set:` of a property the behavior lacks names it before its value is read (the
    /// behavior's table says which properties are settable, and of what kind).
    @Test func setOfAMissingPropertyNamesItWhateverItsValue() {
        let p = loadProblems("""
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers: [{id: a, bounds: [0, 0, 10, 10]}]
        dynamics: {behaviors: [{collision: {id: c, items: [a]}}, {gravity: {id: g, items: [a]}}]}
        events:
          - {at: 0.5, set: {c.foo: x, c.angle: "45deg", g.angle: "45deg"}}
        """)
        #expect(p.map(\.message) == [
            "behavior 'c': no property 'foo' (settable: translatesReferenceBoundsIntoBoundary)",
            "behavior 'c': no property 'angle' (settable: translatesReferenceBoundsIntoBoundary)",
        ])
    }
}

@Suite struct DynamicsDebugOverlayTests {
    @Test func debugOverlayDrawsBodiesJointsAndBoundaries() throws {
        let yaml = """
        kinetic: 1
        scene: {size: [300, 300], duration: 1}
        layers: [{id: box, position: [100, 100], bounds: [0, 0, 40, 20]}]
        dynamics:
          debug: DEBUG
          behaviors:
            - attachment: {item: box, attachedToAnchor: [100, 50]}
            - collision: {items: [box], translatesReferenceBoundsIntoBoundary: true}
        """
        let on = try SceneLoader.load(text: yaml.replacingOccurrences(of: "DEBUG", with: "true"), file: "t.yaml")
        let frame = try Simulation(timeline: Timeline(scene: on)).frame(0)
        let places = frame.layers.map(\.place)
        #expect(places.contains("dynamics.debug.bodies") && places.contains("dynamics.debug.joints")
                && places.contains("dynamics.debug.boundaries"))
        let bodies = try #require(frame.layers.first { $0.place == "dynamics.debug.bodies" }?.shape)
        // The 40×20 box around (100, 100): its outline's bounding box.
        #expect(bodies.path.boundingBox == Rect(80, 90, 40, 20))
        let boundaries = try #require(frame.layers.first { $0.place == "dynamics.debug.boundaries" }?.shape)
        #expect(boundaries.path.boundingBox == Rect(0, 0, 300, 300))
        let off = try SceneLoader.load(text: yaml.replacingOccurrences(of: "DEBUG", with: "false"), file: "t.yaml")
        #expect(try Simulation(timeline: Timeline(scene: off)).frame(0).layers.count == 1)
    }
}
