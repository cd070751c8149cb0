import KineticExpressions
import KineticGeometry
import KineticLayers

/// The resolve pass of expression values (parsed by the parse pass, `SceneNode`): turns
/// them into bindings of layer keys while the layers are read (constants are evaluated as
/// the readers meet them: `resolve`), and the rest into values evaluated later
/// (animation values, behavior properties); then checks every reference and orders the
/// bindings by dependency. A class because every reader of the file records into it, as
/// into `Diagnostics`.
final class ExpressionBinder {
    private var pending: [(binding: ExpressionBinding, field: Field)] = []
    /// Values evaluated once or every step: checked like bindings, but not ordered — they
    /// read presentation values already computed (the frame or step before they take
    /// effect), so they can form no cycle.
    private var deferred: [(value: ExpressionBinding.BoundValue, field: Field)] = []

    /// The one reader of a value of `kind` that the runtime evaluates where it takes effect (when an
    /// animation begins, when an event's `set:` runs, at every step of a behavior): `read` reads it by its
    /// kind when it holds no expression (a transform's are in its components), else it is kept for the
    /// runtime, salted in reading order. Nil when the kind takes no expressions (colors, booleans, paths…)
    /// or the value does not read (reported).
    func deferredTerm<T>(_ f: Field, kind: AnimatableValue.Kind, read: (Field) -> T?) -> Term<T>? {
        guard ExpressionText.containsExpression(f, readsMapping: kind == .transform) else { return read(f).map { .literal($0) } }
        guard [.number, .point, .size, .transform].contains(kind) else {
            f.report("not yet supported: expressions in \(kind.rawValue) values (section 4 covers numbers and points)")
            return nil
        }
        guard let value = f.reading(.live).bound(kind) else { return nil }
        // Apart from the bindings' salts (1, 2, …), which existing scenes' random() keeps.
        let salt = UInt64(1) << 32 + UInt64(deferred.count + 1)
        deferred.append((value, f))
        return .expression(ExpressionValue(value: value, seedSalt: salt, place: f.place))
    }

    /// Records the binding of `key` on the layer at `layer` (its problems, if any, reported).
    func bind(_ f: Field, key: String, keyPath: LayerKeyPath, layer: LayerAddress, label: String) {
        // A four-number `bounds` is a rect; a two-number one drives `bounds.size` (`keyPath`).
        let path = key == "bounds" && f.node.sequence?.count == 4 ? .bounds : keyPath
        guard [.number, .point, .size, .numbers].contains(path.valueKind) || path == .bounds else {
            f.report("not yet supported: an expression for '\(key)' (section 4 covers number and point keys)")
            return
        }
        guard let value = f.reading(.live).bound(path.valueKind) else { return }
        bind(value, keyPath: path, field: f, layer: layer, label: "\(label).\(key)")
    }

    /// Records the bindings of a `frame: [x, y, w, h]` written with expressions: the
    /// position it gives with the layer's anchor point (as written: a frame is converted
    /// with the anchor point of the moment, as CALayer converts it) and the bounds' size.
    func bindFrame(_ f: Field, anchor: Point, layer: LayerAddress, label: String) {
        guard let r = f.reading(.live).rectTerms() else { return }
        bind(.rebuilt(.framePosition(r, anchor: anchor)), keyPath: .position, field: f, layer: layer,
             label: "\(label).position")
        bind(.point(.components(r.width, r.height)), keyPath: .boundsSize, field: f, layer: layer,
             label: "\(label).bounds")
    }

    /// Records the binding of `keyPath` to a value already read by its terms (a transform,
    /// whole or one live component), named `label` in messages.
    func bind(_ value: ExpressionBinding.BoundValue, keyPath: LayerKeyPath, field f: Field, layer: LayerAddress, label: String) {
        // Salts 1, 2, … in the order the bindings are recorded, which existing scenes' random() keeps.
        let salt = UInt64(pending.count + 1)
        let binding = ExpressionBinding(layer: layer, keyPath: keyPath, value: value, label: label, seedSalt: salt)
        pending.append((binding, f))
    }

