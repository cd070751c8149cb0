import KineticExpressions
import KineticGeometry
import KineticLayers
import Yams

/// Turns expression values (`"= …"`, `"@id …"`) into bindings of layer keys while the
/// layers are read, and into values evaluated later (animation values, behavior
/// properties) while the rest is read; then checks every reference and orders the
/// bindings by dependency. A class because every reader of the file records into it, as
/// into `Diagnostics`.
final class ExpressionBinder {
    private var pending: [(binding: ExpressionBinding, field: Field)] = []
    /// Values evaluated once or every step: checked like bindings, but not ordered — they
    /// read presentation values already computed (the frame or step before they take
    /// effect), so they can form no cycle.
    private var deferred: [(value: ExpressionBinding.BoundValue, field: Field)] = []
    /// The scene's behavior ids, for the message of a reference that names one.
    private var behaviorIDs: Set<String> = []

    /// The layer keys bound by `LayerDecoder.takeBoundExpressions`: the number, point and
    /// size keys of `LayerSchema` that take live expressions, but for the emitter's and the
    /// replicator's (taken with their own keys).
    private static func boundKeys(_ kinds: Set<AnimatableValue.Kind>) -> [String: LayerKeyPath] {
        var keys: [String: LayerKeyPath] = [:]
        for spec in LayerSchema.standard.entries where spec.isFileKey && spec.isAnimatable && spec.allowsExpressions {
            guard let kind = spec.valueKind, kinds.contains(kind), spec.layerTypes != [.emitter],
                  spec.layerTypes != [.replicator], let kp = LayerKeyPath.named[spec.name] else { continue }
            keys[spec.name] = kp
        }
        return keys
    }

    /// Number keys that may hold an expression, with the property they drive.
    static let numberKeys = boundKeys([.number])
    /// Point and size keys that may hold expressions (whole, or per component); a
    /// two-number `bounds` drives `bounds.size`.
    static let pointKeys = boundKeys([.point, .size]).merging(["bounds": .boundsSize]) { a, _ in a }

    /// Whether a value is, or contains, an expression or reference.
    static func containsExpression(_ f: Field) -> Bool {
        // A folded value's expressions were taken when it was folded.
        guard f.folded == nil else { return false }
        switch f.node {
        case .scalar(let s): return isExpressionText(s.string)
        case .sequence(let seq): return seq.contains { n in n.scalar.map { isExpressionText($0.string) } ?? false }
        case .mapping(let m): return m["cubic"] != nil
        case .alias: return false
        }
    }

    static func isExpressionText(_ text: String) -> Bool {
        let t = text.drop { $0.isWhitespace }
        return t.hasPrefix("=") || t.hasPrefix("@")
    }

    /// A value of `kind` written with expressions, evaluated once by the runtime (when an
    /// animation begins, when an event's `set:` runs), and a placeholder of the kind that
    /// stands for it until then; nil when the kind takes no expressions (colors, booleans,
    /// paths…) or the value does not parse (reported).
    func deferredValue(_ f: Field, kind: AnimatableValue.Kind) -> (placeholder: AnimatableValue, value: ExpressionValue)? {
        // Apart from the bindings' salts (1, 2, …), which existing scenes' random() keeps.
        let salt = UInt64(1) << 32 + UInt64(deferred.count + 1)
        let placeholder: AnimatableValue, value: ExpressionBinding.BoundValue
        switch kind {
        case .number:
            guard let t = term(f) else { return nil }
            (placeholder, value) = (.number(0), .scalar(t))
        case .point, .size:
            guard let source = pointSource(f) else { return nil }
            placeholder = kind == .point ? .point(.zero) : .size(.zero)
            switch source {
            case .vector(let e): value = .vector(e)
            case .components(let x, let y): value = .components(x, y)
            }
        case .transform:
            guard let source = transformSource(f) else { return nil }
            (placeholder, value) = (.transform(.identity), .transform(source))
        default:
            f.report("not yet supported: expressions in \(kind.rawValue) values (section 4 covers numbers and points)")
            return nil
        }
        deferred.append((value, f))
        return (placeholder, ExpressionValue(value: value, seedSalt: salt))
    }

