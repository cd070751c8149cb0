import Foundation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// Reads `dynamics:` (section 6) into a `DynamicsSpec`, reporting every problem with its
/// location; item ids are checked against the layers.
struct DynamicsDecoder {
    let layerIDs: [String: LayerEntry]
    /// The model layers, for `@layerId` path boundaries and iOS 9 attachment anchors.
    let layers: [Layer]
    /// Records expression values (section 4) for the checks at the end of the load.
    let binder: ExpressionBinder

    static let behaviorKinds = DynamicsTable.behaviorKinds.map(\.name)

    func dynamics(_ f: Field) -> DynamicsSpec? {
        let keys = DynamicsTable.keys(of: "dynamics")
        guard let m = f.mapping(allowed: keys, contexts: ["dynamics"]) else { return nil }
        var spec = DynamicsSpec()
        let table = DynamicsTable.dynamics
        if let rf = m["referenceBounds"], let r = rf.rect {
            let values = [r.origin.x, r.origin.y, r.size.width, r.size.height]
            if r.isEmpty { rf.report("width and height must be greater than 0") }
            else if Self.check(values, "referenceBounds", table, m) { spec.referenceBounds = r }
        }
        if let sf = m["stepsPerSecond"], let v = sf.integer, Self.check([Double(v)], "stepsPerSecond", table, m) {
            spec.stepsPerSecond = v
        }
        if let v = m["debug"]?.bool { spec.debug = v }
        if let itemsField = m["items"], let im = itemsField.mapping(allowed: Array(layerIDs.keys)) {
            for id in im.order { if let f = im[id], let t = collisionBounds(f) { spec.collisionBounds[id] = t } }
        }
        var seen: [String: Field] = [:]
        for element in m["behaviors"]?.elements ?? [] {
            guard let (b, terms) = behavior(element) else { continue }
            if let first = seen[b.id] {
                element.report("duplicate behavior id '\(b.id)' (first used at line \(first.mark?.line ?? 0))")
                continue
            }
            seen[b.id] = element
            spec.behaviors.append(b)
            spec.behaviorTerms += terms
            spec.places.behaviors[b.id] = element.place
        }
        for id in spec.itemIDs { spec.places.items[id] = layerIDs[id]?.field.place }
        return spec
    }

    private func collisionBounds(_ f: Field) -> CollisionBoundsType? {
        guard let m = f.mapping(allowed: DynamicsTable.keys(of: "dynamicItem"))?.checked("dynamicItem") else {
            return nil
        }
        let type = m["collisionBoundsType"]?.choice(["rectangle", "ellipse", "path"].map { ($0, $0) })
        // A path without its type is reported by its rule (`SceneKeys.rules`).
        guard type == "path" else { return type == "rectangle" ? .rectangle : type == "ellipse" ? .ellipse : nil }
        guard let pf = m.required("collisionBoundingPath"), let path = pf.path else { return nil }
        let hull = path.flattened(tolerance: 0.25).flatMap { $0 }
        guard Set(hull).count >= 3, path.boundingBox.width > 0, path.boundingBox.height > 0 else {
            pf.report("a collision path must enclose an area")
            return nil
        }
        return .path(path)
    }

    // MARK: Behaviors

