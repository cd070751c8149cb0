import Foundation
import KineticFiles
import KineticGeometry
import KineticLayers
import KineticRender

/// Bakes a scene's frames into one Lottie animation: every frame's presentation tree is
/// sampled (`add`, in frame order), then each drawable's properties are reduced to the
/// keyframes a player's linear interpolation needs (``KeyframeReduction``) and written
/// as one shape layer (`document`), parented to its layer's null (``LayerTree``).
public struct LottieExporter {
    /// The tolerances of the reduction: what a keyframe may leave out.
    public enum Tolerance {
        /// Points, for positions and path vertices (and, at a drawable's edge, scale).
        public static let points = 0.05
        /// Opacity and colour components, of 1.
        public static let channel = 1.0 / 512
        /// Degrees of rotation.
        public static let degrees = 0.01
    }

    public let size: Size
    public let fps: Double
    public let background: Background
    public let options: LottieOptions
    private var flattening: FrameFlattening
    /// The embedded images, in the order first seen, and their bytes together.
    private var images: [ImageAsset] = []
    private var imageBytes = 0
    /// SVG contents by asset id, rasterized by `document()` at the largest scale drawn.
    private var vectors: [String: VectorContents] = [:]
    /// Contents paths that could not be embedded (dropped under `approximate`).
    private var unreadable: Set<String> = []

    /// Samples by drawable key, frames by index from 0.
    private(set) var samples: [String: [Int: DrawableSample]] = [:]
    /// Drawable keys back to front, as first seen.
    private var order: [String] = []
    /// The layers' nodes by layer key, frames by index from 0.
    private(set) var nodes: [String: [Int: LayerNode]] = [:]
    /// Set by `document()`: which drawables hang from which null layers.
    var layerTree = LayerTree()
    private(set) var frameCount = 0
    /// What `approximate` dropped, one per key.
    public private(set) var warnings: [LottieProblem] = []
    private var warned: Set<String> = []

    public init(size: Size, fps: Double, background: Background, options: LottieOptions,
                glyphs: ((TextStyle, Rect, PlaneProjection?) -> BezierPath)? = nil,
                colorGlyphs: ((TextStyle, Rect, PlaneProjection) -> [ColorGlyphImage])? = nil) {
        self.size = size; self.fps = fps; self.background = background; self.options = options
        self.flattening = FrameFlattening(glyphs: glyphs, colorGlyphs: colorGlyphs)
    }

    /// Samples the next frame. Throws the first construct Lottie cannot express (unless
    /// `approximate`), or the layer cap.
    public mutating func add(_ frame: SceneFrame) throws(LottieProblem) {
        for problem in LottieRefusals.problems(in: frame.layers) where !warned.contains(problem.keyPath) {
            guard options.approximate else { throw problem }
            warned.insert(problem.keyPath)
            warnings.append(problem)
        }
        try embedImages(of: frame.layers)
        let index = frameCount
        frameCount += 1
        var previous: String? = nil
        let flat = flattening.flatten(frame)
        for (key, node) in flat.nodes { nodes[key, default: [:]][index] = node }
        // Colour glyph images count towards the same cap as image contents: a text of many
        // distinct emoji must not grow the document without bound.
        for (asset, source) in flattening.newGlyphAssets {
            guard asset.bytes.count <= options.maximumImageBytes - imageBytes else {
                throw LottieProblem(keyPath: source + ".string",
                                    message: "the embedded images would pass \(options.maximumImageBytes) bytes "
                                        + "with this text's colour glyphs (emoji are embedded as images)")
            }
            images.append(asset)
            imageBytes += asset.bytes.count
        }
        flattening.newGlyphAssets = []
        for drawable in flat.drawables {
            if let image = drawable.image {
                // An image layer has only Lottie's transform: no shear, no perspective, no tint.
                let problem: String? = image.tinted ? "a replicator's colours cannot tint an image layer"
                    : TransformParts(drawable.projection).map { $0.isRotationAndScale } != true
                    ? "an image under shear or perspective is not exported (Lottie's transform has neither)" : nil
                if let problem {
                    let p = LottieProblem(keyPath: drawable.source, message: problem)
                    guard options.approximate else { throw p }
                    if warned.insert(p.keyPath).inserted { warnings.append(p) }
                    continue
                }
            }
            if samples[drawable.key] == nil {
                guard order.count < options.maximumLayers else {
                    throw LottieProblem(keyPath: drawable.source,
                                        message: "the export needs more than \(options.maximumLayers) Lottie layers "
                                            + "(one per layer, replicator copy and particle)")
                }
                let at = previous.flatMap { p in order.lastIndex(of: p).map { $0 + 1 } } ?? 0
                order.insert(drawable.key, at: at)
            }
            samples[drawable.key, default: [:]][index] = drawable
            previous = drawable.key
        }
    }

