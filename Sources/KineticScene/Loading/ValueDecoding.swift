import Foundation
import KineticExpressions
import KineticGeometry
import KineticLayers

/// Typed reading of the scalar and small-list values of section 1. Every function
/// reports what is wrong at the field's location and returns nil; none stops the load.
extension Field {
    /// Reports an expression or reference (section 4) where only literals are read.
    private func rejectExpression() -> Bool {
        guard node.isExpression else { return false }
        report("not yet supported: expressions and references (section 4 of the scene format)")
        return true
    }

    /// A finite number. NaN and infinity are rejected anywhere.
    var number: Double? { literalNumber() }

    /// An angle: a number in radians, or a string like `"45deg"` in degrees.
    var angle: Double? { literalNumber(isAngle: true) }

    /// The one reader of a literal number: an angle may be
    /// `"45deg"`, so it may be text (`!!str`), a number may not. `word` (`forever`), when
    /// given, reads as infinity.
    private func literalNumber(isAngle: Bool = false, orInfinity word: String? = nil) -> Double? {
        if let word, node.scalar?.string == word { return .infinity }
        guard !rejectExpression(), let text = scalarText else { return nil }
        let t = text.trimmingWhitespaces()
        if isAngle, t.hasSuffix("deg") { return parseNumber(String(t.dropLast(3))).map { $0 * .pi / 180 } }
        let expected = word.map { "a number or '\($0)'" } ?? "a number"
        guard !isText(expected: expected, reads: Double(t)?.isFinite == true) else { return nil }
        // Swift's `.infinity` and YAML's `.inf` mean what the word says.
        let infinities = [".inf", "+.inf", "inf", "+inf", "infinity", ".infinity", "float.infinity"]
        if let word, infinities.contains(text.lowercased()) {
            report("'\(text)' is not a number here: did you mean '\(word)'?")
            return nil
        }
        return parseNumber(t, expected: expected)
    }

    /// `"0.5"`, `'true'` or `!!str 1`: YAML 1.2 (and JSON) make it text, so it is no
    /// number or boolean (reported, naming `expected`), as the JSON Schema says. Quoted
    /// text that `reads` as no such value is left to the caller's own message.
    private func isText(expected: String, reads: Bool) -> Bool {
        guard case .scalar(let s) = node, s.isPlain ? s.isTaggedString : reads else { return false }
        report("expected \(expected), found the string '\(s.string)' (\(s.isPlain ? "tagged !!str" : "quoted"))")
        return true
    }

    /// `expected` names what the value may be, for the message when it is no number.
    private func parseNumber(_ text: String, expected: String = "a number") -> Double? {
        let t = text.trimmingWhitespaces(), v = Double(t)
        // Double reads `nan` and `inf` as such, not YAML's `.nan` and `.inf`: none is finite.
        if v.map({ !$0.isFinite }) ?? [".nan", ".inf", "-.inf", "+.inf"].contains(t.lowercased()) {
            report("must be a finite number, not \(t)")
            return nil
        }
        guard let v else { report("expected \(expected), found '\(t)'"); return nil }
        return v
    }

    /// `v` when `range` holds it; else nil, reported with the range's message (the one a
    /// schema entry's range gives: `ValueRange.problem`).
    func checked(_ v: Double, _ range: ValueRange) -> Double? {
        if let problem = range.problem(with: v) { report(problem); return nil }
        return v
    }

    /// A number that must lie in `range` (inclusive).
    func number(in range: ClosedRange<Double>) -> Double? {
        number.flatMap { checked($0, ValueRange(range.lowerBound, range.upperBound, reason: "")) }
    }

    var nonNegativeNumber: Double? { number.flatMap { checked($0, .nonNegative("")) } }