    /// The one reader of a value that may hold expressions: `read` reads `f` by its kind
    /// (`Field.value`, `Field.integer`, …), `f` carrying what its expressions may be
    /// (`Field.expressions`). Literals only where there is no `target` (a mask's sublayer, an
    /// event's `set:`, a key the table gives no expressions) or no expression: one is then
    /// reported as not supported. Constant ones are evaluated as `read` meets them
    /// (`resolve`) and checked as if written. A live one is bound as `target` says — live components with
    /// key paths bound alone (`LiveTarget.liveComponents`), the identity's value read in their place — or
    /// reported where the key has no path: `placeholder` when bound, else nil.
    func take<T>(_ f: Field, to target: LiveTarget?, placeholder: T? = nil, read: (Field) -> T?) -> T? {
        guard let target, ExpressionText.containsExpression(f, readsMapping: target.readsMapping)
        else { return read(f.reading(.literals)) }
        let live = ExpressionText.liveness(of: f)
        guard live != nil || target.bindsConstants else {
            return read(f.reading(.constants(because: "this expression is constant")))
        }
        if live != nil, let parts = target.liveComponents(of: f) {
            // The value as written, the identity's value standing for each component until its binding runs. A
            // transform that does not read binds none; a list's component (a point's) is bound whatever the rest reads.
            let value = read(f.reading(.identity(0)))
            for (field, c) in parts where value != nil || c.key == nil {
                bind(field, key: c.keyPath.description, keyPath: c.keyPath, layer: target.layer, label: target.label)
            }
            return value
        }
        if let bind = target.bind {
            bind(self, f)
            return placeholder
        }
        f.report("not yet supported: a live expression for '\(target.key)' (it \(live ?? "")): \(target.unbindable); "
                 + "constant expressions (no t, frame, random() or reference) are evaluated when the scene loads")
        return nil
    }

    /// The one application of a value's policy (`Field.expressions`) to one of its expressions, `s`, to be read
    /// as a `kind`: kept for the runtime (`kept`), or evaluated now (`value`) — a constant one where the policy
    /// evaluates constants, any one where it takes constants only (a live one is reported with its reason). Nil
    /// when reported: a syntax or kind error, a value that changes, a result that is not finite.
    static func resolve<T>(_ f: Field, _ s: SceneNode.Scalar, as kind: SceneExpression.ValueKind,
                           kept: (SceneExpression, SourceRange) -> T, value: (SceneExpression.Value) -> T?) -> T? {
        guard let e = ExpressionText.parse(f, s) else { return nil }
        switch (f.expressions, ExpressionText.liveness(e)) {
        case (.live, _), (.bindable, _?):
            // Placed at the character its offsets count from (`ExpressionText.start`).
            var range = f.diagnostics.range(of: s, keyPath: f.keyPath)
            range.start = range.place(at: ExpressionText.start(in: s))
            return kept(e, range)
        case (.constants(let reason), let live?):
            // The value's key, a list item's the list's (`center` for `center[0]`).
            let name = f.keyPath.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? ""
            f.report("'\(name)' \(live), but \(reason)")
            return nil
        default: break
        }
        do {
            _ = try e.resultKind { _ in nil }
        } catch {
            ExpressionText.report(error, in: f, scalar: s)
            return nil
        }
        let v = e.evaluate(.atLoad)
        guard v.isFinite else { f.report("the expression's value is not finite"); return nil }
        guard v.kind == kind else { f.report("expected \(kind), but the expression gives \(v.kind)"); return nil }
        return value(v)
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

    /// The resolve pass over what was recorded: every reference checked against the
    /// layers, every result kind, the bindings in dependency order (`ExpressionResolver`).
    func finish(layers: [String: LayerEntry], behaviorIDs: Set<String> = []) -> [ExpressionBinding] {
        ExpressionResolver(layers: layers, behaviorIDs: behaviorIDs).resolve(pending, deferred: deferred)
    }
}

/// What becomes of the expressions (section 4) of a value being read: decided once for the
/// value by whoever reads it (`Field.reading`: `ExpressionBinder.take`, a path, a binding),
/// applied to each expression as the value's readers meet it (`ExpressionBinder.resolve`).
enum ExpressionPolicy: Equatable {
    /// Literals only: an expression is reported as not yet supported there.
    case literals
    /// Literals, and expressions that are constant (no `t`, `frame`, `random()` or
    /// reference), evaluated now; a live one is reported with `because`.
    case constants(because: String)
    /// Literals, and expressions kept for the runtime (a binding, a deferred value).
    case live
    /// Literals, constant expressions evaluated now and live ones kept: a layer's own
    /// value, whose live terms are bound and the rest read as written.
    case bindable
    /// Literals, constant expressions evaluated now, and live ones read as `identity` (a scale's as 1): the
    /// live components bound alone (`ExpressionBinder.take`), until their bindings run.
    case identity(Double)
}

extension SceneExpression.EvaluationContext {
    /// Where a constant expression, or a value of literals, is evaluated at load: it reads
    /// no time, frame, random() or reference.
    static var atLoad: Self { Self(time: 0, frame: 0, seed: 0, expressionID: 0) { _ in .scalar(.nan) } }
}
