import KineticGeometry
import KineticLayers

/// The resolve pass over a layer's expression values (section 4), before its keys are
/// read: live ones bound to the key paths they drive (`ExpressionBinder`), constant ones
/// folded into the values they stand for, which the readers then check as if written.
extension LayerDecoder {
    /// `f`, the value of `key`, as its static reader reads it, its expressions (section 4)
    /// taken as the table says (`PropertySpec.allowsExpressions`): constant ones folded
    /// into the values they stand for, checked as if written; a live one bound to the
    /// key's path — one live component of a point with sub-key paths bound alone, so
    /// that animations of the other still show, as a transform's components are — or,
    /// where the key has no path, reported. Nil when bound or wrong (reported). `f` as
    /// it is where nothing may be taken: no address (a mask's sublayer, an event's
    /// `set:`), no expression, or a key whose reader refuses one.
    func taking(_ f: Field?, key: String, address: [Int]?, label: String) -> Field? {
        guard let f, let address, let spec = LayerSchema.standard[key], spec.allowsExpressions,
              ExpressionText.containsExpressionText(f) else { return f }
        let layer = LayerAddress(address)
        if spec.kind == .transform { return transformTakingExpressions(f, key: key, address: layer, label: label) }
        // The emitter's and the replicator's own keys take expressions whether or not
        // they are animatable; the others only where a live one has a path to drive.
        let ownKey = spec.layerTypes == [.emitter] || spec.layerTypes == [.replicator]
        guard let kind = spec.valueKind, [.number, .point, .size, .rect, .numbers].contains(kind),
              spec.isAnimatable || ownKey, ExpressionText.containsExpression(f) else { return f }
        // A two-number `bounds` drives `bounds.size`.
        let keyPath = spec.isAnimatable ? key == "bounds" ? LayerKeyPath.boundsSize : LayerKeyPath.named[key] : nil
        if ExpressionText.liveness(of: f) != nil, let paths = Self.componentPaths[key], case .sequence(let seq) = f.node,
           seq.count == 2, seq.filter(\.isExpression).count == 1 {
            let items = seq.enumerated().map { i, item in
                let ef = f.element(item, index: i)
                guard item.isExpression else { return ef }
                _ = binder.bind(ef, key: paths[i].name, keyPath: paths[i].keyPath, layer: layer, label: label)
                // The identity's value until the binding runs.
                return ef.folding(0)
            }
            return f.folding(items: items)
        }
        let unbindable = spec.layerTypes == [.emitter]
            ? "the emitter's '\(key)' is not animatable (it has no key path), so nothing can follow a live value"
            : "'\(key)' is not animatable, so nothing can follow a live value"
        return binder.take(f, key: key, kind: keyPath?.valueKind ?? .number, keyPath: keyPath, layer: layer, label: label,
                           unbindable: unbindable)
    }

    /// Whether a shape layer's `path` is bound rather than read: a `{cubic: …}`, or a
    /// primitive with a live expression. A named shape binds its parameters itself
    /// (`namedShape`); the static reader takes a primitive whose expressions are constant.
    static func bindsPath(_ f: Field) -> Bool {
        guard ExpressionText.containsExpressionText(f) else { return false }
        guard case .mapping(let raw) = f.node else { return true }
        return raw["shape"] == nil && (raw["cubic"] != nil || ExpressionText.liveness(of: f) != nil)
    }

    /// The sub-key paths of the point and size keys that have them, by component.
    static let componentPaths: [String: [(name: String, keyPath: LayerKeyPath)]] = [
        "position": [("position.x", .positionX), ("position.y", .positionY)],
        "bounds": [("bounds.size.width", .boundsWidth), ("bounds.size.height", .boundsHeight)],
    ]

    /// The sub-key paths of `transform`'s named components (`scale` as one number:
    /// `transform.scale`); the other transforms have none.
    static let transformComponentPaths: [String: [LayerKeyPath]] = [
        "rotate": [.transformRotationZ], "rotateX": [.transformRotationX], "rotateY": [.transformRotationY],
        "scale": [.transformScaleX, .transformScaleY],
        "translate": [.transformTranslationX, .transformTranslationY, .transformTranslationZ],
    ]