    /// One `- kind: {…}` entry, with its properties written as expressions (set at every
    /// step, as a UIKit `action` block would: `terms`).
    func behavior(_ f: Field) -> (behavior: DynamicBehavior, terms: [BehaviorSetting])? {
        guard let outer = f.mapping(allowed: Self.behaviorKinds) else { return nil }
        guard outer.order.count == 1, let kind = outer.order.first, let body = outer[kind] else {
            // An unknown kind was reported by the mapping already.
            if outer.order.isEmpty, case .mapping(let raw) = f.node, raw.count > 0 { return nil }
            f.report("a behavior is one of \(Self.behaviorKinds.joined(separator: ", ")), as `- gravity: {…}`")
            return nil
        }
        let allowed = DynamicsTable.keys(of: "behavior") + DynamicsTable.keys(of: kind)
        guard let all = body.mapping(allowed: allowed, contexts: ["behavior", kind])?.checked(kind) else { return nil }
        // Values written as expressions are set at every step (`terms`). While the behavior is
        // built, those it can change leave its initial values (zero for a snap point or an
        // anchor: `decode`, `attachment`); the others count as not written (`bind` reports them).
        let table = DynamicsTable.contexts[kind] ?? []
        let written = all.order.filter { all[$0].map { ExpressionText.containsExpression($0) } ?? false }
        let m = all.removing(Set(written.filter { table.settable(writtenAs: $0) == nil }))
        let id = m["id"]?.string ?? f.keyPath
        let begin = m["begin"]?.nonNegativeNumber ?? 0
        var end = Double.infinity
        if let ef = m["end"], let v = ef.number {
            if v > begin { end = v } else { ef.report("end must be after begin (\(Field.format(begin)))") }
        }
        // Each kind is read from its table (`decode`): a value that does not parse leaves
        // no gravity, push or snap, and the others without that key (but see `attachment`).
        let decoded: DynamicBehavior.Kind? = switch kind {
        case "collision": collision(m).map { .collision($0) }
        case "attachment": attachment(m).map { .attachment($0) }
        case "field": field(m).map { .field($0) }
        default: DynamicBehavior.Kind.tabled[kind].flatMap { decode($0, m) }
        }
        guard let decoded else { return nil }
        let behavior = DynamicBehavior(id: id, begin: begin, end: end, decoded)
        // The animator's own checks, here with the location of the first key the value comes
        // from (`writtenAs`) that gave it (not one `decode` left to `terms`): `validate`
        // refuses what a render would.
        do { try behavior.validate() } catch {
            guard case .invalidValue(let key, let reason) = error else { return nil }
            let top = String(key.prefix { $0 != "." })
            let given = ([top] + (table.property(top)?.writtenAs ?? [])).lazy.compactMap { k in m[k].map { (k, $0) } }
                .first { !ExpressionText.containsExpression($1) || table.property($0)?.isReadByItsDecoder != false }
            (given?.1 ?? body).report(reason)
            return nil
        }
        return terms(written, of: behavior, all).map { (behavior, $0) }
    }

    /// The per-step settings of a behavior's keys written as expressions, each checked
    /// against what the behavior can change while it runs; nil when one cannot be or does
    /// not parse (reported). UIKit's setters order a direction's keys (the vector and the
    /// settable keys it is written as) — the vector, then `angle` turns it, then `magnitude`
    /// scales it — so when one of them is an expression they are all set at every step in
    /// that order, a literal as written (a `gravityDirection` towards a layer with a fixed
    /// `magnitude`), before the rest.
    private func terms(_ written: [String], of behavior: DynamicBehavior, _ m: Mapping) -> [BehaviorSetting]? {
        let bound = written.compactMap { key in m[key].flatMap { bind(key, $0, of: behavior) } }
        guard bound.count == written.count else { return nil }
        let table = DynamicsTable.contexts[behavior.kind.name] ?? [], settable = behavior.settableProperties
        let vector = table.first { v in v.isSettable && v.writtenAs.contains { $0 != v.name && settable.contains($0) } }
        let direction = vector.map { settable.filter($0.writtenAs.contains) } ?? []
        let ordered = bound.contains { direction.contains($0.property) } ? direction : []
        return ordered.compactMap { key in
            bound.first { $0.property == key } ?? m[key].flatMap { f in
                behavior.settableKind(of: key).flatMap { term(f, $0) }
                    .map { BehaviorSetting(behavior: behavior.id, property: key, term: $0) }
            }
        } + bound.filter { !ordered.contains($0.property) }
    }

