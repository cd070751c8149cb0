import Foundation
import KineticGeometry
import KineticLayers
import KineticScene

/// The JSON of `kinetic inspect` (section 10 of the contract): the presentation state of
/// one frame, keys sorted, numbers plain.
enum InspectReport {
    /// `items` are the dynamic items' simulated states (empty without dynamics).
    static func json(for frame: SceneFrame, items: [String: DynamicItemState] = [:]) -> String {
        var layers: [String: Any] = [:]
        for layer in frame.layers { describe(layer, toScene: .identity, into: &layers) }
        let report: [String: Any] = [
            "frame": frame.index,
            "time": number(frame.time),
            "layers": layers,
            "items": items.mapValues { s -> [String: Any] in
                ["center": point(s.center), "angle": number(s.angle),
                 "velocity": point(s.velocity), "angularVelocity": number(s.angularVelocity)]
            },
            // Filled by the emitter stage.
            "emitters": [String: Any](),
        ]
        let data = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Lists `layer` and its sublayers; `toScene` maps its superlayer's space to the scene.
    private static func describe(_ layer: Layer, toScene parent: Transform3D, into out: inout [String: Any]) {
        let toScene = layer.toSuperlayer.concatenating(parent)
        var d: [String: Any] = [
            "type": layer.type.rawValue,
            "position": point(layer.position),
            "bounds": [layer.bounds.origin.x, layer.bounds.origin.y, layer.bounds.size.width, layer.bounds.size.height].map(number),
            "anchorPoint": point(layer.anchorPoint),
            "opacity": number(layer.opacity),
            "hidden": layer.isHidden,
            "zPosition": number(layer.zPosition),
            "transform": layer.transform.fields.map(number),
            "corners": layer.bounds.corners.map { point(toScene.apply(to: $0)) },
            "cornerRadius": number(layer.cornerRadius),
        ]
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
            let trimmed = s.strokeStart == 0 && s.strokeEnd == 1 ? s.path : s.path.trimmed(from: s.strokeStart, to: s.strokeEnd)
            d["path"] = trimmed.svgData()
            d["strokeStart"] = number(s.strokeStart)
            d["strokeEnd"] = number(s.strokeEnd)
            d["fillColor"] = s.fillColor?.hexString ?? NSNull()
            d["strokeColor"] = s.strokeColor?.hexString ?? NSNull()
            d["lineWidth"] = number(s.lineWidth)
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
        case .plain:
            break
        }
        out[layer.key] = d
        let sublayerParent = layer.sublayerSpace.concatenating(toScene)
        for s in layer.sublayers { describe(s, toScene: sublayerParent, into: &out) }
    }

    private static func point(_ p: Point) -> [Double] { [number(p.x), number(p.y)] }

    /// Rounded to 1e-9 so float noise does not show, and −0 printed as 0.
    static func number(_ v: Double) -> Double {
        let r = (v * 1e9).rounded() / 1e9
        return r == 0 ? 0 : r
    }
}
