import KineticAnimation
import KineticGeometry
import KineticLayers

/// Core Animation fixes an animation's from/to/by/values when it is added: expression
/// values (section 4) are evaluated once, when the animation begins, reading the
/// presentation values of that moment — what a frame then shows, without the animations
/// beginning then or later. Reading values computed before the animation runs, they can
/// form no cycle.
extension AnimationSpec {
    /// The animation with its expression values (and its children's, for a group: all
    /// at the group's begin) evaluated against `layers`, the presentation at `time`; nil
    /// when a value is not finite (the animation then has no effect).
    func capturing(reading layers: [Layer], ids: [String: LayerAddress], time: Double, frame: Int,
                   seed: UInt64) -> AnimationSpec? {
        var spec = self
        if case .group(let children) = values {
            var captured: [AnimationSpec] = []
            for child in children {
                guard let c = child.capturing(reading: layers, ids: ids, time: time, frame: frame, seed: seed) else { return nil }
                captured.append(c)
            }
            spec.values = .group(captured)
        }
        for e in expressions {
            guard let v = e.value.evaluate(reading: layers, ids: ids, time: time, frame: frame, seed: seed)?
                .converted(to: keyPath.valueKind) else { return nil }
            switch (e.slot, spec.values) {
            case (.from, .basic(_, let to, let by)): spec.values = .basic(from: v, to: to, by: by)
            case (.to, .basic(let from, _, let by)): spec.values = .basic(from: from, to: v, by: by)
            case (.by, .basic(let from, let to, _)): spec.values = .basic(from: from, to: to, by: v)
            case (.keyframe(let i), .keyframes(var k)) where k.values.indices.contains(i):
                k.values[i] = v
                spec.values = .keyframes(k)
            default: return nil
            }
        }
        spec.expressions = []
        return spec
    }

    /// The frame a moment falls in at the scene's own fps (`frame` in expressions
    /// evaluated then): the same whatever fps a render asks for.
    static func frameIndex(at time: Double, fps: Double) -> Int {
        Int((time * fps + 1e-9).rounded(.down))
    }
}
