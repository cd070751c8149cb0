import KineticGeometry

/// Every key of every layer type (section 3 of the contract), written once: what the
/// loader accepts and checks, what key paths name, what animations and `set:` reach on
/// the presentation tree, what `inspect` lists and what the docs say all come from here.
/// A new animatable property is one entry here, plus its drawing in the renderer.
public struct LayerSchema: Sendable {
    public let entries: [PropertySpec<Layer>]
    /// Entries by name and alias.
    private let byName: [String: Int]

    public init(entries: [PropertySpec<Layer>]) {
        self.entries = entries
        var byName: [String: Int] = [:]
        for (i, e) in entries.enumerated() {
            for name in [e.name] + e.aliases where byName[name] == nil { byName[name] = i }
        }
        self.byName = byName
    }

    /// The schema of Kinetic's layers.
    public static let standard = LayerSchema(entries: common + shape + gradient + text + emitter + replicator)

    public subscript(name: String) -> PropertySpec<Layer>? { byName[name].map { entries[$0] } }

    /// The keys of a layer mapping of `type`, common keys first, in table order.
    public func fileKeys(for type: LayerType) -> [String] {
        entries.filter { $0.isFileKey && $0.applies(to: type) }.map(\.name)
    }

    /// The keys of one group of the table: the common keys (nil) or a type's own.
    public func fileKeys(ownedBy types: Set<LayerType>?) -> [String] {
        entries.filter { $0.isFileKey && $0.layerTypes == types }.map(\.name)
    }

    /// The animatable key paths by their scene-file spelling (aliases included).
    public var animatableNames: [String] {
        entries.filter(\.isAnimatable).flatMap { [$0.name] + $0.aliases }
    }

    /// The animatable keys a layer of `type` has in its mapping: what `inspect` lists.
    public func animatableFileKeys(for type: LayerType) -> [PropertySpec<Layer>] {
        entries.filter { $0.isAnimatable && $0.isFileKey && $0.applies(to: type) }
    }
}

// MARK: - The table

extension LayerSchema {
    typealias Entry = PropertySpec<Layer>

    private static let shapeTypes: Set<LayerType> = [.shape]
    private static let gradientTypes: Set<LayerType> = [.gradient]
    private static let textTypes: Set<LayerType> = [.text]
    private static let emitterTypes: Set<LayerType> = [.emitter]
    private static let replicatorTypes: Set<LayerType> = [.replicator]

    static let unit = ValueRange.unit("a fraction: 0 is none, 1 all")
    static let length = ValueRange.nonNegative("a length in points; Core Graphics draws nothing sensible below 0")

    /// A transform component as a number key path (`transform.rotation.z`).
    private static func component(_ name: String, aliases: [String] = [], doc: String,
                                  _ read: @escaping @Sendable (Transform3D.Components) -> Double,
                                  _ write: @escaping @Sendable (inout Transform3D.Components, Double) -> Void) -> Entry {
        Entry(name, name.contains("rotation") ? .angle : .number, animatable: true, expressions: true, fileKey: false,
              aliases: aliases, doc: doc,
              get: { .number(read($0.transformComponents)) },
              set: { l, v in if case .number(let n) = v { write(&l.transformComponents, n) } })
    }

    /// A key of the subclass part (`shape`, `gradient`, …) through its key path.
    private static func part<Part: Sendable, T: Sendable>(
        _ name: String, _ kind: PropertyKind, _ partPath: WritableKeyPath<Layer, Part?> & Sendable,
        _ keyPath: WritableKeyPath<Part, T> & Sendable, types: Set<LayerType>,
        wrap: @escaping @Sendable (T) -> AnimatableValue, unwrap: @escaping @Sendable (AnimatableValue) -> T?,
        range: ValueRange? = nil, default defaultValue: DocValue? = nil, expressions: Bool = false, doc: String
    ) -> Entry {
        Entry(name, kind, range: range, default: defaultValue, animatable: true, expressions: expressions, types: types,
              doc: doc,
              get: { $0[keyPath: partPath].map { wrap($0[keyPath: keyPath]) } },
              set: { l, v in if let t = unwrap(v) { l[keyPath: partPath]?[keyPath: keyPath] = t } })
    }

