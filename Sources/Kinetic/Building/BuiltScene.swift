import Foundation

extension Scene {
    /// Builds a scene in Swift.
    ///
    /// The values are written out as scene text (JSON, which is YAML) and loaded through
    /// the same loader as a file, so a built scene is checked exactly as a file is and
    /// renders the same frames as the file with the same values. Problems are reported
    /// against that text, under `fileName`; ``sceneText(size:scale:fps:duration:background:layers:animations:behaviors:)``
    /// returns it.
    ///
    /// ```swift
    /// let scene = try Scene(size: [200, 200], duration: 2, layers: [
    ///     ShapeLayer("ring").path("M 50 100 A 50 50 0 1 1 150 100").strokeColor("blue").strokeEnd(0),
    /// ], animations: [
    ///     BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 2),
    /// ])
    /// ```
    public init(size: SceneValue, scale: Double = 2, fps: Double = 60, duration: Double,
                background: SceneValue = "white",
                layers: [any LayerElement], animations: [any AnimationElement] = [],
                behaviors: [any BehaviorElement] = [],
                fileName: String = "<built scene>", baseURL: URL? = nil, limits: SceneLimits = SceneLimits()) throws {
        let text = Scene.sceneText(size: size, scale: scale, fps: fps, duration: duration, background: background,
                                   layers: layers, animations: animations, behaviors: behaviors)
        try self.init(yaml: text, fileName: fileName, baseURL: baseURL, limits: limits)
    }

    /// The scene file a built scene is loaded from: one top-level key a line.
    public static func sceneText(size: SceneValue, scale: Double = 2, fps: Double = 60, duration: Double,
                                 background: SceneValue = "white",
                                 layers: [any LayerElement], animations: [any AnimationElement] = [],
                                 behaviors: [any BehaviorElement] = []) -> String {
        let settings: SceneValue = ["size": size, "scale": .number(scale), "fps": .number(fps),
                                    "duration": .number(duration), "background": background]
        var lines = ["kinetic: 1", "scene: " + settings.json, "layers:"]
        lines += layers.map { "  - " + $0.value.json }
        if !animations.isEmpty {
            lines += ["animations:"] + animations.map { "  - " + $0.value.json }
        }
        if !behaviors.isEmpty {
            lines += ["dynamics:", "  behaviors:"] + behaviors.map { "    - " + $0.behaviorValue.json }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