    /// Records the binding of `key` on the layer at `layer`; returns whether the key was
    /// taken (its problems, if any, reported).
    func bind(_ f: Field, key: String, keyPath: LayerKeyPath?, layer: LayerAddress, label: String) -> Bool {
        let salt = UInt64(pending.count + 1)
        if key == "path" {
            if case .scalar = f.node {
                f.report("not yet supported: a path from an expression (section 4 covers numbers and points: write a "
                         + "primitive, a {cubic: …} or a named shape with expressions in its numbers)")
                return true
            }
            if case .mapping(let raw) = f.node, raw["cubic"] == nil {
                guard let primitive = f.pathPrimitive(readers) else { return true }
                add(ExpressionBinding(layer: layer, keyPath: .path, value: .rebuilt(.path(primitive)),
                                      label: "\(label).path", seedSalt: salt), f)
                return true
            }
            guard let m = f.mapping(allowed: ["cubic"]), let cf = m["cubic"], let items = cf.elements else { return true }
            guard items.count == 4 else { cf.report("a cubic takes 4 points [p0, c1, c2, p1], found \(items.count)"); return true }
            let sources = items.map(pointSource)
            guard !sources.contains(where: { $0 == nil }) else { return true }
            add(ExpressionBinding(layer: layer, keyPath: .path, value: .cubic(sources.compactMap { $0 }),
                                  label: "\(label).path", seedSalt: salt), f)
            return true
        }
        if key == "bounds", case .sequence(let s) = f.node, s.count == 4 {
            guard let r = f.rectTerms(readers) else { return true }
            add(ExpressionBinding(layer: layer, keyPath: .bounds, value: .rebuilt(.rect(r)), label: "\(label).bounds",
                                  seedSalt: salt), f)
            return true
        }
        if key == "locations" {
            guard let items = f.elements else { return true }
            let terms = items.map(term)
            guard !terms.contains(where: { $0 == nil }) else { return true }
            add(ExpressionBinding(layer: layer, keyPath: .locations, value: .rebuilt(.numbers(terms.compactMap { $0 })),
                                  label: "\(label).locations", seedSalt: salt), f)
            return true
        }
        if let kp = keyPath ?? Self.numberKeys[key] ?? Self.pointKeys[key] {
            switch kp.valueKind {
            case .number:
                guard let t = term(f) else { return true }
                add(ExpressionBinding(layer: layer, keyPath: kp, value: .scalar(t), label: "\(label).\(key)", seedSalt: salt), f)
                return true
            case .point, .size:
                guard let source = pointSource(f) else { return true }
                let value: ExpressionBinding.BoundValue = switch source {
                case .vector(let e): .vector(e)
                case .components(let x, let y): .components(x, y)
                }
                add(ExpressionBinding(layer: layer, keyPath: kp, value: value, label: "\(label).\(key)", seedSalt: salt), f)
                return true
            default:
                break
            }
        }
        f.report("not yet supported: an expression for '\(key)' (section 4 covers number and point keys)")
        return true
    }

    private func add(_ b: ExpressionBinding, _ f: Field) { pending.append((b, f)) }

    /// Records the bindings of a `frame: [x, y, w, h]` written with expressions: the
    /// position it gives with the layer's anchor point (as written: a frame is converted
    /// with the anchor point of the moment, as CALayer converts it) and the bounds' size.
    func bindFrame(_ f: Field, anchor: Point, layer: LayerAddress, label: String) {
        guard let r = f.rectTerms(readers) else { return }
        add(ExpressionBinding(layer: layer, keyPath: .position, value: .rebuilt(.framePosition(r, anchor: anchor)),
                              label: "\(label).position", seedSalt: UInt64(pending.count + 1)), f)
        add(ExpressionBinding(layer: layer, keyPath: .boundsSize, value: .components(r.width, r.height),
                              label: "\(label).bounds", seedSalt: UInt64(pending.count + 1)), f)
    }

