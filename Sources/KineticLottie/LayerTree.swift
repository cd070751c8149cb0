import Foundation
import KineticGeometry
import KineticLayers

/// The Lottie layer tree of an export: a null layer (`ty: 3`) per Kinetic layer (and per
/// non-identity `sublayerTransform`), each parented to its superlayer's, carrying the
/// layer's place in it — position, rotation and scale, each track reduced on its own, so
/// that a still sublayer of a moving superlayer has a still transform — and the drawables
/// parented to their layer's null.
///
/// A node whose map is no rotation and scale at some frame (a shear, a 3D rotation under
/// perspective, `m34`), or whose superlayer changes, gets no null: the drawables under it
/// keep their whole map to the canvas, sampled per frame (and baked when projective).
struct LayerTree {
    /// Drawable keys parented to their node's null.
    private(set) var parented: Set<String> = []
    /// The null layers by node key, without `ind` and `parent` (`composition(_:)` numbers
    /// them within each composition).
    private(set) var nullLayers: [String: LottieJSON] = [:]
    /// The largest scale of each written node's map to the canvas over its frames: a
    /// position error in its plane grows by as much on the canvas.
    private(set) var canvasScale: [String: Double] = [:]
    /// How many moving transforms share the 0.05 pt (and 0.01°) on the canvas along the
    /// busiest chain through each written node, and through each parented drawable: their
    /// errors add up, so each gets its share of the tolerance.
    private(set) var shares: [String: Double] = [:]
    private(set) var drawableShares: [String: Double] = [:]
    private var parents: [String: String] = [:]

    init() {}

    init(nodes: [String: [Int: LayerNode]], samples: [String: [Int: DrawableSample]], canvas: Size,
         counts: inout (sampled: Int, kept: Int)) {
        var fits: [String: Bool] = [:]
        func fitting(_ key: String) -> Bool {
            if let known = fits[key] { return known }
            fits[key] = false  // a cycle cannot happen in a tree; this guards the recursion anyway
            guard let frames = nodes[key], let any = frames.values.first else { return false }
            let ok = frames.values.allSatisfy { $0.parent == any.parent && Self.isRotationAndScale($0.local) }
                && (any.parent.map(fitting) ?? true)
            fits[key] = ok
            return ok
        }
        var used: Set<String> = []
        var moving: [String: Bool] = [:]
        for (key, frames) in samples {
            // An image layer keeps its whole map: rlottie samples a parented image layer
            // otherwise than an unparented one from the second frame on (measured: 1.4 dB
            // lower against the renderer on Tests/lottie/scenes/image-contents.yaml).
            guard frames.values.first?.image == nil, let node = frames.values.first?.node,
                  frames.values.allSatisfy({ $0.node == node && Self.isRotationAndScale($0.offset) }),
                  fitting(node) else { continue }
            parented.insert(key)
            var chain: [String] = []
            var next: String? = node
            while let k = next { chain.append(k); used.insert(k); next = nodes[k]?.values.first?.parent }
            // A still transform is written exactly: only moving ones share the tolerance.
            for k in chain where moving[k] == nil {
                let locals = nodes[k]?.values.map(\.local) ?? []
                moving[k] = locals.contains { $0 != locals.first }
            }
            let offsets = frames.values.map(\.offset)
            let share = Double(max(1, chain.filter { moving[$0] == true }.count + (offsets.contains { $0 != offsets.first } ? 1 : 0)))
            drawableShares[key] = share
            for k in chain { shares[k] = max(shares[k] ?? 1, share) }
        }
        // Scales down the tree, so that each null's position tolerance is 0.05 pt on the canvas.
        func toCanvas(_ key: String, _ frame: Int) -> PlaneProjection {
            guard let node = nodes[key]?[frame] else { return .identity }
            return node.local.concatenating(node.parent.map { toCanvas($0, frame) } ?? .identity)
        }
        for key in used {
            let scale = nodes[key]?.keys.map { Self.scale(of: toCanvas(key, $0)) }.max() ?? 1
            canvasScale[key] = max(scale, 1e-6)
            if let up = nodes[key]?.values.first?.parent { parents[key] = up }
        }
        let diagonal = max(1, (canvas.width * canvas.width + canvas.height * canvas.height).squareRoot())
        for key in used.sorted() {
            guard let frames = nodes[key] else { continue }
            let share = shares[key] ?? 1
            nullLayers[key] = Self.null(key: key, frames: frames, positionScale: (parents[key].flatMap { canvasScale[$0] } ?? 1) * share,
                                        extent: diagonal * share, degrees: LottieExporter.Tolerance.degrees / share, counts: &counts)
        }
    }

    /// The node a written node hangs from.
    func parent(of key: String) -> String? { parents[key] }

    /// A null layer living over the node's frames (a frame where it is missing keeps the
    /// last place), its transform the node's map: `a` at the origin, `p` split, `r`
    /// unwrapped, `s`.
    private static func null(key: String, frames: [Int: LayerNode], positionScale: Double, extent: Double, degrees: Double,
                             counts: inout (sampled: Int, kept: Int)) -> LottieJSON? {
        guard let first = frames.keys.min(), let last = frames.keys.max(), var carried = frames[first] else { return nil }
        var parts: [TransformParts] = []
        for f in first...last {
            if let node = frames[f] { carried = node }
            guard let p = TransformParts(carried.local) else { return nil }
            parts.append(p)
        }
        var tracks = TrackWriter(first: first)
        // A scale error shows most at the far edge of what hangs from it: the canvas's.
        let transform = [("a", LottieJSON.object([("a", 0), ("k", [0, 0])]))]
            + tracks.placement(parts, points: LottieExporter.Tolerance.points / positionScale,
                               scaleTolerance: 100 * LottieExporter.Tolerance.points / extent, degrees: degrees)
            + [("o", .object([("a", 0), ("k", 100)]))]
        counts.sampled += tracks.sampled
        counts.kept += tracks.kept
        return .object([
            ("ddd", 0), ("ind", 0), ("ty", 3), ("nm", .string(key)), ("sr", 1), ("ks", .object(transform)), ("ao", 0),
            ("ip", .number(Double(first))), ("op", .number(Double(last + 1))), ("st", 0),
        ])
    }

    static func isRotationAndScale(_ map: PlaneProjection) -> Bool {
        TransformParts(map)?.isRotationAndScale ?? false
    }

    /// How much a map stretches at most along either axis of its plane.
    static func scale(of map: PlaneProjection) -> Double {
        guard let m = map.affine else { return 1 }
        return max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    }
}