    /// A transform mapping with its expression components taken: a live one bound to its
    /// sub-key path (`rotate: "= 2 * pi * t"` drives `transform.rotation.z`) and left as the
    /// identity's value for the static reader, a constant one replaced by its value. Where
    /// a live component has no sub-key path — `sublayerTransform` and `instanceTransform`
    /// have none, nor do a `perspective`, `matrix` entries or a whole-vector `translate` —
    /// the whole transform is bound instead, composed every frame, and the static reader
    /// reads the identity.
    func transformTakingExpressions(_ f: Field, key: String, address: LayerAddress, label: String) -> Field {
        guard case .mapping(let raw) = f.node else { return f }
        let paths = key == "transform" ? Self.transformComponentPaths : [:]
        // Whether a live component has no sub-key path: only `transform`'s rotations and
        // scale (one number), and its scale and translate lists entry by entry, have.
        let needsWhole = raw.contains { k, v in
            guard let name = k.scalar?.string, ExpressionText.liveness(of: f.child(v, key: name)) != nil else { return false }
            guard case .scalar = v else { return paths[name] == nil }
            return paths.isEmpty || !(name.hasPrefix("rotate") || name == "scale")
        }
        if needsWhole, let keyPath = LayerKeyPath.named[key] {
            binder.bindTransform(f, key: key, keyPath: keyPath, layer: address, label: label)
            return f.folding(entries: [])
        }
        /// The component folded; nil when it was bound or reported.
        func taken(_ cf: Field, name: String, kind: AnimatableValue.Kind, keyPath: LayerKeyPath?) -> Field? {
            // A bound component is named by its key path (`a.transform.rotation.z` in a cycle).
            let spelling = keyPath?.description
            // A live component without a key path is one the written form has no room for
            // (a fourth `translate` entry): the static reader reports it.
            return binder.take(cf, key: spelling ?? "\(key).\(name)", kind: kind, keyPath: keyPath, layer: address, label: label,
                               unbindable: "it has no sub-key path")
        }
        var pairs: [(key: SceneNode, value: Field)] = []
        for (k, v) in raw {
            let cf = f.child(v, key: k.scalar?.string ?? "")
            guard let name = k.scalar?.string, ExpressionText.containsExpressionText(cf) else {
                pairs.append((k, cf)); continue
            }
            switch v {
            case .scalar:
                // One number; a point for `translate` (a constant vector expression).
                let keyPath = name == "scale" && key == "transform" ? LayerKeyPath.transformScale
                    : name.hasPrefix("rotate") ? paths[name]?.first : nil
                // Bound or reported: left out, so the component keeps the identity's value
                // until the binding runs.
                if let folded = taken(cf, name: name, kind: name == "translate" ? .point : .number, keyPath: keyPath) {
                    pairs.append((k, folded))
                }
            case .sequence(let items):
                let folded = items.enumerated().map { i, item in
                    let ef = cf.element(item, index: i)
                    guard ExpressionText.containsExpression(ef) else { return ef }
                    let keyPath = paths[name].flatMap { i < $0.count ? $0[i] : nil }
                    // Bound or reported: the identity's value until the binding runs.
                    return taken(ef, name: name, kind: .number, keyPath: keyPath) ?? ef.folding(name == "scale" ? 1 : 0)
                }
                pairs.append((k, cf.folding(items: folded)))
            default:
                pairs.append((k, cf))
            }
        }
        return f.folding(entries: pairs)
    }

    /// A cell's number key with its expressions taken (`f`, as `taking` gives it): a live
    /// one bound to `emitterCells.NAME.KEY` (the particle system reads it at every step), a
    /// constant one evaluated; a cell without a name path takes constants only.
    func takingCell(_ f: Field, key: EmitterCellKey, owner: CellOwner) -> Field? {
        guard key.valueKind == .number, ExpressionText.containsExpression(f) else { return f }
        let prefix = owner.names.map { $0.map { "emitterCells.\($0)." }.joined() } ?? ""
        return binder.take(f, key: prefix + key.rawValue, kind: .number,
                           keyPath: owner.names.map { LayerKeyPath.emitterCell(names: $0, key: key) },
                           layer: owner.address, label: owner.label,
                           unbindable: "this cell has no key path (emitterCells.NAME.KEY) to bind to: give it, and the cells "
                               + "it is in, a name")
    }
}
