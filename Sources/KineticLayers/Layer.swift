import KineticGeometry

/// A layer of the tree, as CALayer and its subclasses: the model values a scene file
/// sets and, after animations are applied, the presentation values a frame draws.
/// One value type serves both, so the presentation tree is a plain copy of the model.
public struct Layer: Equatable, Sendable {
    /// The scene file's `id`, when it has one.
    public var id: String?
    /// Where the layer stands in the file, `layers[2].sublayers[0]`: its name when it
    /// has no id (section 10 of the contract).
    public var place: String
    /// The scene-format `type` (`layer`, `shape`, `gradient`, `text`, `image`, …).
    public var type: LayerType

    public var position: Point = .zero
    public var bounds: Rect = .zero
    public var anchorPoint = Point(0.5, 0.5)
    public var zPosition = 0.0
    /// The anchor point's z (CALayer.anchorPointZ): the layer's plane sits this far
    /// behind the point that `position`/`zPosition` place and `transform` turns about.
    public var anchorPointZ = 0.0
    /// Whether opacity below 1 composites the layer and its sublayers as one flattened
    /// group (CALayer.allowsGroupOpacity, true on iOS); false fades each part on its own.
    public var allowsGroupOpacity = true
    /// Whether the edges of the layer's own drawing are antialiased
    /// (CALayer.allowsEdgeAntialiasing). True by default, unlike iOS: Kinetic has always
    /// drawn them antialiased (docs/extensions.md).
    public var allowsEdgeAntialiasing = true
    /// The edges antialiased while `allowsEdgeAntialiasing` is true
    /// (CALayer.edgeAntialiasingMask).
    public var edgeAntialiasingMask: EdgeAntialiasingMask = .all
    /// Whether the layer and its subtree are drawn into a bitmap of `rasterizationScale`
    /// pixels per point of the layer's own space, then composited (CALayer.shouldRasterize).
    public var shouldRasterize = false
    public var rasterizationScale = 1.0
    /// The part of the contents image drawn, in unit coordinates of the image
    /// (CALayer.contentsRect): a sprite sheet's cell.
    public var contentsRect = Rect(0, 0, 1, 1)
    /// The stretchable middle of the contents, in unit coordinates of the (contentsRect)
    /// image (CALayer.contentsCenter): outside it the image keeps its size — nine-part
    /// stretching.
    public var contentsCenter = Rect(0, 0, 1, 1)
    /// How contents are sampled when drawn smaller / larger than their pixels.
    public var minificationFilter: ContentsFilter = .linear
    public var magnificationFilter: ContentsFilter = .linear
    /// CALayer.minificationFilterBias: accepted; Kinetic draws no mipmap levels to bias.
    public var minificationFilterBias = 0.0
    public var opacity = 1.0
    public var isHidden = false
    /// CALayer.isDoubleSided: false hides the layer (and its sublayers, drawn in its
    /// plane) while it faces away from the viewer (`Layer.hidingBackFaces`).
    public var isDoubleSided = true
    public var backgroundColor: Color? = nil
    public var cornerRadius = 0.0
    /// CALayer.maskedCorners: the corners `cornerRadius` rounds (all four by default).
    public var maskedCorners: CornerMask = .all
    /// CALayer.cornerCurve.
    public var cornerCurve: CornerCurve = .circular
    public var borderWidth = 0.0
    public var borderColor: Color = .black
    public var masksToBounds = false
    public var shadowColor: Color = .black
    public var shadowOpacity = 0.0
    /// CALayer's default shadow falls up (−3 in y-down points), as on iOS.
    public var shadowOffset = Size(0, -3)
    public var shadowRadius = 3.0
    public var shadowPath: BezierPath? = nil
    /// The image asset drawn in the bounds: a resolved file path.
    public var contents: String? = nil
    public var contentsGravity: ContentsGravity = .resize
    /// CALayer's `contentsScale`: pixels of `contents` per point. nil = what the asset's
    /// name says, as UIImage reads it (`name@2x.png` is 2, `@3x` 3), else 1.
    public var contentsScale: Double? = nil
    /// While a `contents` animation blends two images: the image fading out, and how far
    /// `contents` has faded in (0…1). Core Animation cross-fades contents.
    public var contentsCrossFade: ContentsCrossFade? = nil
    public var transform: Transform3D = .identity { didSet { transformParts = nil } }
    /// The components `transform` was built from, when it was built from them (the named
    /// form, `transform.rotation.x` and the other sub-key paths): later sub-key writes
    /// change one component and keep the others exactly, at any angle — a matrix alone
    /// cannot tell rotateY 120° from rotateX 180° + rotateY 60° + rotate 180°.
    public var transformComponents: Transform3D.Components {
        get { transformParts ?? transform.components }
        set {
            transform = newValue.composed
            transformParts = newValue
        }
    }
    private var transformParts: Transform3D.Components?
    public var sublayerTransform: Transform3D = .identity
    public var sublayers: [Layer] = []
    /// Custom animatable numbers (`properties:` in the scene), by name.
    public var properties: [String: Double] = [:]
    /// CAMediaTiming of the layer: its animations (and its sublayers') run in its local time.
    public var timing = LayerTiming()
    /// The subclass part: a shape's path and stroke, a gradient's colors, a text's string.
    public var content: LayerContent = .plain
    /// A color the layer's whole rendering (subtree included) is multiplied by, channel
    /// by channel: what a CAReplicatorLayer's `instanceColor` and color offsets do to a
    /// copy. nil (the default) multiplies by nothing.
    public var colorMultiplier: Color? = nil