    /// A whole number, written or given by a constant expression where the field's policy
    /// evaluates one (`term`).
    var integer: Int? {
        // Exactly, when written as an integer: a Double would round 9223372036854775807.
        if case .scalar(let s) = node, s.isPlain, !s.isTaggedString,
           let exact = Int(s.string.trimmingWhitespaces()) { return exact }
        guard let v = term()?.value else { return nil }
        guard v == v.rounded(), abs(v) < 1e15 else { report("expected a whole number, found \(Self.format(v))"); return nil }
        return Int(v)
    }

    static func format(_ v: Double) -> String { ValueRange.format(v) }

    /// `[a, b, …]` of exactly `count` numbers. `form` (`a point [x, y]`) names the value
    /// in the message when it is not a list.
    func numbers(count: Int? = nil, form: String? = nil) -> [Double]? {
        rejectExpression() ? nil : reading(.literals).terms(count: count, form: form)?.map(\.value)
    }

    var point: Point? { value(.point)?.pointValue }
    var size: Size? { value(.size)?.sizeValue }

    /// `[x, y, width, height]` with a non-negative size.
    var rect: Rect? { if case .rect(let r)? = value(.rect) { r } else { nil } }

    /// YAML 1.2's booleans (its core schema): `yes`, `on`, `no` and `off` are YAML 1.1's,
    /// text in 1.2 and in the JSON Schema, so they are refused with what to write instead.
    var bool: Bool? {
        guard let text = scalarText else { return nil }
        let value = Self.booleans[text]
        guard !isText(expected: "true or false", reads: value != nil) else { return nil }
        if let value { return value }
        let meant = ["yes": "true", "on": "true", "no": "false", "off": "false"][text.lowercased()]
        report("expected true or false, found '\(text)'" + (meant.map { " (YAML 1.2 reads it as text: write \($0))" } ?? ""))
        return nil
    }

    private static let booleans = ["true": true, "True": true, "TRUE": true,
                                   "false": false, "False": false, "FALSE": false]

    /// Text. YAML 1.2 reads a plain `~` (or `null`, or nothing) as none and a plain `5` or
    /// `true` as a number or a boolean, as the JSON Schema does: a text key takes neither.
    var string: String? {
        guard !isNull else { report("expected text, found null (quote it to mean the word)"); return nil }
        if case .scalar(let s) = node, s.isPlain, !s.isTaggedString, let what = Self.yamlCoreType(s.string) {
            report("expected text, found the \(what) \(s.string) (quote it to mean the text)")
            return nil
        }
        return scalarText
    }

    /// What YAML 1.2's core schema makes of a plain scalar other than text and null.
    private static func yamlCoreType(_ text: String) -> String? {
        if booleans[text] != nil { return "boolean" }
        // Every form below starts with a sign, a digit or a point: most text is told apart
        // without running the regular expression.
        guard let first = text.unicodeScalars.first, "+-.0123456789".unicodeScalars.contains(first) else { return nil }
        let number = /[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)/
        return text.wholeMatch(of: number) != nil ? "number" : nil
    }

