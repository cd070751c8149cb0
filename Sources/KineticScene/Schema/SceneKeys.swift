import KineticGeometry
import KineticLayers

/// The keys of the mappings outside the layer, cell, animation and dynamics tables —
/// the file itself, `scene:`, events, `golden:`, transforms, path primitives, springs —
/// each described once: its kind, range, default and doc. `kinetic schema` generates
/// their JSON Schema from here (`KeyDocs`), and the loader takes its key lists
/// (`EventsDecoder.eventKeys`, the mappings `SceneLoader` reads, …) from these names.
///
/// Every number of these mappings may be written as a constant expression (`= …`,
/// folded at load), so no entry is marked for live expressions.
enum SceneKeys {
    typealias Key = PropertySpec<Void>

    /// What keys of a mapping say about each other, beyond their kinds, by context: checked
    /// where the mapping is read (`Mapping.checked`).
    static let rules: [String: [KeyRule]] = [
        "animation": [
            KeyRule("repeatDuration", excludes: ["repeatCount"], why: "Core Animation leaves both undefined"),
            KeyRule("spring", excludes: ["timingFunction", "oscillation"], why: "a spring is the animation's timing"),
            KeyRule("oscillation", excludes: ["timingFunction"], why: "an oscillation is the animation's timing"),
        ] + AnimationKeys.splineKeys.map {
            KeyRule($0, requires: ("calculationMode", ["cubic", "cubicPaced"]), why: "it shapes a cubic curve")
        },
        "spring": ["mass", "stiffness", "damping"].map {
            KeyRule($0, excludes: ["dampingRatio"],
                    why: "'\($0)' belongs to the CASpringAnimation form, 'dampingRatio' to UIView's")
        },
        "event": [
            KeyRule("on", excludes: ["at"], why: "an event runs at a time or on a trigger"),
            KeyRule("do", excludes: ["at"], why: "an `at:` event lists its actions directly"),
        ] + action.map { KeyRule($0.name, excludes: ["on"], why: "an `on:` handler lists its actions under `do:`") },
        "trigger": ["contact", "boundary", "items"].map {
            KeyRule($0, excludes: ["animationStop"], why: "an animationStop trigger names only the animation")
        } + [KeyRule("items", excludes: ["boundary"], why: "a contact trigger names a boundary or items")],
        "layer": [KeyRule("frame", excludes: ["position", "bounds"], why: "a frame sets the position and bounds")],
        // One primitive, each companion key beside its own.
        "pathPrimitive": Field.primitiveKinds.indices.dropFirst().map { i in
            KeyRule(Field.primitiveKinds[i], excludes: Array(Field.primitiveKinds[..<i]),
                    why: "a path primitive is one shape")
        } + [("cornerRadius", "roundedRect"), ("closed", "polyline")].map { key, kind in
            KeyRule(key, excludes: Field.primitiveKinds.filter { $0 != kind }, why: "'\(key)' goes with \(kind)")
        },
        "dynamicItem": [KeyRule("collisionBoundingPath", requires: ("collisionBoundsType", ["path"]),
                                why: "the path is the item's body only then")],
        "boundary": [KeyRule("path", excludes: ["from", "to"], why: "a boundary is a path or a line from + to")],
        "region": [KeyRule("rect", excludes: ["radius"], why: "a region is a radius or a rect")],
        // The other end: an item or an anchor point (three spellings); iOS 9's `attachmentAnchor`
        // with `attachedTo` is the point the two items share.
        "attachment": [("anchorPoint", ["attachedToAnchor"]), ("attachmentAnchor", ["attachedToAnchor", "anchorPoint"]),
                       ("attachedTo", ["attachedToAnchor", "anchorPoint"])].map {
            KeyRule($0, excludes: $1, why: "an attachment has one other end, an item or an anchor point")
        },
    ]

    /// The keys a mapping must give, by context, where it must give them whatever else it
    /// says: the loader reads each with `Mapping.required` (which reports it missing) and
    /// the JSON Schema lists them as `required`, so both refuse a mapping without one.
    static let required: [String: [String]] = [
        "scene": ["size", "duration"],
        "svgPath": ["svg"],
        "arc": ["center", "radius", "startAngle", "endAngle"],
        "star": ["center", "points", "outerRadius", "innerRadius"],
        "oscillation": ["damping", "velocity"],
        // The mapping form of a particle's contents (an image's name is the other form).
        "cellContents": ["size", "path"],
    ]

