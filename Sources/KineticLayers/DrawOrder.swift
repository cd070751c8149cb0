import KineticGeometry

/// The order Core Animation composites layers in, which the renderer draws and the Lottie
/// export stacks: siblings by `zPosition`, a transform layer's leaves by depth.
extension Layer {
    /// Whether the layer draws anything at all: neither hidden nor fully transparent.
    public var isVisible: Bool { !isHidden && opacity > 0 }

    /// Siblings sorted by `zPosition`, file order kept among equal values.
    public static func drawOrder(_ layers: [Layer]) -> [Layer] {
        // Siblings already in order (all at zPosition 0, usually) are their own order: sorting
        // moved every layer twice, 1.3 M instructions a frame for 300 of them.
        if layers.indices.dropFirst().allSatisfy({ layers[$0 - 1].zPosition <= layers[$0].zPosition }) { return layers }
        return layers.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// This CATransformLayer's sublayers (those of transform layers inside it too), each
    /// with the whole 3D map from its superlayer's space to the plane the transform layer
    /// is drawn in (`space` being that plane's sublayer space) and its inherited opacity —
    /// "the opacity property is applied to each sublayer individually, the transform layer
    /// does not form a compositing group" — sorted back to front by the depth of each
    /// bounds centre (file order among equals), as the layers of one 3D space are; `index`
    /// is a leaf's place in file order.
    public func sharedSpace(alpha: Double, space: Transform3D) -> [(layer: Layer, alpha: Double, space: Transform3D, index: Int)] {
        var leaves: [(layer: Layer, alpha: Double, space: Transform3D, depth: Double)] = []
        func collect(_ container: Layer, alpha: Double, space: Transform3D) {
            guard container.isVisible else { return }
            let inner = container.sublayerSpace.concatenating(container.toSuperlayer).concatenating(space)
            let opacity = alpha * min(container.opacity, 1)
            for sublayer in container.sublayers {
                if sublayer.type == .transformLayer {
                    collect(sublayer, alpha: opacity, space: inner)
                } else {
                    let toPlane = sublayer.toSuperlayer.concatenating(inner)
                    leaves.append((sublayer, opacity, inner, toPlane.depth(at: sublayer.bounds.center)))
                }
            }
        }
        collect(self, alpha: alpha, space: space)
        return leaves.enumerated()
            .sorted { ($0.element.depth, $0.offset) < ($1.element.depth, $1.offset) }
            .map { ($0.element.layer, $0.element.alpha, $0.element.space, $0.offset) }
    }
}
