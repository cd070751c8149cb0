import Foundation
import KineticFiles
import KineticGeometry
import KineticLayers

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
    /// The bounds as the file sets them: where an SVG path value (`{svg: FILE}`) of an
    /// animation or event goes, as the layer's own path does.
    var bounds: Rect = .zero

    /// What the key path `text` names on the layer (an animation's `keyPath`, an event's
    /// `set:` key, a reference's, `reading`): a named key path of its type, a custom
    /// property, a key of a cell it has (`emitterCells.NAME.KEY`) or a parameter of its
    /// named shape (`path.PARAM`); else why not, which each reader words.
    func resolve(_ text: String) -> Result<LayerKeyPath, KeyPathProblem> {
        if let kp = LayerKeyPath.named[text] {
            if let types = kp.layerTypes, !types.contains(type) { return .failure(.otherLayerTypes(types)) }
            return .success(kp)
        }
        if propertyNames.contains(text) { return .success(.property(text)) }
        if text.hasPrefix("emitterCells.") {
            guard type == .emitter else { return .failure(.notEmitter) }
            guard let kp = LayerKeyPath.emitterCell(parsing: text), case .emitterCell(let names, _) = kp else {
                return .failure(.notCellKeyPath)
            }
            return emitterCellPaths.contains(names) ? .success(kp) : .failure(.unknownCell(names))
        }
        return text.hasPrefix("path.") ? shapeParameter(String(text.dropFirst(5))) : .failure(.unknown)
    }

    /// `path.NAME`: the parameter `name` of the layer's named shape.
    func shapeParameter(_ name: String) -> Result<LayerKeyPath, KeyPathProblem> {
        guard let shape = namedShape else { return .failure(.notNamedShape) }
        guard let kind = NamedShapeState(shape: shape, parameters: [:]).kind(of: name) else {
            return .failure(.unknownParameter(name, of: shape))
        }
        return .success(.pathParameter(name, kind: kind))
    }
}

/// Why a key path names nothing on a layer (`LayerEntry.resolve`): a named key path of
/// other layer types; `emitterCells.…` on a layer that is no emitter, not NAME.KEY, or
/// naming a cell it lacks; `path.…` on a layer without a named shape, or naming none of
/// the shape's parameters; nothing the layer has.
enum KeyPathProblem: Error, Equatable {
    case otherLayerTypes(Set<LayerType>), notEmitter, notCellKeyPath, unknownCell([String])
    case notNamedShape, unknownParameter(String, of: NamedShape), unknown
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

    /// The gradient's own keys (a scene's `background`): `LayerSchema`'s file keys.
    static let gradientKeys = LayerSchema.standard.fileKeys(ownedBy: [.gradient])

    /// Each layer type's file keys (`LayerSchema.fileKeys(for:)`), filtered out of the table
    /// once rather than for every layer read.
    static let fileKeys = Dictionary(uniqueKeysWithValues: LayerType.allCases.map {
        ($0, LayerSchema.standard.fileKeys(for: $0))
    })

    /// What CATransformLayer does not render (`PropertySpec.isIgnoredByTransformLayer`).
    static let transformLayerIgnoredKeys = LayerSchema.standard.entries.filter(\.isIgnoredByTransformLayer).map(\.name)

    /// The layers of a list; sublayers of a mask (no `parent` address) are drawn but not
    /// addressable by animations.
    mutating func layers(_ field: Field, parent: [Int]? = []) -> [Layer] {
        guard let items = field.elements else { return [] }
        return items.enumerated().compactMap { i, item in
            layer(item, address: parent.map { $0 + [i] }, place: item.keyPath)
        }
    }

