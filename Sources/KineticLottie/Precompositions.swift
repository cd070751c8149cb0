import KineticGeometry
import KineticLayers

/// What Core Animation composites as one group, written as one: a layer's opacity acts on
/// its painting, shadow, sublayers and border together, and a `masksToBounds` layer (or a
/// masked one) clips its subtree as a whole. The drawables under one such scope go into a
/// precomposition as big as the canvas (its layers keep their canvas coordinates), whose
/// layer carries the scope: the opacity as its own, the clip as its mask. Scopes nest as
/// the layers do, so every mask is one added outline, which every player draws
/// (lottie-web and Windows ignore a layer's intersecting second mask).
extension LottieExporter {
    /// The layers of `keys` (back to front), top first, inside the precompositions of
    /// their first `depth` scopes; `faded` lists those of them whose opacity an enclosing
    /// precomposition applies.
    func stack(_ keys: [String], depth: Int, faded: [Int], assets: inout [LottieJSON],
               counts: inout (sampled: Int, kept: Int)) -> [LottieJSON] {
        // Runs of consecutive drawables under the same scope at `depth`.
        var runs: [(owner: String?, keys: [String])] = []
        for key in keys {
            let owner = scopeOwner(key, at: depth)
            if let owner, let last = runs.last, last.owner == owner {
                runs[runs.count - 1].keys.append(key)
            } else {
                runs.append((owner, [key]))
            }
        }
        var out: [LottieJSON] = []
        func plain(_ keys: [String]) {
            for key in keys.reversed() {
                guard let frames = samples[key], let any = frames.values.first else { continue }
                // Every clip scope above `depth` is applied by a precomposition.
                let clipsFrom = any.scopes.prefix(depth).filter { $0.clip != nil }.count
                let parent = layerTree.parented.contains(key) ? any.node : nil
                let scale = parent.map { layerTree.canvasScale[$0] ?? 1 } ?? 1
                if let layer = Self.layer(key: key, frames: frames, index: 0, clipsFrom: clipsFrom, faded: faded, parent: parent,
                                          parentScale: scale, share: layerTree.drawableShares[key] ?? 1, lastFrame: frameCount - 1,
                                          counts: &counts) {
                    out.append(layer)
                }
            }
        }
        for run in runs.reversed() {
            guard let owner = run.owner, let scope = samples[run.keys[0]]?.values.first?.scopes[depth] else {
                plain(run.keys); continue
            }
            if scope.clip == nil {
                // An opacity that is 1 throughout, or over a single drawable, needs no group.
                let fades = run.keys.contains { samples[$0]?.values.contains { $0.scopes[depth].opacity < 1 } ?? false }
                guard fades, run.keys.count > 1 else {
                    out += stack(run.keys, depth: depth + 1, faded: faded, assets: &assets, counts: &counts); continue
                }
            } else {
                // A lone drawable keeps its clip as its own mask, unless another clip
                // follows: then a precomposition too, so that no layer intersects masks.
                let before = samples[run.keys[0]]?.values.first?.scopes.prefix(depth).filter { $0.clip != nil }.count ?? 0
                guard run.keys.count > 1 || run.keys.contains(where: { clipCount($0) > before + 1 }) else {
                    plain(run.keys); continue
                }
            }
            // Its asset's place is taken before the nested ones', so ids follow the stack.
            let slot = assets.count
            assets.append(.null)
            var innerCounts = (sampled: 0, kept: 0)
            let inner = stack(run.keys, depth: depth + 1, faded: scope.clip == nil ? faded + [depth] : faded,
                              assets: &assets, counts: &innerCounts)
            guard !inner.isEmpty else { assets.removeSubrange(slot...); counts.sampled += innerCounts.sampled; continue }
            let contents = composition(inner)
            // A clipped copy of contents already written is that asset moved (its keyframes
            // are not written again). An opacity's precomposition has no clip to bound it
            // within the moved layer's box, so it keeps its own.
            if scope.clip != nil, let shared = sharedAsset(for: contents, among: assets[..<slot]),
               let layer = precompositionLayer(id: shared.id, owner: owner, keys: run.keys, depth: depth, offset: shared.offset,
                                               counts: &counts) {
                assets.removeSubrange(slot...)
                counts.sampled += innerCounts.sampled
                out.append(layer)
                continue
            }
            counts.sampled += innerCounts.sampled
            counts.kept += innerCounts.kept
            let id = "scope\(slot)"
            guard let layer = precompositionLayer(id: id, owner: owner, keys: run.keys, depth: depth, counts: &counts) else {
                assets.removeSubrange(slot...); plain(run.keys); continue
            }
            assets[slot] = .object([("id", .string(id)), ("layers", .array(contents))])
            out.append(layer)
        }
        return out
    }