    private static func partNumber<Part: Sendable>(
        _ name: String, _ partPath: WritableKeyPath<Layer, Part?> & Sendable, _ keyPath: WritableKeyPath<Part, Double> & Sendable,
        types: Set<LayerType>, range: ValueRange? = nil, default defaultValue: Double, expressions: Bool = true, doc: String
    ) -> Entry {
        part(name, .number, partPath, keyPath, types: types, wrap: { .number($0) }, unwrap: \.numberValue,
             range: range, default: .number(defaultValue), expressions: expressions, doc: doc)
    }

    /// A key no animation reaches, copied by `set:` from a layer read with its new value.
    private static func partCopied<Part: Sendable, T: Sendable>(
        _ name: String, _ kind: PropertyKind, _ partPath: WritableKeyPath<Layer, Part?> & Sendable,
        _ keyPath: WritableKeyPath<Part, T> & Sendable, types: Set<LayerType>, default defaultValue: DocValue? = nil,
        doc: String
    ) -> Entry {
        Entry(name, kind, default: defaultValue, types: types, doc: doc,
              copy: { source, target in
                  if let value = source[keyPath: partPath]?[keyPath: keyPath] { target[keyPath: partPath]?[keyPath: keyPath] = value }
              })
    }

    /// A choice of the subclass part (`lineCap`), read by its kind and copied by `set:`.
    private static func partOption<Part: Sendable, E: CaseIterable & RawRepresentable & Sendable>(
        _ name: String, _ partPath: WritableKeyPath<Layer, Part?> & Sendable, _ keyPath: WritableKeyPath<Part, E> & Sendable,
        types: Set<LayerType>, default defaultValue: E, doc: String
    ) -> Entry where E.RawValue == String {
        partCopied(name, .choice(names(E.self)), partPath, keyPath, types: types, default: .string(defaultValue.rawValue), doc: doc)
            .assigning { l, v in if case .name(let n) = v, let e = E(rawValue: n) { l[keyPath: partPath]?[keyPath: keyPath] = e } }
    }

    /// A flag of the subclass part (`isWrapped`), read by its kind and copied by `set:`.
    private static func partFlag<Part: Sendable>(
        _ name: String, _ partPath: WritableKeyPath<Layer, Part?> & Sendable, _ keyPath: WritableKeyPath<Part, Bool> & Sendable,
        types: Set<LayerType>, default defaultValue: Bool, doc: String
    ) -> Entry {
        partCopied(name, .bool, partPath, keyPath, types: types, default: .bool(defaultValue), doc: doc)
            .assigning { l, v in if case .bool(let b) = v { l[keyPath: partPath]?[keyPath: keyPath] = b } }
    }

    private static func names<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [String] where E.RawValue == String {
        E.allCases.map(\.rawValue)
    }

