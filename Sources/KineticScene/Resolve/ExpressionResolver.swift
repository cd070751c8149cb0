import KineticExpressions
import KineticGeometry
import KineticLayers

/// The resolve pass of expression values (issue 13): once every layer is read, each
/// reference is checked against the layer it names (a property it has, of a kind
/// expressions read), each expression against the kind its value must give, and the
/// bindings are put in dependency order, each after those it reads. Problems are
/// reported at the expression's character, or at its value.
struct ExpressionResolver {
    /// The file's layers by id.
    let layers: [String: LayerEntry]
    /// The scene's behavior ids, for the message of a reference that names one.
    let behaviorIDs: Set<String>

    /// Checks every reference against the layers and every result kind, then orders
    /// `pending`'s bindings so each runs after the ones it reads; reports cycles by name.
    /// `deferred` values are checked, not ordered: they read what is already computed.
    func resolve(_ pending: [(binding: ExpressionBinding, field: Field)],
                 deferred: [(value: ExpressionBinding.BoundValue, field: Field)]) -> [ExpressionBinding] {
        for (value, field) in deferred { _ = check(value, field: field) }
        let valid = pending.indices.filter { check(pending[$0].binding.value, field: pending[$0].field) }
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
    private func check(_ value: ExpressionBinding.BoundValue, field: Field) -> Bool {
        var ok = true
        for (e, expected, range) in value.expressionKinds {
            let unreadable = e.references.filter { kind(of: $0) == nil }
            for ref in unreadable { field.diagnostics.report(problem(reading: ref), at: range.place(at: ref.offset)) }
            guard unreadable.isEmpty else { ok = false; continue }
            do {
                let k = try e.resultKind { kind(of: $0) }
                guard k != expected else { continue }
                // At the expression's first character.
                field.diagnostics.report("expected \(expected), but the expression gives \(k)",
                                         at: range.place(at: e.source.prefix { $0.isWhitespace }.count))
            } catch {
                field.diagnostics.report(error.message, at: range.place(at: error.offset))
            }
            ok = false
        }
        return ok
    }

    /// Why the reference `ref` reads nothing expressions take.
    private func problem(reading ref: SceneExpression.Reference) -> String {
        guard let entry = layers[ref.id] else {
            return behaviorIDs.contains(ref.id) ? "'\(ref.id)' is a behavior: references read layers' properties"
                : "unknown layer id '\(ref.id)'" + NameSuggestion.hint(for: ref.id, in: Array(layers.keys))
        }
        if let problem = Self.shapeReferenceProblem(ref, entry: entry) { return problem }
        if let kp = LayerKeyPath.named[ref.keyPath], kp.layerTypes?.contains(entry.type) ?? true {
            return "'\(ref.keyPath)' of '\(ref.id)' is \(Self.phrase(kp.valueKind)): references read numbers and points"
        }
        let names = Array(LayerKeyPath.named.keys) + Array(entry.propertyNames)
        return "'\(ref.keyPath)' is not a number or point property of '\(ref.id)'" + NameSuggestion.hint(for: ref.keyPath, in: names)
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

    private func kind(of ref: SceneExpression.Reference) -> SceneExpression.ValueKind? {
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
}