    /// The keys a mapping must give by its form, by context: every key of one of the sets.
    /// A property animation reads its `keyPath` (`Mapping.required`), a group and a motion
    /// path need none; a boundary is a `path` or a line `from` + `to`.
    static let requiredByForm: [String: [[String]]] = [
        "animation": [["keyPath"], ["group"], ["path"]],
        "boundary": [["path"], ["from", "to"]],
    ]

    /// The contexts by name, as the JSON Schema's `$defs` call them.
    static let contexts: [String: [Key]] = [
        "top": top, "scene": scene, "cellContents": cellContents, "spring": spring, "oscillation": oscillation,
        "event": event, "trigger": trigger, "action": action, "doAction": action + [delay], "golden": golden,
        "tolerance": tolerance, "transform": transform, "pathPrimitive": pathPrimitive, "svgPath": svgPath,
        "arc": arc, "star": star,
    ]

    /// The file's top-level keys.
    static let top: [Key] = [
        Key("kinetic", .integerChoice(SceneLoader.supportedVersions), doc: "The format version: 1."),
        Key("scene", .mapping("scene"), doc: "Canvas, timing and background."),
        Key("layers", .layers, doc: "The layer tree, drawn first = back."),
        Key("animations", .mappings("animation"), doc: "Core Animation animations of layer and behavior properties."),
        Key("dynamics", .mapping("dynamics"), doc: "UIKit Dynamics: items and behaviors."),
        Key("events", .mappings("event"), doc: "Changes at a time or on a contact or animation stop."),
        // Described by its mapping (`$defs/golden`).
        Key("golden", .mapping("golden"), doc: ""),
    ]

    static let scene: [Key] = [
        Key("size", .size, doc: "Canvas size in points (required)."),
        Key("scale", .number, range: .positive("pixels per point"), default: .number(2), doc: "Pixels per point."),
        Key("fps", .number, range: .positive("frames per second"), default: .number(50),
            doc: "Frames per second; frame i shows time i / fps."),
        Key("duration", .number, range: .positive("a length of time"),
            doc: "Length in seconds (required); frames = round(duration × fps)."),
        Key("background", .anyOf([.color, .mapping("gradient")]), default: .string("#FFFFFF"),
            doc: "A color, or a gradient (the gradient layer's keys)."),
        Key("seed", .integer, default: .number(0), doc: "Seed of every random choice (emitters, random())."),
        Key("appearance", .choice(Appearance.allCases.map(\.rawValue)), default: .string("light"),
            doc: "Light or dark: how semantic colors (label, systemBackground, …) resolve."),
    ]

    /// An emitter cell's drawn contents (`contents: {path, size, fillColor}`).
    static let cellContents: [Key] = [
        Key("path", .path, doc: "The particle's shape."),
        Key("size", .size, doc: "The particle image's size in points."),
        Key("fillColor", .color, default: .string("white"), doc: "The shape's fill."),
    ]

    /// An animation's `spring:` and `oscillation:`: the loader's own tables, so the schema
    /// says the ranges the loader checks.
    static let spring: [Key] = AnimationKeys.spring
    static let oscillation: [Key] = AnimationKeys.oscillation

    /// An event: when, and what (the actions themselves, or `do:` with delays).
    static let event: [Key] = [
        Key("at", .number, range: .nonNegative("a time"), doc: "Time in seconds the actions run."),
        Key("on", .mapping("trigger"), doc: "A contact or an animation stop that runs `do`."),
        Key("do", .mappings("doAction"), doc: "Actions run by `on`, each with an optional delay."),
    ]

    static let trigger: [Key] = [
        Key("contact", .choice(["began", "ended"]), doc: "Contact phase."),
        Key("boundary", .string, doc: "The boundary identifier touched."),
        Key("items", .layerIDs, doc: "The items touching ($item is the first)."),
        Key("animationStop", .string, doc: "The animation id whose stop fires it."),
    ]

    /// An event's actions.
    static let action: [Key] = [
        Key("removeAllBehaviors", .bool, doc: "Removes every behavior."),
        Key("removeBehaviors", .list(.string), doc: "Behavior ids to remove."),
        Key("addBehaviors", .mappings("behavior"), doc: "Behaviors to add."),
        Key("set", .keyPathValues, doc: "Values to set, by ID.KEYPATH (a layer's or a behavior's)."),
        Key("removeLayers", .layerIDs, doc: "Layer ids to remove ($item allowed)."),
        Key("animate", .mapping("animation"), doc: "An animation to start now."),
    ]