    /// Reads, once each, the PNG contents the export maps, within the embedded-bytes cap.
    private mutating func embedImages(of layers: [Layer]) throws(LottieProblem) {
        for layer in layers {
            try embedImages(of: layer.sublayers)
            guard ImageContents.isMapped(layer), let path = layer.contents,
                  flattening.images[path] == nil, !unreadable.contains(path) else { continue }
            let id = "image_\(images.count)"
            do throws(FileProblem) {
                if ImageContents.isVector(path) {
                    // Its PNG is made by `document()`; the SVG's bytes count towards the cap until then.
                    let vector = try VectorContents.load(path, maxBytes: options.maximumImageBytes - imageBytes)
                    images.append(ImageAsset(id: id, width: vector.plane.width, height: vector.plane.height, bytes: []))
                    vectors[id] = vector
                    imageBytes += vector.bytes.count
                    flattening.images[path] = ImageReference(id: id, width: vector.plane.width, height: vector.plane.height,
                                                             vectorSize: vector.size)
                    continue
                }
                let asset = try ImageContents.load(path, id: id, maxBytes: options.maximumImageBytes - imageBytes)
                images.append(asset)
                imageBytes += asset.bytes.count
                flattening.images[path] = ImageReference(id: id, width: asset.width, height: asset.height)
            } catch {
                let why = error.isTooLarge ? "the embedded images would pass \(options.maximumImageBytes) bytes: " : ""
                let p = LottieProblem(keyPath: FrameFlattening.sourcePath(of: layer) + ".contents", message: why + error.description)
                guard options.approximate else { throw p }
                unreadable.insert(path)
                if warned.insert(p.keyPath).inserted { warnings.append(p) }
            }
        }
    }

    /// Rasterizes each SVG once per size drawn: each layer showing it gets the raster of
    /// the largest scale any frame draws it at (per axis), one pixel a canvas point, as
    /// players sample images without smoothing; layers of one size share an asset. Their
    /// samples' planes are rescaled from the document's points to the raster's pixels.
    private mutating func rasterizeVectors() {
        var assets: [ImageAsset] = []
        for asset in images {
            guard let vector = vectors.removeValue(forKey: asset.id) else { assets.append(asset); continue }
            var sizes: [String: (width: Int, height: Int)] = [:]
            var ids: [String: String] = [:]
            for key in order {
                guard let frames = samples[key] else { continue }
                var largest = (x: 0.0, y: 0.0)
                for sample in frames.values where sample.image?.id == asset.id {
                    let p = sample.projection
                    largest.x = max(largest.x, (p.m11 * p.m11 + p.m12 * p.m12).squareRoot() / abs(p.m33))
                    largest.y = max(largest.y, (p.m21 * p.m21 + p.m22 * p.m22).squareRoot() / abs(p.m33))
                }
                guard largest.x > 0 || largest.y > 0 else { continue }
                let size = vector.rasterSize(largestScale: largest, maximumPixels: ImageContents.maximumPixels)
                sizes[key] = size
                let name = "\(size.width)x\(size.height)"
                guard ids[name] == nil else { continue }
                let id = ids.isEmpty ? asset.id : "\(asset.id)_\(ids.count)"
                ids[name] = id
                assets.append(ImageAsset(id: id, width: size.width, height: size.height,
                                         bytes: vector.png(width: size.width, height: size.height) ?? []))
            }
            for (key, size) in sizes {
                guard let frames = samples[key], let id = ids["\(size.width)x\(size.height)"] else { continue }
                let rescale = PlaneProjection(affine: Double(asset.width) / Double(size.width), 0, 0,
                                              Double(asset.height) / Double(size.height), 0, 0)
                for (frame, sample) in frames where sample.image?.id == asset.id {
                    var s = sample
                    s.projection = rescale.concatenating(s.projection)
                    s.offset = rescale.concatenating(s.offset)
                    s.image?.id = id
                    s.image?.width = size.width
                    s.image?.height = size.height
                    s.extent = Double(max(size.width, size.height))
                    samples[key]?[frame] = s
                }
            }
        }
        images = assets
    }

