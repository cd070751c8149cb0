import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// A property-based walk of the layer and cell schemas (seeded, so every run draws the
/// same values): for every key a scene file sets as a value, random in-range values load
/// as a literal, as an animation's `from`/`to` and as an event's `set:`, and the frames
/// computed from them show those values; out-of-range values are refused by the loader
/// with FILE:LINE:COL and the schema's message, in all three places alike — so a value
/// the loader accepts is never refused later.
@Suite struct SchemaWalkTests {
    /// The particles' SplitMix64, seeded: every run draws the same values.
    typealias Seeded = ParticleRandom

    /// A value as the scene file writes it, and the value the loader reads from it.
    struct Written { var text: String; var value: AnimatableValue }

    /// Keys read by readers of their own (checked by their own suites): layout, assets,
    /// paths, nullable colors, lists whose length depends on another key, integers.
    static let ownReaders: Set<String> = LayerDecoder.ownReaders.union(["colors"])

    static func number(in range: ValueRange?, integer: Bool, _ rng: inout Seeded) -> Written {
        let lo = range?.lowerBound ?? -1000, hi = range?.upperBound ?? 1000
        var v = Double.random(in: lo...min(hi, lo + 2000), using: &rng)
        if integer { v = v.rounded(.down) }
        if range?.excludesLowerBound == true, v <= lo { v = lo + 0.5 }
        let text = integer ? String(Int(v)) : String(format: "%.4f", v)
        return Written(text: text, value: .number(Double(text) ?? .nan))
    }

    /// A number outside `range`, or nil when every number is in it.
    static func outside(_ range: ValueRange?, _ rng: inout Seeded) -> Double? {
        guard let range else { return nil }
        let d = Double.random(in: 1...50, using: &rng).rounded()
        if let hi = range.upperBound, Bool.random(using: &rng) || range.lowerBound == nil { return hi + d }
        return range.lowerBound.map { $0 - d }
    }

    static func written(_ spec: PropertySpec<some Any>, _ rng: inout Seeded) -> Written? {
        func n() -> Written { number(in: spec.range, integer: spec.kind == .integer, &rng) }
        func pair(_ make: (Double, Double) -> AnimatableValue) -> Written {
            let a = n(), b = n()
            guard case .number(let x) = a.value, case .number(let y) = b.value else { return a }
            return Written(text: "[\(a.text), \(b.text)]", value: make(x, y))
        }
        switch spec.kind {
        case .number, .angle, .integer: return n()
        case .point: return pair { .point(Point($0, $1)) }
        case .size: return pair { .size(Size($0, $1)) }
        case .sizeOrRect: return pair { .rect(Rect(0, 0, $0, $1)) }
        case .rect:
            // A rect's width and height are not negative.
            let size = ValueRange.nonNegative("a size")
            let parts = [n(), n(), number(in: size, integer: false, &rng), number(in: size, integer: false, &rng)]
            let v = parts.compactMap { if case .number(let x) = $0.value { x } else { nil } }
            guard v.count == 4 else { return nil }
            return Written(text: "[" + parts.map(\.text).joined(separator: ", ") + "]", value: .rect(Rect(v[0], v[1], v[2], v[3])))
        case .color:
            let c = (0..<4).map { _ in Int.random(in: 0...255, using: &rng) }
            let hex = "#" + c.map { String(format: "%02X", $0) }.joined()
            return Written(text: "\"\(hex)\"", value: .color(Color(r255: Double(c[0]), g255: Double(c[1]), b255: Double(c[2]),
                                                                   alpha: Double(c[3]) / 255)))
        case .bool:
            let b = Bool.random(using: &rng)
            return Written(text: b ? "true" : "false", value: .bool(b))
        case .transform:
            let x = Double(Int.random(in: -100...100, using: &rng)), y = Double(Int.random(in: -100...100, using: &rng))
            return Written(text: "{translate: [\(Int(x)), \(Int(y))]}", value: .transform(.translation(x, y)))
        default: return nil
        }
    }