    /// The per-step setting of `key`, written as an expression; nil when the behavior
    /// cannot change it while it runs or it does not parse (reported).
    private func bind(_ key: String, _ field: Field, of behavior: DynamicBehavior) -> BehaviorSetting? {
        let entry = (DynamicsTable.contexts[behavior.kind.name] ?? []).settable(writtenAs: key)
        let property = entry?.name ?? key
        // Set as the runtime will, to a value of its kind: this behavior may refuse it.
        do {
            _ = try behavior.setting(property, to: entry?.kind == .point ? .point(.zero) : .number(1))
        } catch {
            let reason = switch error {
            case .unknownProperty(_, let known):
                "a behavior's expressions are set at every step, and it can change only \(known.joined(separator: ", "))"
            case .wrongValue, .outOfRange: "\(error)"
            }
            field.report("not yet supported: an expression for '\(key)' (\(reason))")
            return nil
        }
        // Other attachments measure their offsets from the anchor once, when read.
        if property == "anchorPoint", case .attachment(let a) = behavior.kind, a.kind != .distance, a.kind != .limit {
            field.report("not yet supported: an expression for the anchor of this kind of attachment "
                         + "(its offsets are measured from the anchor when it is read): use a distance or limit attachment")
            return nil
        }
        return term(field, entry?.kind ?? .number).map { BehaviorSetting(behavior: behavior.id, property: property, term: $0) }
    }

    /// A settable behavior property's value of `kind` as written, for `dynamics:` and events'
    /// `set:` alike (`ExpressionBinder.deferredTerm`): a literal (`read`), or an expression the runtime
    /// evaluates (at every step, or when the action runs); nil when it does not parse or the kind takes
    /// no expressions (reported).
    func term(_ f: Field, _ kind: PropertyKind) -> Term<BehaviorValue>? {
        binder.deferredTerm(f, kind: kind.valueKind ?? .number) { read($0, kind) }
    }

    /// A layer id that must name a layer with a body: non-empty bounds.
    private func itemID(_ f: Field) -> String? {
        guard let name = f.string, let entry = entry(named: name, f) else { return nil }
        guard let layer = layers[entry.address] else { return name }
        let w = layer.bounds.width, h = layer.bounds.height, c = center(of: name)
        if w * h <= 0 {
            f.report("'\(name)' has empty bounds: a dynamic item's body is its bounds, give it a size")
        } else if ![c.x, c.y].allSatisfy(Self.isWithinPhysicsRange) {
            f.report("'\(name)': a dynamic item's center " + Self.physicsRangeMessage)
        } else if !(w >= 0.001 && h >= 0.001 && w <= DynamicsLimits.largestValue && h <= DynamicsLimits.largestValue) {
            f.report("'\(name)': each side of a dynamic item must be 0.001…\(Int(DynamicsLimits.largestValue)) pt")
        } else { return name }
        return nil
    }

    /// The layer entry `name` names; nil when there is none (reported on `f`).
    private func entry(named name: String, _ f: Field) -> LayerEntry? {
        if let entry = layerIDs[name] { return entry }
        f.report("unknown layer id '\(name)'" + NameSuggestion.hint(for: name, in: Array(layerIDs.keys)))
        return nil
    }

    /// The animator's range for coordinates and vectors (Chipmunk keeps its precision there).
    static func isWithinPhysicsRange(_ v: Double) -> Bool { v.isFinite && abs(v) <= DynamicsLimits.largestValue }
    static let physicsRangeMessage = "must be finite and within ±\(Int(DynamicsLimits.largestValue))"

