import Foundation
import KineticGeometry
import KineticLayers
import Yams

/// What the rest of the loader needs to know about a layer by id.
struct LayerEntry {
    var address: LayerAddress
    var type: LayerType
    var propertyNames: Set<String>
    var field: Field
    /// The named shape drawing a shape layer's path, for `path.PARAM` animations.
    var namedShape: NamedShape? = nil
    /// An emitter's cell name paths (`emitterCells.NAME.KEY` key paths are checked against them).
    var emitterCellPaths: [[String]] = []
}

/// Reads `layers:` (section 3) into layer values, indexing ids for animations.
struct LayerDecoder {
    /// The folder image assets are resolved against.
    let baseDirectory: String
    private(set) var ids: [String: LayerEntry] = [:]
    private(set) var assets: Set<String> = []
    /// Expression values met so far (section 4), shared with the other readers.
    let binder = ExpressionBinder()

    /// Which assets may be read (the root, decoder size caps).
    var assetPolicy = AssetPolicy()

    init(baseDirectory: String, assetPolicy: AssetPolicy = AssetPolicy()) {
        self.baseDirectory = baseDirectory
        self.assetPolicy = assetPolicy
    }

    /// The scene's pixels per point: which `@Nx` variant of an asset is looked for first.
    var deviceScale = 2.0

    /// The keys of a layer mapping, by group: `LayerSchema`'s file keys.
    static let commonKeys = LayerSchema.standard.fileKeys(ownedBy: nil)
    static let shapeKeys = LayerSchema.standard.fileKeys(ownedBy: [.shape])
    static let gradientKeys = LayerSchema.standard.fileKeys(ownedBy: [.gradient])
    static let textKeys = LayerSchema.standard.fileKeys(ownedBy: [.text])
    static let emitterKeys = LayerSchema.standard.fileKeys(ownedBy: [.emitter])
    static let replicatorKeys = LayerSchema.standard.fileKeys(ownedBy: [.replicator])

    /// What CATransformLayer does not render: "the CALayer properties that are rendered
    /// by a layer are ignored" and so are "the properties that assume 2D image processing".
    static let transformLayerIgnoredKeys = [
        "backgroundColor", "cornerRadius", "maskedCorners", "cornerCurve", "borderWidth", "borderColor",
        "masksToBounds", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath",
        "contents", "contentsGravity", "mask", "filters", "backgroundFilters", "compositingFilter",
    ]

    static let idPattern = try! NSRegularExpression(pattern: "^[A-Za-z_][A-Za-z0-9_-]*$")

    mutating func layers(_ field: Field, parent: [Int] = []) -> [Layer] {
        guard let items = field.elements else { return [] }
        var result: [Layer] = []
        for (i, item) in items.enumerated() {
            if let layer = layer(item, address: parent + [i], place: item.keyPath) { result.append(layer) }
        }
        return result
    }

