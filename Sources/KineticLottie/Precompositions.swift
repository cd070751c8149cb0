import KineticGeometry

/// Clips shared by a subtree, written once: Core Animation clips a `masksToBounds` layer's
/// (or a masked layer's) sublayers as one composited group, so the drawables under one
/// clip go into a precomposition as big as the canvas (its layers keep their canvas
/// coordinates), and the precomposition's layer carries the clip as its mask. Clips
/// inside clips nest precompositions, so every mask is one added outline, which every
/// player draws (lottie-web and Windows ignore a layer's intersecting second mask).
extension LottieExporter {
    /// The layers of `keys` (back to front), top first, whose first `depth` clips the
    /// enclosing precompositions already apply.
    func stack(_ keys: [String], depth: Int, assets: inout [LottieJSON], counts: inout (sampled: Int, kept: Int)) -> [LottieJSON] {
        // Runs of consecutive drawables under the same clip at `depth`.
        var runs: [(owner: String?, keys: [String])] = []
        for key in keys {
            let owner = clipOwner(key, at: depth)
            if let owner, let last = runs.last, last.owner == owner {
                runs[runs.count - 1].keys.append(key)
            } else {
                runs.append((owner, [key]))
            }
        }
        var out: [LottieJSON] = []
        func plain(_ keys: [String]) {
            for key in keys.reversed() {
                if let frames = samples[key],
                   let layer = Self.layer(key: key, frames: frames, index: out.count + 1, clipsFrom: depth, counts: &counts) {
                    out.append(layer)
                }
            }
        }
        for run in runs.reversed() {
            // A lone drawable keeps its clip as its own mask, unless another clip follows:
            // then a precomposition too, so that no layer needs an intersecting mask.
            guard let owner = run.owner,
                  run.keys.count > 1 || run.keys.contains(where: { clipCount($0) > depth + 1 }) else {
                plain(run.keys); continue
            }
            // Its asset's place is taken before the nested ones', so ids follow the stack.
            let slot = assets.count
            assets.append(.null)
            let inner = stack(run.keys, depth: depth + 1, assets: &assets, counts: &counts)
            guard !inner.isEmpty else { assets.removeSubrange(slot...); continue }
            let id = "clip\(slot)"
            guard let layer = precompositionLayer(id: id, owner: owner, keys: run.keys, depth: depth, index: out.count + 1,
                                                  counts: &counts) else {
                assets.removeSubrange(slot...); plain(run.keys); continue
            }
            assets[slot] = .object([("id", .string(id)), ("layers", .array(inner))])
            out.append(layer)
        }
        return out
    }

    /// The most clips the drawable has at any frame.
    private func clipCount(_ key: String) -> Int { samples[key]?.values.map(\.clips.count).max() ?? 0 }

    /// Who the drawable's clip at `depth` belongs to, when it is the same at every frame
    /// it is drawn (a cut-out, a shadow's, stays the drawable's own).
    private func clipOwner(_ key: String, at depth: Int) -> String? {
        guard let frames = samples[key] else { return nil }
        var owner: String? = nil
        for sample in frames.values {
            guard depth < sample.clips.count, !sample.clips[depth].subtract else { return nil }
            let o = sample.clips[depth].owner
            if let owner, owner != o { return nil }
            owner = o
        }
        return owner
    }

    /// The precomposition's layer: canvas-sized, untransformed, alive while any of its
    /// drawables is, masked by the shared clip mapped to the canvas.
    private func precompositionLayer(id: String, owner: String, keys: [String], depth: Int, index: Int,
                                     counts: inout (sampled: Int, kept: Int)) -> LottieJSON? {
        let lives = keys.compactMap { samples[$0]?.keys }.joined()
        guard let first = lives.min(), let last = lives.max() else { return nil }
        // The clip at each frame, from whichever drawable has it; the mask's plane is the canvas.
        let run = (first...last).map { f -> DrawableSample in
            let clip = keys.lazy.compactMap { self.samples[$0]?[f] }.first { depth < $0.clips.count }?.clips[depth]
            return DrawableSample(key: owner, projection: .identity, opacity: 1, paints: [], clips: clip.map { [$0] } ?? [],
                                  source: owner, extent: 1)
        }
        var tracks = TrackWriter(first: first)
        guard let masks = Self.masks(run: run, baked: true, from: 0, tracks: &tracks) else { return nil }
        counts.sampled += tracks.sampled
        counts.kept += tracks.kept
        let still = { (k: LottieJSON) in LottieJSON.object([("a", 0), ("k", k)]) }
        return .object([
            ("ddd", 0), ("ind", .number(Double(index))), ("ty", 0), ("nm", .string(owner)), ("refId", .string(id)), ("sr", 1),
            ("ks", .object([("a", still([0, 0])), ("p", still([0, 0])), ("s", still([100, 100])), ("r", still(0)), ("o", still(100))])),
            ("ao", 0), ("w", .number(size.width.rounded())), ("h", .number(size.height.rounded())),
            ("ip", .number(Double(first))), ("op", .number(Double(last + 1))), ("st", 0),
            ("hasMask", true), ("masksProperties", masks),
        ])
    }
}
