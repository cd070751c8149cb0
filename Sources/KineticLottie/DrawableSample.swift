import KineticGeometry
import KineticLayers

/// What one drawable — a layer's own painting, its border, or one particle — looks like
/// at one frame: where its plane lies on the canvas, its opacity, what it paints in its
/// plane and what clips it. A drawable keeps its `key` from frame to frame, so each becomes
/// one Lottie layer whose properties are the samples' tracks.
struct DrawableSample {
    /// Unique within a frame and stable across frames.
    var key: String
    /// Its plane (a layer's bounds space) → the canvas, in points.
    var projection: PlaneProjection
    /// Inherited opacity × the layer's own (0 while hidden).
    var opacity: Double
    /// Back to front; the same slots, in the same order, at every frame.
    var paints: [Paint]
    /// Clipping outlines (masksToBounds, masks), each in its own plane.
    var clips: [Clip]
    /// The ancestors (and the layer itself) that composite it in a group, outermost first.
    var scopes: [Scope]
    /// The scene key path of the layer it comes from, for refusals and warnings.
    var source: String
    /// The longest side of the plane's content, in its own units: scales the tolerance
    /// of the scale track so that it means 0.05 pt at the content's edge.
    var extent: Double
    /// Set when it shows an image (its plane the image's pixels; no paints).
    var image: ImageReference? = nil
    /// The Kinetic layer whose plane it is drawn in (its ``LayerNode``), and its own plane
    /// → that layer's bounds plane: `projection` is `offset` then the layer's map to the
    /// canvas. Identity for the layer's painting and border; the shadow's offset, the
    /// image's placement, a particle's box otherwise. nil: the scene's background.
    var node: String? = nil
    var offset: PlaneProjection = .identity
}

/// One painted operation in a drawable's plane.
struct Paint {
    enum Kind: Equatable { case fill, stroke, gradient }
    var kind: Kind
    var path: BezierPath
    /// Straight (not premultiplied) colour; alpha 0 paints nothing.
    var color: Color
    var evenOdd = false
    var stroke = StrokeStyle()
    var gradient: GradientPaint? = nil
}

/// A stroke's style, as CAShapeLayer spells it.
struct StrokeStyle: Equatable {
    var width = 1.0
    var cap: LineCap = .butt
    var join: LineJoin = .miter
    var miterLimit = 10.0
    var dash: [Double] = []
    var dashPhase = 0.0
    var start = 0.0
    var end = 1.0
}

/// An axial or radial gradient across a drawable's plane.
struct GradientPaint: Equatable {
    var radial: Bool
    /// Offsets in 0…1 and straight colours, sorted by offset.
    var stops: [(offset: Double, color: Color)]
    var start: Point
    var end: Point

    static func == (a: GradientPaint, b: GradientPaint) -> Bool {
        a.radial == b.radial && a.start == b.start && a.end == b.end && a.stops.count == b.stops.count
            && zip(a.stops, b.stops).allSatisfy { $0.offset == $1.offset && $0.color == $1.color }
    }
}

/// A layer that Core Animation composites as one group with what it holds: its opacity
/// (a layer's painting, shadow, sublayers and border, faded together), or its clip
/// (`mask`, `masksToBounds`). Drawables under one scope share a precomposition.
struct Scope {
    /// `KEY/group` for the opacity, the clip's owner for a clip.
    var owner: String
    /// The clip, also among the drawable's `clips`; nil for the opacity.
    var clip: Clip?
    /// The layer's own opacity (0 while hidden); 1 for a clip.
    var opacity: Double
}

/// An outline that limits what a drawable shows: the rounded bounds of a masksToBounds
/// ancestor, or the silhouette of a mask layer, in that layer's plane.
struct Clip {
    /// Whose clip it is (`KEY/bounds`, `KEY/mask`, …): drawables under the same clip
    /// share one precomposition masked once.
    var owner: String
    var path: BezierPath
    var projection: PlaneProjection
    /// The coverage it lets through (a mask layer's opacity × its fill's alpha).
    var opacity: Double
    /// Whether it cuts its outline away instead of keeping only it.
    var subtract = false
}
