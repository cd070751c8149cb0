import KineticGeometry
import KineticLayers

/// A layer's expression values (section 4), taken as each key's reader reads it (the
/// layer's mapping is read as written, never rewritten): live ones bound to the key paths
/// they drive (`ExpressionBinder`), constant ones evaluated and checked as literals.
extension LayerDecoder {
    /// `f`, the value of `key`, with how its static reader reads it, its expressions
    /// (section 4) taken as the table says (`PropertySpec.allowsExpressions`): constant
    /// ones evaluated by the reader (`NumberUse.constants`) and checked as if written; a
    /// live one bound to the key's path — one live component of a point with sub-key paths
    /// bound alone, so that animations of the other still show, as a transform's
    /// components are — or, where the key has no path, reported. Nil when bound or wrong
    /// (reported). Literals only where nothing may be taken: no address (a mask's
    /// sublayer, an event's `set:`), no expression, or a key whose reader refuses one.
    func taking(_ f: Field?, key: String, address: [Int]?, label: String) -> (field: Field, use: NumberUse)? {
        guard let f else { return nil }
        guard let address, let spec = LayerSchema.standard[key], spec.allowsExpressions,
              ExpressionText.containsExpressionText(f) else { return (f, .literals) }
        let layer = LayerAddress(address)
        // The emitter's and the replicator's own keys take expressions whether or not
        // they are animatable; the others only where a live one has a path to drive.
        let ownKey = spec.layerTypes == [.emitter] || spec.layerTypes == [.replicator]
        guard let kind = spec.valueKind, [.number, .point, .size, .rect, .numbers].contains(kind),
              spec.isAnimatable || ownKey, ExpressionText.containsExpression(f) else { return (f, .literals) }
        // A two-number `bounds` drives `bounds.size`.
        let keyPath = spec.isAnimatable ? key == "bounds" ? LayerKeyPath.boundsSize : LayerKeyPath.named[key] : nil
        if ExpressionText.liveness(of: f) != nil, let paths = Self.componentPaths[key], case .sequence(let seq) = f.node,
           seq.count == 2, seq.filter(\.isExpression).count == 1 {
            let items = seq.enumerated().map { i, item in
                let ef = f.element(item, index: i)
                guard item.isExpression else { return ef }
                binder.bind(ef, key: paths[i].name, keyPath: paths[i].keyPath, layer: layer, label: label)
                // The identity's value until the binding runs.
                return ef.folding(0)
            }
            return (f.folding(items: items), .literals)
        }
        let unbindable = spec.layerTypes == [.emitter]
            ? "the emitter's '\(key)' is not animatable (it has no key path), so nothing can follow a live value"
            : "'\(key)' is not animatable, so nothing can follow a live value"
        return binder.take(f, key: key, keyPath: keyPath, layer: layer, label: label, unbindable: unbindable).map { (f, $0) }
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
        guard let address, ExpressionText.containsExpressionText(f) else { return f.transformSource(.literals)?.literalParts }
        guard let source = f.transformSource(.bindable), let keyPath = LayerKeyPath.named[key] else { return nil }
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

    /// How a cell's key `f` is read, its expressions taken (as `taking` takes them): a live
    /// one bound to `emitterCells.NAME.KEY` (the particle system reads it at every step), a
    /// constant one evaluated; a cell without a name path takes constants only.
    func takingCell(_ f: Field, key: EmitterCellKey, owner: CellOwner) -> NumberUse? {
        guard key.valueKind == .number, ExpressionText.containsExpression(f) else { return .literals }
        let prefix = owner.names.map { $0.map { "emitterCells.\($0)." }.joined() } ?? ""
        return binder.take(f, key: prefix + key.rawValue,
                           keyPath: owner.names.map { LayerKeyPath.emitterCell(names: $0, key: key) },
                           layer: owner.address, label: owner.label,
                           unbindable: "this cell has no key path (emitterCells.NAME.KEY) to bind to: give it, and the cells "
                               + "it is in, a name")
    }
}