    /// CALayer.filters: applied to the layer's rendering (subtree included), in order.
    public var filters: [LayerFilter] = []
    /// CALayer.backgroundFilters: applied to what lies behind the layer, within its
    /// rounded bounds, before the layer draws.
    public var backgroundFilters: [LayerFilter] = []
    /// CALayer.compositingFilter: how the layer's rendering combines with what is behind.
    public var compositingFilter: BlendMode? = nil

    /// The mask layer (in this layer's coordinates). Boxed: a struct cannot hold itself.
    public var mask: Layer? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }
    private var maskStorage: [Layer] = []
    /// Whether the layer has a mask, without copying it out as `mask` does.
    public var hasMask: Bool { !maskStorage.isEmpty }

    public init(id: String? = nil, place: String, type: LayerType = .layer) {
        self.id = id; self.place = place; self.type = type
        switch type {
        case .shape: content = .shape(ShapeStyle())
        case .gradient: content = .gradient(Gradient())
        case .text: content = .text(TextStyle())
        case .replicator: content = .replicator(ReplicatorStyle())
        case .emitter: content = .emitter(EmitterStyle())
        case .layer, .image, .transformLayer: content = .plain
        }
    }

    /// The rounding of the bounds' corners that background, border, clip and shadow share.
    public var corners: RoundedCorners {
        RoundedCorners(radius: cornerRadius, mask: maskedCorners, curve: cornerCurve)
    }

    /// The key `inspect` lists this layer under: its id, or its place.
    public var key: String { id ?? place }

    /// Maps a point of this layer's bounds space into its superlayer's space: the
    /// bounds origin removed, the anchor point moved to `position` (at depth
    /// `zPosition`), and `transform` applied about the anchor point (at depth
    /// `anchorPointZ` in front of the layer's plane), as Core Animation composes a layer.
    /// The depth only shows through a perspective above the layer.
    public var toSuperlayer: Transform3D {
        // A zero anchorPointZ adds no −0 to the matrix.
        Transform3D.translation(-anchorInBounds.x, -anchorInBounds.y, anchorPointZ == 0 ? 0 : -anchorPointZ)
            .concatenating(transform)
            .concatenating(.translation(position.x, position.y, zPosition))
    }

    /// Maps a point of a sublayer's superlayer space (this layer's bounds space) through
    /// `sublayerTransform`, which Core Animation applies about the anchor point — so a
    /// perspective `m34` vanishes towards the anchor, the layer's centre by default.
    public var sublayerSpace: Transform3D {
        guard !sublayerTransform.isIdentity else { return .identity }
        return Transform3D.translation(-anchorInBounds.x, -anchorInBounds.y)
            .concatenating(sublayerTransform)
            .concatenating(.translation(anchorInBounds.x, anchorInBounds.y))
    }

    /// The anchor point in bounds coordinates.
    public var anchorInBounds: Point {
        Point(bounds.origin.x + anchorPoint.x * bounds.size.width,
              bounds.origin.y + anchorPoint.y * bounds.size.height)
    }

    public var shape: ShapeStyle? {
        get { if case .shape(let s) = content { s } else { nil } }
        set { if let newValue { content = .shape(newValue) } }
    }
    public var gradient: Gradient? {
        get { if case .gradient(let g) = content { g } else { nil } }
        set { if let newValue { content = .gradient(newValue) } }
    }
    public var text: TextStyle? {
        get { if case .text(let t) = content { t } else { nil } }
        set { if let newValue { content = .text(newValue) } }
    }
    public var replicator: ReplicatorStyle? {
        get { if case .replicator(let r) = content { r } else { nil } }
        set { if let newValue { content = .replicator(newValue) } }
    }
    public var emitter: EmitterStyle? {
        get { if case .emitter(let e) = content { e } else { nil } }
        set { if let newValue { content = .emitter(newValue) } }
    }

    /// Every layer of the subtree, depth first, self first (masks excluded).
    public func forEach(_ body: (Layer) -> Void) {
        body(self)
        for s in sublayers { s.forEach(body) }
    }
}

