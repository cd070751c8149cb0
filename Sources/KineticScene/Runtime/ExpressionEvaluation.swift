import KineticExpressions
import KineticGeometry
import KineticLayers

/// Applies the scene's expression bindings to a presentation tree.
struct ExpressionEvaluation {
    let bindings: [ExpressionBinding]
    let layerIDs: [String: LayerAddress]
    let seed: UInt64

    /// Evaluates every binding (already in dependency order) and writes the results. A
    /// value that is not finite (a division by zero, a live `perspective` not above 0)
    /// leaves its property as it was, as for behavior properties; the rest still run.
    func apply(to layers: inout [Layer], time: Double, frame: Int) {
        for binding in bindings {
            guard let value = evaluate(binding, reading: layers, time: time, frame: frame) else { continue }
            layers.modify(at: binding.layer) { $0.setValue(value, at: binding.keyPath) }
        }
    }

    /// One binding's value. Its own function so the context (which holds `layers`) is gone
    /// before the caller changes them: otherwise each change copies the whole tree, and
    /// 20,000 chained bindings take quadratic time.
    private func evaluate(_ binding: ExpressionBinding, reading layers: [Layer], time: Double, frame: Int) -> AnimatableValue? {
        let context = Self.context(reading: layers, ids: layerIDs, time: time, frame: frame, seed: seed,
                                   seedSalt: binding.seedSalt)
        return binding.value.evaluate(context)?.converted(to: binding.keyPath.valueKind)
    }

    /// Applies the bindings an emitter's own values need (see `bindings(feeding:in:)`) to
    /// `layers` at `time`, for a particle step: `frame` is the frame the step falls in at
    /// the scene's fps.
    static func applyFeeding(_ bindings: [ExpressionBinding], of scene: Scene, to layers: inout [Layer], time: Double) {
        guard !bindings.isEmpty else { return }
        ExpressionEvaluation(bindings: bindings, layerIDs: scene.layerIDs, seed: scene.settings.seed)
            .apply(to: &layers, time: time, frame: AnimationSpec.frameIndex(at: time, fps: scene.settings.fps))
    }

    /// The bindings an emitter's values (`emitterPosition`, `birthRate`, cell keys…) need at
    /// every particle step: `bindings` (in dependency order) up to the last one driving one
    /// of them, since any before it may feed it; empty when none drives the emitter.
    static func bindings(feeding emitter: LayerAddress, in bindings: [ExpressionBinding]) -> [ExpressionBinding] {
        guard let last = bindings.lastIndex(where: { $0.layer == emitter && $0.keyPath.layerTypes == [.emitter] }) else {
            return []
        }
        return Array(bindings[...last])
    }

    /// What an expression sees: `t`, `frame`, the seed of its `random()`, and references
    /// resolved against `layers` (a presentation tree, copied as it is now).
    static func context(reading layers: [Layer], ids: [String: LayerAddress], time: Double, frame: Int,
                        seed: UInt64, seedSalt: UInt64) -> SceneExpression.EvaluationContext {
        SceneExpression.EvaluationContext(time: time, frame: frame, seed: seed, expressionID: seedSalt) { ref in
            resolve(ref, in: layers, ids: ids)
        }
    }

    /// The presentation value a reference reads.
    static func resolve(_ ref: SceneExpression.Reference, in layers: [Layer], ids: [String: LayerAddress]) -> SceneExpression.Value {
        if let flag = ReferenceKeyPaths.shapeFlag(ref.keyPath) {
            // Computed from the parameters as they are now (bindings feeding them ran first).
            guard let address = ids[ref.id], let state = layers[address]?.shape?.namedShape,
                  let geometry = try? state.shape.geometry(parameters: state.parameters) else { return .scalar(.nan) }
            return .scalar(geometry.flags[flag] == true ? 1 : 0)
        }
        if let (name, axis) = ReferenceKeyPaths.shapeParameter(ref.keyPath) {
            // The parameter as animations and the bindings feeding it left it, or its default.
            guard let address = ids[ref.id], let state = layers[address]?.shape?.namedShape,
                  let value = state.value(of: name).flatMap(expressionValue) else { return .scalar(.nan) }
            guard let axis else { return value }
            guard let p = value.vector else { return .scalar(.nan) }
            return .scalar(axis == .x ? p.x : p.y)
        }
        guard let address = ids[ref.id], let layer = layers[address],
              let (keyPath, axis) = ReferenceKeyPaths.readable(ref.keyPath, resolving: { text in
                  layer.properties.keys.contains(text) ? .property(text) : LayerKeyPath.parsing(text)
              }),
              let value = layer.value(at: keyPath).flatMap(expressionValue) else { return .scalar(.nan) }
        guard let axis else { return value }
        guard let p = value.vector else { return .scalar(.nan) }
        return .scalar(axis == .x ? p.x : p.y)
    }

