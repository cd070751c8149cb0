import KineticGeometry
import KineticLayers

/// Where a shape layer's own `path` binds its live values (`Field.path(in:live:)`, `namedShapeState`): recorded by
/// `binder`, to the layer at `layer`, labelled `label` (`shape.path`).
struct LivePath {
    var binder: ExpressionBinder
    var layer: LayerAddress, label: String
}

extension Field {
    /// The most segments a path may have, its curves counted as the chords that flatten
    /// them to within 0.25 pt: stroking self-intersecting paths and colliding with boundary
    /// segments take super-linear time (300,000 random lines stroked for minutes, 10,000
    /// random cubics for 73 s and, as a boundary, past 120 s and 1.4 GB).
    static let maxPathElements = 10_000

    /// A path value of section 3.1 where no box is known: an SVG file's at its own size.
    var path: BezierPath? { path(in: nil) }

    /// The one reader of a path value (section 3.1): SVG path data, a primitive, a
    /// `{cubic: [p0, c1, c2, p1]}`, a named shape (built once, from constant parameters: see
    /// `namedShapeState`) or an SVG file's shapes with their viewBox mapped into `box` (the
    /// bounds of the layer the path is drawn in; nil or empty: the file's own size), within
    /// the limits (`limited`). Constant expressions in its numbers are evaluated now. Live
    /// ones are bound by `live` when given (a shape layer's own `path`, rebuilt every
    /// frame: nil is returned) and reported elsewhere.
    func path(in box: Rect?, live: LivePath? = nil) -> BezierPath? {
        switch node {
        case .scalar(let s):
            let text = s.string
            if s.expression != nil {
                report("not yet supported: a path from an expression (section 4 covers numbers and points: write "
                       + "a primitive, a {cubic: …} or a named shape with expressions in its numbers)")
                return nil
            }
            // `path: icon.svg` reads as path data that starts with an unknown command.
            if text.lowercased().hasSuffix(".svg"), !text.contains(where: \.isWhitespace) {
                report("'\(text)' is a file name, not path data: an SVG file's shapes are written {svg: \(text)}")
                return nil
            }
            do {
                return limited(try SVGPathData.parse(text))
            } catch {
                // At the offending character when the path is on one line.
                let message = "path syntax error at character \(error.offset + 1): \(error.message)"
                diagnostics.report(message, offset: error.offset, in: s, keyPath: keyPath)
                return nil
            }
        case .mapping(let m) where m["shape"] != nil:
            // `shadowPath`, a boundary's or keyframe animation's `path`, an emitter cell's
            // contents, a `path` animation value: the shape as it is at load.
            guard let state = namedShapeState() else { return nil }
            return (try? state.shape.geometry(parameters: state.parameters).path).flatMap(limited)
        case .mapping(let m) where m["svg"] != nil:
            return svgImport(in: box).flatMap { limited($0.path) }
        case .mapping(let m):
            // A cubic with any expression is bound, a primitive with a live one: as existing
            // scenes' bindings (and their random() salts) were recorded.
            let isCubic = m["cubic"] != nil
            let isLive = live != nil && (isCubic ? ExpressionText.containsExpression(self, readsMapping: true)
                                                 : ExpressionText.liveness(of: self) != nil)
            let f = reading(isLive ? .live : .constants(because: "a path here is read once, when the scene loads: "
                                                       + "only a shape layer's own `path` follows live values"))
            guard let value = isCubic ? f.cubic() : f.pathPrimitive().map({ .rebuilt(.path($0)) }) else { return nil }
            if let live, isLive {
                live.binder.bind(value, keyPath: .path, field: self, layer: live.layer, label: live.label)
                return nil
            }
            // Every number is a literal now: the path as a binding would build it.
            guard case .path(let p)? = value.evaluate(.atLoad) else { report(Self.coordinateLimit); return nil }
            return limited(p)
        default:
            report("expected SVG path data or a path primitive, found \(kindName)")
            return nil
        }
    }

    /// `{cubic: [p0, c1, c2, p1]}`, its points read by the field's policy.
    private func cubic() -> ExpressionBinding.BoundValue? {
        guard let cf = mapping(allowed: ["cubic"])?["cubic"], let items = cf.elements else { return nil }
        guard items.count == 4 else {
            cf.report("a cubic takes 4 points [p0, c1, c2, p1], found \(items.count)")
            return nil
        }
        return items.readingAll { $0.pointTerm() }.map { .cubic($0) }
    }