    /// One layer; nil when it is too broken to place (its problems are reported).
    mutating func layer(_ field: Field, address: [Int]?, place: String) -> Layer? {
        // The type decides which keys are allowed, so read it first.
        guard let type = field.peek("type").map({ $0.choice(LayerType.self) }) ?? .layer else { return nil }
        guard let m = field.mapping(allowed: Self.fileKeys[type] ?? LayerSchema.standard.fileKeys(for: type),
                                   contexts: UnsupportedAppleNames.layerContexts(type.rawValue))?
            .checked("layer") else { return nil }
        for key in Self.transformLayerIgnoredKeys where type == .transformLayer && m[key] != nil {
            m[key]?.report("a transformLayer draws only its sublayers (CATransformLayer ignores '\(key)')")
        }
        let id = m["id"].flatMap { idField -> String? in
            guard let s = idField.string else { return nil }
            guard s.wholeMatch(of: /[A-Za-z_][A-Za-z0-9_-]*/) != nil else {
                idField.report("'\(s)' is not a valid id: use letters, digits, _ and -, not starting with a digit")
                return nil
            }
            return s
        }
        var layer = Layer(id: id, place: place, type: type)
        read(m, into: &layer, address: address, label: id ?? place)
        if type == .image, m["contents"] == nil { field.report("an image layer needs 'contents'") }
        if let id, let address {
            if let existing = ids[id] {
                m["id"]?.report("duplicate id '\(id)' (first used at line \(existing.field.mark?.line ?? 0))")
            } else {
                ids[id] = LayerEntry(address: LayerAddress(address), type: type,
                                     propertyNames: Set(layer.properties.keys), field: m["id"] ?? field,
                                     namedShape: layer.shape?.namedShape?.shape,
                                     emitterCellPaths: layer.emitter.map(Self.cellPaths) ?? [], bounds: layer.bounds)
            }
        }
        if let subs = m["sublayers"] { layer.sublayers = layers(subs, parent: address) }
        return layer
    }

    /// A layer of `type` with only `key` read from `value`, as a layer definition reads it
    /// (the same checks and messages): the new value of an event's `set:` of a property
    /// no animation reaches.
    mutating func layer(type: LayerType, setting key: String, to value: Field) -> Layer? {
        var layer = Layer(place: value.keyPath, type: type)
        let m = Mapping(owner: value, fields: [key: value], order: [key])
        read(m, into: &layer, address: nil, label: value.keyPath)
        return layer
    }

    /// Reads `m` into `layer`: the plain values (the anchor point before the frame it
    /// places), the common keys, then its type's own, each value's expressions taken as
    /// the table says (`ExpressionBinder.take`) where the layer has an address.
    private mutating func read(_ m: Mapping, into layer: inout Layer, address: [Int]?, label: String) {
        readValues(m, into: &layer, address: address, label: label)
        readCommon(m, into: &layer, address: address, label: label)
        // After the bounds: an SVG shadow path fills them.
        if let f = m["shadowPath"], let p = f.path(in: layer.bounds) { layer.shadowPath = p }
        switch layer.type {
        case .shape: readShape(m, into: &layer, address: address)
        case .gradient: readGradient(m, into: &layer, address: address, label: label)
        case .text:
            if let f = m["string"], let v = f.string {
                if let problem = TextBounds.problem(in: v) { f.report(problem) } else { layer.text?.string = v }
            }
            if let f = m["font"], let v = f.string {
                layer.text?.font = TextStyle.isFontFile(v) ? fontFile(f, v) : v
            }
        case .replicator:
            guard let v = integer(m, "instanceCount", address: address, label: label) else { break }
            layer.replicator?.instanceCount = v
        case .emitter: readEmitter(m, into: &layer, address: address.map(LayerAddress.init), label: label)
        case .layer, .image, .transformLayer: break
        }
    }