    /// Keyframes before and after reduction, over every track written.
    public private(set) var keyframeCounts = (sampled: 0, kept: 0)

    /// The Lottie document of the frames added.
    public mutating func document() -> LottieJSON {
        var counts = (sampled: 0, kept: 0)
        rasterizeVectors()
        var assets: [LottieJSON] = images.map(\.json)
        // Lottie lists layers top first; drawables under a shared clip go into a
        // precomposition (``stack(_:depth:faded:assets:counts:)``).
        layerTree = LayerTree(nodes: nodes, samples: samples, canvas: size, counts: &counts)
        var layers = stack(order, depth: 0, faded: [], assets: &assets, counts: &counts)
        if let bg = backgroundLayer(index: 0) { layers.append(bg) }
        layers = composition(layers)
        keyframeCounts = counts
        let op = Double(max(frameCount, 1))
        return .object([
            ("v", "5.7.0"), ("ver", 10000), ("fr", .number(fps)), ("ip", 0), ("op", .number(op)),
            ("w", .number(size.width.rounded())), ("h", .number(size.height.rounded())), ("nm", "Kinetic"),
            ("ddd", 0), ("assets", .array(assets)), ("layers", .array(layers)),
        ])
    }

    // MARK: Layers

    /// The scene's background as the bottom layer (none when clear).
    private func backgroundLayer(index: Int) -> LottieJSON? {
        let rect = Rect(0, 0, size.width, size.height)
        var path = BezierPath()
        path.move(to: Point(0, 0)); path.addLine(to: Point(rect.maxX, 0))
        path.addLine(to: Point(rect.maxX, rect.maxY)); path.addLine(to: Point(0, rect.maxY)); path.close()
        let paint: Paint
        switch background {
        case .color(let c):
            guard c.alpha > 0 else { return nil }
            paint = Paint(kind: .fill, path: path, color: c)
        case .gradient(let g):
            var layer = Layer(place: "background", type: .gradient)
            layer.bounds = rect
            layer.gradient = g
            guard let p = FrameFlattening(glyphs: nil).drawables(of: SceneFrame(index: 0, time: 0, size: size,
                background: .color(.clear), layers: [layer])).first?.paints.last else { return nil }
            paint = p
        }
        let sample = DrawableSample(key: "background", projection: .identity, opacity: 1, paints: [paint], clips: [], scopes: [],
                                    source: "background", extent: max(size.width, size.height))
        var counts = (sampled: 0, kept: 0)
        // It lives as long as the animation.
        let frames = Dictionary(uniqueKeysWithValues: (0..<max(frameCount, 1)).map { ($0, sample) })
        return Self.layer(key: "background", frames: frames, index: index, clipsFrom: 0, faded: [], lastFrame: frames.count - 1,
                          counts: &counts)
    }