    static let common: [Entry] = [
        Entry("id", .string, doc: "Unique name others refer to."),
        Entry("type", .choice(names(LayerType.self)), default: .string("layer"), doc: "The layer class."),
        Entry("frame", .rect, expressions: true, doc: "Sets position (from anchorPoint) and bounds size."),
        .stored("position", .point, \.position, wrap: { .point($0) }, unwrap: \.pointValue, expressions: true,
                doc: "Where the anchor point sits in the superlayer, in points."),
        Entry("position.x", .number, animatable: true, expressions: true, fileKey: false, doc: "The x of position.",
              get: { .number($0.position.x) }, set: { l, v in if let n = v.numberValue { l.position.x = n } }),
        Entry("position.y", .number, animatable: true, expressions: true, fileKey: false, doc: "The y of position.",
              get: { .number($0.position.y) }, set: { l, v in if let n = v.numberValue { l.position.y = n } }),
        Entry("bounds", .sizeOrRect, range: ValueRange.nonNegative("a size: width and height are not negative"),
              animatable: true, expressions: true, doc: "[w, h] or [x, y, w, h] in points.",
              get: { .rect($0.bounds) }, set: { l, v in if case .rect(let r) = v { l.bounds = r } }),
        Entry("bounds.size", .size, range: ValueRange.nonNegative("a size: width and height are not negative"),
              animatable: true, expressions: true, fileKey: false, doc: "The size of bounds.",
              get: { .size($0.bounds.size) }, set: { l, v in if let s = v.sizeValue { l.bounds.size = s } }),
        Entry("bounds.size.width", .number, range: length, animatable: true, expressions: true, fileKey: false,
              doc: "The width of bounds.",
              get: { .number($0.bounds.size.width) }, set: { l, v in if let n = v.numberValue { l.bounds.size.width = n } }),
        Entry("bounds.size.height", .number, range: length, animatable: true, expressions: true, fileKey: false,
              doc: "The height of bounds.",
              get: { .number($0.bounds.size.height) }, set: { l, v in if let n = v.numberValue { l.bounds.size.height = n } }),
        .stored("anchorPoint", .point, \.anchorPoint, wrap: { .point($0) }, unwrap: \.pointValue,
                default: .numbers([0.5, 0.5]), expressions: true,
                doc: "The point of the bounds (unit coordinates) position refers to."),
        .stored("zPosition", .number, \.zPosition, default: 0, doc: "Depth: orders siblings and takes part in 3D transforms."),
        .stored("anchorPointZ", .number, \.anchorPointZ, default: 0,
                doc: "The anchor point's z: a 3D rotation turns about a point this far in front of the layer (behind when negative).")
            .recordedInState(when: { $0.anchorPointZ != 0 }),
        .flag("allowsGroupOpacity", \.allowsGroupOpacity, default: true,
                doc: "Opacity below 1 fades the layer and its sublayers as one group; false fades each on its own."),
        .flag("allowsEdgeAntialiasing", \.allowsEdgeAntialiasing, default: true,
              doc: "Antialiases the edges of the layer's background, contents and border (true by default, unlike iOS).")
            .ignoredByTransformLayer(),
        .optionSet("edgeAntialiasingMask", \.edgeAntialiasingMask, names: EdgeAntialiasingMask.names, default: .all,
                   doc: "The edges antialiased while allowsEdgeAntialiasing is true (CAEdgeAntialiasingMask; Bottom is minY).")
            .ignoredByTransformLayer(),
        .flag("shouldRasterize", \.shouldRasterize, default: false,
                doc: "Draws the layer and its subtree into a bitmap at rasterizationScale, then composites it."),
        .stored("rasterizationScale", .number, \.rasterizationScale,
                range: .positive("pixels per point of the layer's bitmap; past 16 the 2048² offscreen budget lowers it anyway",
                                 atMost: 16),
                default: 1, animatable: false, expressions: false,
                doc: "Pixels per point of a shouldRasterize bitmap: below the scale drawn at, it shows blurred."),
        Entry("contentsRect", .rect, default: .numbers([0, 0, 1, 1]), animatable: true,
              doc: "The part of the contents image drawn, in unit coordinates of the image (a sprite sheet's cell).",
              get: { .rect($0.contentsRect) }, set: { l, v in if case .rect(let r) = v { l.contentsRect = r } })
            .recordedInState(when: { $0.contentsRect != Rect(0, 0, 1, 1) }),
        Entry("contentsCenter", .rect, default: .numbers([0, 0, 1, 1]), animatable: true,
              doc: "The stretchable middle of the contents (unit coordinates); the borders around it keep their size.",
              get: { .rect($0.contentsCenter) }, set: { l, v in if case .rect(let r) = v { l.contentsCenter = r } })
            .recordedInState(when: { $0.contentsCenter != Rect(0, 0, 1, 1) }),
        .option("minificationFilter", \.minificationFilter, default: ContentsFilter.linear,
                doc: "Sampling of contents drawn smaller than their pixels (trilinear samples as linear)."),
        .option("magnificationFilter", \.magnificationFilter, default: ContentsFilter.linear,
                doc: "Sampling of contents drawn larger than their pixels: nearest gives the pixel-art look."),
        .plainNumber("minificationFilterBias", \.minificationFilterBias, default: 0,
                doc: "Accepted; changes nothing Kinetic draws (it draws no mipmap levels to bias)."),
        .accepted("drawsAsynchronously", .bool, default: .bool(false),
              doc: "Accepted; changes nothing Kinetic draws (every frame is drawn in full before it is written)."),
        .accepted("needsDisplayOnBoundsChange", .bool, default: .bool(false),
              doc: "Accepted; changes nothing Kinetic draws (a layer's content is drawn at its bounds of each frame)."),
        .accepted("contentsFormat", .choice(names(ContentsFormat.self)), default: .string("RGBA8Uint"),
              doc: "Accepted; changes nothing Kinetic draws (it draws in 8-bit RGBA)."),
        .stored("opacity", .number, \.opacity, range: unit, default: 1, doc: "0 transparent … 1 opaque."),
        .stored("hidden", .bool, \.isHidden, wrap: { .bool($0) }, unwrap: \.boolValue, default: .bool(false),
                doc: "Not drawn when true."),
        .flag("doubleSided", \.isDoubleSided, default: true,
                doc: "Whether the back of the layer is drawn when turned away."),
        Entry("backgroundColor", .color, default: .string("clear"), animatable: true, doc: "Fill of the bounds.",
              get: { .color($0.backgroundColor ?? .clear) }, set: { l, v in if let c = v.colorValue { l.backgroundColor = c } })
            .recordedInState(when: { $0.backgroundColor != nil })
            .ignoredByTransformLayer(),
        .stored("cornerRadius", .number, \.cornerRadius, range: length, default: 0,
                doc: "Radius of the bounds' corners in points.")
            .ignoredByTransformLayer(),
        .optionSet("maskedCorners", \.maskedCorners, names: CornerMask.names, default: .all,
                doc: "The corners cornerRadius rounds (CACornerMask names; MinY is the top).")
            .ignoredByTransformLayer(),
        .option("cornerCurve", \.cornerCurve, default: CornerCurve.circular,
                doc: "circular, or continuous (the iOS squircle).")
            .ignoredByTransformLayer(),
        .stored("borderWidth", .number, \.borderWidth, range: length, default: 0,
                doc: "Border width in points, drawn inside the bounds.")
            .recordedInState(when: { $0.borderWidth > 0 })
            .ignoredByTransformLayer(),
        .stored("borderColor", .color, \.borderColor, wrap: { .color($0) }, unwrap: \.colorValue, default: .string("black"),
                doc: "Border color.")
            .recordedInState(when: { $0.borderWidth > 0 })
            .ignoredByTransformLayer(),
        .flag("masksToBounds", \.masksToBounds, default: false,
                doc: "Clips sublayers and contents to the rounded bounds.")
            .ignoredByTransformLayer(),
        .stored("shadowColor", .color, \.shadowColor, wrap: { .color($0) }, unwrap: \.colorValue, default: .string("black"),
                doc: "Shadow color.")
            .ignoredByTransformLayer(),
        .stored("shadowOpacity", .number, \.shadowOpacity, range: unit, default: 0, doc: "Shadow opacity (0 draws no shadow).")
            .ignoredByTransformLayer(),
        .stored("shadowOffset", .size, \.shadowOffset, wrap: { .size($0) }, unwrap: \.sizeValue, default: .numbers([0, -3]),
                expressions: true, doc: "Shadow offset in points.")
            .ignoredByTransformLayer(),
        .stored("shadowRadius", .number, \.shadowRadius, range: length, default: 3, doc: "Shadow blur radius in points.")
            .ignoredByTransformLayer(),
        .copied("shadowPath", .path, \.shadowPath, doc: "The shadow's shape instead of the layer's alpha.")
            .ignoredByTransformLayer(),
        .stored("contents", .image, \.contents, wrap: { .image($0) },
                unwrap: { if case .image(let p) = $0 { p } else { nil } },
                doc: "An image asset, relative to the scene file (animations cross-fade it).")
            .recordedInState(when: { $0.contents != nil })
            .readByItsDecoder()
            .ignoredByTransformLayer(),
        .option("contentsGravity", \.contentsGravity, default: ContentsGravity.resize,
                doc: "How contents fit the bounds.")
            .ignoredByTransformLayer(),
        Entry("mask", .layer, doc: "A layer whose alpha masks this one, in this layer's coordinates.")
            .ignoredByTransformLayer(),
        Entry("transform", .transform, animatable: true, expressions: true, doc: "CATransform3D about the anchor point.",
              get: { .transform($0.transform) }, set: { l, v in if let t = v.transformValue { l.transform = t } })
            .readByItsDecoder(),
        component("transform.rotation.x", doc: "Rotation about x, radians.", { $0.rotationX }, { $0.rotationX = $1 }),
        component("transform.rotation.y", doc: "Rotation about y, radians.", { $0.rotationY }, { $0.rotationY = $1 }),
        component("transform.rotation.z", aliases: ["transform.rotation"], doc: "Rotation about z, radians.",
                  { $0.rotationZ }, { $0.rotationZ = $1 }),
        component("transform.scale", doc: "Scale along x, y and z.", { $0.sx }, { $0.sx = $1; $0.sy = $1; $0.sz = $1 }),
        component("transform.scale.x", doc: "Scale along x.", { $0.sx }, { $0.sx = $1 }),
        component("transform.scale.y", doc: "Scale along y.", { $0.sy }, { $0.sy = $1 }),
        component("transform.translation.x", doc: "Translation along x, points.", { $0.tx }, { $0.tx = $1 }),
        component("transform.translation.y", doc: "Translation along y, points.", { $0.ty }, { $0.ty = $1 }),
        component("transform.translation.z", doc: "Translation along z, points.", { $0.tz }, { $0.tz = $1 }),
        .stored("sublayerTransform", .transform, \.sublayerTransform, wrap: { .transform($0) }, unwrap: \.transformValue,
                expressions: true, doc: "CATransform3D applied to the sublayers.")
            .recordedInState(when: { !$0.sublayerTransform.isIdentity }),
        Entry("sublayers", .layers, doc: "Child layers, in this layer's bounds coordinates."),
        Entry("properties", .numberMap, expressions: true,
              doc: "Custom animatable numbers, by name (animate them with keyPath NAME)."),
        Entry("begin", .number, default: .number(0),
              doc: "The layer's beginTime: its local time starts then (CAMediaTiming).",
              set: { l, v in if let n = v.numberValue { l.timing.begin = n } }),
        Entry("speed", .number, range: .nonNegative("playing backwards is not supported; 0 pauses"), default: .number(1),
              doc: "Rate of the layer's local time relative to its parent's; 0 pauses the subtree.",
              set: { l, v in if let n = v.numberValue { l.timing.speed = n } }),
        Entry("timeOffset", .number, default: .number(0), doc: "Added to the layer's local time (CAMediaTiming).",
              set: { l, v in if let n = v.numberValue { l.timing.timeOffset = n } }),
        Entry("contentsScale", .number, range: .positive("pixels per point"), default: .number(1),
              doc: "Pixels of contents per point (an asset named @2x/@3x sets it).",
              set: { l, v in if let n = v.numberValue { l.contentsScale = n } }),
        .filters("filters", \.filters, doc: "Filters on the layer's rendering and its sublayers: [{gaussianBlur: RADIUS}].")
            .ignoredByTransformLayer(),
        .filters("backgroundFilters", \.backgroundFilters, doc: "Filters on what is behind the layer, within its outline.")
            .ignoredByTransformLayer(),
        .option("compositingFilter", \.compositingFilter,
                doc: "How the layer blends with what is behind it.")
            .ignoredByTransformLayer(),
    ]

