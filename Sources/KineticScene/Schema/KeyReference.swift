import KineticGeometry
import KineticDynamics
import KineticLayers

/// docs/keys.md: the key reference, generated from the schema tables (`LayerSchema`,
/// `EmitterCellSchema`, `AnimationKeys`, `DynamicsTable`); a test checks the committed
/// file against it.
public enum KeyReference {
    public static func markdown() -> String {
        var out = """
        # Key reference

        Every key of a layer, an emitter cell, an animation and the dynamics, generated from
        Kinetic's schema tables (`LayerSchema`, `EmitterCellSchema`, `AnimationKeys`,
        `DynamicsTable`) — the same tables the loader, the animations, `set:`, `inspect` and
        `kinetic schema` read. Do not edit by hand: run
        `KINETIC_UPDATE_DOCS=1 swift test --filter KeyReferenceTests` after changing a table.

        Columns: the value (section 1 of the scene format), the values allowed and why, the
        default, whether animations reach the key (**anim**) and whether a live expression may
        drive it (**expr**; constant expressions are allowed wherever a number is).


        """
        let schema = LayerSchema.standard
        let groups: [(String, Set<LayerType>?)] = [
            ("Every layer (CALayer)", nil), ("`shape` (CAShapeLayer)", [.shape]), ("`gradient` (CAGradientLayer)", [.gradient]),
            ("`text` (CATextLayer)", [.text]), ("`emitter` (CAEmitterLayer)", [.emitter]),
            ("`replicator` (CAReplicatorLayer)", [.replicator]),
        ]
        for (title, types) in groups {
            out += "## \(title)\n\n" + table(schema.entries.filter { $0.isFileKey && $0.layerTypes == types })
            let paths = schema.entries.filter { !$0.isFileKey && $0.layerTypes == types }
            if !paths.isEmpty {
                out += "Key paths into these keys (animations, `set:`, references):\n\n" + table(paths)
            }
        }
        out += "## Emitter cells (CAEmitterCell)\n\nAnimatable as `emitterCells.NAME.KEY` "
            + "(`emitterCells.A.emitterCells.B.KEY` for a sub-cell).\n\n" + table(EmitterCellSchema.entries)
        out += "## Animations (CAAnimation)\n\n" + table(AnimationKeys.entries)
        out += dynamics()
        out += unsupported()
        return out
    }

    /// The dynamics tables: the block, an item's settings, the keys of every behavior, each
    /// kind's, a boundary's and a region's. **set**: events' `set:`, `behavior:` animations
    /// and expressions may change the key while the simulation runs.
    private static func dynamics() -> String {
        var out = "## Dynamics (UIKit Dynamics)\n\n"
        let contexts: [(String, String)] = [("`dynamics:`", "dynamics"), ("`dynamics.items.ID` (UIDynamicItem)", "dynamicItem"),
                                            ("Every behavior", "behavior")]
            + DynamicsTable.behaviorKinds.map { ("`\($0.name)` (\($0.apple))", $0.name) }
            + [("A collision boundary", "boundary"), ("A field's region", "region")]
        for (title, context) in contexts {
            out += "### \(title)\n\n| key | value | allowed | default | set | description |\n"
                + "| --- | --- | --- | --- | --- | --- |\n"
            for e in DynamicsTable.contexts[context] ?? [] {
                let allowed = e.range.map { "\($0.text) (\($0.reason))" } ?? ""
                let doc = e.doc + (e.apple.map { " (\($0))" } ?? "")
                let cells = ["`\(e.name)`", describe(e.kind), allowed, e.defaultValue.map { "`\($0.text)`" } ?? "",
                             e.isSettable ? "yes" : "", doc]
                out += row(cells)
            }
            out += "\n"
        }
        return out
    }

    /// The table of `UnsupportedAppleNames`: what the loader and the schema refuse as
    /// "not supported".
    private static func unsupported() -> String {
        var out = """
        ## Apple's names Kinetic does not implement

        Written where the table says, each is refused by `kinetic validate` (and by the JSON
        schema) as "not supported" at its FILE:LINE:COL and key path, never as an unknown key:
        a missing feature does not read as a typo.

        | key | Apple's API | written in | note |
        | --- | --- | --- | --- |

        """
        for e in UnsupportedAppleNames.entries {
            let place = e.context == "layer" ? "any layer"
                : LayerType(rawValue: e.context) != nil ? "`type: \(e.context)` layers" : "`\(e.context)` mappings"
            out += "| `\(e.name)` | \(e.owner).\(e.name) | \(place) | \(e.note) |\n"
        }
        return out + "\n"
    }

    private static func table<Object>(_ entries: [PropertySpec<Object>]) -> String {
        var rows = "| key | value | allowed | default | anim | expr | description |\n"
            + "| --- | --- | --- | --- | --- | --- | --- |\n"
        for e in entries {
            let name = ([e.name] + e.aliases).map { "`\($0)`" }.joined(separator: ", ")
            let allowed = e.range.map { "\($0.text) (\($0.reason))" } ?? ""
            let cells = [name, describe(e.kind), allowed, e.defaultValue.map { "`\($0.text)`" } ?? "",
                         e.isAnimatable ? "yes" : "", e.allowsExpressions ? "yes" : "", e.doc]
            rows += row(cells)
        }
        return rows + "\n"
    }

    /// One row of a Markdown table, its cells' bars escaped.
    private static func row(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }

    private static func describe(_ kind: PropertyKind) -> String {
        switch kind {
        case .number: "number"
        case .angle: "angle (radians or \"45deg\")"
        case .integer: "whole number"
        case .point: "point [x, y]"
        case .size: "size [w, h]"
        case .rect: "rect [x, y, w, h]"
        case .sizeOrRect: "[w, h] or [x, y, w, h]"
        case .color: "color"
        case .colors: "list of colors"
        case .numbers: "list of numbers"
        case .transform: "transform"
        case .path: "path"
        case .bool: "true or false"
        case .image: "image asset (PNG)"
        case .string: "string"
        case .choice(let names): names.joined(separator: ", ")
        case .names(let names): "list of " + names.joined(separator: ", ")
        case .filters: "list of filters"
        case .layer: "layer"
        case .layers: "list of layers"
        case .numberMap: "{name: number}"
        case .cells: "list of emitter cells"
        case .cellContents: "image asset or {path, size, fillColor}"
        case .value: "a value of the key path's kind"
        case .values: "list of values"
        case .timingFunction: "timing function"
        case .timingFunctions: "list of timing functions"
        case .countOrForever: "number or forever"
        case .mapping(let name): "\(name) mapping"
        case .mappings(let name): "list of \(name) mappings"
        case .mappingsByLayerID(let name): "{layer id: \(name) mapping}"
        case .layerID: "layer id"
        case .layerIDs: "list of layer ids"
        case .fixedNumbers(let count): "list of \(count) numbers"
        case .pathOrShapeLayer: "path or \"@ID\" of a shape layer"
        case .integerChoice(let values): values.map(String.init).joined(separator: ", ")
        case .list(let kind): "list of " + describe(kind)
        case .anyOf(let kinds): kinds.map(describe).joined(separator: " or ")
        case .numberList(let counts): "list of \(counts.lowerBound)–\(counts.upperBound) numbers"
        case .percentage: "percentage \"5%\""
        case .keyPathValues: "{ID.KEYPATH: value}"
        }
    }
}