    /// One drawable as a shape layer living from its first to its last frame, masked by
    /// its clips from `clipsFrom` on (the ones before, enclosing precompositions apply),
    /// its opacity less that of its `faded` scopes (enclosing precompositions apply it).
    ///
    /// A `parent`ed drawable's transform is its own plane's map into its layer's (`offset`),
    /// the layer's null (named in the `parent` field, resolved by `composition(_:)`) doing
    /// the rest; `parentScale` is how much the nulls above magnify it at most and `share`
    /// how many moving transforms (its own and theirs) share the tolerance, which tighten
    /// its tolerances to the same 0.05 pt (and 0.01°) on the canvas.
    /// `lastFrame`: the composition's last frame.
    static func layer(key: String, frames: [Int: DrawableSample], index: Int, clipsFrom: Int, faded: [Int],
                      parent: String? = nil, parentScale: Double = 1, share: Double = 1, lastFrame: Int,
                      counts: inout (sampled: Int, kept: Int)) -> LottieJSON? {
        // The opacity it is drawn at, less what enclosing precompositions apply.
        func shown(_ s: DrawableSample) -> Double {
            let applied = faded.reduce(1.0) { $1 < s.scopes.count ? $0 * s.scopes[$1].opacity : $0 }
            return s.projection.m33 > 0 && applied > 0 ? min(s.opacity / applied, 1) : 0
        }
        // It lives from the first frame it shows to the last: frames where it shows
        // nothing before or after (a transform layer's face before it reaches its depth
        // slot, a layer faded in from 0) would only carry keyframes no one sees.
        let showing = frames.filter { shown($0.value) > 0 }.keys
        guard let first = showing.min(), let seen = showing.max(), let firstSample = frames[first] else { return nil }
        // rlottie draws a layer at its out point too (the specification and lottie-web do
        // not): one that ends before the composition does is kept a frame longer, showing
        // nothing, or a face leaving a transform layer's slot would linger over the next.
        let last = seen < lastFrame ? seen + 1 : seen
        // Frames between its first and last where it is missing show nothing.
        var run: [DrawableSample] = []
        var visible: [Bool] = []
        var carried = firstSample
        for f in first...last {
            if let s = frames[f] { carried = s; visible.append(true) } else { visible.append(false) }
            run.append(carried)
        }
        let opacities = zip(run, visible).map { s, v in v ? shown(s) : 0 }
        guard opacities.contains(where: { $0 > 0 }) else { return nil }
        let paintsShow = run[0].paints.indices.map { k in
            run.contains { $0.paints.indices.contains(k) && $0.paints[k].color.alpha > 0 && !$0.paints[k].path.isEmpty }
        }
        let image = firstSample.image
        guard paintsShow.contains(true) || image != nil else { return nil }

        var tracks = TrackWriter(first: first)
        // A plane seen in perspective, or sheared, is drawn with its outlines mapped to
        // the canvas at every frame: Lottie's transform has neither (rlottie draws no skew).
        let found = run.map { TransformParts(parent == nil ? $0.projection : $0.offset) }
        let parts = found.compactMap { $0 }
        let baked = parent == nil && (parts.count < found.count || parts.contains { !$0.isRotationAndScale })
        // `add` lets no image through that would need baking.
        if image != nil, baked { return nil }
        var transform: [(String, LottieJSON)] = [("a", .object([("a", 0), ("k", [0, 0])]))]
        if baked {
            transform += [("p", .object([("a", 0), ("k", [0, 0])])), ("s", .object([("a", 0), ("k", [100, 100])])),
                          ("r", .object([("a", 0), ("k", 0)]))]
        } else {
            let extent = (run.map(\.extent).max() ?? 1) * parentScale * share
            transform += tracks.placement(parts, points: Tolerance.points / (parentScale * share),
                                          scaleTolerance: 100 * Tolerance.points / extent, degrees: Tolerance.degrees / share)
        }
        transform.append(("o", tracks.property(opacities.map { [$0 * 100] }, tolerance: 100 * Tolerance.channel, scalar: true)))
        // How much the canvas magnifies the drawable's own units at most (a baked one is
        // drawn in the canvas's): its paths' coordinates are rounded accordingly.
        let magnification = baked ? 1 : parentScale * (parts.map { max(abs($0.sx), abs($0.sy)) }.max() ?? 1)

        // Paint groups, top first. Consecutive paints over the same outline at every frame
        // share one group — its subpaths once, then their styles, topmost first, as Lottie
        // stacks a group's styles — so a fill and its stroke, or a shadow's bands, do not
        // repeat the path (a trimmed stroke keeps a group of its own: a trim acts on every
        // style after it).
        // A dashed stroke along slanted lines or curves is cut into its dashes (DashedStrokes).
        let slots = run[0].paints.indices.reversed().filter { paintsShow[$0] }.map { k in
            DashedStrokes.cut(run.map { $0.paints.indices.contains(k) ? $0.paints[k] : run[0].paints[k] })
        }
        func trimmed(_ paints: [Paint]) -> Bool { paints.contains { $0.kind == .stroke && ($0.stroke.start != 0 || $0.stroke.end != 1) } }
        var groups: [LottieJSON] = []
        var next = 0
        while next < slots.count {
            var end = next + 1
            while end < slots.count, !trimmed(slots[next]), !trimmed(slots[end]),
                  zip(slots[next], slots[end]).allSatisfy({ $0.path == $1.path }) { end += 1 }
            let paths = zip(run, slots[next]).map { s, p in baked ? p.path.mapPoints(s.projection.apply(to:)) : p.path }
            var items = shapes(paths, magnification: magnification, tracks: &tracks)
            for paints in slots[next..<end] {
                // A baked gradient's end points are mapped with its outline (exact for an
                // affine map; a perspective's foreshortening of the ramp itself is lost).
                let mapped = baked ? zip(run, paints).map { s, p -> Paint in
                    var p = p
                    if var g = p.gradient {
                        g.start = s.projection.apply(to: g.start); g.end = s.projection.apply(to: g.end)
                        p.gradient = g
                    }
                    return p
                } : paints
                items += styles(mapped, tracks: &tracks)
            }
            items.append(identityGroupTransform)
            let name = end - next > 1 ? "paints" : slots[next][0].kind == .stroke ? "stroke" : "fill"
            groups.append(.object([("ty", "gr"), ("nm", .string(name)), ("it", .array(items))]))
            next = end
        }
        var fields: [(String, LottieJSON)] = [("ddd", 0), ("ind", .number(Double(index)))]
        if let image {
            fields += [("ty", 2), ("nm", .string(key)), ("refId", .string(image.id)), ("sr", 1), ("ks", .object(transform)), ("ao", 0)]
        } else {
            fields += [("ty", 4), ("nm", .string(key)), ("sr", 1), ("ks", .object(transform)), ("ao", 0), ("shapes", .array(groups))]
        }
        fields += [("ip", .number(Double(first))), ("op", .number(Double(last + 1))), ("st", 0)]
        if let parent { fields.append(("parent", .string(parent))) }
        if let masks = masks(run: run, baked: baked, from: clipsFrom, tracks: &tracks) {
            // rlottie reads masks only when `hasMask` says so (Bodymovin always writes it).
            fields.append(("hasMask", true))
            fields.append(("masksProperties", masks))
        }
        counts.sampled += tracks.sampled
        counts.kept += tracks.kept
        return .object(fields)
    }