    /// One of an enum's raw values, with a suggestion when misspelled.
    func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) -> E? where E.RawValue == String {
        choice(E.allCases.map { ($0.rawValue, $0) })
    }

    /// The value of one of `options` by its name, with a suggestion when misspelled.
    func choice<T>(_ options: [(String, T)]) -> T? {
        guard let text = scalarText else { return nil }
        if let option = options.first(where: { $0.0 == text }) { return option.1 }
        let names = options.map(\.0)
        report("'\(text)' is not one of \(names.joined(separator: ", "))" + NameSuggestion.hint(for: text, in: names))
        return nil
    }

    /// A list of `options` (an option set by Apple's names of its members: `[]` is none).
    func names(_ options: [String]) -> [String]? {
        elements?.readingAll { $0.choice(options.map { ($0, $0) }) } ?? nil
    }

    /// A value of a kind no animation carries, read by its kind (`PropertySpec.assign`).
    func fileValue(of kind: PropertyKind) -> FileValue? {
        switch kind {
        case .bool: bool.map { .bool($0) }
        case .choice(let options): choice(options.map { ($0, $0) }).map { .name($0) }
        case .names(let options): names(options).map { .names($0) }
        case .number: number.map { .number($0) }
        case .filters: layerFilters.map { .filters($0) }
        default: nil
        }
    }

    /// The most blur a filter takes, in points: what keeps its offscreen image bounded.
    static let maximumBlurRadius = 100.0

    /// `filters` / `backgroundFilters`: a list of `{gaussianBlur: RADIUS}`.
    var layerFilters: [LayerFilter]? {
        guard let items = elements else { return nil }
        var filters: [LayerFilter] = []
        for item in items {
            guard let f = item.mapping(allowed: ["gaussianBlur"])?.required("gaussianBlur"),
                  let r = f.nonNegativeNumber else { return nil }
            guard r <= Self.maximumBlurRadius else {
                f.report("a blur radius is at most \(Field.format(Self.maximumBlurRadius)) points, found \(Field.format(r))")
                return nil
            }
            filters.append(.gaussianBlur(radius: r))
        }
        return filters
    }

    /// A color of section 1: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `rgba(r, g, b, a)`,
    /// `rgb(r, g, b)` or a name.
    var color: Color? {
        guard let text = scalarText?.trimmingWhitespaces() else { return nil }
        if let c = ColorNames.color(text, appearance: diagnostics.appearance) { return c }
        if text.hasPrefix("#") {
            // `#RGB` is `#RRGGBB` with each digit doubled (17 × d / 255 is d / 15 exactly), and
            // `#RRGGBB` is opaque.
            let digits = text.dropFirst()
            let hex = digits.count == 3 ? String(digits.flatMap { [$0, $0] }) : String(digits)
            guard digits.allSatisfy(\.isHexDigit), [3, 6, 8].contains(digits.count),
                  let raw = UInt64(hex.count == 6 ? hex + "FF" : hex, radix: 16) else {
                report("'\(text)' is not a color: use #RGB, #RRGGBB or #RRGGBBAA")
                return nil
            }
            func byte(_ shift: UInt64) -> Double { Double((raw >> shift) & 0xFF) }
            return Color(r255: byte(24), g255: byte(16), b255: byte(8), alpha: byte(0) / 255)
        }
        for prefix in ["rgba(", "rgb("] where text.hasPrefix(prefix) && text.hasSuffix(")") {
            let inner = text.dropFirst(prefix.count).dropLast()
            let parts = inner.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            let expected = prefix == "rgba(" ? 4 : 3
            guard parts.count == expected, parts.allSatisfy({ $0?.isFinite == true }) else {
                report("'\(text)' is not a color: \(prefix)\(expected == 4 ? "r, g, b, a" : "r, g, b")) with numbers")
                return nil
            }
            let v = parts.compactMap { $0 }
            guard v[0...2].allSatisfy({ (0...255).contains($0) }), expected == 3 || (0...1).contains(v[3]) else {
                report("'\(text)': channels are 0–255 and alpha 0–1")
                return nil
            }
            return Color(r255: v[0], g255: v[1], b255: v[2], alpha: expected == 4 ? v[3] : 1)
        }
        // `UIColor.red`, `.systemBlue`, `UIColor.red.cgColor`: the name as it is written here.
        let hint = text.split(separator: ".").first { ColorNames.all[String($0)] != nil }.map { " (did you mean '\($0)'?)" }
            ?? NameSuggestion.hint(for: text, in: Array(ColorNames.all.keys))
        let forms = "#RGB, #RRGGBB, #RRGGBBAA, rgb(r, g, b), rgba(r, g, b, a) or a color name"
        report("'\(text)' is not a color: use \(forms)" + hint)
        return nil
    }

    /// A transform's written form (section 3): `{matrix: [16 numbers]}` or the named
    /// components, its numbers read as terms (`term`) by the field's policy.
    func transformSource() -> ExpressionBinding.TransformSource? {
        guard let m = mapping(allowed: SceneKeys.transform.map(\.name)) else { return nil }
        if let mf = m["matrix"] {
            guard m.order.count == 1 else { mf.report("'matrix' cannot be combined with the named form"); return nil }
            return mf.terms(count: 16).map { .matrix($0) }
        }
        var c = ExpressionBinding.TransformComponents(), ok = true
        // Each component is read before giving up, so each reports its problems.
        func read<T>(_ name: String, _ reader: (Field) -> T?) -> T? {
            let value = m[name].flatMap(reader)
            if m[name] != nil, value == nil { ok = false }
            return value
        }
        c.rotate = read("rotate") { $0.term(angle: true) }
        c.rotateX = read("rotateX") { $0.term(angle: true) }
        c.rotateY = read("rotateY") { $0.term(angle: true) }
        // A written distance is checked now; a live one gives no transform when not positive.
        c.perspective = read("perspective") { $0.term(in: .positive("")) }
        c.scale = read("scale") { sf -> (x: ExpressionBinding.Term, y: ExpressionBinding.Term)? in
            // The identity's scale is 1.
            let sf = if case .identity = sf.expressions { sf.reading(.identity(1)) } else { sf }
            guard sf.isList else { return sf.term().map { ($0, $0) } }
            return sf.terms(count: 2).map { ($0[0], $0[1]) }
        }
        // `[x, y]` or `[x, y, z]`, or one vector expression.
        let translate = read("translate") { tf -> (ExpressionBinding.PointSource, ExpressionBinding.Term?)? in
            guard let count = tf.node.sequence?.count else { return tf.pointTerm().map { ($0, nil) } }
            guard count == 2 || count == 3 else { tf.report("expected 2 or 3 numbers, found \(count)"); return nil }
            return tf.terms().map { (.components($0[0], $0[1]), count == 3 ? $0[2] : .literal(0)) }
        }
        if let (xy, z) = translate { c.translate = xy; if let z { c.translateZ = z } }
        return ok ? .components(c) : nil
    }
}