    /// A `do:` action's delay after its trigger.
    static let delay = Key("delay", .number, range: .nonNegative("a time"), default: .number(0),
                           doc: "Seconds after the trigger.")

    // The defaults are `GoldenSpec`'s, said there once.
    static let golden: [Key] = [
        Key("frames", .list(.anyOf([.integer, .choice(["last"])])), range: .nonNegative("a frame index"),
            doc: "Frame indices to check, or last."),
        Key("scale", .number, range: .positive("pixels per point"), default: .number(GoldenSpec().scale),
            doc: "Render golden frames at this scale."),
        // Described by its mapping (`$defs/tolerance`).
        Key("tolerance", .mapping("tolerance"), doc: ""),
        Key("state", .bool, default: .bool(GoldenSpec().state), doc: "Also keep and check the inspect state of every frame."),
        Key("filmstrip", .bool, default: .bool(GoldenSpec().filmstrip), doc: "Also write a filmstrip of the golden frames."),
    ]

    static let tolerance: [Key] = [
        Key("channel", .integer, range: ValueRange(0, 255, reason: "an 8-bit channel difference"),
            default: .number(Double(GoldenSpec().channelTolerance)),
            doc: "Per-channel difference allowed."),
        Key("pixels", .anyOf([.number, .percentage]), range: .unit("a share of the pixels"),
            default: .number(GoldenSpec().pixelTolerance),
            doc: "Share of pixels that may exceed it (0…1, or a percentage)."),
    ]

    /// A transform written as its parts (CATransform3D's functions).
    static let transform: [Key] = [
        Key("matrix", .fixedNumbers(16), doc: "m11 … m44 in CATransform3D order."),
        Key("perspective", .number, range: .positive("an eye distance"), doc: "Eye distance: m34 = −1/perspective."),
        Key("translate", .numberList(2...3), doc: "[x, y] or [x, y, z]."),
        Key("rotateX", .angle, doc: "Rotation about x."),
        Key("rotateY", .angle, doc: "Rotation about y."),
        Key("rotate", .angle, doc: "Rotation about z."),
        Key("scale", .anyOf([.number, .numberList(2...3)]), doc: "s or [sx, sy]."),
    ]

    /// A path written as a primitive (UIBezierPath's constructors).
    static let pathPrimitive: [Key] = [
        Key("rect", .rect, doc: "A rectangle."),
        Key("roundedRect", .rect, doc: "A rounded rectangle (with cornerRadius)."),
        Key("cornerRadius", .number, range: .nonNegative("a length"), default: .number(0),
            doc: "The rounded rectangle's corner radius."),
        Key("oval", .rect, doc: "An ellipse in this rectangle."),
        Key("arc", .mapping("arc"), doc: "An arc (UIBezierPath semantics, y down)."),
        Key("polyline", .list(.point), doc: "Straight segments through these points."),
        Key("closed", .bool, default: .bool(false), doc: "Whether the polyline closes."),
        Key("star", .mapping("star"), doc: "A star polygon."),
    ]

    static let svgPath: [Key] = [
        Key("svg", .string, doc: "An SVG file inside the scene's folder: its shapes, mapped from its viewBox into the layer's bounds."),
        Key("element", .string, doc: "Take only the element with this id (a group: everything under it)."),
    ]

    static let arc: [Key] = [
        Key("center", .point, doc: "Center."),
        Key("radius", .number, range: .nonNegative("a length"), doc: "Radius."),
        Key("startAngle", .angle, doc: "Start angle."),
        Key("endAngle", .angle, doc: "End angle."),
        Key("clockwise", .bool, default: .bool(true), doc: "Direction (clockwise on screen, y down)."),
    ]

    static let star: [Key] = [
        Key("center", .point, doc: "Center."),
        Key("points", .number, range: ValueRange(2, nil, reason: "a polygon's points"), doc: "Number of points."),
        Key("outerRadius", .number, range: .nonNegative("a length"), doc: "Radius of the points."),
        Key("innerRadius", .number, range: .nonNegative("a length"), doc: "Radius of the notches."),
    ]
}

/// A rule between the keys of one mapping: `key` cannot be given with any of `excludes`,
/// and needs `requires.key` written as one of `requires.values`.
struct KeyRule: Sendable {
    let key: String
    let excludes: [String]
    let requires: (key: String, values: [String])?
    /// Why the rule holds: the end of its message.
    let why: String

    init(_ key: String, excludes: [String] = [], requires: (key: String, values: [String])? = nil, why: String) {
        self.key = key; self.excludes = excludes; self.requires = requires; self.why = why
    }
}