public enum LayerType: String, Sendable, CaseIterable {
    case layer, shape, gradient, text, image
    case replicator
    case emitter
    /// CATransformLayer: draws nothing itself; its sublayers share its 3D space (they are
    /// not flattened into its plane) and are drawn back to front by depth.
    case transformLayer
}

/// The subclass-specific part of a layer.
public enum LayerContent: Equatable, Sendable {
    case plain
    case shape(ShapeStyle)
    case gradient(Gradient)
    case text(TextStyle)
    case replicator(ReplicatorStyle)
    /// CAEmitterLayer (Emitter.swift).
    case emitter(EmitterStyle)
}

/// A filter of `filters` or `backgroundFilters` (Core Image's, by its Kinetic name).
public enum LayerFilter: Hashable, Sendable {
    /// CIGaussianBlur; `radius` in points is the Gaussian's standard deviation.
    case gaussianBlur(radius: Double)

    /// The standard deviation of a chain of blurs, in points: variances add.
    public static func blurSigma(_ filters: [LayerFilter]) -> Double {
        filters.reduce(0.0) { sum, filter in
            switch filter { case .gaussianBlur(let r): sum + r * r }
        }.squareRoot()
    }
}

/// CALayer.contentsGravity.
public enum ContentsGravity: String, Sendable, CaseIterable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill
}

/// CAShapeLayer's drawing state.
public struct ShapeStyle: Equatable, Sendable {
    public var path = BezierPath()
    /// nil draws no fill (`fillColor: clear` or none); CAShapeLayer's default is black.
    public var fillColor: Color? = .black
    public var fillRule: FillRule = .nonZero
    public var strokeColor: Color? = nil
    public var lineWidth = 1.0
    public var lineCap: LineCap = .butt
    public var lineJoin: LineJoin = .miter
    public var miterLimit = 10.0
    public var lineDashPattern: [Double] = []
    public var lineDashPhase = 0.0
    public var strokeStart = 0.0
    public var strokeEnd = 1.0
    /// Set when `path` is a named shape rebuilt from its parameters.
    public var namedShape: NamedShapeState? = nil
    public init() {}
}

public enum FillRule: String, Sendable, CaseIterable { case nonZero, evenOdd }

/// CAGradientLayer's state; also a scene background.
public struct Gradient: Equatable, Sendable {
    public var colors: [Color] = []
    /// nil spreads the colors evenly, as CAGradientLayer does.
    public var locations: [Double]? = nil
    public var startPoint = Point(0.5, 0)
    public var endPoint = Point(0.5, 1)
    public var gradientType: GradientType = .axial
    public init() {}
}

public enum GradientType: String, Sendable, CaseIterable { case axial, radial, conic }

/// CATextLayer's state.
public struct TextStyle: Equatable, Sendable {
    public var string = ""
    /// A font family name for Pango, or the path of a font file (`isFontFile`); nil for
    /// the default sans.
    public var font: String? = nil
    public var fontSize = 36.0
    /// CATextLayer's default foreground is opaque white.
    public var foregroundColor: Color = .white
    public var alignmentMode: TextAlignment = .natural
    public var isWrapped = false
    /// How text that does not fit the bounds is cut (CATextLayer.truncationMode).
    public var truncationMode: TextTruncation = .none
    public init() {}

    /// Whether `font` names a font file (TrueType, OpenType or a collection) rather than
    /// a family.
    public static func isFontFile(_ font: String) -> Bool {
        let lower = font.lowercased()
        return [".ttf", ".otf", ".ttc"].contains { lower.hasSuffix($0) }
    }
}

