import Foundation
import KineticGeometry
import KineticLayers
import KineticRender

/// A frame's presentation tree as the flat list of drawables a Lottie composition
/// stacks, back to front, in the order the renderer paints them: a layer's own painting
/// (shadow aside: background, subclass content), its sublayers, then its border.
///
/// Each drawable carries its whole map to the canvas (what Core Animation inherits through
/// the tree — transforms, sublayer transforms, opacity, replicator colours, clips — is
/// composed here, frame by frame), and the layer it is drawn in: the frame's
/// ``LayerNode``s say where each layer lies in its superlayer, so that the export can
/// parent a drawable to its layer's Lottie null instead when every map on the way is a
/// rotation and scale.
struct FrameFlattening {
    /// Glyph outlines of a text layer, in its bounds space, each glyph placed as the
    /// renderer draws it on the canvas the projection maps the bounds onto, or as Pango
    /// lays it out without one (the CLI lends the renderer's text layout; nil draws no text).
    var glyphs: ((TextStyle, Rect, PlaneProjection?) -> BezierPath)?
    /// The map each text layer's glyphs are placed by: its map to the canvas at the first
    /// frame it is drawn unscaled and unturned (a translation), kept while it moves. The
    /// renderer puts glyphs on whole pixels, so a still label is drawn where
    /// `render --scale 1` draws it; following a moving one's placement frame by frame would
    /// write all its glyphs again at every frame. Until such a frame (a label growing from
    /// nothing, a turned one) glyphs keep Pango's layout: a pixel there is not a unit of the
    /// layer's, and whole pixels of a tiny first frame would throw glyphs far apart later.
    private(set) var glyphPlacement: [String: PlaneProjection] = [:]
    /// A text layer's colour bitmap glyphs (emoji), which have no outline, as the pixels the
    /// renderer paints on the device the placement maps the bounds onto (the CLI lends the
    /// renderer's; nil: none, and the outlines hold what `glyphs` gives).
    var colorGlyphs: ((TextStyle, Rect, PlaneProjection) -> [ColorGlyphImage])?
    /// The copies of transform layers' leaves listed so far (`visitSiblings`).
    private(set) var transformCopies: Set<String> = []
    /// The colour glyphs' images by their PNG bytes: a repeated emoji is one asset.
    private(set) var glyphImages: [[UInt8]: ImageReference] = [:]
    /// The glyph assets made since the exporter last took them, in the order made.
    var newGlyphAssets: [(asset: ImageAsset, source: String)] = []
    /// The embedded images by contents path (those loaded; a layer whose image is not
    /// here shows none).
    var images: [String: ImageReference] = [:]

    /// The drawables of `frame`, back to front.
    func drawables(of frame: SceneFrame) -> [DrawableSample] {
        var copy = self
        return copy.flatten(frame).drawables
    }

    /// The drawables of `frame`, back to front, and its layers' nodes by layer key.
    mutating func flatten(_ frame: SceneFrame) -> (drawables: [DrawableSample], nodes: [String: LayerNode]) {
        var out: [DrawableSample] = []
        var nodes: [String: LayerNode] = [:]
        visitSiblings(frame.layers, time: frame.time, parentSpace: .identity, parentToCanvas: .identity, parentNode: nil, alpha: 1,
                      tint: nil, clips: [], scopes: [], into: &out, nodes: &nodes)
        return (out, nodes)
    }