    private mutating func readCommon(_ m: Mapping, into layer: inout Layer, address: [Int]?, label: String) {
        // Given with 'position' or 'bounds', reported by its rule (`SceneKeys.rules`).
        if let f = m["frame"] {
            // Converted with the anchor point as written (a live one is not followed), as
            // CALayer converts a frame with the anchor point of the moment.
            let anchor = layer.anchorPoint
            let target = address.map(LayerAddress.init).map { a in
                LiveTarget(layer: a, key: "frame", label: label) { $0.bindFrame($1, anchor: anchor, layer: a, label: label) }
            }
            if case .rect(let r)? = binder.take(f, to: target, read: { $0.value(.rect) }) {
                layer.bounds = Rect(0, 0, r.width, r.height)
                layer.position = Point(r.origin.x + layer.anchorPoint.x * r.width,
                                       r.origin.y + layer.anchorPoint.y * r.height)
            }
        }
        if let f = m["contents"], let path = asset(f) { layer.contents = path }
        // A live component bound alone, or the whole transform (`componentPaths`), the identity read in its place.
        if let f = m["transform"],
           let t = binder.take(f, to: Self.target(ofKey: "transform", address: address, label: label),
                               placeholder: ExpressionBinding.TransformSource.components(.init()).literalParts,
                               read: { $0.transformSource()?.literalParts }) {
            if let c = t.components { layer.transformComponents = c } else { layer.transform = t.matrix }
        }
        if let f = m["mask"] {
            // Masks are addressable: animations and expressions may drive them.
            layer.mask = self.layer(f, address: address.map { $0 + [LayerAddress.mask] }, place: f.keyPath)
        }
        // Custom numbers: any names but the built-in key paths, each a number or an expression.
        let names = if case .mapping(let raw)? = m["properties"]?.node { raw.keys.compactMap(\.scalar?.string) }
                    else { [String]() }
        guard let props = m["properties"]?.mapping(allowed: names) else { return }
        for name in props.order {
            guard let pf = props[name] else { continue }
            if LayerKeyPath.named[name] != nil {
                pf.report("'\(name)' is a built-in key path; custom properties need other names")
            } else {
                // Every expression is bound, a constant one too: 0 until the binding runs.
                let target = address.map { LiveTarget(layer: LayerAddress($0), key: name, label: layer.key,
                                                      keyPath: .property(name), bindsConstants: true) }
                if let v = binder.take(pf, to: target, placeholder: 0, read: { $0.number }) { layer.properties[name] = v }
            }
        }
    }

    /// An image asset: resolved against the scene's folder, and it must exist.
    mutating func asset(_ f: Field) -> String? {
        guard let name = f.string else { return nil }
        if name.lowercased().hasSuffix(".svg") { return svgAsset(f, name) }
        guard name.lowercased().hasSuffix(".png") else {
            f.report("image assets must be PNG or SVG files, found '\(name)'")
            return nil
        }
        // A name with its own scale suffix (`name@2x.png`) is looked up as written.
        let resolved = Layer.contentsScale(ofAsset: name) == 1
            ? assetPolicy.resolveImage(name, baseDirectory: baseDirectory, deviceScale: deviceScale)
            : assetPolicy.resolve(name, baseDirectory: baseDirectory)
        let path = Self.path(resolved, name, f)
        if let path { assets.insert(path) }
        return path
    }

    /// The path an asset `name` resolved to, or nil with its problem reported on `f`.
    private static func path(_ resolved: Result<String, AssetProblem>, _ name: String, _ f: Field,
                             kind: AssetKind = .image) -> String? {
        do { return try resolved.get() } catch {
            f.report(error.message(for: name, kind: kind))
            return nil
        }
    }

    /// SVG contents (`contents: icon.svg`), drawn as vector by the renderer: the file
    /// read under the asset policy, and refused when it refers to anything outside itself
    /// (an image or style sheet by URL) or has no size to place by `contentsGravity`.
    private mutating func svgAsset(_ f: Field, _ name: String) -> String? {
        let document: (path: String, root: SVGElement)
        do { document = try f.diagnostics.svgFiles.document(name).get() } catch {
            f.report(error.message)
            return nil
        }
        if let (reference, line) = document.root.externalReference {
            f.report("SVG file '\(name)', line \(line): refers to '\(reference)' outside the file; an SVG's contents may "
                     + "only use what the file holds (fragments #id and data: URLs)")
            return nil
        }
        let size: Size?
        do { size = try document.root.intrinsicSize() } catch {
            f.report("SVG file '\(name)', \(error)")
            return nil
        }
        guard size != nil else {
            f.report("SVG file '\(name)' has no size: give its <svg> a width and height, or a viewBox")
            return nil
        }
        assets.insert(document.path)
        return document.path
    }

    /// A font file beside the scene (`font: Name.ttf`): held to the asset policy as
    /// images are (inside the root, a regular font file of a bounded size).
    private func fontFile(_ f: Field, _ name: String) -> String? {
        Self.path(assetPolicy.resolve(name, baseDirectory: baseDirectory, kind: .font), name, f, kind: .font)
    }