extension Field {
    /// A value of `kind` (a number in radians or `"45deg"` when `isAngle`), its numbers
    /// literals or, as the field's policy allows, constant expressions evaluated now
    /// (`term`), checked by `problem` (a schema entry's range) whichever was written: the
    /// one reader of the values of layer and cell keys, for their definitions, animations
    /// and `set:` alike — so a value accepted in one is accepted in all. Image assets are
    /// resolved by the caller.
    func value(_ kind: AnimatableValue.Kind, isAngle: Bool = false, acceptsSize: Bool = false,
               problem: (AnimatableValue) -> String? = { _ in nil }) -> AnimatableValue? {
        let read: AnimatableValue?
        switch kind {
        case .rect where acceptsSize && (isList ? node.sequence?.count == 2 : expressions != .literals && node.isExpression):
            // `[w, h]` (`bounds` only), or one expression giving it: a size at the origin,
            // checked as a size.
            guard case .size(let s)? = value(.size, problem: problem) else { return nil }
            return .rect(Rect(origin: .zero, size: s))
        case .rect where acceptsSize && !isList:
            report("expected a size [w, h] or a rect [x, y, w, h], found \(kindName)")
            return nil
        case .number, .point, .size, .rect, .numbers:
            // Read as terms (`bound`), which the policy makes literals: their values as written.
            guard expressions != .literals || !rejectExpression() else { return nil }
            read = bound(kind, angle: isAngle)?.evaluate(.atLoad)?.converted(to: kind)
        case .color: read = color.map { .color($0) }
        case .transform: read = transformSource()?.literalParts.map { .transform($0.matrix) }
        case .path: read = path.map { .path($0) }
        case .colors: read = elements?.readingAll(\.color).map { .colors($0) }
        case .bool: read = bool.map { .bool($0) }
        case .image: read = nil
        }
        guard let read else { return nil }
        if let p = problem(read) { report(p); return nil }
        return read
    }