    /// One layer; nil when it is too broken to place (its problems are reported).
    mutating func layer(_ field: Field, address: [Int]?, place: String) -> Layer? {
        // The type decides which keys are allowed, so read it first.
        var type = LayerType.layer
        if case .mapping(let raw) = field.node, let t = raw["type"] {
            let tf = field.child(t, key: "type")
            guard let parsed = tf.choice(LayerType.self) else { return nil }
            type = parsed
        }
        guard var m = field.mapping(allowed: LayerSchema.standard.fileKeys(for: type)) else { return nil }
        if type == .transformLayer {
            for key in Self.transformLayerIgnoredKeys where m[key] != nil {
                m[key]?.report("a transformLayer draws only its sublayers (CATransformLayer ignores '\(key)')")
            }
        }
        let id = m["id"].flatMap { idField -> String? in
            guard let s = idField.string else { return nil }
            let range = NSRange(s.startIndex..., in: s)
            guard Self.idPattern.firstMatch(in: s, range: range) != nil else {
                idField.report("'\(s)' is not a valid id: use letters, digits, _ and -, not starting with a digit")
                return nil
            }
            return s
        }
        var layer = Layer(id: id, place: place, type: type)
        var liveFrame: Field?
        if let address {
            (m, liveFrame) = takeBoundExpressions(m, address: LayerAddress(address), label: id ?? place)
            m = takeStaticExpressions(m, type: type, address: LayerAddress(address), label: id ?? place)
        }
        readCommon(m, into: &layer, address: address)
        readValues(m, into: &layer)
        if let f = liveFrame, let address {
            // Converted with the anchor point as written (a live one is not followed), as
            // CALayer converts a frame with the anchor point of the moment.
            binder.bindFrame(f, anchor: layer.anchorPoint, layer: LayerAddress(address), label: id ?? place)
        }
        switch type {
        case .shape: readShape(m, into: &layer, address: address)
        case .gradient: readGradient(m, into: &layer)
        case .text: readText(m, into: &layer)
        case .replicator: readReplicator(m, into: &layer)
        case .emitter: readEmitter(m, into: &layer, address: address.map(LayerAddress.init), label: id ?? place)
        case .image:
            if m["contents"] == nil { field.report("an image layer needs 'contents'") }
        case .layer, .transformLayer: break
        }
        if let id, let address {
            if let existing = ids[id] {
                m["id"]?.report("duplicate id '\(id)' (first used at line \(existing.field.mark?.line ?? 0))")
            } else {
                ids[id] = LayerEntry(address: LayerAddress(address), type: type,
                                     propertyNames: Set(layer.properties.keys), field: m["id"] ?? field,
                                     namedShape: layer.shape?.namedShape?.shape,
                                     emitterCellPaths: layer.emitter.map(Self.cellPaths) ?? [])
            }
        }
        if let subs = m["sublayers"] {
            layer.sublayers = address.map { layers(subs, parent: $0) } ?? maskSublayers(subs)
        }
        return layer
    }