    /// The keys the layer decoder reads itself (`PropertySpec.isReadByItsDecoder`): the
    /// layout keys, transforms, assets, paths, nullable colors and values checked against
    /// other keys; the rest are read as plain values (`readValues`).
    static let ownReaders = Set(LayerSchema.standard.entries.filter(\.isReadByItsDecoder).map(\.name))

    /// Every key of `m` that `LayerSchema` reads and writes as a value: read with
    /// its kind and range (`Field.value`), as animations and `set:` read it, and set
    /// through the schema.
    func readValues(_ m: Mapping, into layer: inout Layer, address: [Int]? = nil, label: String = "") {
        m.readValues(into: &layer, value: { key, f, spec in
            return binder.take(f, to: Self.target(ofKey: key, address: address, label: label)) {
                $0.value(of: spec.kind, problem: spec.problem)
            }
        }) { key in
            Self.ownReaders.contains(key) ? nil : LayerSchema.standard[key].flatMap { $0.isFileKey ? $0 : nil }
        }
    }

    private mutating func readShape(_ m: Mapping, into layer: inout Layer, address: [Int]?) {
        // A named shape's parameters and a path's numbers may be live, bound and run every
        // frame; a mask has no address to bind to, so it takes constants only.
        let live = address.map { LivePath(binder: binder, layer: LayerAddress($0), label: "\(layer.key).path") }
        if let f = m["path"], f.peek("shape") != nil {
            // `{shape: NAME, …parameters}` (section 3.1).
            layer.shape?.namedShape = f.namedShapeState(live: live)
            layer.shape?.updateNamedShape()
        } else if let f = m["path"], f.peek("svg") != nil {
            // An SVG file's shapes fill the layer's bounds, with the file's fill-rule
            // unless the layer sets its own.
            if let imported = f.svgImport(in: layer.bounds), let p = f.limited(imported.path) {
                layer.shape?.path = p
                if m["fillRule"] == nil, let rule = f.fillRule(of: imported) { layer.shape?.fillRule = rule }
            }
        } else if let f = m["path"], let p = f.path(in: layer.bounds, live: live) { layer.shape?.path = p }
        if let f = m["fillColor"] { layer.shape?.fillColor = f.isNull ? nil : f.color }
        if let f = m["strokeColor"] { layer.shape?.strokeColor = f.isNull ? nil : f.color }
        if let f = m["lineDashPattern"], let v = f.numbers() {
            if v.contains(where: { $0 < 0 }) || (!v.isEmpty && v.allSatisfy { $0 == 0 }) {
                f.report("dash lengths must not be negative, and not all zero")
            } else { layer.shape?.lineDashPattern = v }
        }
    }

    /// CAGradientLayer keys as a scene background.
    func gradient(_ m: Mapping) -> Gradient? {
        var layer = Layer(place: "", type: .gradient)
        readValues(m, into: &layer)
        readGradient(m, into: &layer)
        return layer.gradient
    }

    /// The gradient key `readValues` leaves: `locations` (one per color, not decreasing).
    func readGradient(_ m: Mapping, into layer: inout Layer, address: [Int]? = nil, label: String = "") {
        guard let g = layer.gradient else { return }
        if let f = m["locations"], case .numbers(let v)? = binder.take(f, to: Self.target(ofKey: "locations", address: address,
                                                                                label: label), read: {
            $0.value(.numbers, problem: LayerKeyPath.locations.problem)
        }) {
            if v.count != g.colors.count {
                f.report("expected one location per color (\(g.colors.count)), found \(v.count)")
            } else if zip(v, v.dropFirst()).contains(where: { $0 > $1 }) {
                f.report("locations must not decrease")
            } else { layer.gradient?.locations = v }
        }
    }

    /// `key`'s whole number, its expressions taken (`ExpressionBinder.take`), within its range in the table.
    func integer(_ m: Mapping, _ key: String, address: [Int]?, label: String) -> Int? {
        guard let f = m[key], let v = binder.take(f, to: Self.target(ofKey: key, address: address, label: label),
                                                   read: \.integer) else { return nil }
        let spec = LayerSchema.standard[key]
        if let problem = spec?.problem(with: .number(Double(v))) { f.report(problem); return nil }
        return v
    }
}