    static let shape: [Entry] = [
        Entry("path", .path, animatable: true, expressions: true, types: shapeTypes, doc: "The shape's path (section 3.1).",
              get: { $0.shape.map { .path($0.path) } },
              set: { l, v in if case .path(let p) = v { l.shape?.path = p } })
            .recordedInState(when: { _ in false })
            .readByItsDecoder(),
        Entry("fillColor", .color, default: .string("black"), animatable: true, types: shapeTypes, allowsNone: true,
              doc: "Fill color (~ fills nothing).",
              get: { $0.shape.map { .color($0.fillColor ?? .clear) } },
              set: { l, v in if let c = v.colorValue { l.shape?.fillColor = c } })
            .readByItsDecoder(),
        partOption("fillRule", \.shape, \.fillRule, types: shapeTypes,
                   default: FillRule.nonZero, doc: "Which areas the fill covers."),
        Entry("strokeColor", .color, animatable: true, types: shapeTypes, allowsNone: true,
              doc: "Stroke color (none by default; ~ strokes nothing).",
              get: { $0.shape.map { .color($0.strokeColor ?? .clear) } },
              set: { l, v in if let c = v.colorValue { l.shape?.strokeColor = c } })
            .readByItsDecoder(),
        partNumber("lineWidth", \.shape, \.lineWidth, types: shapeTypes, range: length, default: 1,
                   doc: "Stroke width in points."),
        partOption("lineCap", \.shape, \.lineCap, types: shapeTypes, default: LineCap.butt,
                   doc: "Ends of open strokes."),
        partOption("lineJoin", \.shape, \.lineJoin, types: shapeTypes,
                   default: LineJoin.miter, doc: "Corners of strokes."),
        partNumber("miterLimit", \.shape, \.miterLimit, types: shapeTypes,
                   range: .nonNegative("a ratio of lengths"), default: 10, doc: "Longest miter before a bevel, in line widths.")
            .recordedInState(when: { _ in false }),
        partCopied("lineDashPattern", .numbers, \.shape, \.lineDashPattern, types: shapeTypes,
                   doc: "Dash and gap lengths in points (not negative, not all zero)."),
        partNumber("lineDashPhase", \.shape, \.lineDashPhase, types: shapeTypes, default: 0,
                   doc: "Offset into the dash pattern in points."),
        partNumber("strokeStart", \.shape, \.strokeStart, types: shapeTypes, range: .unit("a share of the path's length"),
                   default: 0, doc: "Where the stroke starts, as a share of the path's length."),
        partNumber("strokeEnd", \.shape, \.strokeEnd, types: shapeTypes, range: .unit("a share of the path's length"),
                   default: 1, doc: "Where the stroke ends, as a share of the path's length."),
    ]

