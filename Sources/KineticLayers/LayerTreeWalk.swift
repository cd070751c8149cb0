import KineticGeometry

extension SceneFrame {
    /// Visits every layer depth first, back to front in file order, with the transform
    /// that maps its bounds space into scene points (every superlayer's `transform` and
    /// `sublayerTransform`, perspective included). Masks are not visited.
    public func forEachLayer(_ body: (Layer, Transform3D) -> Void) {
        for layer in layers { Self.visit(layer, parent: .identity, body) }
    }

    private static func visit(_ layer: Layer, parent: Transform3D, _ body: (Layer, Transform3D) -> Void) {
        let toScene = layer.toSuperlayer.concatenating(parent)
        body(layer, toScene)
        let sublayerParent = layer.sublayerSpace.concatenating(toScene)
        for s in layer.sublayers { visit(s, parent: sublayerParent, body) }
    }
}