    /// The layer's keys that bindings drive, with their expressions taken (the static
    /// readers never see a live one): a constant value becomes the literal it stands for,
    /// checked as such; a live one is bound and its key left out — except one live
    /// component of a point with sub-key paths, bound alone so that animations of the
    /// other still show (as a transform's components do). A live `frame` is returned, to
    /// be bound once the anchor point is read.
    private func takeBoundExpressions(_ m: Mapping, address: LayerAddress, label: String) -> (Mapping, liveFrame: Field?) {
        var m = m, taken: Set<String> = [], liveFrame: Field?
        let keys = Array(ExpressionBinder.numberKeys.keys) + Array(ExpressionBinder.pointKeys.keys) + ["locations", "frame"]
        if let f = m["path"], ExpressionBinder.containsExpressionText(f) {
            // A named shape binds its parameters itself (`readShape`); the static reader
            // takes a primitive whose expressions are all constant.
            switch f.node {
            case .mapping(let raw) where raw["shape"] != nil: break
            case .mapping(let raw) where raw["cubic"] == nil && ExpressionBinder.liveness(of: f) == nil: break
            default: if binder.bind(f, key: "path", keyPath: nil, layer: address, label: label) { taken.insert("path") }
            }
        }
        for key in keys {
            guard let f = m[key], ExpressionBinder.containsExpression(f) else { continue }
            if ExpressionBinder.liveness(of: f) == nil {
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
                      seq.filter({ ExpressionBinder.isExpressionText($0.scalar?.string ?? "") }).count == 1 {
                let items = seq.enumerated().map { i, item in
                    let ef = f.element(item, index: i)
                    guard ExpressionBinder.isExpressionText(item.scalar?.string ?? "") else { return ef }
                    _ = binder.bind(ef, key: paths[i].name, keyPath: paths[i].keyPath, layer: address, label: label)
                    // The identity's value until the binding runs.
                    return ef.folding(.number(0))
                }
                m = m.replacing(key, with: f.folding(.items(items)))
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
    private func takeStaticExpressions(_ m: Mapping, type: LayerType, address: LayerAddress, label: String) -> Mapping {
        var m = m
        for key in ["transform", "sublayerTransform", "instanceTransform"] {
            guard let f = m[key], ExpressionBinder.containsExpressionText(f) else { continue }
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
            guard let f = m[key], let keyPath = keys[key], ExpressionBinder.containsExpression(f) else { continue }
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
    private func transformTakingExpressions(_ f: Field, key: String, address: LayerAddress, label: String) -> Field {
        guard case .mapping(let raw) = f.node else { return f }
        let paths = key == "transform" ? Self.transformComponentPaths : [:]
        // Whether a live component has no sub-key path: only `transform`'s rotations and
        // scale (one number), and its scale and translate lists entry by entry, have.
        let needsWhole = raw.contains { k, v in
            guard let name = k.scalar?.string, ExpressionBinder.liveness(of: f.child(v, key: name)) != nil else { return false }
            guard case .scalar = v else { return paths[name] == nil }
            return paths.isEmpty || !(name.hasPrefix("rotate") || name == "scale")
        }
        if needsWhole, let keyPath = LayerKeyPath.named[key] {
            binder.bindTransform(f, key: key, keyPath: keyPath, layer: address, label: label)
            return f.folding(.entries([]))
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
        var pairs: [(key: Node, value: Field)] = []
        for (k, v) in raw {
            let cf = f.child(v, key: k.scalar?.string ?? "")
            guard let name = k.scalar?.string, ExpressionBinder.containsExpressionText(cf) else {
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
                    guard ExpressionBinder.containsExpression(ef) else { return ef }
                    let keyPath = paths[name].flatMap { i < $0.count ? $0[i] : nil }
                    // Bound or reported: the identity's value until the binding runs.
                    return taken(ef, name: name, kind: .number, keyPath: keyPath) ?? ef.folding(.number(name == "scale" ? 1 : 0))
                }
                pairs.append((k, cf.folding(.items(folded))))
            default:
                pairs.append((k, cf))
            }
        }
        return f.folding(.entries(pairs))
    }

    /// Sublayers of a mask are drawn but not addressable by animations.
    private mutating func maskSublayers(_ field: Field) -> [Layer] {
        guard let items = field.elements else { return [] }
        return items.compactMap { layer($0, address: nil, place: $0.keyPath) }
    }

    /// A layer of `type` with only `key` read from `value`, as a layer definition reads it
    /// (the same checks and messages): the new value of an event's `set:` of a property
    /// no animation reaches.
    mutating func layer(type: LayerType, setting key: String, to value: Field) -> Layer? {
        var layer = Layer(place: value.keyPath, type: type)
        let m = Mapping(owner: value, fields: [key: value], order: [key])
        readCommon(m, into: &layer, address: nil)
        readValues(m, into: &layer)
        switch type {
        case .shape: readShape(m, into: &layer, address: nil)
        case .gradient: readGradient(m, into: &layer)
        case .text: readText(m, into: &layer)
        case .replicator: readReplicator(m, into: &layer)
        case .emitter: readEmitter(m, into: &layer, address: nil, label: value.keyPath)
        case .layer, .image, .transformLayer: break
        }
        return layer
    }

    private mutating func readCommon(_ m: Mapping, into layer: inout Layer, address: [Int]?) {
        if let f = m["anchorPoint"], let p = f.point { layer.anchorPoint = p }
        if let f = m["frame"] {
            if m["position"] != nil || m["bounds"] != nil {
                f.report("use either 'frame' or 'position' + 'bounds', not both")
            } else if let r = f.rect {
                layer.bounds = Rect(0, 0, r.width, r.height)
                layer.position = Point(r.origin.x + layer.anchorPoint.x * r.width,
                                       r.origin.y + layer.anchorPoint.y * r.height)
            }
        }
        if let f = m["begin"], let v = f.number { layer.timing.begin = v }
        m.readSpeed(into: &layer.timing.speed, timeOffset: &layer.timing.timeOffset)
        if let f = m["doubleSided"], let v = f.bool { layer.isDoubleSided = v }
        if let f = m["maskedCorners"], let v = f.cornerMask { layer.maskedCorners = v }
        if let f = m["cornerCurve"], let v = f.choice(CornerCurve.self) { layer.cornerCurve = v }
        if let f = m["filters"], let v = f.layerFilters { layer.filters = v }
        if let f = m["backgroundFilters"], let v = f.layerFilters { layer.backgroundFilters = v }
        if let f = m["compositingFilter"], let v = f.choice(BlendMode.self) { layer.compositingFilter = v }
        if let f = m["masksToBounds"], let v = f.bool { layer.masksToBounds = v }
        if let f = m["shadowPath"], let p = f.path { layer.shadowPath = p }
        if let f = m["contents"], let path = asset(f) { layer.contents = path }
        if let f = m["contentsGravity"], let g = f.choice(ContentsGravity.self) { layer.contentsGravity = g }
        if let f = m["contentsScale"], let v = f.positiveNumber { layer.contentsScale = v }
        if let f = m["transform"], let t = f.transformParts {
            if let c = t.components { layer.transformComponents = c } else { layer.transform = t.matrix }
        }
        if let f = m["mask"] {
            // Masks are addressable: animations and expressions may drive them.
            layer.mask = self.layer(f, address: address.map { $0 + [LayerAddress.mask] }, place: f.keyPath)
        }
        if let f = m["properties"], case .mapping(let raw) = f.node {
            let names: [String] = raw.keys.compactMap { $0.scalar?.string }
            if let props = f.mapping(allowed: names) {
                for name in props.order {
                    if LayerKeyPath.named[name] != nil {
                        props[name]?.report("'\(name)' is a built-in key path; custom properties need other names")
                    } else if let pf = props[name], let address, ExpressionBinder.containsExpression(pf) {
                        layer.properties[name] = 0
                        _ = binder.bind(pf, key: name, keyPath: .property(name), layer: LayerAddress(address),
                                        label: "\(layer.key).\(name)")
                    } else if let v = props[name]?.number {
                        layer.properties[name] = v
                    }
                }
            }
        } else if let f = m["properties"] {
            f.report("expected a mapping of property names to numbers")
        }
    }

    /// An image asset: resolved against the scene's folder, and it must exist.
    mutating func asset(_ f: Field) -> String? {
        guard let name = f.string else { return nil }
        guard name.lowercased().hasSuffix(".png") else {
            f.report("image assets must be PNG files, found '\(name)'")
            return nil
        }
        var resolved = assetPolicy.resolve(name, baseDirectory: baseDirectory)
        // UIImage(named:) finds `name@3x.png` or `name@2x.png` for `name.png`, the screen's
        // scale first.
        if case .failure(.missing) = resolved, Layer.contentsScale(ofAsset: name) == 1 {
            let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
            for scale in [deviceScale.rounded(), 3, 2] where scale >= 2 && scale <= 9 {
                let variant = assetPolicy.resolve("\(stem)@\(Int(scale))x.\(ext)", baseDirectory: baseDirectory)
                if case .success = variant { resolved = variant; break }
            }
        }
        switch resolved {
        case .success(let path):
            assets.insert(path)
            return path
        case .failure(let problem):
            f.report(problem.message(for: name))
            return nil
        }
    }

    /// A font file beside the scene (`font: Name.ttf`): held to the asset policy as
    /// images are (inside the root, a regular font file of a bounded size).
    private func fontFile(_ f: Field, _ name: String) -> String? {
        switch assetPolicy.resolve(name, baseDirectory: baseDirectory, kind: .font) {
        case .success(let path): return path
        case .failure(let problem):
            f.report(problem.message(for: name, kind: .font))
            return nil
        }
    }

    /// The layer's keys of `LayerSchema` read as plain values (`readValues`), and the
    /// ones the loader reads itself: the layout keys, transforms, assets, paths, the
    /// keys no value kind covers (choices, lists of layers) and the ones with checks
    /// across keys.
    static let ownReaders: Set<String> = ["anchorPoint", "transform", "contents", "path", "fillColor", "strokeColor",
                                          "locations", "instanceCount"]

    /// Every key of `m` that `LayerSchema` reads and writes as a value: read with
    /// its kind and range (`Field.value`), as animations and `set:` read it, and set
    /// through the schema.
    func readValues(_ m: Mapping, into layer: inout Layer) {
        for key in m.order where !Self.ownReaders.contains(key) {
            guard let spec = LayerSchema.standard[key], spec.isFileKey, let set = spec.set, let kind = spec.valueKind,
                  let f = m[key], let v = f.value(kind, isAngle: spec.kind == .angle, problem: spec.problem) else { continue }
            set(&layer, v)
        }
    }

    private mutating func readShape(_ m: Mapping, into layer: inout Layer, address: [Int]?) {
        guard var s = layer.shape else { return }
        if let f = m["path"], case .mapping(let raw) = f.node, raw["shape"] != nil {
            s.namedShape = namedShape(f, address: address, label: layer.key)
            s.updateNamedShape()
        } else if let f = m["path"], let p = f.path { s.path = p }
        if let f = m["fillColor"] { s.fillColor = f.isNull ? nil : f.color }
        if let f = m["fillRule"], let v = f.choice(FillRule.self) { s.fillRule = v }
        if let f = m["strokeColor"] { s.strokeColor = f.isNull ? nil : f.color }
        if let f = m["lineCap"], let v = f.choice(LineCap.self) { s.lineCap = v }
        if let f = m["lineJoin"], let v = f.choice(LineJoin.self) { s.lineJoin = v }
        if let f = m["lineDashPattern"], let v = f.numbers() {
            if v.contains(where: { $0 < 0 }) || (!v.isEmpty && v.allSatisfy { $0 == 0 }) {
                f.report("dash lengths must not be negative, and not all zero")
            } else { s.lineDashPattern = v }
        }
        layer.shape = s
    }

    /// `{shape: NAME, …parameters}` (section 3.1) as a shape layer's own `path`: its
    /// parameters may be live expressions, bound to the layer and run every frame. A
    /// mask has no address to bind to, so its shape takes constant expressions only.
    private mutating func namedShape(_ f: Field, address: [Int]?, label: String) -> NamedShapeState? {
        guard let address else { return f.namedShapeState() }
        let binder = binder
        return f.namedShapeState { pf, parameter, kind in
            binder.bind(pf, key: parameter.name, keyPath: .pathParameter(parameter.name, kind: kind),
                        layer: LayerAddress(address), label: "\(label).path")
        }
    }

    /// CAGradientLayer keys as a scene background.
    func gradient(_ m: Mapping) -> Gradient? {
        var layer = Layer(place: "", type: .gradient)
        readValues(m, into: &layer)
        readGradient(m, into: &layer)
        return layer.gradient
    }

    /// The gradient keys `readValues` leaves: `locations` (one per color, not
    /// decreasing) and `gradientType`.
    func readGradient(_ m: Mapping, into layer: inout Layer) {
        guard var g = layer.gradient else { return }
        if let f = m["locations"], case .numbers(let v)? = f.value(.numbers, problem: LayerKeyPath.locations.problem) {
            if v.count != g.colors.count {
                f.report("expected one location per color (\(g.colors.count)), found \(v.count)")
            } else if zip(v, v.dropFirst()).contains(where: { $0 > $1 }) {
                f.report("locations must not decrease")
            } else { g.locations = v }
        }
        if let f = m["gradientType"], let t = f.choice(GradientType.self) { g.gradientType = t }
        layer.gradient = g
    }

    private func readReplicator(_ m: Mapping, into layer: inout Layer) {
        if let f = m["instanceCount"], let v = f.integer {
            if v < 0 { f.report("instanceCount must not be negative") }
            else if v > ReplicatorStyle.maximumInstanceCount {
                f.report("instanceCount must be at most \(ReplicatorStyle.maximumInstanceCount), found \(v)")
            } else { layer.replicator?.instanceCount = v }
        }
    }

    private func readText(_ m: Mapping, into layer: inout Layer) {
        guard var t = layer.text else { return }
        if let f = m["string"], let v = f.string { t.string = v }
        if let f = m["font"], let v = f.string { t.font = TextStyle.isFontFile(v) ? fontFile(f, v) : v }
        if let f = m["alignmentMode"], let v = f.choice(TextAlignment.self) { t.alignmentMode = v }
        if let f = m["isWrapped"], let v = f.bool { t.isWrapped = v }
        layer.text = t
    }
}
