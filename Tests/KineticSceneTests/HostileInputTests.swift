import KineticGeometry
import KineticLayers
import Testing
@testable import KineticScene

/// Issue 14: numbers checked before they become integers, totals counted before they are
/// allocated (the CLI checks in Tests/cli/hostile.sh run the same cases end to end).
@Suite struct HostileInputTests {
    let limits = SceneLimits()

    @Test func timingIsCheckedOnTheNumbers() {
        #expect(limits.timingProblem(duration: 86_400, fps: 1) == nil)
        #expect(limits.timingProblem(duration: 86_400.5, fps: 1)?.contains("over the limit of 86400 s") == true)
        #expect(limits.timingProblem(duration: 1, fps: 100_000) == nil)
        #expect(limits.timingProblem(duration: 1, fps: 100_001)?.contains("100001 frames exceed") == true)
        // One frame at 1e-20 fps would last 1e20 s (and its GIF delay would not fit an Int).
        #expect(limits.timingProblem(duration: 1, fps: 1e-20)?.contains("frames last longer") == true)
        #expect(limits.timingProblem(duration: .nan, fps: 10) != nil)
        #expect(limits.timingProblem(duration: 1, fps: .infinity) != nil)
    }

    @Test func frameCountNeverTraps() {
        var s = SceneSettings(size: .init(10, 10), duration: 1e300)
        s.fps = 1e300
        #expect(s.frameCount == Int.max)
        s.duration = .nan
        #expect(s.frameCount == 1)
        s.duration = 0.5; s.fps = 50
        #expect(s.frameCount == 25)
    }

    @Test func aliasesAreCountedEachTimeTheyAreUsed() throws {
        // 2^9 layers from a dozen lines: each anchor's layer holds two aliases of the one before.
        var yaml = "kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers:\n  - &l0 {bounds: [1, 1]}\n"
        for i in 1...8 { yaml += "  - &l\(i) {bounds: [1, 1], sublayers: [*l\(i - 1), *l\(i - 1)]}\n" }
        var small = SceneLimits()
        small.maxMemory = 8_192 * 1_000  // 1,000 nodes
        #expect(small.maxYAMLNodes == 1_000)
        #expect(throws: SceneLoadError.self) { try SceneLoader.load(text: yaml, file: "t.yaml", limits: small) }
        let p = sceneProblems(try SceneLoader.load(text: yaml, file: "t.yaml", limits: small))
        #expect(p.count == 1 && p[0].message.hasPrefix("the file has more than 1000 YAML nodes"))
        // The same file within the default budget loads: its 2^9 - 1 layers are real.
        #expect(try SceneLoader.load(text: yaml, file: "t.yaml").layers.count == 9)
    }

    @Test func nestedReplicatorsMultiply() {
        var leaf = Layer(place: "leaf")
        leaf.bounds = .init(0, 0, 1, 1)
        var inner = Layer(place: "inner", type: .replicator)
        inner.replicator = ReplicatorStyle()
        inner.replicator?.instanceCount = 4
        inner.sublayers = [leaf]
        var outer = Layer(place: "outer", type: .replicator)
        outer.replicator = ReplicatorStyle()
        outer.replicator?.instanceCount = 3
        outer.sublayers = [inner]
        // outer + 3 × (inner + 4 × leaf) = 1 + 3 × 5.
        #expect(SceneLoader.layerInstances([outer]) == 16)
    }

    @Test func integersAreReadExactlyAndTaggedStringsAreNoNumbers() throws {
        let scene = try SceneLoader.load(text: "kinetic: 1\nscene: {size: [10, 10], duration: 1, seed: 9223372036854775807}\n",
                                         file: "t.yaml")
        #expect(scene.settings.seed == UInt64(Int.max))
        let p = loadProblems("kinetic: 1\nscene: {size: [10, 10], duration: !!str 1}\n")
        #expect(p.map(\.description) == ["t.yaml:2:35: scene.duration: expected a number, found the string '1' (tagged !!str)"])
    }

    @Test func encodingProblemsAreLocated() {
        let utf16 = Array("kinetic: 1\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(SceneLoader.encodingProblem(utf16, file: "t.yaml")?.description.hasPrefix("t.yaml:1:2: a NUL character") == true)
        #expect(SceneLoader.encodingProblem(Array("a: 1\nb: \u{E9}\n".utf8), file: "t.yaml") == nil)
        #expect(SceneLoader.encodingProblem(Array("a: 1\nb: ".utf8) + [0xE9, 0x0A], file: "t.yaml")?.description
                == "t.yaml:2:4: byte 0xE9 is not UTF-8 text: save scenes as UTF-8")
        // An overlong form (`/` in two bytes) and a surrogate look like UTF-8 but are not: at their byte too.
        #expect(SceneLoader.encodingProblem(Array("a: ".utf8) + [0xC0, 0xAF], file: "t.yaml")?.description
                == "t.yaml:1:4: byte 0xC0 is not UTF-8 text: save scenes as UTF-8")
        #expect(SceneLoader.encodingProblem(Array("a\nb".utf8) + [0xED, 0xA0, 0x80], file: "t.yaml")?.description
                == "t.yaml:2:2: byte 0xED is not UTF-8 text: save scenes as UTF-8")
    }
}
