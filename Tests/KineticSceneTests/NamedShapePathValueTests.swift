import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Contract 3.1: a named shape is a path value wherever a path is read — `shadowPath`, a
/// collision boundary's `path`, a keyframe `path`, an emitter cell's `contents.path` —
/// built once at load from constant parameters.
@Suite struct NamedShapePathValueTests {
    func load(_ body: String, duration: Double = 2) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [300, 300], duration: \(duration), fps: 50}\n" + body,
                             file: "t.yaml")
    }

    func problems(_ body: String) -> [SceneProblem] { sceneProblems(try load(body)) }

    /// Whether `p` lies inside the path's flattened outline (even-odd).
    func contains(_ path: BezierPath, _ p: Point) -> Bool {
        var inside = false
        for ring in path.flattened(tolerance: 0.05) where ring.count > 2 {
            for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) where (a.y > p.y) != (b.y > p.y) {
                if p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
            }
        }
        return inside
    }

    @Test func shadowPathIsTheShapesSilhouette() throws {
        // A round gooey circle (progress 0.5) of side 60 around (50, 50): its shadow covers
        // the disk of radius 30 and nothing outside it.
        let scene = try load("""
        layers:
          - id: shadowed
            frame: [100, 100, 100, 100]
            shadowOpacity: 1
            shadowPath: {shape: gooeyCircle, center: [50, 50], size: 60, travel: 100, progress: "= 1 / 2"}
        """)
        let shadow = try #require(findLayer(scene.layers, id: "shadowed")?.shadowPath)
        let expected = try NamedShape.gooeyCircle.path(parameters: [
            "center": .point(Point(50, 50)), "size": .number(60), "travel": .number(100), "progress": .number(0.5),
        ])
        #expect(shadow == expected)
        #expect(!shadow.isEmpty)
        let box = shadow.boundingBox
        #expect(abs(box.origin.x - 20) < 0.01 && abs(box.origin.y - 20) < 0.01)
        #expect(abs(box.size.width - 60) < 0.01 && abs(box.size.height - 60) < 0.01)
        for (x, y) in [(50.0, 50.0), (50, 22), (78, 50), (30, 40)] { #expect(contains(shadow, Point(x, y)), "(\(x), \(y))") }
        for (x, y) in [(50.0, 17.0), (22, 22), (78, 78), (83, 50)] { #expect(!contains(shadow, Point(x, y)), "(\(x), \(y))") }
    }

    @Test func keyframePathFromANamedShapeMovesAlongItsVertices() throws {
        // A checkmark has 3 vertices, so with linear timing each of its 2 segments takes
        // half the duration: the rider is at each vertex at 0, 1 and 2 s.
        let scene = try load("""
        layers:
          - {id: rider, position: [0, 0], bounds: [10, 10]}
        animations:
          - {layer: rider, keyPath: position, path: {shape: checkmark, rect: [0, 0, 90, 90]}, duration: 2}
        """, duration: 3)
        let timeline = Timeline(scene: scene)
        func position(_ t: Double) throws -> Point {
            try #require(findLayer(timeline.frame(at: t, index: Int(t * 50)).layers, id: "rider")).position
        }
        // Checkmark: (w/9, 2h/3) → (w/3, 9h/10) → (8w/10, 2h/10).
        let vertices = [Point(10, 60), Point(30, 81), Point(72, 18)]
        for (t, v) in zip([0.0, 1.0, 2.0], vertices) {
            let p = try position(t)
            #expect(abs(p.x - v.x) < 1e-6 && abs(p.y - v.y) < 1e-6, "at \(t): \(p)")
        }
        // Half-way along the first segment at 0.5 s.
        let mid = try position(0.5)
        #expect(abs(mid.x - 20) < 1e-6 && abs(mid.y - 70.5) < 1e-6, "\(mid)")
    }

    @Test func boundaryFromANamedShapeCollidesWhereTheShapeIs() throws {
        // A ball of radius 10 dropped inside a round gooey circle of side 200 around
        // (150, 150) rests on its bottom: its centre at 150 + 100 − 10 = 240.
        func scene(boundary: Bool) throws -> Scene {
            try load("""
            layers:
              - {id: ball, position: [150, 150], bounds: [20, 20], cornerRadius: 10}
            dynamics:
              items:
                ball: {collisionBoundsType: ellipse}
              behaviors:
                - gravity: {items: [ball]}
                - collision:
                    items: [ball]
                    collisionMode: boundaries
                    boundaries:
                      - {identifier: bowl, path: \(boundary ? "{shape: gooeyCircle, center: [150, 150], size: 200, travel: 300}" : "\"M 0 290 L 300 290\"")}
            """)
        }
        let frame = try Simulation(timeline: Timeline(scene: try scene(boundary: true))).frame(99)
        let ball = try #require(findLayer(frame.layers, id: "ball")).position
        #expect(abs(ball.x - 150) < 1, "\(ball)")
        #expect(abs(ball.y - 240) < 1.5, "\(ball)")
        // Without the shape the ball falls on to the floor line instead.
        let free = try Simulation(timeline: Timeline(scene: try scene(boundary: false))).frame(99)
        #expect(try #require(findLayer(free.layers, id: "ball")).position.y > 270)
    }

    @Test func emitterContentsMayBeANamedShape() throws {
        let scene = try load("""
        layers:
          - id: e
            type: emitter
            emitterCells:
              - name: chk
                birthRate: 10
                contents: {path: {shape: checkmark, rect: [0, 0, 16, 16]}, size: [16, 16]}
        """)
        let cell = try #require(findLayer(scene.layers, id: "e")?.emitter?.emitterCells.first)
        guard case .path(let path, let size, _)? = cell.contents else {
            Issue.record("contents: \(String(describing: cell.contents))")
            return
        }
        #expect(path == Checkmark(rect: Rect(0, 0, 16, 16)).path)
        #expect(size == Size(16, 16))
    }

    @Test func pathAnimationValuesMayBeNamedShapes() throws {
        // A 3-vertex polyline blends into the checkmark, point by point.
        let scene = try load("""
        layers:
          - {id: s, type: shape, path: "M 0 0 L 0 0 L 0 0"}
        animations:
          - {layer: s, keyPath: path, to: {shape: checkmark, rect: [0, 0, 90, 90]}, duration: 1}
        """)
        let shape = try #require(findLayer(Timeline(scene: scene).frame(at: 1, index: 50).layers, id: "s")?.shape)
        #expect(shape.path == Checkmark(rect: Rect(0, 0, 90, 90)).path)
    }

    @Test func liveParametersAreReportedWhereTheShapeIsBuiltOnce() {
        let found = problems("""
        layers:
          - {id: front, position: [1, 2]}
          - id: a
            shadowPath: {shape: stickyBubble, from: "@front", radius: 20, to: ["= 10 * t", 3]}
          - id: b
            shadowPath: {shape: gooeyCircle, center: [1, 2], size: "= 40 * random()", travel: "= 2 * 50"}
        """)
        #expect(found.map(\.keyPath) == ["layers[1].shadowPath.from", "layers[1].shadowPath.to[0]",
                                         "layers[2].shadowPath.size"])
        #expect(found[0].message.contains("reads 'front.position'") && found[0].message.contains("built once"))
        #expect(found[1].message.contains("changes with t or frame"))
        #expect(found[2].message.contains("random()"))
        #expect(!found.contains { $0.message.contains("named shape is a shape layer's") })
    }

    @Test func aRectParameterTakesConstantExpressionsPerEntry() throws {
        // A rect is read as the other parameters are: a constant entry evaluated now, a live
        // one reported as not followed where the shape is built once.
        let scene = try load("""
        layers:
          - {id: a, shadowOpacity: 1, shadowPath: {shape: checkmark, rect: [0, "= 2 * 5", 90, "= 3 * 30"]}}
        """)
        let shadow = try #require(findLayer(scene.layers, id: "a")?.shadowPath)
        #expect(shadow == (try NamedShape.checkmark.path(parameters: ["rect": .rect(Rect(0, 10, 90, 90))])))
        let found = problems("""
        layers:
          - {id: a, shadowPath: {shape: checkmark, rect: [0, 0, "= 90 * t", 90]}}
          - {id: b, shadowPath: {shape: checkmark, rect: [0, 0, -1, 90]}}
        """)
        #expect(found.map(\.keyPath) == ["layers[0].shadowPath.rect[2]", "layers[1].shadowPath.rect"])
        #expect(found[0].message.contains("'rect' changes with t or frame") && found[0].message.contains("built once"))
        #expect(found[1].message == "width and height must not be negative")
    }

    @Test func aWronglyTypedParameterIsReportedOnce() {
        // Not also as missing: the value is there, of the wrong type.
        let found = problems("""
        layers:
          - {id: a, shadowPath: {shape: pullRefreshArrows, size: 100}}
          - {id: b, shadowPath: {shape: liquidBridge, from: [0, 0], fromRadius: 5, to: [9, 0], toRadius: 5}}
        """)
        #expect(found.map(\.keyPath) == ["layers[0].shadowPath.size", "layers[1].shadowPath"])
        #expect(found.first?.message == "expected a size [w, h], found a single value")
        #expect(found.last?.message == "the liquidBridge shape needs 'threshold'")
    }
}
