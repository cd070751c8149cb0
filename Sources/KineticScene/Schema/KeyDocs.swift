import KineticGeometry
import KineticAnimation
import KineticDynamics
import KineticLayers

/// Each key's value type, range, default and one-line description, by mapping: what the
/// loader's key lists do not say. `SceneSchema` takes the keys themselves from the loader.
enum KeyDocs {
    typealias S = [String: Any]

    // Value types.
    static func ref(_ name: String) -> S { ["$ref": "#/$defs/\(name)"] }
    static let number = ref("number"), angle = ref("angle"), point = ref("point"), size = ref("size")
    static let rect = ref("rect"), color = ref("color"), path = ref("path"), transform = ref("transform")
    static let string: S = ["type": "string"], bool: S = ["type": "boolean"]
    static let strings: S = ["type": "array", "items": ["type": "string"]]
    static let any: S = [:]
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

    static let fraction = number(min: 0, max: 1)
    static let nonNegative = number(min: 0)
    static let positive = number(above: 0)
    static let ids = d(strings, "Layer ids.")

    // The dynamics entries come from DynamicsSchema (DynamicsKeyDocs.swift).
    static let table: [String: [String: S]] = dynamicsTable.merging([
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
        "layer": [
            "id": d(["type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_-]*$"], "Unique name others refer to."),
            "type": d(choice(LayerType.self), "The layer class.", "layer"),
            "frame": d(rect, "Sets position (from anchorPoint) and bounds size."),
            "position": d(point, "Where the anchor point sits in the superlayer, in points."),
            "bounds": d(oneOf(size, rect), "[w, h] or [x, y, w, h] in points."),
            "anchorPoint": d(point, "The point of the bounds (unit coordinates) position refers to.", [0.5, 0.5]),
            "zPosition": d(number, "Depth: orders siblings and takes part in 3D transforms.", 0),
            "opacity": d(fraction, "0 transparent … 1 opaque.", 1),
            "hidden": d(bool, "Not drawn when true.", false),
            "doubleSided": d(bool, "Whether the back of the layer is drawn when turned away.", true),
            "backgroundColor": d(color, "Fill of the bounds.", "clear"),
            "cornerRadius": d(nonNegative, "Radius of the bounds' corners in points.", 0),
            "borderWidth": d(nonNegative, "Border width in points, drawn inside the bounds.", 0),
            "borderColor": d(color, "Border color.", "black"),
            "masksToBounds": d(bool, "Clips sublayers and contents to the rounded bounds.", false),
            "maskedCorners": d(list(choice(CornerMask.names.map(\.0))), "The corners cornerRadius rounds (CACornerMask names; MinY is the top).",
                               CornerMask.names.map(\.0)),
            "cornerCurve": d(choice(CornerCurve.self), "circular, or continuous (the iOS squircle).", "circular"),
            "contentsScale": d(positive, "Pixels of contents per point (an asset named @2x/@3x sets it).", 1),
            "filters": d(list(ref("filter")), "Filters on the layer's rendering and its sublayers: [{gaussianBlur: RADIUS}]."),
            "backgroundFilters": d(list(ref("filter")), "Filters on what is behind the layer, within its outline."),
            "compositingFilter": d(choice(BlendMode.self), "How the layer blends with what is behind it."),
            "begin": d(number, "The layer's beginTime: its local time starts then (CAMediaTiming).", 0),
            "speed": d(number, "Rate of the layer's local time relative to its parent's; 0 pauses the subtree.", 1),
            "timeOffset": d(number, "Added to the layer's local time (CAMediaTiming).", 0),
            "shadowColor": d(color, "Shadow color.", "black"),
            "shadowOpacity": d(fraction, "Shadow opacity (0 draws no shadow).", 0),
            "shadowOffset": d(size, "Shadow offset in points.", [0, -3]),
            "shadowRadius": d(nonNegative, "Shadow blur radius in points.", 3),
            "shadowPath": d(path, "The shadow's shape instead of the layer's alpha."),
            "contents": d(string, "An image asset, relative to the scene file."),
            "contentsGravity": d(choice(ContentsGravity.self), "How contents fit the bounds.", "resize"),
            "mask": d(ref("layer"), "A layer whose alpha masks this one, in this layer's coordinates."),
            "transform": d(transform, "CATransform3D about the anchor point."),
            "sublayerTransform": d(transform, "CATransform3D applied to the sublayers."),
            "sublayers": d(list(ref("layer")), "Child layers, in this layer's bounds coordinates."),
            "properties": d(["type": "object", "additionalProperties": number],
                            "Custom animatable numbers, by name (animate them with keyPath NAME)."),
        ],
        "shape": [
            "path": d(path, "The shape's path (section 3.1)."),
            "fillColor": d(color, "Fill color.", "black"),
            "fillRule": d(choice(FillRule.self), "Which areas the fill covers.", "nonZero"),
            "strokeColor": d(color, "Stroke color (none by default)."),
            "lineWidth": d(nonNegative, "Stroke width in points.", 1),
            "lineCap": d(choice(LineCap.self), "Ends of open strokes.", "butt"),
            "lineJoin": d(choice(LineJoin.self), "Corners of strokes.", "miter"),
            "miterLimit": d(nonNegative, "Longest miter before a bevel, in line widths.", 10),
            "lineDashPattern": d(list(number), "Dash and gap lengths in points."),
            "lineDashPhase": d(number, "Offset into the dash pattern in points.", 0),
            "strokeStart": d(fraction, "Where the stroke starts, as a share of the path's length.", 0),
            "strokeEnd": d(fraction, "Where the stroke ends, as a share of the path's length.", 1),
        ],
        "gradient": [
            "colors": d(list(color), "The gradient's colors."),
            "locations": d(list(fraction), "Where each color sits, 0…1 (evenly spaced by default)."),
            "startPoint": d(point, "Start in unit coordinates of the bounds.", [0.5, 0]),
            "endPoint": d(point, "End in unit coordinates of the bounds.", [0.5, 1]),
            "gradientType": d(choice(GradientType.self), "Axial, radial or conic.", "axial"),
        ],
        "text": [
            "string": d(string, "The text."),
            "font": d(string, "Font family name."),
            "fontSize": d(positive, "Font size in points (Core Animation's default is 36).", 36),
            "foregroundColor": d(color, "Text color.", "white"),
            "alignmentMode": d(choice(TextAlignment.self), "Horizontal alignment.", "natural"),
            "isWrapped": d(bool, "Wraps lines at the bounds' width.", false),
        ],
        "emitter": [
            "emitterPosition": d(point, "Center of the emission shape.", [0, 0]),
            "emitterZPosition": d(number, "Depth of the emission shape's center.", 0),
            "emitterSize": d(size, "Size of the emission shape.", [0, 0]),
            "emitterDepth": d(number, "Depth of the emission shape.", 0),
            "emitterShape": d(choice(EmitterShape.self), "Shape particles are emitted from.", "point"),
            "emitterMode": d(choice(EmitterMode.self), "Which part of the shape emits.", "volume"),
            "renderMode": d(choice(EmitterRenderMode.self), "Order and blending of particles.", "unordered"),
            "birthRate": d(nonNegative, "Multiplies every cell's birth rate.", 1),
            "lifetime": d(nonNegative, "Multiplies every cell's lifetime.", 1),
            "velocity": d(number, "Multiplies every cell's velocity.", 1),
            "scale": d(number, "Multiplies every cell's scale.", 1),
            "spin": d(number, "Multiplies every cell's spin.", 1),
            "seed": d(integer(), "Random seed of this emitter."),
            "emitterCells": d(list(ref("emitterCell")), "The particle kinds (CAEmitterCell)."),
            "beginTime": d(number, "When the emitter's clock starts, in seconds.", 0),
        ],
        "replicator": [
            "instanceCount": d(number(min: 0), "Copies of the sublayers, the original included.", 1),
            "instanceDelay": d(number, "Delay of copy k's animations: k × instanceDelay seconds.", 0),
            "instanceTransform": d(transform, "Applied k times to copy k."),
            "instanceColor": d(color, "Multiplies the copies' colors.", "white"),
            "instanceRedOffset": d(number, "Added to copy k's red multiplier k times.", 0),
            "instanceGreenOffset": d(number, "Added to copy k's green multiplier k times.", 0),
            "instanceBlueOffset": d(number, "Added to copy k's blue multiplier k times.", 0),
            "instanceAlphaOffset": d(number, "Added to copy k's alpha multiplier k times.", 0),
        ],
        "emitterCell": [
            "name": d(string, "Name for emitterCells.NAME.KEY key paths."),
            "enabled": d(bool, "Whether the cell emits.", true),
            "birthRate": d(nonNegative, "Particles per second.", 0),
            "lifetime": d(nonNegative, "Seconds a particle lives.", 0),
            "lifetimeRange": d(nonNegative, "Random ± range of lifetime.", 0),
            "emissionLatitude": d(angle, "Emission direction's angle from the z axis.", 0),
            "emissionLongitude": d(angle, "Emission direction in the x-y plane.", 0),
            "emissionRange": d(angle, "Cone around the emission direction.", 0),
            "velocity": d(number, "Initial speed in points per second.", 0),
            "velocityRange": d(number, "Random ± range of velocity.", 0),
            "xAcceleration": d(number, "Acceleration along x, points/s².", 0),
            "yAcceleration": d(number, "Acceleration along y, points/s².", 0),
            "zAcceleration": d(number, "Acceleration along z, points/s².", 0),
            "scale": d(number, "Size multiplier of contents.", 1),
            "scaleRange": d(number, "Random ± range of scale.", 0),
            "scaleSpeed": d(number, "Change of scale per second.", 0),
            "spin": d(angle, "Rotation speed, radians per second.", 0),
            "spinRange": d(angle, "Random ± range of spin.", 0),
            "color": d(color, "Multiplies the contents' colors.", "white"),
            "redRange": d(number, "Random ± range of red.", 0),
            "greenRange": d(number, "Random ± range of green.", 0),
            "blueRange": d(number, "Random ± range of blue.", 0),
            "alphaRange": d(number, "Random ± range of alpha.", 0),
            "redSpeed": d(number, "Change of red per second.", 0),
            "greenSpeed": d(number, "Change of green per second.", 0),
            "blueSpeed": d(number, "Change of blue per second.", 0),
            "alphaSpeed": d(number, "Change of alpha per second.", 0),
            "contents": d(oneOf(string, ref("cellContents")), "An image asset, or an inline {path, size, fillColor}."),
            "beginTime": d(number, "When the cell starts emitting, seconds into the emitter's clock.", 0),
            "duration": d(number, "How long the cell emits (0: always).", 0),
            "emitterCells": d(list(ref("emitterCell")), "Sub-cells each particle emits."),
        ],
        "cellContents": [
            "path": d(path, "The particle's shape."),
            "size": d(size, "The particle image's size in points."),
            "fillColor": d(color, "The shape's fill.", "white"),
        ],
        "animation": [
            "id": d(string, "Name for `after:` and animationStop events."),
            "layer": d(string, "The layer animated (or $item in an event)."),
            "behavior": d(string, "The behavior animated, instead of a layer."),
            "keyPath": d(string, "The animated property, e.g. position.x, transform.rotation.z, path.progress."),
            "from": d(any, "Start value (default: the current presentation value)."),
            "to": d(any, "End value."),
            "by": d(any, "Change added to the start value, instead of to."),
            "values": d(list(any), "Keyframe values (CAKeyframeAnimation)."),
            "keyTimes": d(list(fraction), "Keyframe times, 0…1 of the duration."),
            "timingFunctions": d(list(any), "Timing function of each keyframe interval."),
            "calculationMode": d(choice(KeyframeAnimation.CalculationMode.self), "How keyframes are interpolated.", "linear"),
            "path": d(path, "Moves position along this path (keyframe animation)."),
            "rotationMode": d(choice(AnimationSpec.RotationMode.self), "Turns the layer along the path."),
            "duration": d(nonNegative, "Seconds of one cycle.", 0.25),
            "begin": d(number, "beginTime: seconds from the scene start (or after `after`).", 0),
            "after": d(string, "Starts when the animation with this id stops."),
            "timingFunction": d(oneOf(choice(AnimationDecoder.timingFunctionNames.keys.sorted()),
                                      ["type": "array", "items": ["type": "number"], "minItems": 4, "maxItems": 4]),
                                "A CAMediaTimingFunction name or cubic Bézier [c1x, c1y, c2x, c2y].", "linear"),
            "repeatCount": d(oneOf(number(min: 0), choice(["forever"])), "Cycles to play, or forever.", 1),
            "autoreverses": d(bool, "Plays each cycle forward then back.", false),
            "speed": d(number, "Rate of the animation's time relative to its layer's (CAMediaTiming).", 1),
            "timeOffset": d(number, "Added to the animation's active time (CAMediaTiming).", 0),
            "repeatDuration": d(oneOf(number(min: 0), choice(["forever"])), "Seconds to repeat for, instead of repeatCount."),
            "fillMode": d(choice(FillMode.self), "Whether the value holds before the begin or after the end.", "forwards"),
            "additive": d(bool, "Adds the animated value to the model value.", false),
            "spring": d(ref("spring"), "A spring (UIView damping or CASpringAnimation)."),
            "oscillation": d(ref("oscillation"), "A damped oscillation from → to."),
            "group": d(list(ref("animation")), "Animations sharing this one's duration, begin and repeatCount."),
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
    ]) { own, _ in own }

    static let actionDocs: [String: S] = [
        "removeAllBehaviors": d(bool, "Removes every behavior."),
        "removeBehaviors": d(strings, "Behavior ids to remove."),
        "addBehaviors": d(list(ref("behavior")), "Behaviors to add."),
        "set": d(["type": "object"], "Values to set, by ID.KEYPATH (a layer's or a behavior's)."),
        "removeLayers": d(strings, "Layer ids to remove ($item allowed)."),
        "animate": d(ref("animation"), "An animation to start now."),
    ]
}
