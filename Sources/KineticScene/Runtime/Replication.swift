import KineticGeometry
import KineticLayers

/// CAReplicatorLayer's copies, made when a frame's presentation tree is built: the
/// renderer and `inspect` then see them as ordinary sublayers.
public enum Replication {
    /// Replaces every replicator's sublayers by `instanceCount` copies of them.
    ///
    /// Copy k (0-based) shows the sublayers as they are at `time − k × instanceDelay`
    /// (`presentation(t)` gives the whole animated tree at time t, with the model's
    /// structure so addresses still point into it); it is placed by `instanceTransform`
    /// applied k times about the replicator's centre, after the sublayer's own transform
    /// and position, and its colors are multiplied by `instanceColor` plus k times the
    /// color offsets. Replicators among the copies expand in their copy's time, so nested
    /// delays add up.
    ///
    /// Copies keep their ids and places with their copy indices appended, outermost
    /// replicator first, so every key stays unique: `dot#2` is copy 2 of a single
    /// replicator, `dot#1#2` copy 2 of the inner replicator in copy 1 of the outer one,
    /// `dot#0#2` the same in the outer copy 0. The originals (copy 0 throughout) keep
    /// their keys.
    ///
    /// At most `limit` layers are made in all (nested replicators multiply): past it the
    /// copying stops and `exceeded` is true, so the caller refuses the frame instead of
    /// running out of memory.
    public static func expand(_ layers: [Layer], at time: Double, limit: Int = .max,
                              presentation: (Double) -> [Layer]) -> (layers: [Layer], exceeded: Bool) {
        // Without a replicator the tree is its own expansion and holds no copy suffix: skip
        // rebuilding it (4 M instructions a frame for 300 plain layers, a tenth of drawing them).
        let census = census(of: layers)
        if !census.hasReplicator { return (layers, census.count > limit) }
        let budget = Budget(remaining: limit)
        let expanded = expand(layers, parent: [], at: time, suffix: "", budget: budget, presentation: presentation)
            .map { $0.removingZeroCopySuffixes() }
        return (expanded, budget.exceeded)
    }

    /// How many layers the trees hold, masks included (what the budget counts), and
    /// whether one of them is a replicator.
    private static func census(of layers: [Layer]) -> (count: Int, hasReplicator: Bool) {
        var count = 0, hasReplicator = false
        // Fields are read where each layer lies, never the layer as a value: a `Layer`
        // handed to a function (`forEach`'s closure) was copied out of its array with a
        // retain of everything it holds, 0.3 M instructions a frame for 300 plain layers.
        func visit(_ layers: [Layer]) {
            for i in layers.indices {
                count += 1
                if case .replicator = layers[i].content { hasReplicator = true }
                if layers[i].hasMask, let mask = layers[i].mask { visit([mask]) }
                visit(layers[i].sublayers)
            }
        }
        visit(layers)
        return (count, hasReplicator)
    }

    /// The layers still allowed, shared down the recursion.
    private final class Budget {
        var remaining: Int
        var exceeded = false
        init(remaining: Int) { self.remaining = remaining }
        func take() { remaining -= 1; if remaining < 0 { exceeded = true } }
    }

    /// `suffix`: the copy indices of the enclosing replicators' copies, `#i#j…`.
    private static func expand(_ layers: [Layer], parent: [Int], at time: Double, suffix: String,
                               budget: Budget, presentation: (Double) -> [Layer]) -> [Layer] {
        layers.enumerated().map { i, layer in
            expand(layer, address: parent + [i], at: time, suffix: suffix, budget: budget, presentation: presentation)
        }
    }