    /// The binder's readers: numbers and points as literals or expressions.
    private var readers: NumberReaders {
        NumberReaders(number: { [unowned self] in term($0) }, angle: { [unowned self] in angleTerm($0) },
                      point: { [unowned self] in pointSource($0) })
    }

    /// Records the binding of a whole transform (`key`: `transform`, `sublayerTransform` or
    /// `instanceTransform`) written in `f` with live components.
    func bindTransform(_ f: Field, key: String, keyPath: LayerKeyPath, layer: LayerAddress, label: String) {
        guard let source = transformSource(f) else { return }
        add(ExpressionBinding(layer: layer, keyPath: keyPath, value: .transform(source), label: "\(label).\(key)",
                              seedSalt: UInt64(pending.count + 1)), f)
    }

    /// A transform's written form with expressions in it, checked as the static reader
    /// checks it; nil when it is wrong (reported).
    private func transformSource(_ f: Field) -> ExpressionBinding.TransformSource? {
        guard let m = f.mapping(allowed: ["matrix", "perspective", "translate", "rotateX", "rotateY", "rotate", "scale"]) else {
            return nil
        }
        if let mf = m["matrix"] {
            guard m.order.count == 1 else { mf.report("'matrix' cannot be combined with the named form"); return nil }
            guard let items = mf.elements else { return nil }
            guard items.count == 16 else { mf.report("expected 16 numbers, found \(items.count)"); return nil }
            let entries = items.map(term)
            guard !entries.contains(where: { $0 == nil }) else { return nil }
            return .matrix(entries.compactMap { $0 })
        }
        var c = ExpressionBinding.TransformComponents(), ok = true
        // Each component is read before giving up, so each reports its problems.
        func read<T>(_ name: String, _ reader: (Field) -> T?) -> T? {
            guard let cf = m[name] else { return nil }
            let value = reader(cf)
            if value == nil { ok = false }
            return value
        }
        c.rotate = read("rotate", angleTerm)
        c.rotateX = read("rotateX", angleTerm)
        c.rotateY = read("rotateY", angleTerm)
        c.perspective = read("perspective") { pf in
            // A written distance is checked now; a live one gives no transform when not positive.
            Self.isExpressionText(pf.node.scalar?.string ?? "") ? term(pf) : pf.positiveNumber.map { .literal($0) }
        }
        c.scale = read("scale") { sf -> (x: ExpressionBinding.Term, y: ExpressionBinding.Term)? in
            guard case .sequence = sf.node else { return term(sf).map { ($0, $0) } }
            guard let items = sf.elements else { return nil }
            guard items.count == 2 else { sf.report("expected 2 numbers, found \(items.count)"); return nil }
            let x = term(items[0]), y = term(items[1])
            guard let x, let y else { return nil }
            return (x, y)
        }
        if let tf = m["translate"] {
            if case .sequence = tf.node, let items = tf.elements {
                if items.count == 2 || items.count == 3 {
                    let x = term(items[0]), y = term(items[1]), z = items.count == 3 ? term(items[2]) : .literal(0)
                    if let x, let y, let z { c.translate = .components(x, y); c.translateZ = z } else { ok = false }
                } else {
                    tf.report("expected 2 or 3 numbers, found \(items.count)"); ok = false
                }
            } else {
                c.translate = read("translate", pointSource)
            }
        }
        return ok ? .components(c) : nil
    }

    /// An angle written in the file (`45deg` or radians) or as an expression (radians).
    private func angleTerm(_ f: Field) -> ExpressionBinding.Term? {
        if case .scalar(let s) = f.node, Self.isExpressionText(s.string) { return parse(f, s).map { .expression($0) } }
        return f.angle.map { .literal($0) }
    }

