import Testing
import KineticLayers
import KineticScene

// Helpers shared by the scene suites.

/// The problems a `SceneLoadError` thrown by `load` reports, in its order; `[]` when `load`
/// returns. Any other error is recorded as an issue at `sourceLocation` and gives `[]`.
func sceneProblems(_ load: @autoclosure () throws -> Scene,
                   sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [SceneProblem] {
    do {
        _ = try load()
        return []
    } catch let e as SceneLoadError {
        return e.problems
    } catch {
        Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        return []
    }
}

/// The problems `SceneLoader` reports for the scene text `yaml`, named `file` in their
/// locations; `[]` when the scene loads. See `sceneProblems(_:sourceLocation:)`.
func loadProblems(_ yaml: String, file: String = "t.yaml",
                  sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [SceneProblem] {
    sceneProblems(try SceneLoader.load(text: yaml, file: file), sourceLocation: sourceLocation)
}

/// The layer `id` anywhere in the trees `layers` (masks excluded, as `Layer.forEach` visits);
/// when several share the id, the last in depth-first order; nil when none has it.
func findLayer(_ layers: [Layer], id: String) -> Layer? {
    var found: Layer?
    for root in layers { root.forEach { if $0.id == id { found = $0 } } }
    return found
}

/// The layer `id` of the timeline's frame at `time` (the frame index at the scene's fps),
/// without physics or events; nil when no layer has the id.
func timelineLayer(_ scene: Scene, _ id: String, at time: Double) -> Layer? {
    findLayer(Timeline(scene: scene).frame(at: time, index: Int(time * scene.settings.fps)).layers, id: id)
}

/// y at `x` (0…1) of the cubic Bezier timing curve from (0, 0) through controls `c1`, `c2`
/// to (1, 1), found by bisection on the curve parameter.
func timingCurveY(atX x: Double, c1: (x: Double, y: Double), c2: (x: Double, y: Double)) -> Double {
    func bx(_ s: Double) -> Double { 3 * (1 - s) * (1 - s) * s * c1.x + 3 * (1 - s) * s * s * c2.x + s * s * s }
    func by(_ s: Double) -> Double { 3 * (1 - s) * (1 - s) * s * c1.y + 3 * (1 - s) * s * s * c2.y + s * s * s }
    var lo = 0.0, hi = 1.0
    for _ in 0..<100 { let mid = (lo + hi) / 2; if bx(mid) < x { lo = mid } else { hi = mid } }
    return by((lo + hi) / 2)
}