    static func close(_ a: AnimatableValue?, _ b: AnimatableValue) -> Bool {
        func near(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) }
        }
        switch (a, b) {
        case (.number(let x)?, .number(let y)): return near([x], [y])
        case (.point(let p)?, .point(let q)): return near([p.x, p.y], [q.x, q.y])
        case (.size(let p)?, .size(let q)): return near([p.width, p.height], [q.width, q.height])
        case (.rect(let p)?, .rect(let q)):
            return near([p.origin.x, p.origin.y, p.width, p.height], [q.origin.x, q.origin.y, q.width, q.height])
        case (.color(let c)?, .color(let d)): return c.hexString == d.hexString
        case (.transform(let s)?, .transform(let t)): return near(s.fields, t.fields)
        default: return a == b
        }
    }

    static let head = "kinetic: 1\nscene: {size: [200, 200], duration: 2, fps: 10}\n"

    /// The layer `a` of the frame at `time`, computed as a render computes it (events
    /// included); records an issue when the frame is refused.
    static func layer(_ scene: Scene, at time: Double, _ label: String) throws -> Layer? {
        let frame = try Simulation(timeline: Timeline(scene: scene)).frame(at: time, index: Int(time * 10))
        #expect(frame.refusal == nil, "\(label): a frame refused a loaded value: \(frame.refusal ?? "")")
        return findLayer(frame.layers, id: "a")
    }

    /// The three places a value is written: the layer's own key, an animation's `to`, an
    /// event's `set:`; `key` is the layer key, `keyPath` the key path to it.
    static func scenes(type: LayerType, key: String, keyPath: String, cell: String?, literal: String, from: String,
                       to: String, set: String) -> [(place: String, text: String, time: Double)] {
        func layer(_ own: String) -> String {
            let body = cell == nil ? "\(key): \(own)" : "emitterCells: [{name: c, \(key): \(own)}]"
            return "layers:\n  - {id: a, type: \(type.rawValue), \(body)}\n"
        }
        let base = cell == nil ? "layers:\n  - {id: a, type: \(type.rawValue)}\n"
            : "layers:\n  - {id: a, type: emitter, emitterCells: [{name: c}]}\n"
        return [
            ("literal", head + layer(literal), 0),
            ("animation", head + base + "animations:\n  - {layer: a, keyPath: \(keyPath), from: \(from), to: \(to), duration: 1}\n", 1.5),
            ("set", head + base + "events:\n  - {at: 0.5, set: {a.\(keyPath): \(set)}}\n", 1),
        ]
    }

    /// The value at `keyPath` of layer `a`.
    static func value(_ layer: Layer?, _ keyPath: String) -> AnimatableValue? {
        guard let kp = LayerKeyPath.parsing(keyPath) else { return nil }
        return layer?.value(at: kp)
    }

    func walk<Object>(_ entries: [PropertySpec<Object>], types: (PropertySpec<Object>) -> LayerType?,
                      keyPath: (String) -> String, seed: UInt64) throws {
        var rng = Seeded(key: seed, cell: 0, particle: 0)
        var walked = 0
        for spec in entries where spec.isAnimatable && spec.isFileKey && !Self.ownReaders.contains(spec.name) {
            guard let type = types(spec) else { continue }
            let path = keyPath(spec.name), isCell = path != spec.name
            for trial in 0..<3 {
                guard let a = Self.written(spec, &rng), let b = Self.written(spec, &rng), let c = Self.written(spec, &rng) else {
                    Issue.record("\(spec.name): no values drawn for \(spec.kind)")
                    break
                }
                let label = "\(type).\(path) #\(trial)"
                let expected = [a.value, b.value, c.value]
                for (i, s) in Self.scenes(type: type, key: spec.name, keyPath: path, cell: isCell ? "c" : nil,
                                          literal: a.text, from: c.text, to: b.text, set: c.text).enumerated() {
                    let scene = try SceneLoader.load(text: s.text, file: "walk.yaml")
                    let got = Self.value(try Self.layer(scene, at: s.time, label), path)
                    #expect(Self.close(got, expected[i]), "\(label) \(s.place): \(String(describing: got)) ≠ \(expected[i])\n\(s.text)")
                }
            }
            // Out of range: refused in all three places, at the value, with the schema's message.
            if let bad = Self.outside(spec.range, &rng) {
                let text = spec.kind == .integer ? String(Int(bad)) : ValueRange.format(bad)
                var good = Self.written(spec, &rng)?.text ?? "0"
                var badValue = AnimatableValue.number(bad)
                if spec.valueKind == .size || spec.kind == .sizeOrRect {
                    good = "[1, 1]"
                    badValue = .size(Size(bad, 1))
                }
                let badText = spec.valueKind == .size || spec.kind == .sizeOrRect ? "[\(text), 1]" : text
                let message = try #require(spec.problem(with: badValue))
                for s in Self.scenes(type: type, key: spec.name, keyPath: path, cell: isCell ? "c" : nil,
                                     literal: badText, from: good, to: badText, set: badText) {
                    let problems = loadProblems(s.text, file: "walk.yaml")
                    #expect(problems.count == 1 && problems.first?.message == message,
                            "\(type).\(path) \(s.place) \(badText): \(problems.map(\.description))")
                    if let p = problems.first {
                        #expect(p.location.file == "walk.yaml" && p.location.line >= 3 && p.location.column > 1)
                        #expect(p.description.hasPrefix("walk.yaml:\(p.location.line):\(p.location.column): "))
                    }
                }
            }
            walked += 1
        }
        #expect(walked > 0)
    }

    @Test func everyLayerKeyLoadsAnimatesAndSetsInRangeAndRefusesOutOfRange() throws {
        let schema = LayerSchema.standard
        try walk(schema.entries, types: { spec in
            spec.layerTypes.map { types in LayerType.allCases.first(where: types.contains) } ?? .layer
        }, keyPath: { $0 }, seed: 13)
        // The common keys on every other type too.
        // (An image layer needs contents, which is an asset: left to its own suite.)
        for type in LayerType.allCases where type != .layer && type != .image {
            try walk(schema.entries.filter { $0.layerTypes == nil && !(type == .transformLayer && Self.transformLayerIgnores($0.name)) },
                     types: { _ in type }, keyPath: { $0 }, seed: 100 + UInt64(type.rawValue.count))
        }
    }

    static func transformLayerIgnores(_ key: String) -> Bool { LayerDecoder.transformLayerIgnoredKeys.contains(key) }

    @Test func everyCellKeyLoadsAnimatesAndSetsInRangeAndRefusesOutOfRange() throws {
        try walk(EmitterCellSchema.entries, types: { _ in .emitter }, keyPath: { "emitterCells.c.\($0)" }, seed: 7)
    }
}

extension ParticleRandom: RandomNumberGenerator {}