    /// A number written in the file or as an expression.
    private func term(_ f: Field) -> ExpressionBinding.Term? {
        guard case .scalar(let s) = f.node else { return f.number.map { .literal($0) } }
        guard Self.isExpressionText(s.string) else { return f.number.map { .literal($0) } }
        return parse(f, s).map { .expression($0) }
    }

    /// A point: one vector expression (`"@ball"`, `"= [t, 2]"`) or `[x, y]` with terms.
    private func pointSource(_ f: Field) -> ExpressionBinding.PointSource? {
        if case .scalar(let s) = f.node {
            guard Self.isExpressionText(s.string) else {
                f.report("expected a point [x, y], an expression or a reference")
                return nil
            }
            return parse(f, s).map { .vector($0) }
        }
        guard let items = f.elements else { return nil }
        guard items.count == 2 else { f.report("expected 2 numbers, found \(items.count)"); return nil }
        // Both components are read before giving up, so both report their problems.
        let x = term(items[0]), y = term(items[1])
        guard let x, let y else { return nil }
        return .components(x, y)
    }

    /// Parses `= …` or `@…`, reporting a syntax error at its character.
    private func parse(_ f: Field, _ s: Node.Scalar) -> SceneExpression? { Self.parse(f, s) }

    private static func parse(_ f: Field, _ s: Node.Scalar) -> SceneExpression? {
        let text = s.string
        let lead = text.prefix { $0.isWhitespace }.count
        do {
            var e = try expression(text)
            // Its place in the file: the call site of its random() calls.
            if let mark = s.mark { e.site = UInt64(truncatingIfNeeded: mark.line) << 32 | UInt64(truncatingIfNeeded: mark.column) }
            return e
        } catch {
            let offset = text.dropFirst(lead).hasPrefix("@") ? error.offset : lead + 1 + error.offset
            // A contact's items are named in a `do:` list's keys; expressions read layers by id.
            let contactItem = ["$item", "$other"].first { text.contains($0) }
            let message = contactItem.map { "\($0) names a contact's layer in the keys of a `do:` list, not inside an "
                + "expression: expressions read layers by id" } ?? error.message
            Self.report(message, offset: offset, in: f, scalar: s)
            return nil
        }
    }

    /// `= …` or `@…` parsed; error offsets count from the `@`, or from after the `=`.
    private static func expression(_ text: String) throws(ExpressionError) -> SceneExpression {
        let lead = text.prefix { $0.isWhitespace }.count
        return text.dropFirst(lead).hasPrefix("@") ? try SceneExpression.parsePointShorthand(text)
            : try SceneExpression.parse(String(text.dropFirst(lead + 1)))
    }

    /// What makes an expression's value change while the scene runs (`reads 'ball.position'`,
    /// `uses random()`, `changes with t or frame`); nil when it is constant.
    private static func liveness(_ e: SceneExpression) -> String? {
        if let ref = e.references.first { return "reads '\(ref)'" }
        return e.usesRandom ? "uses random()" : e.usesTime ? "changes with t or frame" : nil
    }

    /// What makes the first live expression of a value change (see `liveness`); nil when
    /// every expression in it is constant. One that does not parse counts as constant: its
    /// error is reported where it is evaluated.
    static func liveness(of f: Field) -> String? {
        guard f.folded == nil else { return nil }
        for s in scalars(of: f.node) where isExpressionText(s.string) {
            if let e = try? expression(s.string), let what = liveness(e) { return what }
        }
        return nil
    }

    /// Whether a value holds an expression or reference anywhere (in a transform's
    /// components, a point's, a matrix's entries).
    static func containsExpressionText(_ f: Field) -> Bool {
        f.folded == nil && scalars(of: f.node).contains { isExpressionText($0.string) }
    }

