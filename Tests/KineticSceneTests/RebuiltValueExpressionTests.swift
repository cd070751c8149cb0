import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4 in values built from several numbers: a path primitive, `bounds: [x, y, w,
/// h]`, `frame` and a gradient's `locations` take expressions in any of their numbers,
/// rebuilt every frame as the static reader builds them from literals.
@Suite struct RebuiltValueExpressionTests {
    let header = "kinetic: 1\nscene: {size: [200, 200], duration: 3, fps: 50}\n"

    func load(_ body: String) throws -> Scene { try SceneLoader.load(text: header + body, file: "t.yaml") }

    func problems(_ body: String) -> [SceneProblem] { loadProblems(header + body) }

    func layer(_ scene: Scene, _ id: String, at time: Double) throws -> Layer { try #require(timelineLayer(scene, id, at: time)) }

    @Test func pathPrimitivesFollowTheirExpressions() throws {
        let scene = try load("""
        layers:
          - {id: a, position: [0, 0]}
          - {id: oval, type: shape, path: {oval: [0, 0, "= 10 * t", 10]}}
          - {id: arc, type: shape, path: {arc: {center: "@a", radius: "= 5 + t", startAngle: 0, endAngle: "= pi * t"}}}
          - {id: line, type: shape, path: {polyline: [[0, 0], ["= a.position.x", "= 2 * t"]], closed: true}}
          - {id: star, type: shape, path: {star: {center: [50, 50], points: 5, outerRadius: "= 2 - t", innerRadius: 1}}}
          - {id: rect, type: shape, path: {rect: [0, 0, "= 1 - t", 10]}}
        animations:
          - {layer: a, keyPath: position, from: [0, 0], to: [100, 50], duration: 1}
        """)
        for time in [0.25, 0.5, 1.5] {
            let a = Point(100 * min(time, 1), 50 * min(time, 1))
            #expect(try layer(scene, "oval", at: time).shape?.path == .oval(in: Rect(0, 0, 10 * time, 10)))
            #expect(try layer(scene, "arc", at: time).shape?.path
                    == .arc(center: a, radius: 5 + time, startAngle: 0, endAngle: .pi * time, clockwise: true))
            #expect(try layer(scene, "line", at: time).shape?.path == .polyline([.zero, Point(a.x, 2 * time)], closed: true))
        }
        #expect(try layer(scene, "star", at: 0.5).shape?.path == .star(center: Point(50, 50), points: 5, outerRadius: 1.5,
                                                                        innerRadius: 1))
        // A radius below 0 gives no path: the model's (none, as the path is bound).
        #expect(try layer(scene, "star", at: 2.5).shape?.path == BezierPath())
        #expect(try layer(scene, "rect", at: 0.5).shape?.path == .rect(Rect(0, 0, 0.5, 10)))
        #expect(try layer(scene, "rect", at: 1.5).shape?.path == BezierPath())
        // A star's count too: a whole number from 2 to 1000, or no path.
        let stars = try load("""
        layers:
          - {id: s, type: shape, path: {star: {center: [0, 0], points: "= 4 + floor(t)", outerRadius: 10, innerRadius: 5}}}
          - {id: half, type: shape, path: {star: {center: [0, 0], points: "= 4 + t", outerRadius: 10, innerRadius: 5}}}
        """)
        #expect(try layer(stars, "s", at: 1.5).shape?.path == .star(center: .zero, points: 5, outerRadius: 10, innerRadius: 5))
        #expect(try layer(stars, "half", at: 1).shape?.path == .star(center: .zero, points: 5, outerRadius: 10, innerRadius: 5))
        #expect(try layer(stars, "half", at: 0.5).shape?.path == BezierPath())
        #expect(problems("layers: [{id: s, type: shape, path: {star: {center: [0, 0], points: \"= 5 / 2\", outerRadius: 1, innerRadius: 1}}}]")
            .map(\.message) == ["a star has 2 to 1000 points, a whole number, found 2.5"])
    }

    @Test func boundsFrameAndLocations() throws {
        let scene = try load("""
        layers:
          - {id: b, bounds: ["= 10 * t", 0, "= 20 * t", 30]}
          - {id: f, frame: ["= 100 * t", 10, 40, "= 20 + t"]}
          - {id: g, anchorPoint: [0, 1], frame: [0, 0, "= 40 * t", 10]}
          - {id: grad, type: gradient, bounds: [10, 10], colors: [red, green, blue], locations: [0, "= t / 2", 1]}
        """)
        for time in [0.5, 1.25] {
            #expect(try layer(scene, "b", at: time).bounds == Rect(10 * time, 0, 20 * time, 30))
            let f = try layer(scene, "f", at: time)
            #expect(f.bounds == Rect(0, 0, 40, 20 + time))
            #expect(f.position == Point(100 * time + 20, 10 + (20 + time) / 2))
            // Converted with the anchor point as written.
            #expect(try layer(scene, "g", at: time).position == Point(0, 10))
            #expect(try layer(scene, "g", at: time).bounds.size == Size(40 * time, 10))
            #expect(try layer(scene, "grad", at: time).gradient?.locations == [0, time / 2, 1])
        }
    }

    @Test func pathsReadOnceTakeConstantExpressions() throws {
        let scene = try load("layers: [{id: a, bounds: [20, 20], shadowPath: {roundedRect: [0, 0, \"= 2 * 10\", 10], cornerRadius: \"= 1 + 2\"}}]")
        #expect(try #require(findLayer(scene.layers, id: "a")).shadowPath == .roundedRect(Rect(0, 0, 20, 10), cornerRadius: 3))
        let p = problems("""
        layers:
          - {id: a, shadowPath: {oval: [0, 0, "= t", 10]}}
          - {id: b, frame: ["= t", 0, 10, 10], position: [0, 0]}
          - {id: c, type: shape, path: {rect: [0, 0, "= t", -1]}}
        """)
        #expect(p.map(\.message) == [
            "'oval' changes with t or frame, but a path here is read once, when the scene loads: only a shape layer's "
                + "own `path` follows live values",
            "give 'position' or 'frame', not both: a frame sets the position and bounds",
            "width and height must not be negative",
        ], "\(p.map(\.message))")
    }

    @Test func constantExpressionsAreCheckedAsLiterals() throws {
        // A constant expression stands for its literal, and gets the literal's checks.
        let p = problems("""
        layers:
          - {id: a, opacity: "= 2"}
          - {id: b, bounds: ["= -10", 10]}
          - {id: c, zPosition: "= 1 / 0"}
          - {id: d, type: shape, path: {rect: [100, 100, "= -10", 20]}}
          - {id: e, frame: [0, 0, "= -1", 10]}
        """)
        #expect(p.map { "\($0.keyPath): \($0.message)" } == [
            "layers[0].opacity: 2 is out of range 0…1",
            "layers[1].bounds: a size must not be negative",
            "layers[2].zPosition: the expression's value is not finite",
            "layers[3].path.rect: width and height must not be negative",
            "layers[4].frame: width and height must not be negative",
        ])
        let scene = try load("""
        layers:
          - {id: g, position: "= [3, 4]", bounds: ["= 5", 6]}
          - {id: h, frame: [0, 0, "= 7", 8]}
          - {id: grad, type: gradient, bounds: [10, 10], colors: [red, blue], locations: [0, "= 2 * 0.25"]}
        """)
        #expect(scene.bindings.isEmpty)
        let g = try layer(scene, "g", at: 0), h = try layer(scene, "h", at: 0)
        #expect(g.position == Point(3, 4) && g.bounds == Rect(0, 0, 5, 6))
        #expect(h.position == Point(3.5, 4) && h.bounds == Rect(0, 0, 7, 8))
        #expect(try layer(scene, "grad", at: 0).gradient?.locations == [0, 0.5])
    }
}