    /// One paint's style items over the frames: a fill, a gradient fill, or a stroke with
    /// its trim before it.
    private static func styles(_ paints: [Paint], tracks: inout TrackWriter) -> [LottieJSON] {
        var items: [LottieJSON] = []
        let p = paints[0]
        let colors = paints.map { [$0.color.red, $0.color.green, $0.color.blue] }
        let alphas = paints.map { [$0.color.alpha * 100] }
        switch p.kind {
        case .fill:
            items.append(.object([("ty", "fl"), ("c", tracks.property(colors, tolerance: Tolerance.channel)),
                                  ("o", tracks.property(alphas, tolerance: 100 * Tolerance.channel, scalar: true)),
                                  ("r", p.evenOdd ? 2 : 1)]))
        case .stroke:
            if paints.contains(where: { $0.stroke.start != 0 || $0.stroke.end != 1 }) {
                items.append(.object([
                    ("ty", "tm"),
                    ("s", tracks.property(paints.map { [min(max($0.stroke.start, 0), 1) * 100] }, tolerance: 0.01, scalar: true)),
                    ("e", tracks.property(paints.map { [min(max($0.stroke.end, 0), 1) * 100] }, tolerance: 0.01, scalar: true)),
                    ("o", .object([("a", 0), ("k", 0)])), ("m", 2),
                ]))
            }
            var stroke: [(String, LottieJSON)] = [
                ("ty", "st"), ("c", tracks.property(colors, tolerance: Tolerance.channel)),
                ("o", tracks.property(alphas, tolerance: 100 * Tolerance.channel, scalar: true)),
                ("w", tracks.property(paints.map { [$0.stroke.width] }, tolerance: Tolerance.points, scalar: true)),
                ("lc", .number(Double(p.stroke.cap == .butt ? 1 : p.stroke.cap == .round ? 2 : 3))),
                ("lj", .number(Double(p.stroke.join == .miter ? 1 : p.stroke.join == .round ? 2 : 3))),
                ("ml", .number(p.stroke.miterLimit)),
            ]
            // A dash pattern of odd length repeats twice over, as Core Graphics reads it.
            let dash = p.stroke.dash.count % 2 == 1 ? p.stroke.dash + p.stroke.dash : p.stroke.dash
            if !dash.isEmpty {
                var items: [LottieJSON] = []
                for (n, length) in dash.enumerated() {
                    items.append(.object([("n", n % 2 == 0 ? "d" : "g"), ("nm", .string("dash\(n)")),
                                          ("v", .object([("a", 0), ("k", .number(length))]))]))
                }
                items.append(.object([("n", "o"), ("nm", "offset"),
                                      ("v", tracks.property(paints.map { [$0.stroke.dashPhase] }, tolerance: Tolerance.points, scalar: true))]))
                stroke.append(("d", .array(items)))
            }
            items.append(.object(stroke))
        case .gradient:
            let g = p.gradient ?? GradientPaint(radial: false, stops: [], start: .zero, end: .zero)
            let stops = paints.map { paint -> [Double] in
                let s = paint.gradient?.stops ?? []
                return s.flatMap { [$0.offset, $0.color.red, $0.color.green, $0.color.blue] } + s.flatMap { [$0.offset, $0.color.alpha] }
            }
            items.append(.object([
                ("ty", "gf"), ("o", .object([("a", 0), ("k", 100)])), ("r", 1),
                ("s", tracks.property(paints.map { [$0.gradient?.start.x ?? 0, $0.gradient?.start.y ?? 0] }, tolerance: Tolerance.points)),
                ("e", tracks.property(paints.map { [$0.gradient?.end.x ?? 0, $0.gradient?.end.y ?? 0] }, tolerance: Tolerance.points)),
                ("t", g.radial ? 2 : 1),
                ("g", .object([("p", .number(Double(g.stops.count))), ("k", tracks.property(stops, tolerance: Tolerance.channel))])),
            ]))
        }
        return items
    }