    /// A value read by a static reader (the number and point keys of emitters, emitter
    /// cells, replicators, transform components) written with expressions. A live one —
    /// reading `t`, `frame`, `random()` or a reference — is bound to `keyPath`, or, when the
    /// key has none, reported with `unbindable` (why it cannot follow a live value). A
    /// constant one is evaluated now and returned folded into `f`, for the static reader
    /// to check as if written so. Nil when the value was bound or is wrong
    /// (reported).
    func take(_ f: Field, key: String, kind: AnimatableValue.Kind, keyPath: LayerKeyPath?, layer: LayerAddress,
              label: String, unbindable: @autoclosure () -> String) -> Field? {
        if let what = Self.liveness(of: f) {
            if let keyPath {
                _ = bind(f, key: key, keyPath: keyPath, layer: layer, label: label)
            } else {
                f.report("not yet supported: a live expression for '\(key)' (it \(what)): \(unbindable()); "
                         + "constant expressions (no t, frame, random() or reference) are evaluated when the scene loads")
            }
            return nil
        }
        guard let value = Self.constantValue(f, kind: kind, parameter: key, whyConstant: unbindable()) else { return nil }
        return Self.folded(value, for: f)
    }

    /// A value whose expressions are all constant, folded into the value they stand for,
    /// for a static reader to check as if written so (`opacity: "= 2"` is out of range): a
    /// number, point or size (`kind`), or, for a list (`[x, y, w, h]`, `locations`), each
    /// entry a number. Nil when an expression is live, or reported.
    static func foldedConstant(_ f: Field, kind: AnimatableValue.Kind, parameter: String) -> Field? {
        guard liveness(of: f) == nil else { return nil }
        let why = "this expression is constant"
        if case .sequence(let seq) = f.node, seq.count != 2 || kind == .numbers {
            var items: [Field] = []
            for (i, item) in seq.enumerated() {
                let ef = f.element(item, index: i)
                guard isExpressionText(item.scalar?.string ?? "") else { items.append(ef); continue }
                guard let v = constantValue(ef, kind: .number, parameter: parameter, whyConstant: why),
                      let folded = folded(v, for: ef) else { return nil }
                items.append(folded)
            }
            return f.folding(.items(items))
        }
        return constantValue(f, kind: kind == .numbers ? .number : kind, parameter: parameter, whyConstant: why)
            .flatMap { folded($0, for: f) }
    }

    /// `f` with a number, point or size folded in; a point's components keep its items'
    /// places when it is written `[x, y]`, the expression's when it is one.
    private static func folded(_ value: AnimatableValue, for f: Field) -> Field? {
        let p: Point
        switch value {
        case .number(let v): return f.folding(.number(v))
        case .point(let point): p = point
        case .size(let s): p = Point(s.width, s.height)
        default: return nil
        }
        let written = f.node.sequence.map { Array($0) } ?? []
        let nodes = written.count == 2 ? written : [f.node, f.node]
        return f.folding(.items([p.x, p.y].enumerated().map { f.element(nodes[$0], index: $0).folding(.number($1)) }))
    }

    /// A value of `kind` (a number, or a point or size: whole or per component) written
    /// with expressions that are constant — no `t`, `frame`, `random()` or reference —
    /// evaluated now, for a value read once at load (a named shape's parameter in a path
    /// value, an emitter's key). A live expression is reported as "'`parameter`' reads …,
    /// but `whyConstant`". Nil when it is not such a value (reported).
    static func constantValue(_ f: Field, kind: AnimatableValue.Kind, parameter: String,
                              whyConstant: @autoclosure () -> String) -> AnimatableValue? {
        func number(_ f: Field) -> Double? {
            guard case .scalar(let s) = f.node, isExpressionText(s.string) else { return f.number }
            guard let v = constant(f, s, parameter: parameter, whyConstant: whyConstant()) else { return nil }
            guard let n = v.scalar else { f.report("expected a number, but the expression gives a point"); return nil }
            return n
        }
        switch kind {
        case .number:
            return number(f).map { .number($0) }
        case .point, .size:
            let p: Point
            if case .scalar(let s) = f.node {
                guard isExpressionText(s.string) else { f.report("expected a point [x, y], an expression or a reference"); return nil }
                guard let v = constant(f, s, parameter: parameter, whyConstant: whyConstant()) else { return nil }
                guard let vector = v.vector else { f.report("expected a point, but the expression gives a number"); return nil }
                p = vector
            } else {
                guard let items = f.elements else { return nil }
                guard items.count == 2 else { f.report("expected 2 numbers, found \(items.count)"); return nil }
                let x = number(items[0]), y = number(items[1])
                guard let x, let y else { return nil }
                p = Point(x, y)
            }
            return kind == .size ? .size(Size(p.x, p.y)) : .point(p)
        default:
            f.report("not yet supported: an expression for '\(parameter)' (section 4 covers number and point keys)")
            return nil
        }
    }