    private static let coordinateLimit = "a path's coordinates must be within ±10000000"

    /// `path` if it is within the limits on coordinates and segments, else nil (reported).
    func limited(_ path: BezierPath) -> BezierPath? {
        // Coordinates far past any canvas make arc-length measurement (motion paths)
        // recurse to its depth limit everywhere: 1e300 took a minute to validate.
        guard path.elements.allSatisfy({ $0.points.allSatisfy { abs($0.x) <= 1e7 && abs($0.y) <= 1e7 } }) else {
            report(Self.coordinateLimit)
            return nil
        }
        // Elements first: counting chords walks them.
        let segments = path.elements.count > Self.maxPathElements ? path.elements.count
            : path.flattenedPointCount(tolerance: 0.25)
        guard segments <= Self.maxPathElements else {
            report("the path has \(segments) segments (curves counted as chords within 0.25 pt), over the limit of \(Self.maxPathElements)")
            return nil
        }
        return path
    }

    /// The path primitives' keys (section 3.1): a mapping gives one.
    static let primitiveKinds = ["rect", "roundedRect", "oval", "arc", "polyline", "star"]

    /// How each primitive is written (section 3.1), for messages.
    private static let primitiveForms = [
        "rect": "{rect: [x, y, w, h]}", "roundedRect": "{roundedRect: [x, y, w, h], cornerRadius: r}",
        "oval": "{oval: [x, y, w, h]}", "arc": "{arc: {center, radius, startAngle, endAngle, clockwise}}",
        "polyline": "{polyline: [[x, y], …], closed: false}", "star": "{star: {center, points, outerRadius, innerRadius}}",
    ]

    /// `{shape: NAME, …parameters}` (section 3.1) read into the shape's state: the name
    /// (with a suggestion), the parameter keys, each value by its parameter's kind, every
    /// required parameter (all missing ones reported), and — when no parameter is live —
    /// the values the shape accepts (`NamedShape.geometry`'s check, reported on the
    /// mapping). A parameter whose value was reported is not also reported missing.
    ///
    /// A parameter written as an expression or a reference is bound by `live` when given
    /// (a shape layer's own `path`, rebuilt every frame: `path.PARAM` of its layer); the
    /// state holds a placeholder until the binding first runs. Without
    /// `live` the shape is built once, when the scene loads: an expression that is constant
    /// (no `t`, `frame`, `random()` or reference) is evaluated now, and any other is reported.
    ///
    /// - Returns: nil when anything was reported.
    func namedShapeState(live: LivePath? = nil) -> NamedShapeState? {
        guard let nameField = peek("shape") else {
            report("expected a named shape {shape: NAME, …parameters}, found \(kindName)")
            return nil
        }
        guard let name = nameField.string else { return nil }
        guard let shape = NamedShape(rawValue: name) else {
            let names = NamedShape.allCases.map(\.rawValue)
            // `{shape: star}`: a primitive written as a named shape.
            let hint = Self.primitiveForms[name].map { " (\(name) is a path primitive: \($0))" }
                ?? NameSuggestion.hint(for: name, in: names)
            nameField.report("unknown shape '\(name)'" + hint + "; shapes: \(names.joined(separator: ", "))")
            return nil
        }
        guard let m = mapping(allowed: ["shape"] + shape.parameters.map(\.name)) else { return nil }
        var state = NamedShapeState(shape: shape, parameters: [:])
        var isLive = false, failed = false
        for p in shape.parameters {
            guard let pf = m[p.name] else {
                if p.isRequired { report("the \(name) shape needs '\(p.name)'"); failed = true }
                continue
            }
            let kind = state.kind(of: p.name) ?? .number
            // Read once at load: a number, point, size or rect with constant expressions evaluated now.
            func read(_ f: Field) -> AnimatableValue? {
                let readable = [.number, .point, .size, .rect].contains(kind)
                guard readable || kind == .bool && !ExpressionText.containsExpression(f) else {
                    f.report("not yet supported: an expression for '\(p.name)' (section 4 covers number and point keys)")
                    return nil
                }
                let reason = "a named shape here is built once, when the scene loads: only a shape layer's own `path` "
                    + "follows live values, so use a constant here"
                return f.reading(.constants(because: reason)).value(kind)
            }
            // Every expression is bound, a constant one too: a placeholder until the binding runs on the first frame.
            let value = live.map { l in
                l.binder.take(pf, to: LiveTarget(layer: l.layer, key: p.name, label: l.label,
                                                 keyPath: .pathParameter(p.name, kind: kind), bindsConstants: true),
                              placeholder: Self.placeholders[kind] ?? .number(1), read: read)
            } ?? read(pf)
            isLive = isLive || live != nil && ExpressionText.containsExpression(pf)
            if let value { state.parameters[p.name] = value } else { failed = true }
        }
        guard !failed else { return nil }
        // Values the shape rejects are reported now (live ones are checked as they run).
        if !isLive {
            do { _ = try shape.geometry(parameters: state.parameters) } catch {
                report("\(error)")
                return nil
            }
        }
        return state
    }