    /// A path over the frames as `sh` items, one per subpath (as many as the frame with
    /// the most has; missing ones are empty).
    private static func shapes(_ paths: [BezierPath], magnification: Double, tracks: inout TrackWriter) -> [LottieJSON] {
        let subpaths = paths.map(LottieBezier.subpaths(of:))
        let count = subpaths.map(\.count).max() ?? 0
        var items: [LottieJSON] = []
        for m in 0..<count {
            let beziers = subpaths.map { m < $0.count ? $0[m] : LottieBezier() }
            items.append(.object([("ty", "sh"), ("ks", tracks.path(beziers, magnification: magnification))]))
        }
        return items
    }

    /// Clips from `from` on as masks in the drawable's own plane: the first adds, the
    /// others intersect.
    static func masks(run: [DrawableSample], baked: Bool, from: Int, tracks: inout TrackWriter) -> LottieJSON? {
        let count = run.map(\.clips.count).max() ?? 0
        guard count > from else { return nil }
        var masks: [LottieJSON] = []
        for m in from..<count {
            let paths = run.map { s -> BezierPath in
                guard m < s.clips.count else { return BezierPath() }
                let clip = s.clips[m]
                if baked { return clip.path.mapPoints(clip.projection.apply(to:)) }
                guard let back = s.projection.inverted else { return BezierPath() }
                return clip.path.mapPoints(clip.projection.concatenating(back).apply(to:))
            }
            let subpaths = paths.map(LottieBezier.subpaths(of:))
            let subtract = run.contains { m < $0.clips.count && $0.clips[m].subtract }
            // A clip that keeps its outline may have several contours only when it comes
            // first (they add up; after it they would add back what was clipped away).
            let all = subpaths.map(\.count).max() ?? 0
            let parts = m == from || subtract ? all : min(1, all)
            let opacity = run.map { [m < $0.clips.count ? $0.clips[m].opacity * 100 : 100] }
            for part in 0..<parts {
                let beziers = subpaths.map { part < $0.count ? $0[part] : LottieBezier() }
                let mode: LottieJSON = subtract ? "s" : m == from ? "a" : "i"
                // Kept at the JSON's full precision: a mask's plane may be magnified by
                // more than the drawable's own transform says.
                masks.append(.object([("inv", false), ("mode", mode), ("pt", tracks.path(beziers, magnification: .infinity)),
                                      ("o", tracks.property(opacity, tolerance: 100 * Tolerance.channel, scalar: true)),
                                      ("x", .object([("a", 0), ("k", 0)])), ("nm", .string("clip\(m)"))]))
            }
        }
        return .array(masks)
    }

    private static let identityGroupTransform: LottieJSON = .object([
        ("ty", "tr"), ("a", .object([("a", 0), ("k", [0, 0])])), ("p", .object([("a", 0), ("k", [0, 0])])),
        ("s", .object([("a", 0), ("k", [100, 100])])), ("r", .object([("a", 0), ("k", 0)])),
        ("o", .object([("a", 0), ("k", 100)])), ("sk", .object([("a", 0), ("k", 0)])), ("sa", .object([("a", 0), ("k", 0)])),
    ])
}

/// Writes reduced tracks as Lottie properties, counting keyframes before and after.
struct TrackWriter {
    let first: Int
    var sampled = 0
    var kept = 0