    /// The layer at `address` with the replicators in its subtree and in its mask (a mask
    /// may be any layer, a replicator of dots included) expanded.
    private static func expand(_ original: Layer, address: [Int], at time: Double, suffix: String,
                               budget: Budget, presentation: (Double) -> [Layer]) -> Layer {
        var layer = original
        budget.take()
        if budget.exceeded { return layer }
        if let mask = layer.mask {
            layer.mask = expand(mask, address: address + [LayerAddress.mask], at: time, suffix: suffix,
                                budget: budget, presentation: presentation)
        }
        guard let r = layer.replicator else {
            layer.sublayers = expand(layer.sublayers, parent: address, at: time, suffix: suffix,
                                     budget: budget, presentation: presentation)
            return layer
        }
        let centre = Point(layer.bounds.midX, layer.bounds.midY)
        let step = Transform3D.translation(-centre.x, -centre.y)
            .concatenating(r.instanceTransform)
            .concatenating(.translation(centre.x, centre.y))
        var copies: [Layer] = []
        var accumulated = Transform3D.identity  // `step` applied k times
        for k in 0..<max(r.instanceCount, 0) where !budget.exceeded {
            let copyTime = time - Double(k) * r.instanceDelay
            let source = k == 0 || copyTime == time
                ? layer.sublayers
                : presentation(copyTime)[LayerAddress(address)]?.sublayers ?? layer.sublayers
            let color = instanceColor(r, copy: k)
            // A source taken from another time has the plain keys: name every copy anew.
            let copySuffix = suffix + "#\(k)"
            let named = source.map { $0.renamed(suffix: copySuffix) }
            for sublayer in expand(named, parent: address, at: copyTime, suffix: copySuffix,
                                   budget: budget, presentation: presentation) {
                var copy = sublayer
                copy.transform = placed(copy, by: accumulated)
                if color != .white { copy.colorMultiplier = copy.colorMultiplier.map { $0.multiplied(by: color) } ?? color }
                copies.append(copy)
            }
            accumulated = accumulated.concatenating(step)
        }
        layer.sublayers = copies
        return layer
    }

    /// The transform that makes `layer` map through `instance` after its own placement:
    /// toSuperlayer · instance = anchor⁻¹ · T' · position, so T' = T · position · instance · position⁻¹.
    static func placed(_ layer: Layer, by instance: Transform3D) -> Transform3D {
        guard !instance.isIdentity else { return layer.transform }
        return layer.transform
            .concatenating(.translation(layer.position.x, layer.position.y, layer.zPosition))
            .concatenating(instance)
            .concatenating(.translation(-layer.position.x, -layer.position.y, -layer.zPosition))
    }

    /// Copy k's color: `instanceColor` with k × each offset added, clamped to 0…1.
    public static func instanceColor(_ r: ReplicatorStyle, copy k: Int) -> Color {
        let kk = Double(k)
        func unit(_ v: Double) -> Double { min(max(v, 0), 1) }
        return Color(red: unit(r.instanceColor.red + kk * r.instanceRedOffset),
                     green: unit(r.instanceColor.green + kk * r.instanceGreenOffset),
                     blue: unit(r.instanceColor.blue + kk * r.instanceBlueOffset),
                     alpha: unit(r.instanceColor.alpha + kk * r.instanceAlphaOffset))
    }
}

extension Color {
    /// Component-wise product.
    func multiplied(by c: Color) -> Color {
        Color(red: red * c.red, green: green * c.green, blue: blue * c.blue, alpha: alpha * c.alpha)
    }
}

extension Layer {
    /// The layer, its subtree and its mask with their keys' copy suffixes set to `suffix` (see
    /// `Replication.expand`); ids and places never contain `#` otherwise.
    func renamed(suffix: String) -> Layer {
        func base(_ s: String) -> Substring { s.split(separator: "#", omittingEmptySubsequences: false)[0] }
        var layer = self
        if let id { layer.id = base(id) + suffix }
        layer.place = base(place) + suffix
        layer.sublayers = sublayers.map { $0.renamed(suffix: suffix) }
        layer.mask = mask?.renamed(suffix: suffix)
        return layer
    }

    /// The subtree (masks included) with copy suffixes made only of `#0` removed: the originals.
    func removingZeroCopySuffixes() -> Layer {
        func original(_ s: String) -> String {
            guard let hash = s.firstIndex(of: "#") else { return s }
            return s[hash...].split(separator: "#").allSatisfy { $0 == "0" } ? String(s[..<hash]) : s
        }
        var layer = self
        layer.id = id.map(original)
        layer.place = original(place)
        layer.sublayers = sublayers.map { $0.removingZeroCopySuffixes() }
        layer.mask = mask?.removingZeroCopySuffixes()
        return layer
    }
}
