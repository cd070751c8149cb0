import KineticCairo
import KineticGeometry
import KineticLayers

/// Where a frame's pixels can differ from an earlier frame's, found from the two
/// presentation trees alone: the device ink, before and after, of every layer that
/// changed.
public enum FrameDamage: Equatable, Sendable {
    /// The frames draw the same pixels.
    case none
    /// Only pixels inside this rectangle (whole pixels, within the canvas) can differ.
    case rect(x: Int, y: Int, width: Int, height: Int)
    /// Any pixel can differ, or where is not known cheaply.
    case everything
}

extension Renderer {
    /// Where `frame`, rasterized whole, can differ from `earlier` rasterized whole.
    ///
    /// A changed layer damages the device rectangles it paints in both frames
    /// (`deviceInk`, its shadow included). An unchanged layer paints the same pixels
    /// wherever nothing under or over it changed: Cairo composites pixel by pixel, and
    /// both frames are drawn on the same canvas. A layer whose own properties are
    /// unchanged is looked into when its sublayers draw straight into the pixels under
    /// it (opaque, no mask, shadow or colour multiplier, an affine map), so a moving
    /// sublayer does not damage its whole container.
    ///
    /// `.everything` when either tree has a layer that reads pixels around its own
    /// (filters, backdrops, blend modes, colour multipliers: offscreen images), or a
    /// changed transform layer, projected layer or emitter with particles, whose ink is
    /// not known cheaply.
    public func damage(from earlier: SceneFrame, to frame: SceneFrame) -> FrameDamage {
        guard earlier.refusal == nil, frame.refusal == nil, earlier.size == frame.size,
              earlier.background == frame.background, debug == false else { return .everything }
        guard !LayerRenderer.composesOffscreen(earlier.layers), !LayerRenderer.composesOffscreen(frame.layers) else {
            return .everything
        }
        let (width, height) = pixelSize(of: frame.size)
        let renderer = LayerRenderer(images: ImageSurfaces(images))
        var box: DeviceBox = (.infinity, .infinity, -.infinity, -.infinity)
        guard renderer.damage(from: earlier.layers, to: frame.layers, matrix: (scale, 0, 0, scale, 0, 0),
                              sublayerSpace: .identity, into: &box) else { return .everything }
        // Inks are finite (deviceInk refuses the rest); a NaN must never read as no change.
        guard ![box.x0, box.y0, box.x1, box.y1].contains(where: \.isNaN) else { return .everything }
        let x0 = max(box.x0.rounded(.down), 0), y0 = max(box.y0.rounded(.down), 0)
        let x1 = min(box.x1.rounded(.up), Double(width)), y1 = min(box.y1.rounded(.up), Double(height))
        guard x1 > x0, y1 > y0 else { return .none }
        return .rect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }
}

extension LayerRenderer {
    /// Whether a layer of the trees (masks included) draws through an offscreen image
    /// that reads pixels beyond its own: filters, backdrop filters, blend modes and
    /// colour multipliers.
    static func composesOffscreen(_ layers: [Layer]) -> Bool {
        layers.contains { layer in
            drawsOffscreen(layer) || layer.mask.map { composesOffscreen([$0]) } == true || composesOffscreen(layer.sublayers)
        }
    }

    /// Adds to `box` the device pixels where sibling lists `earlier` and `later` (drawn
    /// under `m`, their superlayer's bounds-to-device map, and `space`, its sublayer
    /// space) can draw differently; false when that is not known.
    func damage(from earlier: [Layer], to later: [Layer], matrix m: Affine, sublayerSpace space: Transform3D,
                into box: inout DeviceBox) -> Bool {
        guard earlier.count == later.count else {
            return (earlier + later).allSatisfy { add(inkOf: $0, matrix: m, sublayerSpace: space, to: &box) }
        }
        for (a, b) in zip(earlier, later) where a != b {
            if let inner = Self.drawsSublayersStraight(a, b, matrix: m, sublayerSpace: space) {
                guard damage(from: a.sublayers, to: b.sublayers, matrix: inner, sublayerSpace: a.sublayerSpace, into: &box) else {
                    return false
                }
            } else {
                guard add(inkOf: a, matrix: m, sublayerSpace: space, to: &box),
                      add(inkOf: b, matrix: m, sublayerSpace: space, to: &box) else { return false }
            }
        }
        return true
    }

    /// The bounds-to-device map of both layers' sublayers when the two differ in their
    /// sublayers alone and those draw straight into the pixels under the layer: visible
    /// and opaque (no group, whose use could change with the sublayers' visibility), no
    /// mask, shadow (cast by the whole subtree) or colour multiplier, not a transform
    /// layer, an affine map in front of the eye. nil otherwise.
    static func drawsSublayersStraight(_ a: Layer, _ b: Layer, matrix m: Affine, sublayerSpace space: Transform3D) -> Affine? {
        guard a.sublayers.count == b.sublayers.count, a.isVisible, a.opacity >= 1, a.mask == nil, a.shadowOpacity <= 0,
              a.colorMultiplier.map({ $0 == .white }) ?? true, a.type != .transformLayer else { return nil }
        var ownA = a, ownB = b
        ownA.sublayers = []; ownB.sublayers = []
        guard ownA == ownB else { return nil }
        let projection = a.projectionToSuperlayer(through: space)
        guard projection.isFinite, projection.m33 > 0, let affine = projection.affine else { return nil }
        return concatenate(affine, m)
    }

    /// Adds to `box` the device pixels `layer` paints (drawn under `m` and `space`, as a
    /// sublayer); false when they are not known cheaply.
    private func add(inkOf layer: Layer, matrix m: Affine, sublayerSpace space: Transform3D, to box: inout DeviceBox) -> Bool {
        guard let ink = deviceInk(ofSublayer: layer, matrix: m, sublayerSpace: space) else { return false }
        if ink.x1 > ink.x0, ink.y1 > ink.y0 { box = Self.union(box, ink) }
        return true
    }
}