    /// A presentation value as expressions see it: numbers (and bools, as 1 or 0) as
    /// numbers; points, sizes and pairs of numbers as points; nil for any other kind.
    static func expressionValue(_ v: AnimatableValue) -> SceneExpression.Value? {
        switch v {
        case .number(let n): .scalar(n)
        case .bool(let b): .scalar(b ? 1 : 0)
        case .point(let p): .vector(p)
        case .size(let s): .vector(Point(s.width, s.height))
        case .numbers(let n) where n.count == 2: .vector(Point(n[0], n[1]))
        default: nil
        }
    }
}

extension ExpressionValue {
    /// The value at `time` (`frame` the frame it falls in), its references reading
    /// `layers`; nil when it is not finite.
    func evaluate(reading layers: [Layer], ids: [String: LayerAddress], time: Double, frame: Int,
                  seed: UInt64) -> AnimatableValue? {
        value.evaluate(ExpressionEvaluation.context(reading: layers, ids: ids, time: time, frame: frame, seed: seed,
                                                    seedSalt: seedSalt))
    }
}

extension ExpressionBinding.BoundValue {
    /// The value in `context`: a number, a point, a live cubic's path or a transform; nil
    /// when it is not finite.
    func evaluate(_ context: SceneExpression.EvaluationContext) -> AnimatableValue? {
        func number(_ t: ExpressionBinding.Term) -> Double {
            switch t {
            case .literal(let v): v
            case .expression(let e, _): e.evaluate(context).scalar ?? .nan
            }
        }
        func point(_ p: ExpressionBinding.PointSource) -> Point {
            switch p {
            case .vector(let e, _): e.evaluate(context).vector ?? Point(.nan, .nan)
            case .components(let x, let y): Point(number(x), number(y))
            }
        }
        let result: AnimatableValue
        switch self {
        case .scalar(let t):
            result = .number(number(t))
        case .point(let p):
            result = .point(point(p))
        case .cubic(let sources):
            let p = sources.map(point)
            guard p.count == 4 else { return nil }
            var path = BezierPath()
            path.move(to: p[0])
            path.addCurve(to: p[3], control1: p[1], control2: p[2])
            result = .path(path)
        case .transform(.matrix(let entries)):
            guard let t = Transform3D(fields: entries.map(number)) else { return nil }
            result = .transform(t)
        case .transform(.components(let w)):
            result = .transform(w.components(number: number, point: point).composed)
        case .rebuilt(let recipe):
            switch recipe {
            case .rect(let r):
                // A negative size, which the static reader rejects, gives no value.
                guard let rect = r.rect(number: number) else { return nil }
                result = .rect(rect)
            case .framePosition(let r, let anchor):
                guard let f = r.rect(number: number) else { return nil }
                result = .point(Point(f.origin.x + anchor.x * f.width, f.origin.y + anchor.y * f.height))
            case .numbers(let terms):
                result = .numbers(terms.map(number))
            case .path(let primitive):
                result = .path(primitive.path(number: number, point: point))
            }
        }
        return result.isFiniteValue ? result : nil
    }
}

extension AnimatableValue {
    /// A point as a size when `kind` is a size (`bounds.size`, `shadowOffset`): expressions
    /// give points.
    func converted(to kind: AnimatableValue.Kind) -> AnimatableValue {
        if kind == .size, case .point(let p) = self { return .size(Size(p.x, p.y)) }
        return self
    }
}