    init(first: Int) { self.first = first }

    /// A static value when the track never changes, else its reduced keyframes.
    mutating func property(_ samples: [[Double]], tolerance: Double, scalar: Bool = false) -> LottieJSON {
        let keys = KeyframeReduction.reduce(samples, tolerance: tolerance, firstFrame: first)
        sampled += samples.count
        kept += keys.count
        func value(_ v: [Double]) -> LottieJSON { scalar && v.count == 1 ? .number(v[0]) : .numbers(v) }
        if keys.count == 1 { return .object([("a", 0), ("k", value(keys[0].value))]) }
        return .object([("a", 1), ("k", .array(keys.map { Self.keyframe($0, .numbers($0.value)) }))])
    }

    /// A plane's place over the frames as a layer transform's `p` (split, so that each
    /// coordinate may ease on its own; every player reads it), `s` and `r` (unwrapped, so
    /// a spin keeps counting); the anchor is the plane's origin.
    mutating func placement(_ parts: [TransformParts], points: Double, scaleTolerance: Double,
                            degrees: Double = LottieExporter.Tolerance.degrees) -> [(String, LottieJSON)] {
        var angles: [Double] = []
        for p in parts { angles.append(p.degrees(near: angles.last)) }
        return [
            ("p", .object([
                ("s", true),
                ("x", property(parts.map { [$0.tx] }, tolerance: points, scalar: true)),
                ("y", property(parts.map { [$0.ty] }, tolerance: points, scalar: true)),
            ])),
            ("s", property(parts.map { [$0.sx * 100, $0.sy * 100] }, tolerance: scaleTolerance)),
            ("r", property(angles.map { [$0] }, tolerance: degrees, scalar: true)),
        ]
    }

    /// A path track: structures must match to interpolate, else the keyframe holds.
    /// Coordinates are written on a grid of `pathQuantum(magnification:)`, whose rounding
    /// (half a step) comes out of the tolerance, so that reduction and rounding together
    /// stay within 0.05 pt.
    mutating func path(_ beziers: [LottieBezier], magnification: Double = 1) -> LottieJSON {
        let values = beziers.map(\.values)
        let quantum = Self.pathQuantum(magnification: magnification)
        let keys = KeyframeReduction.reduce(values, tolerance: LottieExporter.Tolerance.points - quantum / 2,
                                            firstFrame: first,
                                            sameStructure: { beziers[$0].structure == beziers[$1].structure })
        sampled += beziers.count
        kept += keys.count
        func shape(_ key: Keyframe) -> LottieJSON {
            LottieBezier.json(values: key.value, closed: beziers[key.frame - first].closed, quantum: quantum)
        }
        if keys.count == 1 { return .object([("a", 0), ("k", shape(keys[0]))]) }
        return .object([("a", 1), ("k", .array(keys.map { Self.keyframe($0, [shape($0)]) }))])
    }

    /// The grid of a path's coordinates: the coarsest of 0.01, 0.001 and 0.0001 (the
    /// JSON's own precision) whose rounding, half a step, is at most 0.005 pt on the canvas
    /// once the path's units are magnified `magnification` times by the transforms above.
    /// Two decimals instead of four take about a fifth off a path's text.
    static func pathQuantum(magnification: Double) -> Double {
        let m = magnification.isFinite ? max(abs(magnification), 1) : .infinity
        for quantum in [0.01, 0.001] where quantum * m <= 0.01 { return quantum }
        return 0.0001
    }

    /// One keyframe. Its easing handles are plain numbers, which lottie-spec allows for
    /// every component at once (the one pair the reduction fits is shared by all): eight
    /// characters less a keyframe than one-element arrays.
    private static func keyframe(_ key: Keyframe, _ value: LottieJSON) -> LottieJSON {
        if key.hold { return .object([("t", .number(Double(key.frame))), ("s", value), ("h", 1)]) }
        if let e = key.ease {
            return .object([("t", .number(Double(key.frame))), ("s", value),
                            ("o", .object([("x", .number(1.0 / 3)), ("y", .number(e.out))])),
                            ("i", .object([("x", .number(2.0 / 3)), ("y", .number(e.in))]))])
        }
        return .object([("t", .number(Double(key.frame))), ("s", value),
                        ("o", .object([("x", 0), ("y", 0)])), ("i", .object([("x", 1), ("y", 1)]))])
    }
}