    /// A value of a property of `kind`, read by its kind: `rect` takes exactly
    /// `[x, y, w, h]`, `sizeOrRect` `[w, h]` too, as the JSON Schema of each kind says.
    func value(of kind: PropertyKind, problem: (AnimatableValue) -> String? = { _ in nil }) -> AnimatableValue? {
        guard let valueKind = kind.valueKind else { return nil }
        return value(valueKind, isAngle: kind == .angle, acceptsSize: kind == .sizeOrRect, problem: problem)
    }
}

extension ExpressionBinding.TransformSource {
    /// The transform with its literal terms (an expression's reads NaN), and the
    /// components it was written with (nil for the matrix form).
    var literalParts: (matrix: Transform3D, components: Transform3D.Components?)? {
        switch self {
        case .matrix(let entries):
            return Transform3D(fields: entries.map(\.value)).map { ($0, nil) }
        case .components(let written):
            let c = written.components(number: \.value, point: \.value)
            return (c.composed, c)
        }
    }
}

extension Field {
    /// A number (`angle`: radians, or `"45deg"` when written) as a literal or an
    /// expression: the one reader of a number, whatever the field's policy makes of an
    /// expression (`ExpressionBinder.resolve`).
    func term(angle: Bool = false) -> ExpressionBinding.Term? {
        guard case .scalar(let s) = node, s.expression != nil, expressions != .literals else {
            return (angle ? self.angle : number).map { .literal($0) }
        }
        if case .identity(let v) = expressions, ExpressionText.isLive(s) { return .literal(v) }
        return ExpressionBinder.resolve(self, s, as: .scalar, kept: { .expression($0, $1) }) { $0.scalar.map { .literal($0) } }
    }

    /// A number as `term` reads it, a literal checked against `range` now (a computed one
    /// out of it gives no value where it is used: no path, no transform).
    func term(in range: ValueRange) -> ExpressionBinding.Term? {
        guard let t = term() else { return nil }
        if case .literal(let v) = t, checked(v, range) == nil { return nil }
        return t
    }

    /// A point as `[x, y]` of terms, or one vector expression (`"@ball"`, `"= [t, 2]"`):
    /// the one reader of a point, whatever the field's policy makes of an expression.
    /// `form` names the value in messages (`a size [w, h]` for a size).
    func pointTerm(form: String = "a point [x, y]") -> ExpressionBinding.PointSource? {
        func literal() -> ExpressionBinding.PointSource? {
            numbers(count: 2, form: form).map { .components(.literal($0[0]), .literal($0[1])) }
        }
        if expressions != .literals, case .scalar(let s) = node {
            guard s.expression != nil else {
                guard expressions == .live else { return literal() }
                report("expected \(form), an expression or a reference")
                return nil
            }
            return ExpressionBinder.resolve(self, s, as: .vector, kept: { .vector($0, $1) }) {
                $0.vector.map { .components(.literal($0.x), .literal($0.y)) }
            }
        }
        // A mapping is no point: the literal reader says so, whatever the policy but a live one.
        guard isList || expressions == .live else { return literal() }
        return terms(count: 2).map { .components($0[0], $0[1]) }
    }

    /// A value of `kind` (a number, point, size, rect, list of numbers or transform) as
    /// terms (`term`), its expressions as the field's policy makes them: the one reader of
    /// a value that an expression may drive or that the runtime evaluates later, and of the
    /// literals of these kinds (`value`); nil for other kinds (a path's is `path(in:live:)`).
    func bound(_ kind: AnimatableValue.Kind, angle: Bool = false) -> ExpressionBinding.BoundValue? {
        switch kind {
        case .number: term(angle: angle).map { .scalar($0) }
        case .point: pointTerm().map { .point($0) }
        case .size: pointTerm(form: "a size [w, h]").map { .point($0) }
        case .rect: rectTerms().map { .rebuilt(.rect($0)) }
        case .numbers: terms().map { .rebuilt(.numbers($0)) }
        case .transform: transformSource().map { .transform($0) }
        default: nil
        }
    }