    /// What stands for a live parameter of each kind (a number: 1) until its binding runs.
    private static let placeholders: [AnimatableValue.Kind: AnimatableValue] = [
        .size: .size(.zero), .point: .point(.zero), .bool: .bool(false), .rect: .rect(Rect(0, 0, 0, 0)),
    ]

    /// A path primitive (section 3.1), its numbers read as terms by the field's policy:
    /// literals and constant expressions where a path is read once, live expressions too
    /// for a shape layer's own `path` (`ExpressionBinder`).
    func pathPrimitive() -> ExpressionBinding.PathPrimitive? {
        let length = ValueRange.nonNegative("a length")
        guard let m = mapping(allowed: SceneKeys.pathPrimitive.map(\.name))?.checked("pathPrimitive") else { return nil }
        // Several primitives, or a companion key beside another, are reported by their rules.
        let written = Self.primitiveKinds.filter { m[$0] != nil }
        guard written.count == 1, let kind = written.first, let f = m[kind] else {
            if written.isEmpty { report("a path primitive needs one of \(Self.primitiveKinds.joined(separator: ", "))") }
            return nil
        }
        switch kind {
        case "rect": return f.rectTerms().map { .rect($0) }
        case "oval": return f.rectTerms().map { .oval($0) }
        case "roundedRect":
            let r = f.rectTerms(), radius = m["cornerRadius"].map { $0.term(in: length) } ?? .literal(0)
            guard let r, let radius else { return nil }
            return .roundedRect(r, cornerRadius: radius)
        case "arc":
            guard let a = f.mapping(allowed: SceneKeys.arc.map(\.name)) else { return nil }
            let center = a.required("center")?.pointTerm()
            let radius = a.required("radius")?.term(in: length)
            let start = a.required("startAngle")?.term(angle: true), end = a.required("endAngle")?.term(angle: true)
            let clockwise = a["clockwise"].map { $0.bool } ?? true
            guard let center, let radius, let start, let end, let clockwise else { return nil }
            return .arc(center: center, radius: radius, startAngle: start, endAngle: end, clockwise: clockwise)
        case "polyline":
            guard let points = f.elements?.readingAll({ $0.pointTerm() }) else { return nil }
            guard points.count >= 2 else { f.report("a polyline needs at least 2 points"); return nil }
            guard points.count <= Self.maxPathElements else {
                f.report("the polyline has \(points.count) points, over the limit of \(Self.maxPathElements)")
                return nil
            }
            guard let closed = m["closed"].map({ $0.bool }) ?? false else { return nil }
            return .polyline(points, closed: closed)
        default:  // star
            guard let s = f.mapping(allowed: SceneKeys.star.map(\.name)) else { return nil }
            let center = s.required("center")?.pointTerm(), count = s.required("points")?.term()
            let outer = s.required("outerRadius")?.term(in: length)
            let inner = s.required("innerRadius")?.term(in: length)
            guard let center, let count, let outer, let inner else { return nil }
            // A written count is checked now; a computed one gives no path when it is not one.
            if case .literal(let v) = count, ExpressionBinding.PathPrimitive.starPoints(v) == nil {
                s["points"]?.report("a star has 2 to 1000 points, a whole number, found \(Field.format(v))")
                return nil
            }
            return .star(center: center, points: count, outerRadius: outer, innerRadius: inner)
        }
    }
}
