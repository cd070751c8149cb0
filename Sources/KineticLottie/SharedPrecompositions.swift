import KineticGeometry

/// A precomposition's contents less where they stand, so two clips of one subtree (a YAML
/// alias drawn twice: twitter-logo-mask's photo and its masked copy) can share one asset.
/// A precomposition keeps canvas coordinates, so two copies of a subtree differ only in
/// the still positions of their root nulls (the nulls without a parent in the asset,
/// which place the whole subtree) and in their layers' names (the keys they come from).
/// With both taken out, equal signatures mean one copy is the other moved: the second
/// precomposition layer references the first asset, translated by that move (its mask
/// moved back, since a layer's masks are in its own coordinates).
///
/// Conservative: contents with anything else placed on the canvas directly (an image or
/// baked layer, a nested precomposition: none is parented) or a root null that moves are
/// never shared.
struct PlacedContents {
    /// The layers' JSON with names and root positions left out.
    let signature: String
    /// The root nulls' positions, in layer order.
    let roots: [Point]

    init?(_ layers: [LottieJSON]) {
        var kept: [LottieJSON] = []
        var roots: [Point] = []
        for layer in layers {
            guard case .object(let fields) = layer else { return nil }
            let isRoot = layer["parent"] == nil
            // Only nulls may stand on the canvas directly.
            if isRoot, layer["ty"] != 3 { return nil }
            var out: [(String, LottieJSON)] = []
            for (key, value) in fields where key != "nm" {
                guard isRoot, key == "ks", case .object(let transform) = value else { out.append((key, value)); continue }
                guard let p = value["p"], let place = Self.stillPoint(p) else { return nil }
                roots.append(place)
                out.append((key, .object(transform.filter { $0.0 != "p" })))
            }
            kept.append(.object(out))
        }
        signature = LottieJSON.array(kept).text
        self.roots = roots
    }

    /// The one translation that takes `other`'s roots onto these (nil when they move apart).
    func offset(from other: PlacedContents) -> Point? {
        guard signature == other.signature, let a = roots.first, let b = other.roots.first else { return nil }
        let offset = Point(a.x - b.x, a.y - b.y)
        // Written to 4 decimals: a difference below that is no difference.
        let same = zip(roots, other.roots).allSatisfy { abs($0.x - $1.x - offset.x) < 1e-4 && abs($0.y - $1.y - offset.y) < 1e-4 }
        return same ? offset : nil
    }

    /// A still position, split (`s: true`, `x`, `y`) or not.
    private static func stillPoint(_ p: LottieJSON) -> Point? {
        if p["s"] == true {
            guard p["x"]?["a"] == 0, p["y"]?["a"] == 0, case .number(let x)? = p["x"]?["k"],
                  case .number(let y)? = p["y"]?["k"] else { return nil }
            return Point(x, y)
        }
        guard p["a"] == 0, case .array(let k)? = p["k"], k.count >= 2, case .number(let x) = k[0], case .number(let y) = k[1] else {
            return nil
        }
        return Point(x, y)
    }
}

extension LottieExporter {
    /// An earlier asset whose contents are `layers` moved, and by how much.
    func sharedAsset(for layers: [LottieJSON], among assets: ArraySlice<LottieJSON>) -> (id: String, offset: Point)? {
        guard let mine = PlacedContents(layers) else { return nil }
        for asset in assets {
            guard case .string(let id)? = asset["id"], case .array(let theirs)? = asset["layers"],
                  let other = PlacedContents(theirs), let offset = mine.offset(from: other) else { continue }
            return (id, offset)
        }
        return nil
    }
}
