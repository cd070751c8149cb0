import Foundation
import KineticGeometry
import KineticLayers
import KineticScene

/// The JSON of `kinetic inspect` (section 10 of the contract): the presentation state of
/// one frame, keys sorted, numbers plain.
enum InspectReport {
    /// `items` are the dynamic items' simulated states (empty without dynamics);
    /// `particles` lists every live particle of the emitters.
    static func json(for frame: SceneFrame, items: [String: DynamicItemState] = [:], particles: Bool = false) -> String {
        var report = entries(for: frame, items: items, detail: particles ? .particles : .standard)
        report["frame"] = frame.index
        report["time"] = number(frame.time)
        let data = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// How much of a frame the report holds.
    enum Detail {
        /// Section 10's report.
        case standard
        /// With every live particle.
        case particles
        /// What a state golden keeps of every frame (docs/golden.md): the layers' own
        /// values without the corners (they follow from the values of the layer and its
        /// superlayers), a shape's path as its bounding box and length instead of its
        /// path data, and the emitters' counts.
        case state
    }

    /// The report's `layers`, `items` and `emitters` of one frame, as JSON objects.
    static func entries(for frame: SceneFrame, items: [String: DynamicItemState], detail: Detail) -> [String: Any] {
        var layers: [String: Any] = [:]
        // The renderer's composition: each layer's plane flattened into its superlayer's.
        Listing.forEachLayer(frame.layers) { key, layer, placement in
            layers[key] = describe(layer, placement: placement, detail: detail)
        }
        var emitters: [String: Any] = [:]
        for layer in frame.layers {
            layer.forEach { describeEmitter($0, particles: detail == .particles, into: &emitters) }
        }
        return [
            "layers": layers,
            "items": items.mapValues { s -> [String: Any] in
                ["center": point(s.center), "angle": number(s.angle),
                 "velocity": point(s.velocity), "angularVelocity": number(s.angularVelocity)]
            },
            "emitters": emitters,
        ]
    }

    /// One layer's entry; `placement` is how it reaches the canvas.
    private static func describe(_ layer: Layer, placement: Listing.Placement, detail: Detail) -> [String: Any] {
        var d: [String: Any] = [
            "type": layer.type.rawValue,
            "position": point(layer.position),
            "bounds": [layer.bounds.origin.x, layer.bounds.origin.y, layer.bounds.size.width, layer.bounds.size.height].map(number),
            "anchorPoint": point(layer.anchorPoint),
            "opacity": number(layer.opacity),
            "hidden": layer.isHidden,
            "zPosition": number(layer.zPosition),
            "transform": layer.transform.fields.map(number),
            "cornerRadius": number(layer.cornerRadius),
            "shadowOpacity": number(layer.shadowOpacity),
            "shadowRadius": number(layer.shadowRadius),
            "shadowOffset": [number(layer.shadowOffset.width), number(layer.shadowOffset.height)],
            "shadowColor": layer.shadowColor.hexString,
        ]
        if detail != .state {
            // A corner the renderer cannot place (at or behind the eye) is null.
            d["corners"] = layer.bounds.corners.map { corner -> Any in placement.canvasPoint(of: corner).map(point) ?? NSNull() }
        }
        if let c = layer.backgroundColor { d["backgroundColor"] = c.hexString }
        if layer.borderWidth > 0 {
            d["borderWidth"] = number(layer.borderWidth)
            d["borderColor"] = layer.borderColor.hexString
        }
        if !layer.properties.isEmpty { d["properties"] = layer.properties.mapValues(number) }
        if let c = layer.contents { d["contents"] = c }
        if !layer.sublayerTransform.isIdentity { d["sublayerTransform"] = layer.sublayerTransform.fields.map(number) }
        switch layer.content {
        case .shape(let s):
            if detail == .state {
                let box = s.path.boundingBox
                d["pathBounds"] = [box.origin.x, box.origin.y, box.size.width, box.size.height].map(number)
                d["pathLength"] = number(s.path.length)
            } else {
                let trimmed = s.strokeStart == 0 && s.strokeEnd == 1 ? s.path : s.path.trimmed(from: s.strokeStart, to: s.strokeEnd)
                d["path"] = trimmed.svgData()
            }
            d["strokeStart"] = number(s.strokeStart)
            d["strokeEnd"] = number(s.strokeEnd)
            d["fillColor"] = s.fillColor?.hexString ?? NSNull()
            d["strokeColor"] = s.strokeColor?.hexString ?? NSNull()
            d["lineWidth"] = number(s.lineWidth)
            d["lineDashPattern"] = s.lineDashPattern.map(number)
            d["lineDashPhase"] = number(s.lineDashPhase)
        case .gradient(let g):
            d["colors"] = g.colors.map(\.hexString)
            d["locations"] = (g.locations ?? Layer.evenLocations(g.colors.count)).map(number)
            d["startPoint"] = point(g.startPoint)
            d["endPoint"] = point(g.endPoint)
            d["gradientType"] = g.gradientType.rawValue
        case .text(let t):
            d["string"] = t.string
            d["fontSize"] = number(t.fontSize)
            d["foregroundColor"] = t.foregroundColor.hexString
        case .replicator(let r):
            d["instanceCount"] = r.instanceCount
            d["instanceDelay"] = number(r.instanceDelay)
            d["instanceTransform"] = r.instanceTransform.fields.map(number)
            d["instanceColor"] = r.instanceColor.hexString
        case .emitter(let e):
            d["emitterPosition"] = point(e.emitterPosition)
            d["birthRate"] = number(e.birthRate)
        case .plain:
            break
        }
        if let c = placement.colorMultiplier { d["colorMultiplier"] = c.hexString }
        if let mask = placement.maskKey { d["mask"] = mask }
        return d
    }

    /// Section 10's `emitters` entry: per cell (name path, `a.b` for a sub-cell) the
    /// particles alive and born; with `particles`, every live particle (with its `angle`,
    /// radians turned by its spin, beyond the contract's list).
    private static func describeEmitter(_ layer: Layer, particles: Bool, into out: inout [String: Any]) {
        guard let e = layer.emitter else { return }
        let p = e.particles
        var cells: [String: Any] = [:]
        for (c, entry) in e.flattenedCells.enumerated() {
            let name = entry.names.contains("") ? "emitterCells[\(c)]" : entry.names.joined(separator: ".")
            var d: [String: Any] = ["alive": c < p.alive.count ? p.alive[c] : 0, "born": c < p.born.count ? p.born[c] : 0]
            if particles {
                var list: [[String: Any]] = []
                for i in 0..<p.count where Int(p.cell[i]) == c {
                    list.append([
                        "position": [number(p.x[i]), number(p.y[i])],
                        "velocity": [number(p.vx[i]), number(p.vy[i])],
                        "age": number(p.age[i]), "lifetime": number(p.lifetime[i]),
                        "scale": number(p.scale[i]), "angle": number(p.angle[i]), "alpha": number(Double(p.alpha[i])),
                        "color": Color(red: Double(p.red[i]), green: Double(p.green[i]), blue: Double(p.blue[i]),
                                       alpha: Double(p.alpha[i])).hexString,
                    ])
                }
                d["particles"] = list
            }
            cells[name] = d
        }
        out[layer.key] = ["cells": cells]
    }

    private static func point(_ p: Point) -> [Double] { [number(p.x), number(p.y)] }

    /// Rounded to 1e-9 so float noise does not show, and −0 printed as 0.
    static func number(_ v: Double) -> Double {
        let r = (v * 1e9).rounded() / 1e9
        return r == 0 ? 0 : r
    }
}