    static let gradient: [Entry] = [
        part("colors", .colors, \.gradient, \.colors, types: gradientTypes, wrap: { .colors($0) },
             unwrap: { if case .colors(let c) = $0 { c } else { nil } }, doc: "The gradient's colors."),
        Entry("locations", .numbers, range: .unit("unit positions along the axis"), animatable: true, expressions: true,
              types: gradientTypes, doc: "Where each color sits, 0…1 (evenly spaced by default).",
              get: { $0.gradient.map { g in .numbers(g.locations ?? Layer.evenLocations(g.colors.count)) } },
              set: { l, v in if case .numbers(let n) = v { l.gradient?.locations = n } })
            .readByItsDecoder(),
        part("startPoint", .point, \.gradient, \.startPoint, types: gradientTypes, wrap: { .point($0) },
             unwrap: \.pointValue, default: .numbers([0.5, 0]), expressions: true, doc: "Start in unit coordinates of the bounds."),
        part("endPoint", .point, \.gradient, \.endPoint, types: gradientTypes, wrap: { .point($0) },
             unwrap: \.pointValue, default: .numbers([0.5, 1]), expressions: true, doc: "End in unit coordinates of the bounds."),
        partOption("gradientType", \.gradient, \.gradientType, types: gradientTypes,
                   default: GradientType.axial, doc: "Axial, radial or conic."),
    ]