    /// `object` with the keys of `table` the loader reads by their kind (not those the
    /// decoder reads itself) read into it, each reported where it does not parse, in table
    /// order: for a direction, UIKit's setters' order — the vector, then `angle` turns it
    /// and `magnitude` scales it (so `pushDirection: [1, 0.3]` with `magnitude: 1.6` pushes
    /// along [1, 0.3] at 1.6), and an angle given while the magnitude is 0 (a push's
    /// default) is kept. Nil when a required key is missing or does not parse, or another
    /// the kind is built only from (`needing`; nil: every key) does not parse.
    private func decode<Object>(_ object: Object, _ table: [DynamicsProperty<Object>], _ m: Mapping,
                                needing: Set<String>? = nil) -> Object? {
        var object = object, complete = true
        for property in table where !property.isReadByItsDecoder {
            guard let f = property.isRequired ? m.required(property.name) : m[property.name] else {
                complete = complete && !property.isRequired
                continue
            }
            // Written as an expression: set at every step (`terms`), the initial value till then;
            // a key no step sets (a region's, a boundary's) reads it as a literal (refused).
            if ExpressionText.containsExpression(f), table.settable(writtenAs: property.name) != nil { continue }
            if !(read(f, property.kind).map { property.assign($0, to: &object) } ?? false) {
                complete = complete && !property.isRequired && needing?.contains(property.name) == false
            }
        }
        return complete ? object : nil
    }

    /// A behavior read by its table alone, into its blank (`TabledBehavior`).
    private func decode<B: TabledBehavior>(_ type: B.Type, _ m: Mapping) -> DynamicBehavior.Kind? {
        decode(B.blank, B.properties, m, needing: B.needing).map(\.kind)
    }

    /// A behavior key's value read by its kind (layer ids name items: `itemID`); nil when
    /// it does not parse (reported).
    private func read(_ f: Field, _ kind: PropertyKind) -> BehaviorValue? {
        switch kind {
        case .layerID: itemID(f).map { .name($0) }
        case .layerIDs: f.elements?.readingAll(itemID).map { .names($0) }
        case .choice(let names): f.choice(names.map { ($0, $0) }).map { .name($0) }
        case .fixedNumbers(let count): f.numbers(count: count).map { .numbers($0) }
        case .rect: f.rect.map { .rect($0) }
        case .string: f.string.map { .name($0) }
        case .pathOrShapeLayer: boundaryPath(f).map { .path($0) }
        default: f.value(of: kind).flatMap(BehaviorValue.init)
        }
    }

    private func collision(_ m: Mapping) -> CollisionBehavior? {
        var c = decode(CollisionBehavior(items: []), CollisionBehavior.properties, m, needing: [])
        var identifiers = Set<String>()
        for element in m["boundaries"]?.elements ?? [] {
            guard let b = boundary(element) else { continue }
            if !identifiers.insert(b.identifier).inserted {
                element.report("duplicate boundary identifier '\(b.identifier)'")
            }
            c?.boundaries.append(b)
        }
        return c
    }

    private func boundary(_ f: Field) -> CollisionBoundary? {
        guard let all = f.mapping(allowed: DynamicsTable.keys(of: "boundary"))?.checked("boundary") else { return nil }
        // A path wins beside a line's ends (both reported by their rule); without one, each end
        // is reported missing.
        let m = all["path"] == nil ? all : all.removing(["from", "to"])
        let missing = m["path"] == nil ? ["from", "to"].filter { m.required($0) == nil } : []
        let blank = CollisionBoundary(identifier: f.keyPath, .line(from: .zero, to: .zero))
        let b = decode(blank, CollisionBoundary.properties, m, needing: ["from", "to", "path"])
        return missing.isEmpty ? b : nil
    }

    /// A path value, or `"@layerId"`: that shape layer's path in its superlayer's space.
    private func boundaryPath(_ f: Field) -> BezierPath? {
        if let text = f.node.scalar?.string.trimmingCharacters(in: .whitespaces), text.hasPrefix("@") {
            let name = String(text.dropFirst())
            guard let entry = entry(named: name, f) else { return nil }
            guard let layer = layers[entry.address], let shape = layer.shape else {
                f.report("'\(name)' is not a shape layer: a boundary reference needs a layer with a path")
                return nil
            }
            return shape.path.applying(layer.toSuperlayer)
        }
        return f.path
    }

