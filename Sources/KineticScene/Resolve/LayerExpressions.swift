import KineticGeometry
import KineticLayers

/// The resolve pass over a layer's expression values (section 4), before its keys are
/// read: live ones bound to the key paths they drive (`ExpressionBinder`), constant ones
/// folded into the values they stand for, which the readers then check as if written.
extension LayerDecoder {
    /// The layer's keys that bindings drive, with their expressions taken (the static
    /// readers never see a live one): a constant value becomes the literal it stands for,
    /// checked as such; a live one is bound and its key left out — except one live
    /// component of a point with sub-key paths, bound alone so that animations of the
    /// other still show (as a transform's components do). A live `frame` is returned, to
    /// be bound once the anchor point is read.
    func takeBoundExpressions(_ m: Mapping, address: LayerAddress, label: String) -> (Mapping, liveFrame: Field?) {
        var m = m, taken: Set<String> = [], liveFrame: Field?
        let keys = Array(ExpressionBinder.numberKeys.keys) + Array(ExpressionBinder.pointKeys.keys) + ["locations", "frame"]
        if let f = m["path"], ExpressionText.containsExpressionText(f) {
            // A named shape binds its parameters itself (`readShape`); the static reader
            // takes a primitive whose expressions are all constant.
            switch f.node {
            case .mapping(let raw) where raw["shape"] != nil: break
            case .mapping(let raw) where raw["cubic"] == nil && ExpressionText.liveness(of: f) == nil: break
            default: if binder.bind(f, key: "path", keyPath: nil, layer: address, label: label) { taken.insert("path") }
            }
        }
        for key in keys {
            guard let f = m[key], ExpressionText.containsExpression(f) else { continue }
            if ExpressionText.liveness(of: f) == nil {
                let kind = ExpressionBinder.numberKeys[key]?.valueKind ?? ExpressionBinder.pointKeys[key]?.valueKind ?? .numbers
                if let folded = ExpressionBinder.foldedConstant(f, kind: kind, parameter: key) {
                    m = m.replacing(key, with: folded)
                } else {
                    taken.insert(key)
                }
            } else if key == "frame" {
                if m["position"] != nil || m["bounds"] != nil {
                    f.report("use either 'frame' or 'position' + 'bounds', not both")
                } else {
                    liveFrame = f
                }
                taken.insert(key)
            } else if let paths = Self.componentPaths[key], case .sequence(let seq) = f.node, seq.count == 2,
                      seq.filter(\.isExpression).count == 1 {
                let items = seq.enumerated().map { i, item in
                    let ef = f.element(item, index: i)
                    guard item.isExpression else { return ef }
                    _ = binder.bind(ef, key: paths[i].name, keyPath: paths[i].keyPath, layer: address, label: label)
                    // The identity's value until the binding runs.
                    return ef.folding(0)
                }
                m = m.replacing(key, with: f.folding(items: items))
            } else if binder.bind(f, key: key, keyPath: nil, layer: address, label: label) {
                taken.insert(key)
            }
        }
        return (m.removing(taken), liveFrame)
    }

    /// The layer's keys read by the static readers — transform components, replicator and
    /// emitter keys — with their expressions taken (`ExpressionBinder.take`): live ones bound
    /// (the key left out, its value the default until the binding runs), constant ones
    /// replaced by their values.
    func takeStaticExpressions(_ m: Mapping, type: LayerType, address: LayerAddress, label: String) -> Mapping {
        var m = m
        for key in ["transform", "sublayerTransform", "instanceTransform"] {
            guard let f = m[key], ExpressionText.containsExpressionText(f) else { continue }
            m = m.replacing(key, with: transformTakingExpressions(f, key: key, address: address, label: label))
        }
        switch type {
        case .replicator:
            return takeExpressions(m, keys: Self.replicatorExpressionKeys, address: address, label: label) {
                "'\($0)' is not animatable, so nothing can follow a live value"
            }
        case .emitter:
            return takeExpressions(m, keys: Self.emitterExpressionKeys, address: address, label: label) {
                "the emitter's '\($0)' is not animatable (it has no key path), so nothing can follow a live value"
            }
        default:
            return m
        }
    }

    /// The sub-key paths of the point and size keys that have them, by component.
    static let componentPaths: [String: [(name: String, keyPath: LayerKeyPath)]] = [
        "position": [("position.x", .positionX), ("position.y", .positionY)],
        "bounds": [("bounds.size.width", .boundsWidth), ("bounds.size.height", .boundsHeight)],
    ]

    /// Number and point keys of the static readers, with the key path a live value binds
    /// to (nil: not animatable, so constant expressions only): `LayerSchema`'s keys of
    /// `type` that take expressions.
    static func expressionKeys(of type: LayerType) -> [String: LayerKeyPath?] {
        var keys: [String: LayerKeyPath?] = [:]
        for spec in LayerSchema.standard.entries where spec.layerTypes == [type] && spec.allowsExpressions {
            guard let kind = spec.valueKind, [.number, .point, .size].contains(kind) else { continue }
            keys[spec.name] = .some(LayerKeyPath.named[spec.name])
        }
        return keys
    }

    static let replicatorExpressionKeys = expressionKeys(of: .replicator)
    static let emitterExpressionKeys = expressionKeys(of: .emitter)

    /// `m` with the expressions of `keys` taken: a live value bound to the key's path (the
    /// key removed) or reported with `unbindable(key)`, a constant one replaced by its value.
    func takeExpressions(_ m: Mapping, keys: [String: LayerKeyPath?], address: LayerAddress, label: String,
                         keyName: (String) -> String = { $0 }, unbindable: (String) -> String) -> Mapping {
        var m = m
        for key in m.order {
            guard let f = m[key], let keyPath = keys[key], ExpressionText.containsExpression(f) else { continue }
            let name = keyName(key)
            if let folded = binder.take(f, key: name, kind: keyPath?.valueKind ?? .number, keyPath: keyPath,
                                        layer: address, label: label, unbindable: unbindable(name)) {
                m = m.replacing(key, with: folded)
            } else {
                m = m.removing([key])
            }
        }
        return m
    }

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

    /// A cell's number keys with their expressions taken: a live one bound to
    /// `emitterCells.NAME.KEY` (the particle system reads it at every step), a constant one
    /// evaluated; a cell without a name path takes constants only.
    func takeCellExpressions(_ m: Mapping, owner: CellOwner) -> Mapping {
        let numberKeys = EmitterCellKey.allCases.filter { $0.valueKind == .number }
        let keys = Dictionary(uniqueKeysWithValues: numberKeys.map { key in
            (key.rawValue, owner.names.map { LayerKeyPath.emitterCell(names: $0, key: key) })
        })
        let prefix = owner.names.map { $0.map { "emitterCells.\($0)." }.joined() } ?? ""
        return takeExpressions(m, keys: keys, address: owner.address, label: owner.label, keyName: { prefix + $0 }) { _ in
            "this cell has no key path (emitterCells.NAME.KEY) to bind to: give it, and the cells it is in, a name"
        }
    }
}