    /// A constant expression's value, or nil (reported: a syntax or kind error, a value
    /// that changes, a result that is not finite).
    private static func constant(_ f: Field, _ s: Node.Scalar, parameter: String,
                                 whyConstant: String) -> SceneExpression.Value? {
        guard let e = parse(f, s) else { return nil }
        if let what = liveness(e) {
            f.report("'\(parameter)' \(what), but \(whyConstant)")
            return nil
        }
        do {
            _ = try e.resultKind { _ in nil }
        } catch {
            let lead = s.string.prefix { $0.isWhitespace }.count
            report(error.message, offset: lead + 1 + error.offset, in: f, scalar: s)
            return nil
        }
        let context = SceneExpression.EvaluationContext(time: 0, frame: 0, seed: 0, expressionID: 0) { _ in .scalar(.nan) }
        let value = e.evaluate(context)
        guard value.isFinite else { f.report("the expression's value is not finite"); return nil }
        return value
    }

    static func report(_ message: String, offset: Int, in f: Field, scalar s: Node.Scalar) {
        f.diagnostics.report(message, offset: offset, in: s, keyPath: f.keyPath)
    }

    /// Reports, and drops, the bindings of what the simulation owns on the layers
    /// `items` names (section 6: a dynamic item's `position` and `transform.rotation.z`,
    /// as UIKit owns `center` and `transform`): drawn at one place, simulated at another.
    func rejectBindings(ofItems items: Set<String>, layers: [String: LayerEntry]) {
        let addresses = Dictionary(items.compactMap { id in layers[id].map { ($0.address, id) } }) { first, _ in first }
        let owned: Set<LayerKeyPath> = [.position, .positionX, .positionY, .transform, .transformRotationZ]
        pending.removeAll { binding, field in
            guard let id = addresses[binding.layer], owned.contains(binding.keyPath) else { return false }
            field.report("'\(id)' is a dynamic item: the simulation owns its position and rotation, so an expression "
                         + "cannot drive them (section 6); move it with behaviors, or draw another layer at \"@\(id)\"")
            return true
        }
    }