public enum TextAlignment: String, Sendable, CaseIterable { case natural, left, center, right, justified }

/// CATextLayer's truncation modes: where an ellipsis replaces what does not fit.
public enum TextTruncation: String, Sendable, CaseIterable { case none, start, middle, end }

/// CALayer's contents filters. `trilinear` (mipmapped on Apple's GPUs) samples as `linear`
/// here: Cairo's filter already averages the pixels a minified point covers.
public enum ContentsFilter: String, Sendable, CaseIterable { case linear, nearest, trilinear }

/// CALayer.contentsFormat's values. Kinetic accepts them and always draws in 8-bit RGBA.
public enum ContentsFormat: String, Sendable, CaseIterable { case RGBA8Uint, RGBA16Float, gray8Uint }

/// CAReplicatorLayer's state. The layer draws like a plain CALayer; its sublayers are
/// copied `instanceCount` times when a frame's presentation tree is built.
public struct ReplicatorStyle: Equatable, Sendable {
    /// How many copies of the sublayers show, the originals being copy 0.
    public var instanceCount = 1
    /// Copy k's animations run k × instanceDelay seconds later.
    public var instanceDelay = 0.0
    /// Applied once more to each copy than to the one before, about the replicator's
    /// centre (so copy k gets it k times, each in the previous copy's turned axes).
    public var instanceTransform: Transform3D = .identity
    /// Multiplies the copies' colors; copy k adds k × the offsets to its components.
    public var instanceColor: Color = .white
    public var instanceRedOffset = 0.0
    public var instanceGreenOffset = 0.0
    public var instanceBlueOffset = 0.0
    public var instanceAlphaOffset = 0.0
    public init() {}

    /// The most copies a replicator makes: beyond it a frame would not fit in memory.
    public static let maximumInstanceCount = 100_000

    /// An animated or computed count as a whole number of copies: rounded down (an
    /// NSInteger property takes a number so) and kept within 0…`maximumInstanceCount`.
    public static func instanceCount(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, 0), Double(maximumInstanceCount)).rounded(.down))
    }
}

/// What a frame draws behind the layers.
public enum Background: Equatable, Sendable {
    case color(Color)
    case gradient(Gradient)

    /// Whether any background pixel can be less than opaque (a GIF then needs
    /// transparency, an MP4 cannot have it, and the canvas must be cleared first).
    package var mayBeTransparent: Bool {
        switch self {
        case .color(let c): c.alpha < 1
        case .gradient(let g): g.colors.contains { $0.alpha < 1 }
        }
    }
}

/// One frame's presentation tree, ready to rasterize.
public struct SceneFrame: Sendable {
    public var index: Int
    public var time: Double
    /// The canvas in points.
    public var size: Size
    public var background: Background
    /// Root layers, back to front.
    public var layers: [Layer]
    /// Why the frame must not be drawn (a limit met while it was built: `layers` is then
    /// incomplete); nil for a complete frame.
    public var refusal: String?

    public init(index: Int, time: Double, size: Size, background: Background, layers: [Layer]) {
        self.index = index; self.time = time; self.size = size
        self.background = background; self.layers = layers
    }
}

extension SceneFrame {
    /// Whether `other` draws the same pixels: the same canvas, background and layers.
    /// Its index and time are not drawn, so a scene at rest draws frames like this; a
    /// renderer gives them the same bytes.
    public func drawsLike(_ other: SceneFrame) -> Bool {
        refusal == nil && other.refusal == nil && size == other.size && background == other.background
            && layers == other.layers
    }
}

/// A cross-fade of a layer's contents: `from` shows at 1 − `fraction`, `contents` at `fraction`.
public struct ContentsCrossFade: Equatable, Sendable {
    /// The image fading out (nil: none).
    public var from: String?
    public var fraction: Double

    public init(from: String?, fraction: Double) {
        self.from = from; self.fraction = fraction
    }
}

extension Layer {
    /// The scale UIImage gives an asset by its file name: N for `name@Nx.ext`, else 1.
    public static func contentsScale(ofAsset path: String) -> Double {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        guard let at = stem.lastIndex(of: "@"), stem.hasSuffix("x"),
              let n = Int(stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]), (1...9).contains(n) else { return 1 }
        return Double(n)
    }

    /// The pixels per point `contents` image `path` is drawn at.
    public func contentsScale(for path: String) -> Double { contentsScale ?? Self.contentsScale(ofAsset: path) }
}
