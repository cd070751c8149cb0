import KineticGeometry
import KineticLayers

/// Reads the CAEmitterLayer and CAEmitterCell keys of section 3.2.
extension LayerDecoder {
    static let emitterCellKeys = EmitterCellSchema.fileKeys

    /// The emitter keys `readValues` leaves: the seed and the cells. With an
    /// `address` (a layer of the file, not an event's `set:`), their expressions are
    /// taken (`ExpressionBinder.take`): live ones bound, constant ones evaluated.
    mutating func readEmitter(_ m: Mapping, into layer: inout Layer, address: LayerAddress?, label: String) {
        guard var e = layer.emitter else { return }
        if let v = integer(m, "seed", address: address?.indices, label: label) { e.seed = UInt64(v) }
        if let f = m["emitterCells"] { e.emitterCells = cells(f, owner: address.map { CellOwner(address: $0, label: label, names: []) }) }
        layer.emitter = e
    }

    /// The emitter layer a cell's expressions bind to, and the names leading to the cell
    /// (nil once a cell on the way has none: no key path reaches it).
    struct CellOwner {
        var address: LayerAddress
        var label: String
        var names: [String]?

        /// Where the live expressions of the cell's `key` go: `emitterCells.NAME.KEY`, which
        /// the particle system reads at every step; a cell without a name path has none.
        func target(ofKey key: String) -> LiveTarget? {
            guard let cellKey = EmitterCellKey(rawValue: key), cellKey.valueKind == .number else { return nil }
            let prefix = names.map { $0.map { "emitterCells.\($0)." }.joined() } ?? ""
            return LiveTarget(layer: address, key: prefix + key, label: label,
                              keyPath: names.map { LayerKeyPath.emitterCell(names: $0, key: cellKey) },
                              unbindable: "this cell has no key path (emitterCells.NAME.KEY) to bind to: give it, and the "
                                  + "cells it is in, a name")
        }
    }

    /// A list of cells; sibling names must be unique, since key paths find cells by name.
    private mutating func cells(_ f: Field, owner: CellOwner?) -> [EmitterCell] {
        guard let items = f.elements else { return [] }
        var result: [EmitterCell] = []
        var names: [String: Field] = [:]
        for item in items {
            guard let (cell, nameField) = cell(item, owner: owner) else { continue }
            if let name = cell.name, let nameField {
                if let first = names[name] {
                    nameField.report("duplicate cell name '\(name)' (first used at line \(first.mark?.line ?? 0)): key paths find cells by name")
                } else { names[name] = nameField }
            }
            result.append(cell)
        }
        return result
    }

    private mutating func cell(_ f: Field, owner: CellOwner?) -> (EmitterCell, Field?)? {
        guard let m = f.mapping(allowed: Self.emitterCellKeys, contexts: ["emitterCell"]) else { return nil }
        var c = EmitterCell()
        if let nf = m["name"], let name = nf.string {
            if name.isEmpty || name.contains(".") {
                nf.report("a cell name must be non-empty and contain no '.' (it is a key path step)")
            } else { c.name = name }
        }
        let names = owner?.names.flatMap { names in c.name.map { names + [$0] } }
        var owner = owner
        owner?.names = names
        m.readValues(into: &c, value: { key, cf, spec in
            binder.take(cf, to: owner.flatMap { $0.target(ofKey: key) }) {
                $0.value(of: spec.kind, problem: spec.problem)
            }
        }) { key in EmitterCellSchema.entries.first { $0.name == key } }
        if let cf = m["contents"] { c.contents = particleContents(cf) }
        if let sub = m["emitterCells"] { c.emitterCells = cells(sub, owner: owner) }
        return (c, m["name"])
    }

    /// The largest side of inline contents: sprites are rasterized from it (several
    /// canvases wide already).
    static let largestContentsSide = 10_000.0

    /// An image asset, or an inline `{path, size, fillColor}` (fillColor default white,
    /// so the cell's `color` tints it entirely).
    private mutating func particleContents(_ f: Field) -> ParticleContents? {
        guard case .mapping = f.node else {
            if let name = f.node.scalar?.string, name.lowercased().hasSuffix(".svg") {
                f.report("a particle's contents are a PNG or an inline {path, size, fillColor}: an SVG comes in as "
                         + "{path: {svg: '\(name)'}, size: [w, h]}")
                return nil
            }
            return asset(f).map { .image($0) }
        }
        guard let m = f.mapping(allowed: SceneKeys.cellContents.map(\.name)) else { return nil }
        let size = m.required("size")?.value(.size) { v in
            guard case .size(let s) = v, s.width >= 0, s.height >= 0 else { return "a size must not be negative" }
            let limit = Self.largestContentsSide
            return s.width <= limit && s.height <= limit ? nil : "each side of a particle's contents must be at most \(Int(limit)) pt"
        }?.sizeValue
        // An SVG path fills the particle's size.
        let path = m.required("path")?.path(in: size.map { Rect(origin: .zero, size: $0) })
        let fill = m["fillColor"].map { $0.color } ?? .white
        guard let path, let size, let fill else { return nil }
        return .path(path, size: size, fillColor: fill)
    }

    /// Every cell's name path, for checking `emitterCells.NAME.KEY` key paths at load.
    static func cellPaths(_ style: EmitterStyle) -> [[String]] {
        style.flattenedCells.map(\.names).filter { !$0.contains("") }
    }
}