    /// Checks every reference against the layers and every result kind, then orders the
    /// bindings so each runs after the ones it reads; reports cycles by name.
    func finish(layers: [String: LayerEntry], behaviorIDs: Set<String> = []) -> [ExpressionBinding] {
        self.behaviorIDs = behaviorIDs
        for (value, field) in deferred { _ = check(value, field: field, layers: layers) }
        let valid = pending.indices.filter { check(pending[$0].binding.value, field: pending[$0].field, layers: layers) }
        // Binding j feeds binding i when i reads the property j writes. The writers are
        // indexed by layer, so ordering stays linear in the bindings (20,000 chained
        // references took minutes when every read scanned every binding).
        var writers: [LayerAddress: [(index: Int, group: String)]] = [:]
        for j in valid {
            writers[pending[j].binding.layer, default: []].append((j, ReferenceKeyPaths.group(pending[j].binding.keyPath)))
        }
        func dependencies(_ i: Int) -> [Int] {
            let reads = pending[i].binding.expressions.flatMap(\.references).flatMap { ref -> [(LayerAddress, String)] in
                guard let entry = layers[ref.id] else { return [] }
                // A flag follows every parameter of its shape (the "path." prefix matches them all).
                if ReferenceKeyPaths.shapeFlag(ref.keyPath) != nil { return [(entry.address, "path.")] }
                if let name = ReferenceKeyPaths.shapeParameter(ref.keyPath)?.name {
                    // A parameter left out reads the one it defaults to (stickyBubble's toRadius: radius).
                    let fallback = entry.namedShape?.parameter(name)?.defaultParameter
                    return ([name] + (fallback.map { [$0] } ?? [])).map { (entry.address, "path.\($0)") }
                }
                guard let kp = ReferenceKeyPaths.keyPath(ref.keyPath, of: entry.propertyNames.contains(ref.keyPath)) else { return [] }
                return [(entry.address, ReferenceKeyPaths.group(kp))]
            }
            var fed = Set<Int>()
            for (address, group) in reads {
                for w in writers[address] ?? [] where ReferenceKeyPaths.overlap(group, w.group) { fed.insert(w.index) }
            }
            return fed.sorted()  // in `valid`'s order, as the walk expects
        }
        switch DependencyOrder.sort(valid, dependencies: dependencies) {
        case .success(let order):
            return order.map { pending[$0].binding }
        case .failure(let found):
            for cycle in found.cycles {
                guard let first = cycle.members.first else { continue }
                pending[first].field.report("reference cycle: \(cycle.description { pending[$0].binding.label })")
            }
            return []
        }
    }

    /// Checks the references of a value's expressions and the kinds they give; returns
    /// whether all is well (problems reported).
    private func check(_ value: ExpressionBinding.BoundValue, field: Field, layers: [String: LayerEntry]) -> Bool {
        var ok = true
        for (e, expected) in value.expressionKinds {
            var refProblem = false
            for ref in e.references where kind(of: ref, layers: layers) == nil {
                refProblem = true
                let message: String
                if let entry = layers[ref.id], let problem = Self.shapeReferenceProblem(ref, entry: entry) {
                    message = problem
                } else if let entry = layers[ref.id], let kp = LayerKeyPath.named[ref.keyPath],
                          kp.layerTypes?.contains(entry.type) ?? true {
                    message = "'\(ref.keyPath)' of '\(ref.id)' is \(Self.phrase(kp.valueKind)): references read numbers and points"
                } else if let entry = layers[ref.id] {
                    let names = Array(LayerKeyPath.named.keys) + Array(entry.propertyNames)
                    message = "'\(ref.keyPath)' is not a number or point property of '\(ref.id)'" + NameSuggestion.hint(for: ref.keyPath, in: names)
                } else {
                    message = behaviorIDs.contains(ref.id)
                        ? "'\(ref.id)' is a behavior: references read layers' properties"
                        : "unknown layer id '\(ref.id)'" + NameSuggestion.hint(for: ref.id, in: Array(layers.keys))
                }
                reportInExpression(message, expression: e, offset: ref.offset, field: field)
            }
            if refProblem { ok = false; continue }
            do {
                let k = try e.resultKind { kind(of: $0, layers: layers) }
                if k != expected {
                    // At the expression's first character.
                    reportInExpression("expected \(expected), but the expression gives \(k)", expression: e,
                                       offset: e.source.prefix { $0.isWhitespace }.count, field: field)
                    ok = false
                }
            } catch {
                reportInExpression(error.message, expression: e, offset: error.offset, field: field)
                ok = false
            }
        }
        return ok
    }

    /// A value kind as a message names it ("a transform", "a list of colors").
    static func phrase(_ kind: AnimatableValue.Kind) -> String {
        switch kind {
        case .colors: "a list of colors"
        case .numbers: "a list of numbers"
        case .bool: "true or false"
        case .image: "an image"
        default: "a \(kind.rawValue)"
        }
    }

