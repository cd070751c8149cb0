import Foundation
import KineticGeometry
import KineticLayers
import KineticScene

/// The JSON of `kinetic inspect` (section 10 of the contract): the presentation state of
/// one frame, keys sorted, numbers plain.
package enum InspectReport {
    /// `items` are the dynamic items' simulated states (empty without dynamics);
    /// `particles` lists every live particle of the emitters.
    package static func json(for frame: SceneFrame, items: [String: DynamicItemState] = [:], particles: Bool = false) -> String {
        var whole = report(for: frame, items: items, detail: particles ? .particles : .standard)
        whole["frame"] = .integer(frame.index)
        whole["time"] = .number(number(frame.time))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(whole)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// How much of a frame the report holds.
    package enum Detail {
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

    /// The report's `layers`, `items` and `emitters` of one frame.
    package static func report(for frame: SceneFrame, items: [String: DynamicItemState], detail: Detail) -> [String: ReportValue] {
        var layers: [String: ReportValue] = [:]
        // The renderer's composition: each layer's plane flattened into its superlayer's.
        Listing.forEachLayer(frame.layers) { key, layer, placement in
            layers[key] = .object(describe(layer, placement: placement, detail: detail))
        }
        var emitters: [String: ReportValue] = [:]
        for layer in frame.layers {
            layer.forEach { describeEmitter($0, particles: detail == .particles, into: &emitters) }
        }
        return [
            "layers": .object(layers),
            "items": .object(items.mapValues { s in
                .object(["center": point(s.center), "angle": .number(number(s.angle)),
                         "velocity": point(s.velocity), "angularVelocity": .number(number(s.angularVelocity))])
            }),
            "emitters": .object(emitters),
        ]
    }

    /// The report as plain JSON objects (what a state golden reads).
    package static func entries(for frame: SceneFrame, items: [String: DynamicItemState], detail: Detail) -> [String: Any] {
        report(for: frame, items: items, detail: detail).mapValues(\.plain)
    }

    /// One layer's entry; `placement` is how it reaches the canvas. Every animatable key
    /// of the layer's type (`LayerSchema`) is listed, in the contract's units; a state
    /// golden keeps the keys it was recorded with (`PropertySpec.isRecordedInState`).
    private static func describe(_ layer: KineticLayers.Layer, placement: Listing.Placement, detail: Detail) -> [String: ReportValue] {
        var d: [String: ReportValue] = ["type": .string(layer.type.rawValue)]
        for spec in LayerSchema.standard.animatableFileKeys(for: layer.type) {
            guard detail != .state || spec.isRecordedInState(layer), let value = spec.get?(layer) else { continue }
            d[spec.name] = spec.kind == .integer ? .integer(Int(value.numberValue ?? 0)) : encode(value)
        }
        if detail != .state {
            // A corner the renderer cannot place (at or behind the eye) is null.
            d["corners"] = .list(layer.bounds.corners.map { corner in placement.canvasPoint(of: corner).map(point) ?? .null })
        }
        if !layer.properties.isEmpty { d["properties"] = .object(layer.properties.mapValues { .number(number($0)) }) }
        switch layer.content {
        case .shape(let s):
            if detail == .state {
                d["path"] = nil
                let box = s.path.boundingBox
                d["pathBounds"] = numbers([box.origin.x, box.origin.y, box.size.width, box.size.height])
                d["pathLength"] = .number(number(s.path.length))
            } else {
                let trimmed = s.strokeStart == 0 && s.strokeEnd == 1 ? s.path : s.path.trimmed(from: s.strokeStart, to: s.strokeEnd)
                d["path"] = .string(trimmed.svgData())
            }
            d["fillColor"] = s.fillColor.map { .string($0.hexString) } ?? .null
            d["strokeColor"] = s.strokeColor.map { .string($0.hexString) } ?? .null
            d["lineDashPattern"] = numbers(s.lineDashPattern)
        case .gradient(let g):
            d["gradientType"] = .string(g.gradientType.rawValue)
        case .text(let t):
            d["string"] = .string(t.string)
        case .replicator, .emitter, .plain:
            break
        }
        if let c = placement.colorMultiplier { d["colorMultiplier"] = .string(c.hexString) }
        if let mask = placement.maskKey { d["mask"] = .string(mask) }
        return d
    }

    /// A value in the contract's units: numbers plain, points `[x, y]`, rects
    /// `[x, y, w, h]`, colors `#RRGGBBAA`, transforms m11…m44.
    package static func encode(_ value: AnimatableValue) -> ReportValue {
        switch value {
        case .number(let v): .number(number(v))
        case .point(let p): point(p)
        case .size(let s): numbers([s.width, s.height])
        case .rect(let r): numbers([r.origin.x, r.origin.y, r.size.width, r.size.height])
        case .color(let c): .string(c.hexString)
        case .colors(let cs): .list(cs.map { .string($0.hexString) })
        case .numbers(let v): numbers(v)
        case .transform(let t): numbers(t.fields)
        case .path(let p): .string(p.svgData())
        case .bool(let b): .bool(b)
        case .image(let path): path.map { .string($0) } ?? .null
        }
    }

    /// Section 10's `emitters` entry: per cell (name path, `a.b` for a sub-cell) the
    /// particles alive and born; with `particles`, every live particle (with its `angle`,
    /// radians turned by its spin, beyond the contract's list).
    private static func describeEmitter(_ layer: KineticLayers.Layer, particles: Bool, into out: inout [String: ReportValue]) {
        guard let e = layer.emitter else { return }
        let p = e.particles
        var cells: [String: ReportValue] = [:]
        for (c, entry) in e.flattenedCells.enumerated() {
            let name = entry.names.contains("") ? "emitterCells[\(c)]" : entry.names.joined(separator: ".")
            var d: [String: ReportValue] = ["alive": .integer(c < p.alive.count ? p.alive[c] : 0),
                                            "born": .integer(c < p.born.count ? p.born[c] : 0)]
            if particles {
                var list: [ReportValue] = []
                for i in 0..<p.count where Int(p.cell[i]) == c {
                    list.append(.object([
                        "position": numbers([p.x[i], p.y[i]]),
                        "velocity": numbers([p.vx[i], p.vy[i]]),
                        "age": .number(number(p.age[i])), "lifetime": .number(number(p.lifetime[i])),
                        "scale": .number(number(p.scale[i])), "angle": .number(number(p.angle[i])),
                        "alpha": .number(number(Double(p.alpha[i]))),
                        "color": .string(Color(red: Double(p.red[i]), green: Double(p.green[i]), blue: Double(p.blue[i]),
                                               alpha: Double(p.alpha[i])).hexString),
                    ]))
                }
                d["particles"] = .list(list)
            }
            cells[name] = .object(d)
        }
        out[layer.key] = .object(["cells": .object(cells)])
    }

    private static func point(_ p: Point) -> ReportValue { numbers([p.x, p.y]) }
    private static func numbers(_ v: [Double]) -> ReportValue { .list(v.map { .number(number($0)) }) }

    /// Rounded to 1e-9 so float noise does not show, and −0 printed as 0.
    package static func number(_ v: Double) -> Double {
        let r = (v * 1e9).rounded() / 1e9
        return r == 0 ? 0 : r
    }
}

/// A value of the presentation state (`kinetic inspect`'s JSON): a number, a list or an
/// object of values, and so on.
public indirect enum ReportValue: Codable, Equatable, Sendable {
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case string(String)
    case null
    case list([ReportValue])
    case object([String: ReportValue])

    /// Numbers are equal by value, whole or not: JSON writes 1.0 as 1, which reads back
    /// as an integer.
    public static func == (lhs: ReportValue, rhs: ReportValue) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a), .number(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)): Double(a) == b
        case let (.bool(a), .bool(b)): a == b
        case let (.string(a), .string(b)): a == b
        case (.null, .null): true
        case let (.list(a), .list(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let v = try? c.decode(Bool.self) { self = .bool(v) }
        else if let v = try? c.decode(Int.self) { self = .integer(v) }
        else if let v = try? c.decode(Double.self) { self = .number(v) }
        else if let v = try? c.decode(String.self) { self = .string(v) }
        else if let v = try? c.decode([ReportValue].self) { self = .list(v) }
        else { self = .object(try c.decode([String: ReportValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let v): try c.encode(v)
        case .integer(let v): try c.encode(v)
        case .bool(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .null: try c.encodeNil()
        case .list(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }

    /// As `JSONSerialization` objects: Double, Int, Bool, String, NSNull, arrays, dictionaries.
    package var plain: Any {
        switch self {
        case .number(let v): v
        case .integer(let v): v
        case .bool(let v): v
        case .string(let v): v
        case .null: NSNull()
        case .list(let v): v.map(\.plain)
        case .object(let v): v.mapValues(\.plain)
        }
    }
}
