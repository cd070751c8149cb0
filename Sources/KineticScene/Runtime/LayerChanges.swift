import KineticGeometry
import KineticLayers

/// What events have done to layers so far: values set, animations started, layers
/// removed — each naming its layer by id.
///
/// They are applied to the animated model tree (stage 3 of `FrameOrder`): a change to a replicated sublayer shows in
/// every copy, as Core Animation's copies are drawn from the one layer, and a mask layer
/// is found by its id like any other. A started animation runs in each copy's own time,
/// so copies lag by their `instanceDelay` as they do for the scene's animations.
struct LayerChanges: Sendable {
    /// Values set by `set:`, in the order set (a later one wins).
    var values: [(id: String, setting: LayerSetting)] = []
    /// Animations started by `animate`, with the id of the layer they animate; their
    /// begin times are on their layer's clock.
    var animations: [(id: String, spec: AnimationSpec)] = []
    /// Layers removed by `removeLayers` (hidden, with their subtrees).
    var removed: Set<String> = []

    /// The changes with only the started animations that begin before `limit`.
    func beginning(before limit: Double, layers: [Layer]) -> LayerChanges {
        guard limit.isFinite else { return self }
        var kept = self
        kept.animations = animations.filter { !Instant.reached($0.spec.sceneBegin(in: layers), limit) }
        return kept
    }

    // Stage 3 of `FrameOrder`, in three steps it runs in order.

    /// Sets the values `set:` set, in the order set, on `layers` (a model-structured tree);
    /// `ids` gives each id's address.
    func setValues(in layers: inout [Layer], ids: [String: LayerAddress]) {
        for change in values {
            guard let address = ids[change.id] else { continue }
            layers.modify(at: address) { $0.apply(change.setting) }
        }
    }

    /// Applies the animations `animate` started, at `time`.
    func applyStartedAnimations(to layers: inout [Layer], at time: Double, ids: [String: LayerAddress]) {
        for started in animations {
            guard let address = ids[started.id] else { continue }
            var spec = started.spec
            spec.layer = address
            Timeline.apply(spec, at: time, to: &layers)
        }
    }

    /// Hides the layers `removeLayers` removed, with their subtrees.
    func hideRemovedLayers(in layers: inout [Layer], ids: [String: LayerAddress]) {
        for id in removed {
            if let address = ids[id] { layers.modify(at: address) { $0.isHidden = true } }
        }
    }
}