    /// An attachment: its ends and range here, its other keys by its table.
    private func attachment(_ m: Mapping) -> AttachmentBehavior? {
        guard let itemField = m.required("item"), let item = itemID(itemField) else { return nil }
        // The other end: another item, or an anchor point (`anchorPoint`'s spellings, one
        // meaning; more than one is reported by their rules, `SceneKeys.rules`), zero standing
        // in for one written as an expression until its first step (`terms`).
        let anchorKeys = (AttachmentBehavior.properties.property("anchorPoint")?.writtenAs ?? []).filter { m[$0] != nil }
        func anchor(_ key: String) -> Point? { m[key].flatMap { ExpressionText.containsExpression($0) ? .zero : $0.point } }
        let attachedField = m["attachedTo"], otherOffset = m["attachedOffsetFromCenter"]?.point
        var end = AttachmentBehavior.Attached.anchor(.zero)
        if let attachedField {
            guard let other = itemID(attachedField) else { return nil }
            end = .item(other, offsetFromCenter: otherOffset ?? .zero)
        } else if let key = anchorKeys.first, let p = anchor(key) {
            end = .anchor(p)
        } else {
            if anchorKeys.isEmpty { m.owner.report("an attachment needs attachedTo (an item) or attachedToAnchor (a point)") }
            return nil
        }
        // Without its kind, or a sliding one's axis, there is no attachment.
        let needing: Set = m["kind"]?.node.scalar?.string == "sliding" ? ["kind", "axisOfTranslation"] : ["kind"]
        guard var a = decode(AttachmentBehavior(item: item, attachedTo: end), AttachmentBehavior.properties, m,
                             needing: needing),
              a.kind != .sliding || m.required("axisOfTranslation") != nil else { return nil }
        // Checked as the schema checks it, though only an item–item attachment uses it.
        if case .anchor = end, let p = otherOffset {
            Self.check([p.x, p.y], "attachedOffsetFromCenter", AttachmentBehavior.properties, m)
        }
        // iOS 9 forms name a shared world point: the offsets are where it lies on each item.
        if case .item(let other, _) = a.attachedTo, let p = anchor("attachmentAnchor") {
            a.offsetFromCenter = p - center(of: item)
            a.attachedTo = .item(other, offsetFromCenter: p - center(of: other))
        } else if a.kind != .distance && a.kind != .limit, case .anchor(let p) = a.attachedTo,
                  m["offsetFromCenter"] == nil {
            a.offsetFromCenter = p - center(of: item)
        }
        if let rf = m["attachmentRange"], let v = rf.numbers(count: 2) {
            if v[0] <= v[1] { a.attachmentRange = v[0]...v[1] } else { rf.report("expected [minimum, maximum]") }
        }
        return a
    }

    /// Whether `values` of `key` lie within its range in `table`, as the schema checks
    /// them; the first that does not is reported on `m[key]`.
    @discardableResult
    private static func check<Object>(_ values: [Double], _ key: String, _ table: [DynamicsProperty<Object>],
                                      _ m: Mapping) -> Bool {
        guard let range = table.property(key)?.range,
              let problem = values.lazy.compactMap(range.boundedProblem).first else { return true }
        m[key]?.report(problem)
        return false
    }

    /// A layer's center in its superlayer (the model value, before animations).
    private func center(of id: String) -> Point {
        guard let entry = layerIDs[id], let layer = layers[entry.address] else { return .zero }
        return layer.toSuperlayer.apply(to: Point(layer.bounds.midX, layer.bounds.midY))
    }

    private func field(_ m: Mapping) -> FieldBehavior? {
        let initial = FieldBehavior(kind: .linearGravity, items: [])
        guard var f = decode(initial, FieldBehavior.properties, m, needing: []) else { return nil }
        if let rm = m["region"]?.mapping(allowed: DynamicsTable.keys(of: "region"))?.checked("region") {
            f.region = decode(f.region, FieldBehavior.Region.properties, rm, needing: []) ?? f.region
        }
        return f
    }
}