    /// `[a, b, …]` of `count` numbers, each a literal or an expression (`term`): the one
    /// reader of a list of numbers. `form` (`a rect [x, y, w, h]`) names the value in the
    /// message when it is not a list.
    func terms(count: Int? = nil, form: String? = nil) -> [ExpressionBinding.Term]? {
        if let form, !isList { report("expected \(form), found \(kindName)"); return nil }
        guard let items = elements else { return nil }
        if let count, items.count != count { report("expected \(count) numbers, found \(items.count)"); return nil }
        return items.readingAll { $0.term() }
    }

    /// `[x, y, width, height]`, its written width and height not negative (a computed one
    /// that is gives no rect).
    func rectTerms() -> ExpressionBinding.RectTerms? {
        guard let t = terms(count: 4, form: "a rect [x, y, w, h]") else { return nil }
        for case .literal(let v) in [t[2], t[3]] where v < 0 {
            report("width and height must not be negative"); return nil
        }
        return ExpressionBinding.RectTerms(t[0], t[1], t[2], t[3])
    }
}

extension Array<Field> {
    /// Every item read by `read`; nil when one does not read. All are read before giving
    /// up, so each reports its problems.
    func readingAll<T>(_ read: (Field) -> T?) -> [T]? {
        let values = map(read)
        return values.contains { $0 == nil } ? nil : values.compactMap { $0 }
    }
}

extension Field {
    /// Text naming one of `known`'s keys (`what` says what it names: "behavior id"); nil
    /// when it is none (reported, with a suggestion).
    func name<Value>(in known: [String: Value], _ what: String) -> String? {
        guard let name = string else { return nil }
        guard known[name] == nil else { return name }
        report("unknown \(what) '\(name)'" + NameSuggestion.hint(for: name, in: Array(known.keys)))
        return nil
    }

    /// A number read by `spec`'s kind (a whole number, a count or `forever`, or any number)
    /// and checked against its range; `refusal` replaces the range's message (`speed` says
    /// its own).
    func number<Object>(checkedBy spec: PropertySpec<Object>, refusal: String? = nil) -> Double? {
        let read = switch spec.kind {
        case .integer: integer.map(Double.init)
        // A non-negative number, or `forever` for infinity (`repeatCount: forever`).
        case .countOrForever: literalNumber(orInfinity: "forever").flatMap { checked($0, .nonNegative("")) }
        default: number
        }
        guard let v = read else { return nil }
        if let problem = spec.range?.problem(with: v) { report(refusal ?? problem); return nil }
        return v
    }
}

extension Mapping {
    /// The number `table`'s entry `name` reads (`Field.number(checkedBy:)`): its default
    /// when not written; nil when invalid (reported) or neither written nor defaulted.
    func number<Object>(_ table: [PropertySpec<Object>], _ name: String) -> Double? {
        guard let spec = table.first(where: { $0.name == name }) else { return nil }
        guard let f = self[name] else { if case .number(let v)? = spec.defaultValue { return v } else { return nil } }
        return f.number(checkedBy: spec)
    }
}

extension Mapping {
    /// The mapping, each rule of its context (`SceneKeys.rules`) it breaks reported at the rule's key.
    func checked(_ context: String) -> Mapping {
        for rule in SceneKeys.rules[context] ?? [] {
            guard let f = self[rule.key] else { continue }
            for other in rule.excludes where self[other] != nil {
                f.report("give '\(other)' or '\(rule.key)', not both: \(rule.why)")
            }
            if let (other, values) = rule.requires, !values.contains(self[other]?.node.scalar?.string ?? "") {
                f.report("'\(rule.key)' needs '\(other)' \(values.joined(separator: " or ")): \(rule.why)")
            }
        }
        return self
    }
}
