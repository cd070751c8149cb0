import KineticGeometry
import KineticLayers

extension InspectReport {
    /// Which layers `inspect` lists, under which keys, and how each reaches the canvas:
    /// the renderer's composition, walked once for the whole tree.
    package enum Listing {
        /// How a layer reaches the canvas, as the renderer draws it.
        package struct Placement {
            /// The map of every level, innermost first: the layer's plane into its
            /// superlayer's (through the superlayer's `sublayerTransform`; a mask into its
            /// host's bounds plane), that one into the next, …, a root's into the canvas.
            package var levels: [PlaneProjection]
            /// The product of `levels`: the layer's bounds plane to the canvas, in points.
            package var toCanvas: PlaneProjection
            /// What the layer's pixels are multiplied by: the product of the
            /// `colorMultiplier`s of the layer and of every layer it is drawn inside (its
            /// superlayers; for a mask, its host and the host's), as the renderer applies
            /// each one to everything its layer renders. nil when none has one.
            package var colorMultiplier: Color?
            /// The key the layer's mask is listed under, when it has a mask.
            package var maskKey: String?

            /// Where a point of the layer's bounds plane lands on the canvas; nil when it
            /// lies at or behind the eye (w ≤ 0) at some level — the renderer draws
            /// nothing there, and the perspective divide would mirror it to a meaningless
            /// place — or maps to no finite point.
            package func canvasPoint(of p: Point) -> Point? {
                var q = p
                for level in levels {
                    guard level.w(at: q) > 0 else { return nil }
                    q = level.apply(to: q)
                }
                let r = toCanvas.apply(to: p)
                return r.x.isFinite && r.y.isFinite ? r : nil
            }
        }

        /// Calls `body` with every layer of the trees `roots` — sublayers and masks (and
        /// their sublayers and masks) included, depth first, a layer before its sublayers
        /// and its mask last — with the key it is listed under and its placement.
        ///
        /// A layer's key is `Layer.key` (its id, or its place such as `layers[1].mask`);
        /// replicator copies, their masks included, carry `#k` suffixes from
        /// `Replication.expand`: `revealMask#2` is the mask of the host in copy 2.
        package static func forEachLayer(_ roots: [KineticLayers.Layer], _ body: (String, KineticLayers.Layer, Placement) -> Void) {
            for root in roots {
                visit(root, superlayerSpace: .identity, parent: nil, body)
            }
        }

        private static func visit(_ layer: KineticLayers.Layer, superlayerSpace: Transform3D, parent: Placement?,
                                  _ body: (String, KineticLayers.Layer, Placement) -> Void) {
            let level = layer.projectionToSuperlayer(through: superlayerSpace)
            var placement = Placement(
                levels: [level] + (parent?.levels ?? []),
                toCanvas: level.concatenating(parent?.toCanvas ?? .identity),
                colorMultiplier: product(parent?.colorMultiplier, layer.colorMultiplier))
            placement.maskKey = layer.mask?.key
            body(layer.key, layer, placement)
            for sublayer in layer.sublayers {
                if layer.type == .transformLayer {
                    // CATransformLayer does not flatten: its sublayers map into its
                    // superlayer's plane through the whole 3D way.
                    let space = layer.sublayerSpace.concatenating(layer.toSuperlayer).concatenating(superlayerSpace)
                    visit(sublayer, superlayerSpace: space, parent: parent, body)
                } else {
                    visit(sublayer, superlayerSpace: layer.sublayerSpace, parent: placement, body)
                }
            }
            // The renderer draws a mask in its host's bounds space, without the host's
            // sublayerTransform.
            if let mask = layer.mask {
                visit(mask, superlayerSpace: .identity, parent: placement, body)
            }
        }

        /// Channel by channel, as the renderer's successive multiplications compose.
        private static func product(_ a: Color?, _ b: Color?) -> Color? {
            guard let a else { return b }
            guard let b else { return a }
            return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
        }
    }
}