    /// Siblings back to front as the renderer draws them: by `zPosition`, and a transform
    /// layer as its leaves (it draws nothing itself), which Core Animation sorts by depth
    /// at every frame. Lottie's layer order is fixed, so each of a transform layer's n
    /// leaves has a copy in each of n slots (keys `KEY@slot`, back to front) and shows in
    /// the one its depth gives it at that frame. At a frame with a copy not seen before all
    /// n² are listed, so the export stacks them slot by slot.
    private mutating func visitSiblings(_ layers: [Layer], time: Double, parentSpace: Transform3D, parentToCanvas: PlaneProjection,
                                        parentNode: String?, alpha: Double, tint: Color?, clips: [Clip], scopes: [Scope],
                                        into out: inout [DrawableSample], nodes: inout [String: LayerNode]) {
        for layer in Layer.drawOrder(layers) {
            guard layer.type == .transformLayer else {
                visit(layer, time: time, parentSpace: parentSpace, parentToCanvas: parentToCanvas, parentNode: parentNode, alpha: alpha,
                      tint: tint, clips: clips, scopes: scopes, into: &out, nodes: &nodes)
                continue
            }
            let leaves = layer.sharedSpace(alpha: alpha, space: parentSpace)
            let slots = leaves.indices
            var slotOf: [Int: Int] = [:]
            for (slot, leaf) in leaves.enumerated() { slotOf[leaf.index] = slot }
            let inFileOrder = leaves.sorted { $0.index < $1.index }
            let listsAll = inFileOrder.contains { leaf in slots.contains { !transformCopies.contains(leaf.layer.key + "@\($0)") } }
            for slot in slots {
                for leaf in inFileOrder where listsAll || slotOf[leaf.index] == slot {
                    let copy = Self.renamed(leaf.layer, suffix: "@\(slot)")
                    transformCopies.insert(copy.key)
                    visit(copy, time: time, parentSpace: leaf.space, parentToCanvas: parentToCanvas, parentNode: parentNode,
                          alpha: slotOf[leaf.index] == slot ? leaf.alpha : 0, tint: tint, clips: clips, scopes: scopes,
                          into: &out, nodes: &nodes)
                }
            }
        }
    }

    /// `layer` and its subtree keyed `KEY + suffix`.
    private static func renamed(_ layer: Layer, suffix: String) -> Layer {
        var copy = layer
        copy.id = layer.key + suffix
        copy.sublayers = layer.sublayers.map { renamed($0, suffix: suffix) }
        return copy
    }