    /// One composition's layers (top first) numbered, with the null layers their `parent`
    /// fields name (the layer keys) added below them, each with the nulls above it: Lottie
    /// parents a layer only within its own composition, so a precomposition repeats the
    /// nulls its layers hang from (a precomposition is canvas-sized and untransformed, so
    /// the same nulls place them the same). Indices count within the composition.
    func composition(_ layers: [LottieJSON]) -> [LottieJSON] {
        var needed: [String] = []
        var seen: Set<String> = []
        for layer in layers {
            guard case .string(let key)? = layer["parent"] else { continue }
            var next: String? = key
            while let k = next, seen.insert(k).inserted {
                needed.append(k)
                next = layerTree.parent(of: k)
            }
        }
        var index: [String: Int] = [:]
        for (n, key) in needed.enumerated() { index[key] = layers.count + n + 1 }
        func numbered(_ layer: LottieJSON, _ n: Int) -> LottieJSON {
            guard case .object(let fields) = layer else { return layer }
            return .object(fields.compactMap { field in
                switch field {
                case ("ind", _): ("ind", .number(Double(n)))
                case ("parent", .string(let key)): index[key].map { ("parent", .number(Double($0))) }
                default: field
                }
            })
        }
        var out = layers.enumerated().map { numbered($1, $0 + 1) }
        for key in needed {
            guard case .object(var fields)? = layerTree.nullLayers[key] else { continue }
            if let up = layerTree.parent(of: key) { fields.append(("parent", .string(up))) }
            out.append(numbered(.object(fields), index[key] ?? 0))
        }
        return out
    }

    /// The most clips the drawable has at any frame.
    private func clipCount(_ key: String) -> Int { samples[key]?.values.map(\.clips.count).max() ?? 0 }

    /// Whose scope at `depth` the drawable is under, when it is the same at every frame it
    /// is drawn.
    private func scopeOwner(_ key: String, at depth: Int) -> String? {
        guard let frames = samples[key] else { return nil }
        var owner: String? = nil
        for sample in frames.values {
            guard depth < sample.scopes.count else { return nil }
            let o = sample.scopes[depth].owner
            if let owner, owner != o { return nil }
            owner = o
        }
        return owner
    }

    /// The precomposition's layer: canvas-sized, untransformed, alive while any of its
    /// drawables is; faded by the scope's opacity, or masked by its clip mapped to the canvas.
    /// With an `offset` (an asset shared with another copy of the subtree) it is moved by
    /// it and its mask moved back; nil when the clip then reaches outside the layer's box,
    /// which a precomposition layer crops.
    private func precompositionLayer(id: String, owner: String, keys: [String], depth: Int, offset: Point = Point(0, 0),
                                     counts: inout (sampled: Int, kept: Int)) -> LottieJSON? {
        let lives = keys.compactMap { samples[$0]?.keys }.joined()
        guard let first = lives.min(), let last = lives.max() else { return nil }
        // The scope at each frame, from whichever drawable has it (none: nothing shows).
        let scopes = (first...last).map { f in
            keys.lazy.compactMap { self.samples[$0]?[f] }.first { depth < $0.scopes.count }?.scopes[depth]
        }
        var tracks = TrackWriter(first: first)
        let still = { (k: LottieJSON) in LottieJSON.object([("a", 0), ("k", k)]) }
        var masks: LottieJSON? = nil
        var opacity = still(100)
        let moved = offset.x != 0 || offset.y != 0
        if scopes.contains(where: { $0?.clip != nil }) {
            let back = PlaneProjection(affine: 1, 0, 0, 1, -offset.x, -offset.y)
            let clips = scopes.map { scope in
                scope?.clip.map { clip -> Clip in
                    var clip = clip
                    if moved { clip.projection = clip.projection.concatenating(back) }
                    return clip
                }
            }
            if moved {
                // The layer's box in its own coordinates is (0, 0, w, h).
                let box = Rect(0, 0, size.width.rounded(), size.height.rounded())
                for case let clip? in clips {
                    let bounds = clip.path.mapPoints(clip.projection.apply(to:)).boundingBox
                    guard bounds.minX >= box.minX, bounds.minY >= box.minY, bounds.maxX <= box.maxX, bounds.maxY <= box.maxY else {
                        return nil
                    }
                }
            }
            let run = clips.map { clip in
                DrawableSample(key: owner, projection: .identity, opacity: 1, paints: [], clips: clip.map { [$0] } ?? [],
                               scopes: [], source: owner, extent: 1)
            }
            guard let m = Self.masks(run: run, baked: true, from: 0, tracks: &tracks) else { return nil }
            masks = m
        } else {
            opacity = tracks.property(scopes.map { [($0?.opacity ?? 0) * 100] }, tolerance: 100 * Tolerance.channel, scalar: true)
        }
        counts.sampled += tracks.sampled
        counts.kept += tracks.kept
        var fields: [(String, LottieJSON)] = [
            ("ddd", 0), ("ind", 0), ("ty", 0), ("nm", .string(owner)), ("refId", .string(id)), ("sr", 1),
            ("ks", .object([("a", still([0, 0])), ("p", still(.numbers([offset.x, offset.y]))), ("s", still([100, 100])), ("r", still(0)),
                            ("o", opacity)])),
            ("ao", 0), ("w", .number(size.width.rounded())), ("h", .number(size.height.rounded())),
            ("ip", .number(Double(first))), ("op", .number(Double(last + 1))), ("st", 0),
        ]
        if let masks {
            // rlottie reads masks only when `hasMask` says so.
            fields += [("hasMask", true), ("masksProperties", masks)]
        }
        return .object(fields)
    }
}
