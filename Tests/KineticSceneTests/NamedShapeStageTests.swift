import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Stage 6 of a frame (named shapes follow their parameters) runs only when the scene has
/// a named shape (`Timeline.hasNamedShapes`), so that a scene of plain layers copies no
/// sublayer array for it; a named shape however deep in the tree still follows.
@Suite struct NamedShapeStageTests {
    func load(_ body: String) throws -> Scene {
        try SceneLoader.load(text: "kinetic: 1\nscene: {size: [400, 300], duration: 2, fps: 50}\n" + body, file: "t.yaml")
    }

    @Test func plainLayersHaveNoNamedShapeStage() throws {
        let scene = try load("""
        layers:
          - id: stage
            sublayers:
              - {id: a, frame: [10, 10, 40, 30], cornerRadius: 6, backgroundColor: "#4A90D9"}
              - {id: b, type: shape, path: "M 0 0 L 10 0 L 10 10 Z", fillColor: "#C2426B"}
        animations:
          - {layer: stage, keyPath: position.x, from: 180, to: 220, duration: 2}
        """)
        #expect(!Timeline(scene: scene).hasNamedShapes)
    }

    @Test func aNamedShapeTwoLevelsDownFollowsItsParameter() throws {
        let scene = try load("""
        layers:
          - id: box
            sublayers:
              - id: holder
                sublayers:
                  - id: gc
                    type: shape
                    path: {shape: gooeyCircle, center: [200, 50], size: 40, travel: 300, progress: 0}
        animations:
          - {layer: gc, keyPath: path.progress, from: 0, to: 1, duration: 1}
        """)
        #expect(Timeline(scene: scene).hasNamedShapes)
        let start = try #require(timelineLayer(scene, "gc", at: 0)?.shape)
        let half = try #require(timelineLayer(scene, "gc", at: 0.5)?.shape)
        let state = try #require(half.namedShape)
        #expect(state.parameters["progress"] == .number(0.5))
        // The path is the shape's own geometry at progress 0.5, not the file's at 0.
        #expect(half.path == (try state.shape.geometry(parameters: state.parameters)).path)
        #expect(half.path != start.path)
    }
}
