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
    /// The value's components with key paths (`position.x`, `transform.rotation.z`): where every live
    /// expression is one, each is bound alone, so that animations of the others still show.
    var components: [LiveComponent]
    /// Why a live value cannot be followed, where `bind` is nil.
    var unbindable: String
    /// Whether a constant expression is bound too (a custom property, a named shape's
    /// parameter), rather than evaluated now and checked as if written.
    var bindsConstants: Bool
    /// Whether the value's expressions may lie in a mapping (a transform's named form), not only in its items.
    var readsMapping = false

    /// `bind` records the value's binding, by default to `keyPath` (`ExpressionBinder.bind`).
    init(layer: LayerAddress, key: String, label: String, keyPath: LayerKeyPath? = nil, unbindable: String = "",
         components: [LiveComponent] = [], bindsConstants: Bool = false, bind: ((ExpressionBinder, Field) -> Void)? = nil) {
        self.layer = layer; self.key = key; self.label = label; self.unbindable = unbindable
        self.components = components; self.bindsConstants = bindsConstants
        self.bind = bind ?? keyPath.map { path in { $0.bind($1, key: key, keyPath: path, layer: layer, label: label) } }
    }

    /// The live components of `f` to bind alone, with where each is written; nil where the value is bound whole.
    func liveComponents(of f: Field) -> [(field: Field, component: LiveComponent)]? {
        let parts: [(field: Field, component: LiveComponent)] = components.compactMap { c in
            guard let item = c.key.map({ f.peek($0) }) ?? f else { return nil }
            let field = c.index.map { i in
                item.node.sequence.flatMap { $0.indices.contains(i) ? item.element($0[i], index: i) : nil }
            } ?? item
            return field.flatMap { $0.node.scalar.map(ExpressionText.isLive) == true ? ($0, c) : nil }
        }
        let live = ExpressionText.scalars(of: f.node).filter(ExpressionText.isLive).count
        guard !parts.isEmpty, parts.count == live else { return nil }
        // A point's one only where the other is written as a number (a point of two expressions is bound whole).
        let isPoint = components.allSatisfy { $0.key == nil }
        return !isPoint || f.node.sequence.map { $0.count == 2 && $0.filter(\.isExpression).count == 1 } == true ? parts : nil
    }
}

/// A component of a value with its own key path, and where the value writes it: a key of its mapping (a
/// transform's `rotate`), an item of its list (`position[0]`), or both (`translate[2]`).
struct LiveComponent {
    var keyPath: LayerKeyPath
    var key: String?, index: Int?
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
              [.number, .point, .size, .rect, .numbers, .transform].contains(kind) else { return nil }
        let ownKey = spec.layerTypes == [.emitter] || spec.layerTypes == [.replicator]
        guard spec.isAnimatable || ownKey else { return nil }
        // A two-number `bounds` drives `bounds.size`.
        let keyPath = spec.isAnimatable ? key == "bounds" ? LayerKeyPath.boundsSize : LayerKeyPath.named[key] : nil
        let unbindable = spec.layerTypes == [.emitter]
            ? "the emitter's '\(key)' is not animatable (it has no key path), so nothing can follow a live value"
            : "'\(key)' is not animatable, so nothing can follow a live value"
        let layer = LayerAddress(address)
        var target = LiveTarget(layer: layer, key: key, label: label, keyPath: keyPath, unbindable: unbindable,
                                components: componentPaths[key] ?? [])
        if kind == .transform, let keyPath {
            // Bound whole, composed every frame: its constant expressions evaluated now, checked as written.
            target.readsMapping = true
            target.bind = { binder, f in
                guard let source = f.reading(.bindable).transformSource() else { return }
                binder.bind(.transform(source), keyPath: keyPath, field: f, layer: layer, label: "\(label).\(key)")
            }
        }
        return target
    }

    /// The sub-key paths of the keys that have them, by component: the table's number key
    /// paths under a point or size file key (`position.x`, `bounds.size.width`), in table
    /// order, and a transform's, in the order it binds them (`TransformComponents.keyPaths`).
    static let componentPaths: [String: [LiveComponent]] =
        LayerSchema.standard.entries.reduce(into: ["transform": ExpressionBinding.TransformComponents.keyPaths.map {
            LiveComponent(keyPath: $0.keyPath, key: $0.key, index: $0.index)
        }]) { paths, spec in
            guard !spec.isFileKey, spec.kind == .number, let dot = spec.name.firstIndex(of: "."),
                  let keyPath = LayerKeyPath.named[spec.name] else { return }
            let key = String(spec.name[..<dot])
            guard let parent = LayerSchema.standard[key], parent.isFileKey,
                  [.point, .size, .sizeOrRect].contains(parent.kind) else { return }
            paths[key, default: []].append(LiveComponent(keyPath: keyPath, index: paths[key]?.count ?? 0))
        }
}