    static let text: [Entry] = [
        partCopied("string", .string, \.text, \.string, types: textTypes, doc: "The text."),
        partCopied("font", .string, \.text, \.font, types: textTypes, doc: "Font family name, or a font file beside the scene."),
        partNumber("fontSize", \.text, \.fontSize, types: textTypes,
                   range: .positive("Pango's sizes end near 1e6 pt; past 10000 a glyph outgrows any canvas", atMost: 10_000),
                   default: 36, doc: "Font size in points (Core Animation's default is 36)."),
        part("foregroundColor", .color, \.text, \.foregroundColor, types: textTypes, wrap: { .color($0) },
             unwrap: \.colorValue, default: .string("white"), doc: "Text color."),
        partOption("alignmentMode", \.text, \.alignmentMode, types: textTypes,
                   default: TextAlignment.natural, doc: "Horizontal alignment."),
        partFlag("isWrapped", \.text, \.isWrapped, types: textTypes, default: false,
                   doc: "Wraps lines at the bounds' width."),
        partOption("truncationMode", \.text, \.truncationMode, types: textTypes,
                   default: TextTruncation.none,
                   doc: "Where an ellipsis replaces text that does not fit: each line at the bounds' width, "
                       + "or (isWrapped) the last line that fits the height."),
    ]

