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
                guard let entry = layers[ref.id], case .success(let read) = entry.reading(ref.keyPath) else { return [] }
                switch read {
                // A flag follows every parameter of its shape (the "path." prefix matches them all).
                case .flag: return [(entry.address, "path.")]
                case .value(.pathParameter(let name, _), _):
                    // A parameter left out reads the one it defaults to (stickyBubble's toRadius: radius).
                    let fallback = entry.namedShape?.parameter(name)?.defaultParameter
                    return ([name] + (fallback.map { [$0] } ?? [])).map { (entry.address, "path.\($0)") }
                case .value(let kp, _): return [(entry.address, ReferenceKeyPaths.group(kp))]
                }
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
            let problems = e.references.compactMap { ref in problem(reading: ref).map { (ref.offset, $0) } }
            for (offset, message) in problems { field.diagnostics.report(message, at: range.place(at: offset)) }
            guard problems.isEmpty else { ok = false; continue }
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

    /// Why the reference `ref` reads nothing expressions take; nil when it reads a number or point.
    private func problem(reading ref: SceneExpression.Reference) -> String? {
        guard let entry = layers[ref.id] else {
            return behaviorIDs.contains(ref.id) ? "'\(ref.id)' is a behavior: references read layers' properties"
                : "unknown layer id '\(ref.id)'" + NameSuggestion.hint(for: ref.id, in: Array(layers.keys))
        }
        guard case .failure(let problem) = entry.reading(ref.keyPath) else { return nil }
        let (text, id) = (ref.keyPath, ref.id)
        switch problem {
        case .keyPath(.notNamedShape):
            return "'\(text)' reads a named shape's parameter or flag, but the path of '\(id)' is not a named shape "
                + "(path: {shape: NAME, …})"
        case .flag(let owner, let shape):
            return "'\(text)' is a flag of the \(owner.rawValue) shape; '\(id)' is a \(shape.rawValue) shape"
        case .keyPath(.unknownParameter(let name, let shape)):
            let readable = shape.parameters.filter { $0.kind != .rect }.map(\.name)
            let flags = shape == .stickyBubble ? ["broken"] : shape == .liquidBridge ? ["connected"] : []
            return "'\(name)' is not a parameter of the \(shape.rawValue) shape of '\(id)' (it has: "
                + "\((readable + flags).joined(separator: ", ")))" + NameSuggestion.hint(for: name, in: readable + flags)
        case .unreadable(.pathParameter(let name, let kind)):
            if kind == .rect { return "'\(text)' is a rect: expressions read number and point parameters" }
            return "'\(text)': '\(name)' is a \(kind == .bool ? "number" : kind.rawValue); .x and .y read a point's components"
        case .unreadable(let kp) where kp.spec != nil:
            return "'\(text)' of '\(id)' is \(Self.phrase(kp.valueKind)): references read numbers and points"
        case .keyPath, .unreadable:
            let names = Array(LayerKeyPath.named.keys) + Array(entry.propertyNames)
            return "'\(text)' is not a number or point property of '\(id)'" + NameSuggestion.hint(for: text, in: names)
        }
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

    /// The kind a reference gives (a flag or a number: a scalar); nil when it reads nothing.
    private func kind(of ref: SceneExpression.Reference) -> SceneExpression.ValueKind? {
        switch layers[ref.id]?.reading(ref.keyPath) {
        case .success(.flag)?: .scalar
        case .success(.value(let kp, let axis))?: [.number, .bool].contains(kp.valueKind) || axis != nil ? .scalar : .vector
        case .failure?, nil: nil
        }
    }
}

/// What a reference reads on a layer (`LayerEntry.reading`): a named shape's flag, or a
/// key path's value or its `axis` component.
enum ReferenceReading: Equatable { case flag, value(LayerKeyPath, axis: ReferenceKeyPaths.Axis?) }

/// Why a reference reads nothing: its key path names nothing on the layer, it is another
/// named shape's flag, or its value is of a kind expressions do not read (a color, a
/// rect, a number's `.x`).
enum ReferenceProblem: Error, Equatable {
    case keyPath(KeyPathProblem), flag(of: NamedShape, shape: NamedShape), unreadable(LayerKeyPath)
}

extension LayerEntry {
    /// What the reference `ID.text` reads (section 4): the key path `resolve` names when its
    /// value is a number, point or size, or a point's or size's component (`anchorPoint.x`,
    /// `ReferenceKeyPaths.readable`); a named shape's flag (`path.broken`, read as 1 or 0)
    /// or parameter, or a point parameter's component (`path.center.x`).
    func reading(_ text: String) -> Result<ReferenceReading, ReferenceProblem> {
        if let flag = ReferenceKeyPaths.shapeFlag(text) {
            let owner: NamedShape = flag == "broken" ? .stickyBubble : .liquidBridge
            guard let shape = namedShape else { return .failure(.keyPath(.notNamedShape)) }
            return shape == owner ? .success(.flag) : .failure(.flag(of: owner, shape: shape))
        }
        if let (name, axis) = ReferenceKeyPaths.shapeParameter(text) {
            return shapeParameter(name).mapError(ReferenceProblem.keyPath).flatMap { kp in
                [.point, .size].contains(kp.valueKind) || axis == nil && kp.valueKind != .rect
                    ? .success(.value(kp, axis: axis)) : .failure(.unreadable(kp))
            }
        }
        let whole = resolve(text).mapError(ReferenceProblem.keyPath)
        // Any other `path.…` is a custom property (read whole) or names no parameter.
        if text.hasPrefix("path.") { return whole.map { .value($0, axis: nil) } }
        if let (kp, axis) = ReferenceKeyPaths.readable(text, resolving: { try? resolve($0).get() }) {
            return .success(.value(kp, axis: axis))
        }
        return whole.flatMap { .failure(.unreadable($0)) }
    }
}
