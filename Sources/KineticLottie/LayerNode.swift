import KineticGeometry
import KineticLayers

/// Where one Kinetic layer lies in its superlayer at one frame: what a Lottie null layer
/// (`ty: 3`) carries, so that the layer's drawables, parented to it, follow it — and its
/// sublayers' nulls, parented to it in turn, follow them both, as Core Animation composes
/// the tree. A superlayer's `sublayerTransform` is a node of its own between it and its
/// sublayers (`KEY/sublayers`), so each node's map stays a rotation and scale that a
/// Lottie transform says (a shear or perspective falls back to flattened drawables).
struct LayerNode: Equatable {
    /// The node it hangs from; nil for a root layer (its superlayer plane is the canvas).
    var parent: String?
    /// Its plane → its parent's plane (the canvas for a root), in points.
    var local: PlaneProjection

    /// The key of the node that stands for `key`'s `sublayerTransform`.
    static func sublayers(of key: String) -> String { key + "/sublayers" }
}
