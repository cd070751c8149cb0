import Foundation
import KineticDynamics
import KineticGeometry
import Testing
@testable import KineticScene

/// Walks the dynamics tables (`DynamicsTable`) through the loader and the runtime (issue 13): for every
/// behavior key with a range, seeded random values inside it load and simulate, values
/// outside are refused by the loader with FILE:LINE:COL, and nothing the loader accepts
/// is refused once the simulation runs — written in the behavior and set by an event.
@Suite struct DynamicsSchemaWalkTests {
    /// SplitMix64: the same values on every run.
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        /// Uniform in [0, 1).
        mutating func next() -> Double { generator.unit() }

        /// In the range: its ends, zero-ish, or log-uniform across its magnitudes.
        mutating func value(in r: ValueRange) -> Double {
            let lower = r.lowerBound ?? -1e7, upper = min(r.upperBound ?? 1e7, 1e7)
            let pick = next()
            if pick < 0.15 { return r.excludesLowerBound ? lower + (upper - lower) * 1e-9 : lower }
            if pick < 0.3 { return upper }
            let magnitude = pow(10, -3 + next() * (log10(max(upper, 1e-3)) + 3))
            let v = lower < 0 && next() < 0.5 ? -min(magnitude, -lower) : min(magnitude, upper)
            return r.contains(v) ? v : upper
        }
    }

    /// What each behavior needs besides the key under test (a key the walk sets is left
    /// out; the keys that only act on some forms of a behavior get that form).
    static func required(_ kind: String, _ key: String) -> String {
        var keys: [(String, String)]
        switch kind {
        case "collision": keys = [("items", "[a, b]"), ("translatesReferenceBoundsIntoBoundary", "true")]
        case "attachment":
            if AttachmentBehavior.properties.property("anchorPoint")?.writtenAs.contains(key) == true {
                keys = [("item", "a")]
            } else if key == "attachedOffsetFromCenter" {
                keys = [("item", "a"), ("attachedTo", "b")]
            } else if key == "axisOfTranslation" {
                keys = [("kind", "sliding"), ("item", "a"), ("attachedToAnchor", "[150, 60]")]
            } else {
                keys = [("item", "a"), ("attachedToAnchor", "[150, 60]")]
            }
        case "snap": keys = [("item", "a"), ("snapPoint", "[100, 100]")]
        case "field": keys = [("kind", "radialGravity"), ("items", "[a]"), ("position", "[150, 150]")]
        default: keys = [("items", "[a]")]
        }
        return keys.filter { $0.0 != key }.map { "\($0.0): \($0.1)" }.joined(separator: ", ")
    }

    /// The keys walked: numbers and points with a range, by behavior kind.
    static var walked: [(kind: String, key: DynamicsProperty<Void>, range: ValueRange)] {
        DynamicsTable.behaviorKinds.flatMap { kind in
            (DynamicsTable.contexts[kind.name] ?? []).compactMap { key in
                guard let range = key.range, key.kind == .number || key.kind == .point else { return nil }
                return (kind.name, key, range)
            }
        }
    }

    static func scene(_ kind: String, _ key: String, _ body: String, events: String = "") -> String {
        """
        kinetic: 1
        scene: {size: [300, 300], duration: 1, fps: 50}
        layers:
          - {id: a, position: [100, 100], bounds: [20, 20]}
          - {id: b, position: [200, 100], bounds: [20, 20]}
        dynamics:
          behaviors:
            - gravity: {items: [a, b]}
            - \(kind): {id: t, \(Self.required(kind, key))\(body.isEmpty ? "" : ", " + body)}
        \(events)
        """
    }

    static func literal(_ key: DynamicsProperty<Void>, _ v: Double) -> String {
        let text = v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
        return key.kind == .point ? "[\(text), \(text)]" : text
    }

    /// Loads and runs a fraction of a second: nil when fine or the physics blew up (exit 70,
    /// an honest result for, say, an elasticity of 1e7), else what refused it.
    static func run(_ yaml: String) -> String? {
        do {
            let scene = try SceneLoader.load(text: yaml, file: "t.yaml")
            let simulation = Simulation(timeline: Timeline(scene: scene))
            _ = try simulation.frame(10)
            return nil
        } catch let error as SimulationError {
            if case .blewUp = error.kind { return nil }
            return "refused at simulation: \(error)"
        } catch {
            return "refused at load: \(error)"
        }
    }

    @Test func inRangeValuesLoadAndSimulate() {
        var random = Random(state: 13)
        #expect(Self.walked.count > 30)
        for (kind, key, range) in Self.walked {
            for _ in 0..<4 {
                let v = random.value(in: range)
                let yaml = Self.scene(kind, key.name, "\(key.name): \(Self.literal(key, v))")
                #expect(Self.run(yaml) == nil, "\(kind).\(key.name) = \(v)")
            }
        }
    }

    @Test func outOfRangeValuesAreRefusedWithTheirLocation() throws {
        for (kind, key, range) in Self.walked {
            let lower = try #require(range.lowerBound), upper = try #require(range.upperBound)
            var outside: [Double] = [range.excludesLowerBound ? lower : lower - 1]
            if upper < 1e300 { outside.append(upper * 2 + 1) }
            for v in outside {
                let yaml = Self.scene(kind, key.name, "\(key.name): \(Self.literal(key, v))")
                do {
                    _ = try SceneLoader.load(text: yaml, file: "t.yaml")
                    Issue.record("\(kind).\(key.name) = \(v) was accepted")
                } catch let error as SceneLoadError {
                    let text = error.description
                    #expect(text.hasPrefix("t.yaml:9:"), "\(text)")
                    #expect(text.contains("dynamics.behaviors[1].\(kind).\(key.name)"), "\(text)")
                }
            }
        }
    }

    /// The reported bug: `set: {t.density: 2000000}` passed `validate`, then `render` exited
    /// 65 without a location. Every animatable key, set by an event, is checked at load.
    @Test func eventSetsAreCheckedAtLoad() throws {
        var random = Random(state: 15)
        for (kind, key, range) in Self.walked where key.isSettable && key.kind == .number {
            let inside = random.value(in: range)
            let ok = Self.scene(kind, "", "", events: "events:\n  - {at: 0.05, set: {t.\(key.name): \(Self.literal(key, inside))}}")
            #expect(Self.run(ok) == nil, "set \(kind).\(key.name) = \(inside)")
            let outside = range.upperBound.map { $0 * 2 + 1 } ?? (range.lowerBound ?? 0) - 1
            let bad = Self.scene(kind, "", "", events: "events:\n  - {at: 0.05, set: {t.\(key.name): \(Self.literal(key, outside))}}")
            #expect(throws: SceneLoadError.self, "set \(kind).\(key.name) = \(outside)") {
                _ = try SceneLoader.load(text: bad, file: "t.yaml")
            }
        }
        let density = Self.scene("itemBehavior", "density", "density: 2", events: "events:\n  - {at: 0.5, set: {t.density: 2000000}}")
        let error = try #require(throws: SceneLoadError.self) { try SceneLoader.load(text: density, file: "t.yaml") }
        #expect(error.description.hasPrefix("t.yaml:11:"), "\(error)")
        #expect(error.description.contains("density"), "\(error)")
    }
}
