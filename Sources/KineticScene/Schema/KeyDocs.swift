import KineticGeometry
import KineticAnimation
import KineticDynamics
import KineticLayers

/// Each key's value type, range, default and one-line description, by mapping: for the
/// layers, emitter cells, animations and dynamics, generated from their tables
/// (`LayerSchema`, `EmitterCellSchema`, `AnimationKeys`, `DynamicsTable`); for the rest,
/// written here. `SceneSchema` takes
/// the keys themselves from the loader.
enum KeyDocs {
    typealias S = [String: Any]

    // Value types.
    static func ref(_ name: String) -> S { ["$ref": "#/$defs/\(name)"] }
    static var number: S { ref("number") }
    static var angle: S { ref("angle") }
    static var point: S { ref("point") }
    static var size: S { ref("size") }
    static var rect: S { ref("rect") }
    static var color: S { ref("color") }
    static var path: S { ref("path") }
    static var transform: S { ref("transform") }
    static var string: S { ["type": "string"] }
    static var bool: S { ["type": "boolean"] }
    static var strings: S { ["type": "array", "items": ["type": "string"]] }
    static var any: S { [:] }
    static func number(min: Double? = nil, max: Double? = nil, above: Double? = nil) -> S {
        var n: S = ["type": "number"]
        if let min { n["minimum"] = min }
        if let max { n["maximum"] = max }
        if let above { n["exclusiveMinimum"] = above }
        return ["anyOf": [n, ref("expression")]]
    }
    static func integer(min: Int? = nil, max: Int? = nil) -> S {
        var n: S = ["type": "integer"]
        if let min { n["minimum"] = min }
        if let max { n["maximum"] = max }
        return n
    }
    static func choice(_ values: [String]) -> S { ["enum": values] }
    static func choice<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> S where E.RawValue == String {
        ["enum": E.allCases.map(\.rawValue)]
    }
    static func list(_ item: S) -> S { ["type": "array", "items": item] }
    static func oneOf(_ options: S...) -> S { ["anyOf": options] }

    /// `schema` with its description and default.
    static func d(_ schema: S, _ text: String, _ defaultValue: Any? = nil) -> S {
        var s = schema
        s["description"] = text
        if let defaultValue { s["default"] = defaultValue }
        return s
    }

    static var fraction: S { number(min: 0, max: 1) }
    static var nonNegative: S { number(min: 0) }
    static var positive: S { number(above: 0) }
    static var ids: S { d(strings, "Layer ids.") }

    /// Every mapping's keys: the layer, cell and animation tables' (`LayerSchema`,
    /// `EmitterCellSchema`, `AnimationKeys`), and the ones written here.
    static var table: [String: [String: S]] {
        written.merging(generated) { own, _ in own }
    }

    static var generated: [String: [String: S]] {
        let layers = LayerSchema.standard
        let groups: [(String, Set<LayerType>?)] = [("layer", nil), ("shape", [.shape]), ("gradient", [.gradient]),
                                                   ("text", [.text]), ("emitter", [.emitter]), ("replicator", [.replicator])]
        var result: [String: [String: S]] = [:]
        for (context, types) in groups {
            result[context] = docs(layers.entries.filter { $0.isFileKey && $0.layerTypes == types })
        }
        result["emitterCell"] = docs(EmitterCellSchema.entries)
        result["animation"] = docs(AnimationKeys.entries)
        for (context, entries) in DynamicsTable.contexts { result[context] = docs(entries) }
        // Its keys are the kinds, described by `behaviorDescriptions`.
        result["behaviorKinds"] = [:]
        return result
    }