/// Which key paths a reference may read.
enum ReferenceKeyPaths {
    /// What a reference reads of the key paths `keyPath` names: one whose value is a
    /// number, point or size — a named one, a custom property, an emitter cell's key
    /// (`emitterCells.NAME.KEY`) — else the component it takes of a point or size
    /// (`anchorPoint.x`, `emitterSize.height`).
    static func readable(_ text: String, resolving keyPath: (String) -> LayerKeyPath?) -> (keyPath: LayerKeyPath, axis: Axis?)? {
        func numberOrPoint(_ text: String) -> LayerKeyPath? {
            guard let kp = keyPath(text) else { return nil }
            return [.number, .point, .size].contains(kp.valueKind) ? kp : nil
        }
        if let kp = numberOrPoint(text) { return (kp, nil) }
        // A point's x and y, a size's width and height.
        let components: [(suffix: String, axis: Axis, kind: AnimatableValue.Kind)] = [
            (".x", .x, .point), (".y", .y, .point), (".width", .x, .size), (".height", .y, .size),
        ]
        for c in components where text.hasSuffix(c.suffix) {
            if let kp = numberOrPoint(String(text.dropLast(c.suffix.count))), kp.valueKind == c.kind { return (kp, c.axis) }
        }
        return nil
    }

    /// `path.broken` (stickyBubble) and `path.connected` (liquidBridge): a named shape's
    /// flag, read as 1 or 0. Returns the flag's name.
    static func shapeFlag(_ text: String) -> String? {
        text == "path.broken" ? "broken" : text == "path.connected" ? "connected" : nil
    }

    /// `path.PARAM` other than the flags: a named shape's parameter (`gc.path.progress`),
    /// read as a number or a point; `path.PARAM.x` and `.y` are a point parameter's
    /// components. Returns the parameter's name and the axis, if any; whether the layer's
    /// shape has such a parameter is checked at load.
    static func shapeParameter(_ text: String) -> (name: String, axis: Axis?)? {
        guard text.hasPrefix("path."), shapeFlag(text) == nil else { return nil }
        let parts = text.dropFirst(5).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, !name.isEmpty else { return nil }
        switch parts.count {
        case 1: return (name, nil)
        case 2 where parts[1] == "x": return (name, .x)
        case 2 where parts[1] == "y": return (name, .y)
        default: return nil
        }
    }

    /// A point parameter's component.
    enum Axis { case x, y }

    /// The part of a layer's state a key path reads or writes, for dependencies. A part
    /// overlaps those it is a dotted prefix of (`position` holds `position.x` and
    /// `position.y`, which do not overlap each other; see `overlap`); each parameter of a
    /// named shape is its own (`path.progress`), and the flags read them all (`path.`).
    static func group(_ keyPath: LayerKeyPath) -> String {
        switch keyPath {
        case .pathParameter(let name, _): "path.\(name)"
        case .position: "position"
        case .positionX: "position.x"
        case .positionY: "position.y"
        case .bounds: "bounds"
        case .boundsSize: "bounds.size"
        case .boundsWidth: "bounds.size.width"
        case .boundsHeight: "bounds.size.height"
        case .transform, .transformRotationX, .transformRotationY, .transformRotationZ, .transformScale,
             .transformScaleX, .transformScaleY, .transformTranslationX, .transformTranslationY, .transformTranslationZ:
            "transform"
        case .property(let name): "properties.\(name)"
        default: "\(keyPath)"
        }
    }

    /// Whether two parts (`group`) share state: equal, one holding the other, or the
    /// flags (`path.`) and a parameter.
    static func overlap(_ a: String, _ b: String) -> Bool {
        a == b || a.hasPrefix(b + ".") || b.hasPrefix(a + ".") || (a == "path." && b.hasPrefix("path."))
            || (b == "path." && a.hasPrefix("path."))
    }
}

private extension AnimatableValue {
    var isFiniteValue: Bool {
        switch self {
        case .number(let v): v.isFinite
        case .point(let p): p.isFinite
        case .path(let p): p.isFinite
        case .transform(let t): t.isFinite
        case .rect(let r): [r.origin.x, r.origin.y, r.width, r.height].allSatisfy(\.isFinite)
        case .numbers(let v): v.allSatisfy(\.isFinite)
        default: true
        }
    }
}