    /// The node of `layer` under the node `parent` whose sublayer space is `parentSpace`:
    /// its own map, hung from the superlayer's `KEY/sublayers` node when that node and it
    /// compose to the renderer's map (no depth between them: a perspective sees `zPosition`
    /// and a 3D transform's depth, which the flat node would drop), else the whole map
    /// hung from the superlayer itself.
    private static func node(of layer: Layer, parent: String?, parentSpace: Transform3D, map: PlaneProjection) -> LayerNode {
        guard let parent, !parentSpace.isIdentity else { return LayerNode(parent: parent, local: map) }
        let own = PlaneProjection(layer.toSuperlayer)
        let composed = own.concatenating(PlaneProjection(parentSpace))
        let a = [composed.m11, composed.m12, composed.m13, composed.m21, composed.m22, composed.m23, composed.m31, composed.m32, composed.m33]
        let b = [map.m11, map.m12, map.m13, map.m21, map.m22, map.m23, map.m31, map.m32, map.m33]
        let same = zip(a, b).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0), abs($1)) }
        return same ? LayerNode(parent: LayerNode.sublayers(of: parent), local: own) : LayerNode(parent: parent, local: map)
    }

    private mutating func visit(_ layer: Layer, time: Double, parentSpace: Transform3D, parentToCanvas: PlaneProjection, parentNode: String?,
                       alpha: Double, tint: Color?, clips: [Clip], scopes: [Scope], into out: inout [DrawableSample],
                       nodes: inout [String: LayerNode]) {
        let opacity = layer.isHidden ? 0 : alpha * min(max(layer.opacity, 0), 1)
        let map = layer.projectionToSuperlayer(through: parentSpace)
        let toCanvas = map.concatenating(parentToCanvas)
        nodes[layer.key] = Self.node(of: layer, parent: parentNode, parentSpace: parentSpace, map: map)
        if !layer.sublayers.isEmpty, !layer.sublayerSpace.isIdentity {
            nodes[LayerNode.sublayers(of: layer.key)] = LayerNode(parent: layer.key, local: PlaneProjection(layer.sublayerSpace))
        }
        let tint = Self.combine(tint, layer.colorMultiplier)
        var clips = clips
        // The layer's opacity acts on it and all it holds at once, then its mask.
        var scopes = scopes + [Scope(owner: layer.key + "/group", clip: nil, opacity: layer.isHidden ? 0 : min(max(layer.opacity, 0), 1))]
        if let mask = layer.mask, let clip = Self.silhouette(of: mask, in: toCanvas, owner: layer.key + "/mask") {
            clips.append(clip)
            scopes.append(Scope(owner: clip.owner, clip: clip, opacity: 1))
        }
        // The border is drawn after the clip is lifted; the rest is clipped.
        let borderClips = clips, borderScopes = scopes
        if layer.masksToBounds {
            let clip = Clip(owner: layer.key + "/bounds", path: layer.corners.path(in: layer.bounds), projection: toCanvas, opacity: 1)
            clips.append(clip)
            scopes.append(Scope(owner: clip.owner, clip: clip, opacity: 1))
        }
        let extent = max(1, layer.bounds.width, layer.bounds.height)
        let source = Self.sourcePath(of: layer)
        // The shadow, under the layer; a masksToBounds layer casts none (as on iOS).
        if layer.shadowOpacity > 0, layer.shadowColor.alpha > 0, !layer.masksToBounds {
            let color = Self.tinted(layer.shadowColor, tint)
            let cast = Color(red: color.red, green: color.green, blue: color.blue,
                             alpha: color.alpha * min(layer.shadowOpacity, 1))
            let offset = PlaneProjection(affine: 1, 0, 0, 1, layer.shadowOffset.width, layer.shadowOffset.height)
            // An emitter's particles cast theirs too (crisp only: LottieRefusals refuses a
            // blurred one), one copy each under all of them.
            if let emitter = layer.emitter, layer.shadowPath == nil {
                out += Self.particles(of: emitter, layer: layer, time: time, toCanvas: toCanvas, opacity: opacity, tint: tint,
                                      clips: borderClips, scopes: borderScopes, shadow: (cast, offset))
            }
            let silhouette = ShadowBands.silhouette(of: layer, glyphs: glyphs)
            let lineWidth = ShadowBands.strokeOnlyWidth(of: layer)
            let paints = ShadowBands.paints(silhouette: silhouette, lineWidth: lineWidth, color: cast,
                                            sigma: max(0, layer.shadowRadius))
            // Core Animation applies a translucent layer's opacity to layer and shadow as
            // one group: the shadow under the layer's (opaque) silhouette does not show
            // through. Drawn apart, it must be cut away there.
            var shadowClips = borderClips
            if opacity < 1, !silhouette.isEmpty, lineWidth == nil {
                shadowClips.append(Clip(owner: layer.key + "/shadow", path: silhouette, projection: toCanvas, opacity: 1, subtract: true))
            }
            if layer.emitter == nil || !silhouette.isEmpty {
                out.append(DrawableSample(key: layer.key + "/shadow", projection: offset.concatenating(toCanvas), opacity: opacity,
                                          paints: paints, clips: shadowClips, scopes: borderScopes, source: source + ".shadowOpacity",
                                          extent: extent + 6 * max(0, layer.shadowRadius), node: layer.key, offset: offset))
            }
        }
        // A text layer's backing store is bounds-sized: its glyphs are clipped to them.
        var bodyClips = clips
        if layer.text != nil, !layer.masksToBounds {
            bodyClips.append(Clip(owner: layer.key + "/text", path: RoundedCorners(radius: 0).path(in: layer.bounds), projection: toCanvas, opacity: 1))
        }
        out.append(DrawableSample(key: layer.key, projection: toCanvas, opacity: opacity,
                                  paints: bodyPaints(of: layer, toCanvas: toCanvas, tint: tint), clips: bodyClips, scopes: scopes, source: source,
                                  extent: extent, node: layer.key))
        if case .text(let style) = layer.content, let colorGlyphs, let placement = glyphPlacement[layer.key] {
            // Over the outlines, each glyph its pixels (one a unit of bounds space) on its rect.
            for (index, glyph) in colorGlyphs(style, layer.bounds, placement).enumerated() {
                var image = glyphImage(glyph, source: source)
                image.tinted = tint.map { $0 != .white } ?? false
                let offset = PlaneProjection(affine: 1, 0, 0, 1, glyph.rect.minX, glyph.rect.minY)
                out.append(DrawableSample(key: layer.key + "/glyph/\(index)", projection: offset.concatenating(toCanvas), opacity: opacity,
                                          paints: [], clips: bodyClips, scopes: scopes, source: source + ".string",
                                          extent: Double(max(image.width, image.height)), image: image, node: layer.key,
                                          offset: offset))
            }
        }
        // Contents draw over the background, as the renderer draws them.
        if ImageContents.isMapped(layer), let path = layer.contents, var image = images[path] {
            image.tinted = tint.map { $0 != .white } ?? false
            // A part (contentsRect) or a nine-part piece is the whole image placed so its
            // pixels fill their rect, clipped to that rect.
            let pieces = ImageContents.pieces(of: layer, image: image)
            let nine = layer.contentsCenter != Rect(0, 0, 1, 1)
            for piece in pieces {
                let key = layer.key + (nine ? "/contents/\(piece.index)" : "/contents")
                var imageClips = clips
                if let rect = piece.clip {
                    imageClips.append(Clip(owner: key + "/clip", path: RoundedCorners(radius: 0).path(in: rect), projection: toCanvas, opacity: 1))
                }
                out.append(DrawableSample(key: key, projection: piece.map.concatenating(toCanvas), opacity: opacity,
                                          paints: [], clips: imageClips, scopes: scopes, source: source + ".contents",
                                          extent: Double(max(image.width, image.height)), image: image, node: layer.key,
                                          offset: piece.map))
            }
        }
        if let emitter = layer.emitter {
            out += Self.particles(of: emitter, layer: layer, time: time, toCanvas: toCanvas, opacity: opacity, tint: tint,
                                  clips: clips, scopes: scopes)
        }
        visitSiblings(layer.sublayers, time: time, parentSpace: layer.sublayerSpace, parentToCanvas: toCanvas, parentNode: layer.key,
                      alpha: opacity, tint: tint, clips: clips, scopes: scopes, into: &out, nodes: &nodes)
        if layer.borderWidth > 0 {
            out.append(DrawableSample(key: layer.key + "/border", projection: toCanvas, opacity: opacity,
                                      paints: [Self.border(of: layer, tint: tint)], clips: borderClips, scopes: borderScopes,
                                      source: source, extent: extent, node: layer.key))
        }
    }

    /// The layer's own painting, one slot per thing its type can paint (present at every
    /// frame, transparent when there is nothing to paint), so tracks line up.
    private mutating func bodyPaints(of layer: Layer, toCanvas: PlaneProjection, tint: Color?) -> [Paint] {
        let rounded = layer.corners.path(in: layer.bounds)
        var paints = [Paint(kind: .fill, path: rounded, color: Self.tinted(layer.backgroundColor ?? .clear, tint))]
        switch layer.content {
        case .plain, .replicator, .emitter: break
        case .shape(let style):
            paints.append(Paint(kind: .fill, path: style.path, color: Self.tinted(style.fillColor ?? .clear, tint),
                                evenOdd: style.fillRule == .evenOdd))
            let valid = !style.lineDashPattern.isEmpty && style.lineDashPattern.allSatisfy { $0 >= 0 && $0.isFinite }
                && style.lineDashPattern.reduce(0, +) > 0
            let stroke = StrokeStyle(width: style.lineWidth, cap: style.lineCap, join: style.lineJoin,
                                     miterLimit: style.miterLimit, dash: valid ? style.lineDashPattern : [],
                                     dashPhase: style.lineDashPhase, start: style.strokeStart, end: style.strokeEnd)
            let color = style.lineWidth > 0 ? (style.strokeColor ?? .clear) : .clear
            paints.append(Paint(kind: .stroke, path: style.path, color: Self.tinted(color, tint), stroke: stroke))
            // A named shape's debug overlay, as the renderer draws it over the shape: the
            // dashed square, the control points filled yellow, the dashed helper lines.
            let overlay = style.namedShape?.controlPoints
            func dashed(_ path: BezierPath?, _ dash: Double) -> Paint {
                var line = StrokeStyle()
                line.dash = [dash, dash]
                return Paint(kind: .stroke, path: path ?? BezierPath(), color: Self.tinted(overlay == nil ? .clear : .black, tint),
                             stroke: line)
            }
            paints.append(dashed(overlay?.outerSquare, 5))
            paints.append(Paint(kind: .fill, path: overlay?.pointSquares ?? BezierPath(),
                                color: Self.tinted(overlay == nil ? .clear : Color(red: 1, green: 1, blue: 0), tint)))
            paints.append(dashed(overlay?.helperLines, 2))
        case .gradient(let g):
            paints.append(Self.gradient(g, in: layer.bounds, path: rounded, tint: tint))
        case .text(let style):
            if glyphPlacement[layer.key] == nil, Self.isTranslation(toCanvas) { glyphPlacement[layer.key] = toCanvas }
            let path = glyphs?(style, layer.bounds, glyphPlacement[layer.key]) ?? BezierPath()
            paints.append(Paint(kind: .fill, path: path, color: Self.tinted(style.foregroundColor, tint)))
        }
        return paints
    }

    /// The image of a colour glyph: the asset of the same pixels, or a new one.
    /// `source` names the text layer, for the embedded-bytes cap's message.
    private mutating func glyphImage(_ glyph: ColorGlyphImage, source: String) -> ImageReference {
        if let known = glyphImages[glyph.png] { return known }
        let reference = ImageReference(id: "glyph_\(glyphImages.count)", width: glyph.width, height: glyph.height)
        glyphImages[glyph.png] = reference
        newGlyphAssets.append((ImageAsset(id: reference.id, width: glyph.width, height: glyph.height, bytes: glyph.png), source))
        return reference
    }

    /// Whether `map` only moves (no scale, turn, shear or perspective).
    private static func isTranslation(_ map: PlaneProjection) -> Bool {
        guard let m = map.affine else { return false }
        return abs(m.a - 1) < 1e-9 && abs(m.b) < 1e-9 && abs(m.c) < 1e-9 && abs(m.d - 1) < 1e-9
    }

    /// CAGradientLayer's stops and end points, in bounds space; one colour fills.
    private static func gradient(_ g: Gradient, in rect: Rect, path: BezierPath, tint: Color?) -> Paint {
        let n = g.colors.count
        let offsets = g.locations.flatMap { $0.count == n ? $0 : nil }
            ?? (0..<n).map { n == 1 ? 0 : Double($0) / Double(n - 1) }
        var stops = zip(offsets, g.colors).enumerated()
            .sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }
            .map { (offset: min(max($0.element.0, 0), 1), color: tinted($0.element.1, tint)) }
        // The renderer blends stops premultiplied: towards a transparent stop the colour
        // stays its neighbour's. Lottie blends colour and alpha apart, so a transparent
        // stop takes its nearest visible neighbour's colour ("clear" would darken to black).
        for k in stops.indices where stops[k].color.alpha == 0 {
            let after = stops[k...].first { $0.color.alpha > 0 }, before = stops[..<k].last { $0.color.alpha > 0 }
            if let n = before ?? after {
                stops[k].color = Color(red: n.color.red, green: n.color.green, blue: n.color.blue, alpha: 0)
            }
        }
        func unit(_ p: Point) -> Point { Point(rect.minX + p.x * rect.width, rect.minY + p.y * rect.height) }
        let start = unit(g.startPoint)
        var end = unit(g.endPoint)
        if g.gradientType == .radial {
            // CAGradientLayer's radial gradient is an ellipse through endPoint; a circle of
            // the horizontal reach is what Lottie's radial gradient draws.
            end = Point(start.x + abs(end.x - start.x), start.y)
        }
        if start == end { end = Point(start.x + 1e-3, start.y) }
        return Paint(kind: .gradient, path: path, color: .white,
                     gradient: GradientPaint(radial: g.gradientType == .radial, stops: stops, start: start, end: end))
    }

    /// The border's ring, as the renderer fills it: the rounded bounds and, inside, the
    /// bounds inset by the width with radii shrunk by it, filled even-odd.
    private static func border(of layer: Layer, tint: Color?) -> Paint {
        let bounds = layer.bounds, width = layer.borderWidth
        var outer = layer.corners
        switch outer.shape(in: bounds) {
        case .square: outer.radius = 0
        case .circular(let r), .continuous(let r): outer.radius = r
        }
        var ring = outer.path(in: bounds)
        if width < min(bounds.width, bounds.height) / 2 {
            var inner = outer
            inner.radius = max(0, outer.radius - width)
            ring.append(inner.path(in: bounds.insetBy(dx: width, dy: width)))
        }
        let color = bounds.isEmpty ? .clear : tinted(layer.borderColor, tint)
        return Paint(kind: .fill, path: ring, color: color, evenOdd: true)
    }

    /// A mask layer's silhouette in its host's bounds space: its background's rounded
    /// bounds, or a shape mask's path; the fill's alpha and the mask's opacity as coverage.
    private static func silhouette(of mask: Layer, in hostToCanvas: PlaneProjection, owner: String) -> Clip? {
        let projection = mask.projectionToSuperlayer(through: .identity).concatenating(hostToCanvas)
        let opacity = mask.isHidden ? 0 : min(max(mask.opacity, 0), 1)
        if let shape = mask.shape, !shape.path.isEmpty, let fill = shape.fillColor {
            return Clip(owner: owner, path: shape.path, projection: projection, opacity: opacity * fill.alpha)
        }
        if let bg = mask.backgroundColor {
            return Clip(owner: owner, path: mask.corners.path(in: mask.bounds), projection: projection, opacity: opacity * bg.alpha)
        }
        if let gradient = mask.gradient {
            let alpha = gradient.colors.map(\.alpha).max() ?? 0
            return Clip(owner: owner, path: mask.corners.path(in: mask.bounds), projection: projection, opacity: opacity * alpha)
        }
        return Clip(owner: owner, path: BezierPath(), projection: projection, opacity: 0)
    }

    /// One drawable per live particle, keyed by its cell and birth time (the snapshot
    /// keeps particles in birth order per cell; several born at one instant are told apart
    /// by their order). A particle's plane is its contents' box: centred on the particle,
    /// scaled, turned by its angle.
    ///
    /// With `shadow`, each particle's crisp shadow instead: its coverage in the shadow's
    /// colour, moved by the offset. The copies share a group faded by the colour's alpha,
    /// so where they overlap they cover as the emitter's one silhouette does.
    private static func particles(of emitter: EmitterStyle, layer: Layer, time: Double, toCanvas: PlaneProjection, opacity: Double,
                                  tint: Color?, clips: [Clip], scopes: [Scope],
                                  shadow: (color: Color, offset: PlaneProjection)? = nil) -> [DrawableSample] {
        let p = emitter.particles
        guard p.count > 0 else { return [] }
        let cells = emitter.flattenedCells
        var out: [DrawableSample] = []
        var seen: [String: Int] = [:]
        let source = sourcePath(of: layer) + ".emitterCells"
        for i in 0..<p.count {
            let c = Int(p.cell[i])
            guard cells.indices.contains(c), cells[c].cell.enabled,
                  case .path(let path, let size, let fill)? = cells[c].cell.contents else { continue }
            // The birth instant in microseconds names the particle across frames.
            let birth = ((time - p.age[i]) * 1e6).rounded()
            let born = birth.isFinite && abs(birth) < 9e15 ? Int(birth) : 0
            let base = "\(layer.key)~\(c)~\(p.lifetime[i].bitPattern)"
            let stem = base + "~\(born)"
            let n = seen[stem, default: 0]
            seen[stem] = n + 1
            let s = p.scale[i], a = p.angle[i]
            let local = PlaneProjection(affine: cos(a) * s, sin(a) * s, -sin(a) * s, cos(a) * s, p.x[i], p.y[i])
            let box = PlaneProjection(affine: 1, 0, 0, 1, -size.width / 2, -size.height / 2)
            let coverage = fill.alpha * Double(p.alpha[i])
            var color = Color(red: fill.red * Double(p.red[i]), green: fill.green * Double(p.green[i]),
                              blue: fill.blue * Double(p.blue[i]), alpha: coverage)
            var place = box.concatenating(local), key = stem + "#\(n)", fade = 1.0, groups = scopes
            if let shadow {
                color = Color(red: shadow.color.red, green: shadow.color.green, blue: shadow.color.blue, alpha: coverage)
                place = place.concatenating(shadow.offset)
                key += "/shadow"
                fade = shadow.color.alpha
                groups.append(Scope(owner: layer.key + "/shadow", clip: nil, opacity: fade))
            } else {
                color = tinted(color, tint)
            }
            out.append(DrawableSample(key: key, projection: place.concatenating(toCanvas),
                                      opacity: opacity * fade, paints: [Paint(kind: .fill, path: path, color: color)],
                                      clips: clips, scopes: groups, source: shadow == nil ? source : sourcePath(of: layer) + ".shadowOpacity",
                                      extent: max(1, size.width, size.height), node: layer.key, offset: place))
        }
        return out
    }

    /// The scene key path of a layer: its place without replicator copy suffixes.
    static func sourcePath(of layer: Layer) -> String {
        layer.place.split(separator: "#", omittingEmptySubsequences: false).first.map(String.init) ?? layer.place
    }

    private static func combine(_ a: Color?, _ b: Color?) -> Color? {
        guard let a else { return b }
        guard let b else { return a }
        return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
    }

    static func tinted(_ c: Color, _ tint: Color?) -> Color {
        guard let t = tint else { return c }
        return Color(red: c.red * t.red, green: c.green * t.green, blue: c.blue * t.blue, alpha: c.alpha * t.alpha)
    }
}