    /// The behavior kinds' descriptions.
    static var behaviorDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: DynamicsTable.behaviorKinds.map { ($0.name, $0.doc) })
    }

    /// The schema of each dynamics key's value, its doc with Apple's name, and its default.
    static func docs(_ entries: [DynamicsProperty<Void>]) -> [String: S] {
        Dictionary(entries.map { e in
            (e.name, d(schema(of: e.kind, range: e.range, expressions: true, requiresArea: e.name == "referenceBounds"),
                       e.doc + (e.apple.map { " (\($0))" } ?? ""), e.defaultValue?.json))
        }) { first, _ in first }
    }

    /// The schema of each entry's value, with its description and default.
    static func docs<Object>(_ entries: [PropertySpec<Object>]) -> [String: S] {
        Dictionary(entries.map { ($0.name, d(schema(of: $0), $0.doc, $0.defaultValue?.json)) }) { first, _ in first }
    }

    /// The JSON schema of a property's values.
    static func schema<Object>(of spec: PropertySpec<Object>) -> S {
        if spec.kind == .string && Object.self == Layer.self {
            // A layer's id is checked against the pattern (others' ids are any text).
            if spec.name == "id" { return ["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"] }
            // A text layer's string: the length the loader takes (TextBounds; the schema
            // cannot say the combining-mark limit, which the loader alone checks).
            if spec.name == "string" { return ["type": "string", "maxLength": TextBounds.maxScalars] }
        }
        if spec.kind == .color && spec.allowsNone { return oneOf(color, ["type": "null"]) }
        return schema(of: spec.kind, range: spec.range, expressions: spec.allowsExpressions)
    }

    /// The JSON schema of a value of `kind` within `range`, which may be an expression
    /// where `expressions` says. `requiresArea`: a rect's width and height must be > 0
    /// (the dynamics' reference bounds), not only ≥ 0.
    static func schema(of kind: PropertyKind, range: ValueRange?, expressions: Bool, requiresArea: Bool = false) -> S {
        func bounded(_ type: String) -> S {
            var n: S = ["type": type]
            if let lo = range?.lowerBound { n[range?.excludesLowerBound == true ? "exclusiveMinimum" : "minimum"] = lo }
            if let hi = range?.upperBound { n["maximum"] = hi }
            return n
        }
        let numberSchema: S = range == nil ? number : expressions ? ["anyOf": [bounded("number"), ref("expression")]]
            : bounded("number")
        switch kind {
        case .number: return numberSchema
        case .angle: return angle
        case .integer: return bounded("integer")
        // A point with a range: each coordinate within it (the dynamics' coordinates).
        case .point:
            guard range != nil else { return point }
            return oneOf(["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2],
                         ["type": "string", "pattern": #"^\s*[=@]"#])
        // A size with a range: each side within it (a rect's width and height are never negative).
        case .size: return range == nil ? size : ["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2]
        case .rect:
            guard let range else { return rect }
            // Each coordinate within the range; width and height not negative (the loader
            // refuses a written negative size), or greater than 0 where an area is needed.
            var side = ValueRange(max(range.lowerBound ?? 0, 0), range.upperBound, reason: range.reason)
            side.excludesLowerBound = requiresArea
            let sideSchema = schema(of: .number, range: side, expressions: expressions)
            return ["type": "array", "minItems": 4, "maxItems": 4,
                    "prefixItems": [numberSchema, numberSchema, sideSchema, sideSchema]]
        case .sizeOrRect:
            return oneOf(range == nil ? size : ["type": "array", "items": numberSchema, "minItems": 2, "maxItems": 2], rect)
        case .color: return color
        case .colors: return list(color)
        case .numbers: return list(range == nil ? number : numberSchema)
        case .transform: return transform
        case .path: return path
        case .bool: return bool
        case .image: return string
        case .string, .layerID: return string
        case .layerIDs: return strings
        case .pathOrShapeLayer: return oneOf(path, string)
        case .fixedNumbers(let count): return ["type": "array", "items": numberSchema, "minItems": count, "maxItems": count]
        case .mappingsByLayerID(let name): return ["type": "object", "additionalProperties": ref(name)]
        case .choice(let names): return choice(names)
        case .names(let names): return list(choice(names))
        case .filters: return list(ref("filter"))
        case .layer: return ref("layer")
        case .layers: return list(ref("layer"))
        case .numberMap: return ["type": "object", "additionalProperties": number]
        case .cells: return list(ref("emitterCell"))
        case .cellContents: return oneOf(string, ref("cellContents"))
        case .value: return any
        case .values, .timingFunctions: return list(any)
        case .timingFunction:
            return oneOf(choice(AnimationDecoder.timingFunctionNames.keys.sorted()),
                         ["type": "array", "items": ["type": "number"], "minItems": 4, "maxItems": 4])
        case .countOrForever: return oneOf(bounded("number"), choice(["forever"]))
        case .mapping(let name): return ref(name)
        case .mappings(let name): return list(ref(name))
        }
    }

    // Computed, not stored: `[String: Any]` is not Sendable, and only `kinetic schema` reads it.
    static var written: [String: [String: S]] { [
        "top": [
            "kinetic": d(["enum": SceneLoader.supportedVersions], "The format version: 1."),
            "scene": d(ref("scene"), "Canvas, timing and background."),
            "layers": d(list(ref("layer")), "The layer tree, drawn first = back."),
            "animations": d(list(ref("animation")), "Core Animation animations of layer and behavior properties."),
            "dynamics": d(ref("dynamics"), "UIKit Dynamics: items and behaviors."),
            "events": d(list(ref("event")), "Changes at a time or on a contact or animation stop."),
            "golden": ref("golden"),
        ],
        "scene": [
            "size": d(size, "Canvas size in points (required)."),
            "scale": d(positive, "Pixels per point.", 2),
            "fps": d(positive, "Frames per second; frame i shows time i / fps.", 50),
            "duration": d(positive, "Length in seconds (required); frames = round(duration × fps)."),
            "background": d(oneOf(color, ref("gradient")), "A color, or a gradient (the gradient layer's keys).", "#FFFFFF"),
            "seed": d(integer(), "Seed of every random choice (emitters, random()).", 0),
            "appearance": d(choice(Appearance.self), "Light or dark: how semantic colors (label, systemBackground, …) resolve.", "light"),
        ],
        "cellContents": [
            "path": d(path, "The particle's shape."),
            "size": d(size, "The particle image's size in points."),
            "fillColor": d(color, "The shape's fill.", "white"),
        ],
        "spring": [
            "dampingRatio": d(number(min: 0), "UIView's damping ratio (1 = critical)."),
            "initialVelocity": d(number, "Initial velocity (UIView: in units of the whole change per second)."),
            "mass": d(positive, "CASpringAnimation's mass.", 1),
            "stiffness": d(positive, "CASpringAnimation's stiffness.", 100),
            "damping": d(number(min: 0), "CASpringAnimation's damping.", 10),
        ],
        "oscillation": [
            "damping": d(number, "Decay rate d of to − (to − from)·e^(−d·x)·cos(v·x)."),
            "velocity": d(number, "Angular speed v of the oscillation."),
        ],
        "event": [
            "at": d(number(min: 0), "Time in seconds the actions run."),
            "on": d(ref("trigger"), "A contact or an animation stop that runs `do`."),
            "do": d(list(ref("doAction")), "Actions run by `on`, each with an optional delay."),
        ],
        "trigger": [
            "contact": d(choice(["began", "ended"]), "Contact phase."),
            "boundary": d(string, "The boundary identifier touched."),
            "items": d(strings, "The items touching ($item is the first)."),
            "animationStop": d(string, "The animation id whose stop fires it."),
        ],
        "action": actionDocs,
        "doAction": actionDocs.merging(["delay": d(number(min: 0), "Seconds after the trigger.", 0)]) { a, _ in a },
        "golden": [
            "frames": d(list(oneOf(integer(min: 0), choice(["last"]))), "Frame indices to check, or last."),
            "scale": d(positive, "Render golden frames at this scale.", 1),
            "tolerance": ref("tolerance"),
            "state": d(bool, "Also keep and check the inspect state of every frame.", false),
            "filmstrip": d(bool, "Also write a filmstrip of the golden frames.", false),
        ],
        "tolerance": [
            "channel": d(integer(min: 0, max: 255), "Per-channel difference allowed.", 8),
            "pixels": d(oneOf(number(min: 0, max: 1), ["type": "string", "pattern": #"^\s*[0-9.]+\s*%$"#]),
                        "Share of pixels that may exceed it (0…1, or a percentage)."),
        ],
        "transform": [
            "matrix": d(["type": "array", "items": number, "minItems": 16, "maxItems": 16], "m11 … m44 in CATransform3D order."),
            "perspective": d(positive, "Eye distance: m34 = −1/perspective."),
            "translate": d(["type": "array", "items": number, "minItems": 2, "maxItems": 3], "[x, y] or [x, y, z]."),
            "rotateX": d(angle, "Rotation about x."),
            "rotateY": d(angle, "Rotation about y."),
            "rotate": d(angle, "Rotation about z."),
            "scale": d(oneOf(number, ["type": "array", "items": number, "minItems": 2, "maxItems": 3]), "s or [sx, sy]."),
        ],
        "pathPrimitive": [
            "rect": d(rect, "A rectangle."),
            "roundedRect": d(rect, "A rounded rectangle (with cornerRadius)."),
            "cornerRadius": d(nonNegative, "The rounded rectangle's corner radius.", 0),
            "oval": d(rect, "An ellipse in this rectangle."),
            "arc": d(ref("arc"), "An arc (UIBezierPath semantics, y down)."),
            "polyline": d(list(point), "Straight segments through these points."),
            "closed": d(bool, "Whether the polyline closes.", false),
            "star": d(ref("star"), "A star polygon."),
        ],
        "svgPath": [
            "svg": d(string, "An SVG file inside the scene's folder: its shapes, mapped from its viewBox into the layer's bounds."),
            "element": d(string, "Take only the element with this id (a group: everything under it)."),
        ],
        "arc": [
            "center": d(point, "Center."),
            "radius": d(nonNegative, "Radius."),
            "startAngle": d(angle, "Start angle."),
            "endAngle": d(angle, "End angle."),
            "clockwise": d(bool, "Direction (clockwise on screen, y down).", true),
        ],
        "star": [
            "center": d(point, "Center."),
            "points": d(number(min: 2), "Number of points."),
            "outerRadius": d(nonNegative, "Radius of the points."),
            "innerRadius": d(nonNegative, "Radius of the notches."),
        ],
    ] }

    static var actionDocs: [String: S] { [
        "removeAllBehaviors": d(bool, "Removes every behavior."),
        "removeBehaviors": d(strings, "Behavior ids to remove."),
        "addBehaviors": d(list(ref("behavior")), "Behaviors to add."),
        "set": d(["type": "object"], "Values to set, by ID.KEYPATH (a layer's or a behavior's)."),
        "removeLayers": d(strings, "Layer ids to remove ($item allowed)."),
        "animate": d(ref("animation"), "An animation to start now."),
    ] }
}

extension DocValue {
    /// As JSON.
    var json: Any {
        switch self {
        case .number(let v): v
        case .string(let s): s
        case .bool(let b): b
        case .numbers(let v): v
        case .strings(let s): s
        }
    }
}
