import KineticGeometry
import KineticLayers

/// Where a value's expressions (section 4) go when live (`ExpressionBinder.take`): bound to
/// the layer at `layer` by `bind`, or, where the key has nothing to bind to, reported with
/// `unbindable`.
struct LiveTarget {
    var layer: LayerAddress
    /// The key as messages name it (`emitterCells.spark.birthRate`), the layer as binding labels do.
    var key: String, label: String
    /// Records the value's binding; nil where nothing can follow a live value.
    var bind: ((ExpressionBinder, Field) -> Void)?
    /// A point's component key paths (`position.x`, `position.y`): one live component of
    /// two is bound alone, so that animations of the other still show.
    var components: [(name: String, keyPath: LayerKeyPath)]
    /// Why a live value cannot be followed, where `bind` is nil.
    var unbindable: String
    /// Whether a constant expression is bound too (a custom property, a named shape's
    /// parameter), rather than evaluated now and checked as if written.
    var bindsConstants: Bool

    /// `bind` records the value's binding, by default to `keyPath` (`ExpressionBinder.bind`).
    init(layer: LayerAddress, key: String, label: String, keyPath: LayerKeyPath? = nil, unbindable: String = "",
         components: [(name: String, keyPath: LayerKeyPath)] = [], bindsConstants: Bool = false,
         bind: ((ExpressionBinder, Field) -> Void)? = nil) {
        self.layer = layer; self.key = key; self.label = label; self.unbindable = unbindable
        self.components = components; self.bindsConstants = bindsConstants
        self.bind = bind ?? keyPath.map { path in { $0.bind($1, key: key, keyPath: path, layer: layer, label: label) } }
    }
}

/// A layer's expression values (section 4), taken as each key's reader reads it (the
/// layer's mapping is read as written, never rewritten): live ones bound to the key paths
/// they drive (`ExpressionBinder`), constant ones evaluated and checked as literals.
extension LayerDecoder {
    /// Where the live expressions of a layer's `key` go, as the table says
    /// (`PropertySpec.allowsExpressions`): the emitter's and the replicator's own keys take
    /// them whether or not they are animatable, the others only where a live one has a path
    /// to drive. Nil without an `address` (a mask's sublayer, an event's `set:`).
    static func target(ofKey key: String, address: [Int]?, label: String) -> LiveTarget? {
        guard let address, let spec = LayerSchema.standard[key], spec.allowsExpressions, let kind = spec.valueKind,
              [.number, .point, .size, .rect, .numbers].contains(kind) else { return nil }
        let ownKey = spec.layerTypes == [.emitter] || spec.layerTypes == [.replicator]
        guard spec.isAnimatable || ownKey else { return nil }
        // A two-number `bounds` drives `bounds.size`.
        let keyPath = spec.isAnimatable ? key == "bounds" ? LayerKeyPath.boundsSize : LayerKeyPath.named[key] : nil
        let unbindable = spec.layerTypes == [.emitter]
            ? "the emitter's '\(key)' is not animatable (it has no key path), so nothing can follow a live value"
            : "'\(key)' is not animatable, so nothing can follow a live value"
        return LiveTarget(layer: LayerAddress(address), key: key, label: label, keyPath: keyPath, unbindable: unbindable,
                          components: componentPaths[key] ?? [])
    }

    /// The sub-key paths of the point and size keys that have them, by component: the
    /// table's number key paths under a point or size file key (`position.x`,
    /// `bounds.size.width`), in table order. A transform's go through `transformParts`.
    static let componentPaths: [String: [(name: String, keyPath: LayerKeyPath)]] =
        LayerSchema.standard.entries.reduce(into: [:]) { paths, spec in
            guard !spec.isFileKey, spec.kind == .number, let dot = spec.name.firstIndex(of: "."),
                  let keyPath = LayerKeyPath.named[spec.name] else { return }
            let key = String(spec.name[..<dot])
            guard let parent = LayerSchema.standard[key], parent.isFileKey,
                  [.point, .size, .sizeOrRect].contains(parent.kind) else { return }
            paths[key, default: []].append((spec.name, keyPath))
        }

    /// A transform (`key`) as written, its expressions (section 4) taken: constant ones
    /// evaluated; a live component with a sub-key path bound alone (`rotate: "= 2 * pi * t"`
    /// drives `transform.rotation.z`), the identity's value read in its place. Where a live
    /// component has none — `sublayerTransform` and `instanceTransform` have none, nor do a
    /// `perspective`, `matrix` entries or a whole-vector `translate` — the whole transform
    /// is bound, composed every frame, and the identity is read.
    func transformParts(_ f: Field, key: String, address: [Int]?, label: String)
        -> (matrix: Transform3D, components: Transform3D.Components?)? {
        guard let address, ExpressionText.containsExpressionText(f) else { return f.transformSource()?.literalParts }
        guard let source = f.reading(.bindable).transformSource(), let keyPath = LayerKeyPath.named[key] else { return nil }
        let layer = LayerAddress(address)
        typealias Term = ExpressionBinding.Term
        func isLive(_ t: Term?) -> Bool { if case .expression? = t { true } else { false } }
        guard ExpressionBinding.BoundValue.transform(source).expressions.count > 0 else { return source.literalParts }
        guard key == "transform", case .components(var c) = source, case .mapping(let raw) = f.node, !isLive(c.perspective),
              c.translate.map({ if case .vector = $0 { false } else { true } }) ?? true else {
            binder.bind(.transform(source), keyPath: keyPath, field: f, layer: layer, label: "\(label).\(key)")
            return ExpressionBinding.TransformSource.components(.init()).literalParts
        }
        /// The component's term bound to its sub-key path when live (named by it:
        /// `a.transform.rotation.z` in a cycle), the identity's value in its place.
        func bound(_ t: Term?, _ path: LayerKeyPath, _ name: String, index: Int? = nil, identity: Double = 0) -> Term? {
            guard let t, isLive(t), let node = raw[name] else { return t }
            let cf = f.child(node, key: name)
            let field = index.flatMap { i in node.sequence.map { cf.element($0[i], index: i) } } ?? cf
            binder.bind(.scalar(t), keyPath: path, field: field, layer: layer, label: "\(label).\(path.description)")
            return .literal(identity)
        }
        c.rotate = bound(c.rotate, .transformRotationZ, "rotate")
        c.rotateX = bound(c.rotateX, .transformRotationX, "rotateX")
        c.rotateY = bound(c.rotateY, .transformRotationY, "rotateY")
        if let (x, y) = c.scale {
            // One number drives `transform.scale`; a list, each axis.
            c.scale = raw["scale"]?.scalar != nil
                ? bound(x, .transformScale, "scale", identity: 1).map { ($0, $0) }
                : bound(x, .transformScaleX, "scale", index: 0, identity: 1).flatMap { sx in
                    bound(y, .transformScaleY, "scale", index: 1, identity: 1).map { (sx, $0) } }
        }
        if case .components(let x, let y)? = c.translate, let tx = bound(x, .transformTranslationX, "translate", index: 0),
           let ty = bound(y, .transformTranslationY, "translate", index: 1) {
            c.translate = .components(tx, ty)
        }
        c.translateZ = bound(c.translateZ, .transformTranslationZ, "translate", index: 2)
        return ExpressionBinding.TransformSource.components(c).literalParts
    }
}