    static let emitter: [Entry] = [
        part("emitterPosition", .point, \.emitter, \.emitterPosition, types: emitterTypes, wrap: { .point($0) },
             unwrap: \.pointValue, default: .numbers([0, 0]), expressions: true, doc: "Center of the emission shape."),
        partNumber("emitterZPosition", \.emitter, \.emitterZPosition, types: emitterTypes, default: 0,
                   doc: "Depth of the emission shape's center.")
            .recordedInState(when: { _ in false }),
        part("emitterSize", .size, \.emitter, \.emitterSize, types: emitterTypes, wrap: { .size($0) }, unwrap: \.sizeValue,
             range: .nonNegative("a size"), default: .numbers([0, 0]), expressions: true, doc: "Size of the emission shape.")
            .recordedInState(when: { _ in false }),
        partNumber("emitterDepth", \.emitter, \.emitterDepth, types: emitterTypes, range: .nonNegative("a length"),
                   default: 0, doc: "Depth of the emission shape.")
            .recordedInState(when: { _ in false }),
        partOption("emitterShape", \.emitter, \.emitterShape, types: emitterTypes,
                   default: EmitterShape.point, doc: "Shape particles are emitted from."),
        partOption("emitterMode", \.emitter, \.emitterMode, types: emitterTypes,
                   default: EmitterMode.volume, doc: "Which part of the shape emits."),
        partOption("renderMode", \.emitter, \.renderMode, types: emitterTypes,
                   default: EmitterRenderMode.unordered, doc: "Order and blending of particles."),
        partNumber("birthRate", \.emitter, \.birthRate, types: emitterTypes,
                   range: .nonNegative("particles are born, never unborn"), default: 1,
                   doc: "Multiplies every cell's birth rate."),
        partNumber("lifetime", \.emitter, \.lifetime, types: emitterTypes, range: .nonNegative("a duration"), default: 1,
                   doc: "Multiplies every cell's lifetime.")
            .recordedInState(when: { _ in false }),
        partNumber("velocity", \.emitter, \.velocity, types: emitterTypes, default: 1, doc: "Multiplies every cell's velocity.")
            .recordedInState(when: { _ in false }),
        partNumber("scale", \.emitter, \.scale, types: emitterTypes, default: 1, doc: "Multiplies every cell's scale.")
            .recordedInState(when: { _ in false }),
        partNumber("spin", \.emitter, \.spin, types: emitterTypes, default: 1, doc: "Multiplies every cell's spin.")
            .recordedInState(when: { _ in false }),
        Entry("seed", .integer, range: .nonNegative("a seed is unsigned"), expressions: true, types: emitterTypes,
              doc: "Random seed of this emitter (mixed with the scene's)."),
        Entry("emitterCells", .cells, types: emitterTypes, doc: "The particle kinds (CAEmitterCell)."),
        Entry("beginTime", .number,
              range: ValueRange(-3600, 86_400, reason: "a negative beginTime pre-runs the emitter second by second: at most an hour"),
              default: .number(0), expressions: true, types: emitterTypes, doc: "When the emitter's clock starts, in seconds.",
              set: { l, v in if let n = v.numberValue { l.emitter?.beginTime = n } }),
    ]

    static let replicator: [Entry] = [
        Entry("instanceCount", .integer,
              range: ValueRange(0, Double(ReplicatorStyle.maximumInstanceCount),
                                reason: "copies of the sublayers; beyond the maximum a frame would not fit in memory"),
              default: .number(1), animatable: true, expressions: true, types: replicatorTypes,
              doc: "Copies of the sublayers, the original included.",
              get: { $0.replicator.map { .number(Double($0.instanceCount)) } },
              set: { l, v in if let n = v.numberValue { l.replicator?.instanceCount = ReplicatorStyle.instanceCount(n) } })
            .readByItsDecoder(),
        partNumber("instanceDelay", \.replicator, \.instanceDelay, types: replicatorTypes, default: 0,
                   doc: "Delay of copy k's animations: k × instanceDelay seconds."),
        part("instanceTransform", .transform, \.replicator, \.instanceTransform, types: replicatorTypes,
             wrap: { .transform($0) }, unwrap: \.transformValue, expressions: true, doc: "Applied k times to copy k."),
        part("instanceColor", .color, \.replicator, \.instanceColor, types: replicatorTypes, wrap: { .color($0) },
             unwrap: \.colorValue, default: .string("white"), doc: "Multiplies the copies' colors."),
        partNumber("instanceRedOffset", \.replicator, \.instanceRedOffset, types: replicatorTypes, default: 0,
                   doc: "Added to copy k's red multiplier k times.")
            .recordedInState(when: { _ in false }),
        partNumber("instanceGreenOffset", \.replicator, \.instanceGreenOffset, types: replicatorTypes, default: 0,
                   doc: "Added to copy k's green multiplier k times.")
            .recordedInState(when: { _ in false }),
        partNumber("instanceBlueOffset", \.replicator, \.instanceBlueOffset, types: replicatorTypes, default: 0,
                   doc: "Added to copy k's blue multiplier k times.")
            .recordedInState(when: { _ in false }),
        partNumber("instanceAlphaOffset", \.replicator, \.instanceAlphaOffset, types: replicatorTypes, default: 0,
                   doc: "Added to copy k's alpha multiplier k times.")
            .recordedInState(when: { _ in false }),
    ]
}
