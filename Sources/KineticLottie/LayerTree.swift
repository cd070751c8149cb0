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
        for (key, frames) in samples {
            guard let node = frames.values.first?.node,
                  frames.values.allSatisfy({ $0.node == node && Self.isRotationAndScale($0.offset) }),
                  fitting(node) else { continue }
            parented.insert(key)
            var next: String? = node
            while let k = next, used.insert(k).inserted { next = nodes[k]?.values.first?.parent }
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
            nullLayers[key] = Self.null(key: key, frames: frames, positionScale: parents[key].flatMap { canvasScale[$0] } ?? 1,
                                        extent: diagonal, counts: &counts)
        }
    }

    /// The node a written node hangs from.
    func parent(of key: String) -> String? { parents[key] }

    /// A null layer living over the node's frames (a frame where it is missing keeps the
    /// last place), its transform the node's map: `a` at the origin, `p` split, `r`
    /// unwrapped, `s`.
    private static func null(key: String, frames: [Int: LayerNode], positionScale: Double, extent: Double,
                             counts: inout (sampled: Int, kept: Int)) -> LottieJSON? {
        guard let first = frames.keys.min(), let last = frames.keys.max(), var carried = frames[first] else { return nil }
        var parts: [TransformParts] = []
        for f in first...last {
            if let node = frames[f] { carried = node }
            guard let p = TransformParts(carried.local) else { return nil }
            parts.append(p)
        }
        var angles: [Double] = []
        for p in parts { angles.append(p.degrees(near: angles.last)) }
        var tracks = TrackWriter(first: first)
        let points = LottieExporter.Tolerance.points / positionScale
        let transform: [(String, LottieJSON)] = [
            ("a", .object([("a", 0), ("k", [0, 0])])),
            ("p", .object([
                ("s", true),
                ("x", tracks.property(parts.map { [$0.tx] }, tolerance: points, scalar: true)),
                ("y", tracks.property(parts.map { [$0.ty] }, tolerance: points, scalar: true)),
            ])),
            // A scale error shows most at the far edge of what hangs from it: the canvas's.
            ("s", tracks.property(parts.map { [$0.sx * 100, $0.sy * 100] }, tolerance: 100 * LottieExporter.Tolerance.points / extent)),
            ("r", tracks.property(angles.map { [$0] }, tolerance: LottieExporter.Tolerance.degrees, scalar: true)),
            ("o", .object([("a", 0), ("k", 100)])),
        ]
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
