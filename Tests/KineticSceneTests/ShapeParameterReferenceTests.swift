import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 4's `ID.KEYPATH` with `path.PARAM`: expressions read a named shape's number and
/// point parameters, as presented this frame, in dependency order.
@Suite struct ShapeParameterReferenceTests {
    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [400, 300], duration: 2, fps: 50}\n" + body, file: "t.yaml")
    }

    func problems(_ body: String) -> [SceneProblem] { sceneProblems(try load(body)) }

    func layer(_ scene: Scene, _ id: String, at time: Double) -> Layer? { timelineLayer(scene, id, at: time) }

    @Test func anExpressionFollowsAnAnimatedParameter() throws {
        let scene = try load("""
        layers:
          - {id: follower, position: ["= 50 + 300*gc.path.progress", 95], bounds: [10, 10]}
          - {id: above, position: "= gc.path.center + [0, -40]"}
          - {id: split, position: ["= gc.path.center.x", "= 2 * gc.path.center.y"]}
          - id: gc
            type: shape
            path: {shape: gooeyCircle, center: [200, 50], size: 40, travel: 300, progress: 0}
        animations:
          - {layer: gc, keyPath: path.progress, from: 0, to: 1, duration: 1}
          - {layer: gc, keyPath: path.center, from: [200, 50], to: [100, 50], duration: 2}
        """)
        for t in [0.0, 0.25, 0.5, 0.8, 1.5] {
            let progress = min(t, 1)
            let x = try #require(layer(scene, "follower", at: t)).position.x
            #expect(abs(x - (50 + 300 * progress)) < 1e-9, "at \(t): \(x)")
            let above = try #require(layer(scene, "above", at: t)).position
            #expect(abs(above.x - (200 - 50 * t)) < 1e-9 && abs(above.y - 10) < 1e-9, "at \(t): \(above)")
            // A point parameter's components.
            let split = try #require(layer(scene, "split", at: t)).position
            #expect(abs(split.x - (200 - 50 * t)) < 1e-9 && abs(split.y - 100) < 1e-9, "at \(t): \(split)")
        }
    }

    @Test func aParameterLeftOutReadsItsDefault() throws {
        let scene = try load("""
        layers:
          - {id: r, opacity: "= gc.path.progress", cornerRadius: "= bubble.path.toRadius + bubble.path.viscosity"}
          - {id: gc, type: shape, path: {shape: gooeyCircle, center: [0, 0], size: 40, travel: 300}}
          - {id: bubble, type: shape, path: {shape: stickyBubble, from: [0, 0], radius: 12, to: [5, 0]}}
        animations:
          - {layer: bubble, keyPath: path.radius, to: 22, duration: 1}
        """)
        let r = try #require(layer(scene, "r", at: 1))
        #expect(abs(r.opacity - 0.5) < 1e-12)
        // toRadius is radius (animated to 22) when left out; viscosity 20.
        #expect(abs(r.cornerRadius - 42) < 1e-9)
    }

    @Test func bindingsFeedingAParameterRunFirst() throws {
        // The reader comes first in the file; the parameter it reads is itself an
        // expression, evaluated before it. A shape's parameter may read another of its own.
        let scene = try load("""
        layers:
          - {id: reader, position: ["= 100 * b.path.progress", "= n.path.toRadius"]}
          - id: b
            type: shape
            path: {shape: gooeyCircle, center: [0, 0], size: 40, travel: 300, progress: "= t / 4"}
          - id: n
            type: shape
            path: {shape: stickyBubble, from: [0, 0], radius: "= 10 + t", to: [30, 0], toRadius: "= n.path.radius / 2"}
          - {id: reader2, position: ["= n.path.toRadius", 0]}
        """)
        let reader = try #require(layer(scene, "reader", at: 1))
        #expect(abs(reader.position.x - 25) < 1e-9)
        #expect(abs(reader.position.y - 5.5) < 1e-9)
        let n = try #require(layer(scene, "n", at: 1)?.shape?.namedShape)
        #expect(n.parameters["toRadius"] == .number(5.5))
        #expect(abs((layer(scene, "reader2", at: 2)?.position.x ?? 0) - 6) < 1e-9)
    }

    @Test func unreadableShapeReferencesAreReportedAtTheReference() {
        let found = problems("""
        layers:
          - {id: a, position: ["= gc.path.progres", "= plain.path.progress"], opacity: "= menu.path.rect"}
          - {id: c, opacity: "= gc.path.progress.x"}
          - {id: gc, type: shape, path: {shape: gooeyCircle, center: [0, 0], size: 40, travel: 300}}
          - {id: plain, type: shape, path: "M 0 0 L 1 1"}
          - {id: menu, type: shape, path: {shape: gooeyMenu, rect: [0, 0, 10, 10]}}
          - {id: loop, type: shape, path: {shape: gooeyCircle, center: [0, 0], size: 4, travel: 3, progress: "= loop.path.progress"}}
        """)
        let messages = found.map(\.message)
        #expect(messages.count == 5, "\(messages)")
        #expect(messages.contains { $0.contains("'path.progress.x': 'progress' is a number") })
        #expect(messages.contains { $0.contains("'progres' is not a parameter of the gooeyCircle shape") && $0.contains("did you mean 'progress'") })
        #expect(messages.contains { $0.contains("the path of 'plain' is not a named shape") })
        #expect(messages.contains { $0.contains("'path.rect' is a rect") })
        #expect(messages.contains { $0 == "reference cycle: loop.path.progress → loop.path.progress" })
        // Columns point at the reference inside the expression.
        #expect(found.first { $0.message.contains("progres'") }?.location.column == 27)
    }
}
