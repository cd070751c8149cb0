import Foundation
import KineticGeometry
import KineticLayers
import Testing
@testable import KineticLottie

/// An emitter's crisp shadow (σ under a third of a point) is each particle's coverage in
/// the shadow's colour, moved by the offset, all under the particles and faded together by
/// the colour's alpha; a blurred one is refused at `shadowRadius`.
struct EmitterShadowTests {
    /// An emitter at the origin of a 200×200 canvas with two 10×10 white square particles,
    /// at (50, 50) and (54, 50) (overlapping), each at alpha 0.5, and a shadow.
    private func emitter(radius: Double) -> Layer {
        var layer = Layer(id: "snow", place: "layers[0]", type: .emitter)
        layer.bounds = Rect(0, 0, 200, 200)
        layer.position = Point(100, 100)
        layer.shadowOpacity = 0.5
        layer.shadowColor = Color(red: 0, green: 0, blue: 1)
        layer.shadowOffset = Size(0, 3)
        layer.shadowRadius = radius
        var style = EmitterStyle()
        var cell = EmitterCell()
        cell.contents = .path(BezierPath.rect(Rect(0, 0, 10, 10)), size: Size(10, 10), fillColor: .white)
        style.emitterCells = [cell]
        var p = ParticleSnapshot()
        for x in [50.0, 54] {
            p.cell.append(0); p.x.append(x); p.y.append(50); p.z.append(0)
            p.vx.append(0); p.vy.append(0); p.vz.append(0)
            p.age.append(x / 100); p.lifetime.append(10); p.scale.append(1); p.angle.append(0)
            p.red.append(1); p.green.append(1); p.blue.append(1); p.alpha.append(0.5)
        }
        p.alive = [2]; p.born = [2]
        style.particles = p
        layer.emitter = style
        return layer
    }

    @Test func aCrispShadowIsEachParticleMovedUnderAllOfThemFadedAsOne() throws {
        var exporter = LottieExporter(size: Size(200, 200), fps: 30, background: .color(.clear), options: LottieOptions())
        try exporter.add(SceneFrame(index: 0, time: 1, size: Size(200, 200), background: .color(.clear), layers: [emitter(radius: 0)]))
        let doc = exporter.document()
        guard case .array(let all)? = doc["layers"], case .array(let assets)? = doc["assets"],
              case .array(let inner)? = assets.first?["layers"] else { Issue.record("no layers"); return }
        let top = all.filter { $0["ty"] != 3 }
        let shadows = inner.filter { $0["ty"] != 3 }
        // Top first: the two particles, then one precomposition of both shadows, faded by
        // shadowOpacity × the colour's alpha (0.5) as one group: where the two copies
        // overlap they cover 1 − 0.5² = 0.75 inside it, 0.375 on the canvas, as the
        // emitter's one silhouette (coverage 0.75) cast at 0.5 does.
        #expect(top.count == 3 && shadows.count == 2)
        #expect(top[2]["nm"] == "snow/shadow" && top[2]["ty"] == 0 && top[2]["ks"]?["o"]?["k"] == 50)
        for (particle, shadow) in zip(top.prefix(2), shadows) {
            if case .string(let name)? = particle["nm"] { #expect(shadow["nm"] == .string(name + "/shadow")) }
            // The particle's coverage (alpha 0.5) in the shadow's blue, 3 points down.
            #expect(fill(of: particle) == [.numbers([1, 1, 1]), 50])
            #expect(fill(of: shadow) == [.numbers([0, 0, 1]), 50])
            #expect(shadow["ks"]?["p"]?["x"]?["k"] == particle["ks"]?["p"]?["x"]?["k"])
            if case .number(let y)? = shadow["ks"]?["p"]?["y"]?["k"], case .number(let py)? = particle["ks"]?["p"]?["y"]?["k"] {
                #expect(y == py + 3)
            } else {
                Issue.record("no static y position")
            }
        }
    }

    /// The colour and opacity of a layer's first fill.
    private func fill(of layer: LottieJSON) -> [LottieJSON] {
        guard case .array(let groups)? = layer["shapes"] else { return [] }
        for group in groups {
            guard case .array(let items)? = group["it"] else { continue }
            for item in items where item["ty"] == "fl" {
                return [item["c"]?["k"] ?? .null, item["o"]?["k"] ?? .null]
            }
        }
        return []
    }

    @Test func aBlurredShadowIsRefusedAtItsRadius() {
        let problems = LottieRefusals.problems(in: [emitter(radius: 2)])
        #expect(problems.map(\.keyPath) == ["layers[0].shadowRadius"])
        #expect(LottieRefusals.problems(in: [emitter(radius: 0)]).isEmpty)
    }
}