    private func kind(of ref: SceneExpression.Reference, layers: [String: LayerEntry]) -> SceneExpression.ValueKind? {
        if let flag = ReferenceKeyPaths.shapeFlag(ref.keyPath) {
            let owner: NamedShape = flag == "broken" ? .stickyBubble : .liquidBridge
            return layers[ref.id]?.namedShape == owner ? .scalar : nil
        }
        if let (name, axis) = ReferenceKeyPaths.shapeParameter(ref.keyPath) {
            switch layers[ref.id]?.namedShape?.parameter(name)?.kind {
            case .number?, .bool?: return axis == nil ? .scalar : nil
            case .point?, .size?: return axis == nil ? .vector : .scalar
            case .rect?, nil: return nil
            }
        }
        guard let entry = layers[ref.id],
              let (kp, axis) = ReferenceKeyPaths.readable(ref.keyPath, of: entry.propertyNames.contains(ref.keyPath)) else {
            return nil
        }
        if let types = kp.layerTypes, !types.contains(entry.type) { return nil }
        // A cell's key reads a cell the emitter has.
        if case .emitterCell(let names, _) = kp, !entry.emitterCellPaths.contains(names) { return nil }
        return kp.valueKind == .number || axis != nil ? .scalar : .vector
    }

    /// Why `ID.path.…` cannot be read, when it names a flag or parameter the layer's path
    /// lacks; nil for other key paths (the general message applies).
    private static func shapeReferenceProblem(_ ref: SceneExpression.Reference, entry: LayerEntry) -> String? {
        guard ref.keyPath.hasPrefix("path.") else { return nil }
        guard let shape = entry.namedShape else {
            return "'\(ref.keyPath)' reads a named shape's parameter or flag, but the path of '\(ref.id)' is not a named shape "
                + "(path: {shape: NAME, …})"
        }
        if let flag = ReferenceKeyPaths.shapeFlag(ref.keyPath) {
            let owner = flag == "broken" ? "stickyBubble" : "liquidBridge"
            return "'\(ref.keyPath)' is a flag of the \(owner) shape; '\(ref.id)' is a \(shape.rawValue) shape"
        }
        let name = ReferenceKeyPaths.shapeParameter(ref.keyPath)?.name ?? String(ref.keyPath.dropFirst(5))
        if let p = shape.parameter(name) {
            if p.kind == .rect { return "'\(ref.keyPath)' is a rect: expressions read number and point parameters" }
            return "'\(ref.keyPath)': '\(name)' is a \(p.kind == .bool ? "number" : p.kind.rawValue); .x and .y "
                + "read a point's components"
        }
        let readable = shape.parameters.filter { $0.kind != .rect }.map(\.name)
        let flags = shape == .stickyBubble ? ["broken"] : shape == .liquidBridge ? ["connected"] : []
        return "'\(name)' is not a parameter of the \(shape.rawValue) shape of '\(ref.id)' (it has: "
            + "\((readable + flags).joined(separator: ", ")))" + NameSuggestion.hint(for: name, in: readable + flags)
    }

    /// Reports at a character of whichever scalar of the field holds the expression.
    private func reportInExpression(_ message: String, expression e: SceneExpression, offset: Int, field: Field) {
        for scalar in Self.scalars(of: field.node) {
            let text = scalar.string
            let lead = text.prefix { $0.isWhitespace }.count
            let body = text.dropFirst(lead)
            if body.hasPrefix("@"), text == e.source || String(body) == e.source.drop(while: { $0.isWhitespace }) {
                Self.report(message, offset: offset + (text.count - e.source.count), in: field, scalar: scalar); return
            }
            if body.hasPrefix("="), String(body.dropFirst()) == e.source {
                Self.report(message, offset: lead + 1 + offset, in: field, scalar: scalar); return
            }
        }
        field.report(message)
    }

    static func scalars(of node: Node) -> [Node.Scalar] {
        switch node {
        case .scalar(let s): [s]
        case .sequence(let seq): seq.flatMap { scalars(of: $0) }
        case .mapping(let m): m.values.flatMap { scalars(of: $0) }
        case .alias: []
        }
    }
}
