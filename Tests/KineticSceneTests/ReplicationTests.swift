import Foundation
import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// CAReplicatorLayer copies in the presentation tree, against hand computations.
@Suite struct ReplicationTests {
    func timeline(_ body: String) throws -> Timeline {
        let yaml = "kinetic: 1\nscene: {size: [200, 200], duration: 4, fps: 50}\n" + body
        return Timeline(scene: try SceneLoader.load(text: yaml, file: "t.yaml"))
    }

    /// Every layer of a frame by key, with its bounds-plane → canvas map.
    func layers(_ t: Timeline, at time: Double) -> [String: (Layer, PlaneProjection)] {
        var out: [String: (Layer, PlaneProjection)] = [:]
        Layer.forEachCanvasProjection(t.frame(at: time, index: 0).layers) { out[$0.key] = ($0, $1) }
        return out
    }

    @Test func copyKRunsItsAnimationKTimesTheDelayLater() throws {
        let t = try timeline("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 200, 200], instanceCount: 4, instanceDelay: 0.5,
             sublayers: [{id: dot, frame: [40, 0, 20, 20]}]}
        animations:
          - {layer: dot, keyPath: position.x, from: 0, to: 100, duration: 1, begin: 0.25}
        """)
        // The original's x: the model value 50 before the begin time (fillMode forwards
        // does not fill backwards), 100·(t − 0.25) while running, 100 after.
        func x(_ time: Double) -> Double { time < 0.25 ? 50 : min(100 * (time - 0.25), 100) }
        for time in [0.0, 0.3, 0.6, 0.8, 1.1, 1.3, 1.9, 2.2] {
            let frame = layers(t, at: time)
            for (k, key) in ["dot", "dot#1", "dot#2", "dot#3"].enumerated() {
                let copy = try #require(frame[key]?.0, "\(key) missing")
                let expected = x(time - 0.5 * Double(k))
                #expect(abs(copy.position.x - expected) < 1e-9, "t=\(time) copy \(k): \(copy.position.x) vs \(expected)")
            }
        }
        #expect(layers(t, at: 1).count == 5)
    }

    @Test func instanceTransformTurnsTheAxesOfLaterCopies() throws {
        // The seed's triangle: each copy is the previous one turned 120° and moved 20 along
        // its own (turned) x axis, about the replicator's centre (50, 50).
        let t = try timeline("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 100, 100], instanceCount: 3,
             instanceTransform: {translate: [20, 0, 0], rotate: 120deg},
             sublayers: [{id: dot, frame: [0, 0, 20, 20]}]}
        """)
        // By hand: rotate about the origin (y down, positive = clockwise on screen), then
        // translate, all relative to the centre.
        let angle = 2 * Double.pi / 3
        func step(_ p: (Double, Double)) -> (Double, Double) {
            (p.0 * cos(angle) - p.1 * sin(angle) + 20, p.0 * sin(angle) + p.1 * cos(angle))
        }
        var relative = (10.0 - 50, 10.0 - 50)  // the dot's centre
        var axis = (1.0, 0.0)                  // its x axis
        let frame = layers(t, at: 0)
        for key in ["dot", "dot#1", "dot#2"] {
            let (layer, toCanvas) = try #require(frame[key])
            let centre = toCanvas.apply(to: layer.bounds.center)
            #expect(abs(centre.x - (relative.0 + 50)) < 1e-9 && abs(centre.y - (relative.1 + 50)) < 1e-9,
                    "\(key): \(centre) vs \(relative)")
            let xEnd = toCanvas.apply(to: Point(layer.bounds.center.x + 1, layer.bounds.center.y))
            #expect(abs(xEnd.x - centre.x - axis.0) < 1e-9 && abs(xEnd.y - centre.y - axis.1) < 1e-9)
            relative = step(relative)
            axis = (axis.0 * cos(angle) - axis.1 * sin(angle), axis.0 * sin(angle) + axis.1 * cos(angle))
        }
        // Copy 1 lands at (124.64, 35.36): spelled out for the reader.
        let copy1 = try #require(frame["dot#1"])
        let c1 = copy1.1.apply(to: copy1.0.bounds.center)
        #expect(abs(c1.x - 124.641016) < 1e-5 && abs(c1.y - 35.358984) < 1e-5)
    }

    @Test func colorOffsetsAddKTimesToTheInstanceColor() throws {
        let t = try timeline("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 100, 100], instanceCount: 4,
             instanceColor: "#FFFFFF", instanceRedOffset: -0.25, instanceAlphaOffset: -0.2, instanceBlueOffset: 0.5,
             sublayers: [{id: dot, frame: [0, 0, 20, 20], backgroundColor: red}]}
        """)
        let frame = layers(t, at: 0)
        #expect(frame["dot"]?.0.colorMultiplier == nil)  // copy 0: white, multiplies nothing
        for k in 1...3 {
            let m = try #require(frame["dot#\(k)"]?.0.colorMultiplier)
            let kk = Double(k)
            #expect(abs(m.red - (1 - 0.25 * kk)) < 1e-12 && m.green == 1 && m.blue == 1
                    && abs(m.alpha - (1 - 0.2 * kk)) < 1e-12, "copy \(k): \(m)")
        }
        // instanceColor itself multiplies every copy, the first included.
        let tinted = try timeline("""
        layers:
          - {id: rep, type: replicator, instanceCount: 2, instanceColor: "#80FF00", instanceGreenOffset: -0.5,
             sublayers: [{id: dot, frame: [0, 0, 20, 20]}]}
        """)
        let f2 = layers(tinted, at: 0)
        let m0 = try #require(f2["dot"]?.0.colorMultiplier), m1 = try #require(f2["dot#1"]?.0.colorMultiplier)
        #expect(abs(m0.red - 128.0 / 255) < 1e-12 && m0.green == 1 && m0.blue == 0)
        #expect(abs(m1.green - 0.5) < 1e-12 && m1.blue == 0)
    }

    @Test func nestedReplicatorsMakeAGridWithAddedDelays() throws {
        // replicatorLayerX copies a dot 3 times across, replicatorLayerY copies that row
        // 3 times down (the seed's 3×3 loader); delays 0.1 across and 0.3 down add up.
        let t = try timeline("""
        layers:
          - id: rows
            type: replicator
            frame: [0, 0, 90, 90]
            instanceCount: 3
            instanceDelay: 0.3
            instanceTransform: {translate: [0, 30, 0]}
            sublayers:
              - id: columns
                type: replicator
                frame: [0, 0, 90, 90]
                instanceCount: 3
                instanceDelay: 0.1
                instanceTransform: {translate: [30, 0, 0]}
                sublayers: [{id: dot, frame: [0, 0, 20, 20], opacity: 0.5}]
        animations:
          - {layer: dot, keyPath: opacity, from: 0, to: 1, duration: 1}
        """)
        let time = 0.9
        let frame = layers(t, at: time)
        var seen = Set<String>()
        for row in 0..<3 {
            for column in 0..<3 {
                // Keys: outer (row) index first; the original keeps its id.
                let key = row == 0 && column == 0 ? "dot" : "dot#\(row)#\(column)"
                let (layer, toCanvas) = try #require(frame[key], "\(key) missing")
                let centre = toCanvas.apply(to: layer.bounds.center)
                #expect(abs(centre.x - (10 + 30 * Double(column))) < 1e-9 && abs(centre.y - (10 + 30 * Double(row))) < 1e-9)
                let local = time - 0.3 * Double(row) - 0.1 * Double(column)
                #expect(abs(layer.opacity - local) < 1e-9, "\(key): \(layer.opacity) vs \(local)")
                seen.insert(key)
            }
        }
        #expect(seen.count == 9)
    }

    @Test func animatedInstanceDelayAndKeyPathsLoad() throws {
        let t = try timeline("""
        layers:
          - {id: rep, type: replicator, instanceCount: 2, sublayers: [{id: dot, frame: [0, 0, 10, 10]}]}
        animations:
          - {layer: rep, keyPath: instanceTransform, from: {translate: [0, 0, 0]}, to: {translate: [40, 0, 0]}, duration: 1}
          - {layer: rep, keyPath: instanceColor, from: white, to: "#00000000", duration: 1}
        """)
        let frame = layers(t, at: 0.5)
        let (layer, toCanvas) = try #require(frame["dot#1"])
        #expect(abs(toCanvas.apply(to: .zero).x - 20) < 1e-9)
        #expect(abs((layer.colorMultiplier?.alpha ?? 1) - 0.5) < 1e-9)
    }

    @Test func replicatorKeysAreChecked() {
        #expect(throws: (any Error).self) {
            _ = try timeline("layers: [{type: replicator, instanceCount: 2.5}]")
        }
        #expect(throws: (any Error).self) {
            _ = try timeline("layers: [{type: layer, instanceCount: 2}]")
        }
        #expect(throws: (any Error).self) {
            _ = try timeline("layers: [{type: replicator, instanceCont: 2}]")
        }
    }

    /// A mask may be a replicator (a row of dots masking a bar): its copies are made like
    /// any replicator's, in the copies' own times, and the mask keeps its own key.
    @Test func aReplicatorMaskIsExpanded() throws {
        let t = try timeline("""
        layers:
          - id: bar
            frame: [0, 0, 200, 20]
            backgroundColor: black
            mask:
              id: dots
              type: replicator
              frame: [0, 0, 200, 20]
              instanceCount: 3
              instanceDelay: 0.5
              instanceTransform: {translate: [30, 0, 0]}
              sublayers: [{id: dot, frame: [0, 0, 20, 20], backgroundColor: white}]
        animations:
          - {layer: dot, keyPath: opacity, from: 0, to: 1, duration: 1}
        """)
        let mask = try #require(t.frame(at: 0.6, index: 0).layers.first?.mask)
        #expect(mask.id == "dots")
        #expect(mask.sublayers.map(\.id) == ["dot", "dot#1", "dot#2"])
        // Copy k runs k × 0.5 s later: at 0.6 s, opacity 0.6, 0.1 and (not begun) the model 1.
        let opacities = mask.sublayers.map(\.opacity)
        #expect(zip(opacities, [0.6, 0.1, 1.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(opacities)")
        // Placed by the instance transform: copy k is 30·k to the right.
        let offsets = mask.sublayers.map(\.transform.m41)
        #expect(offsets == [0, 30, 60])
    }

    /// A mask inside a replicated layer is copied with it, renamed as the copy is.
    @Test func masksInCopiesAreRenamed() throws {
        let t = try timeline("""
        layers:
          - id: rep
            type: replicator
            instanceCount: 2
            sublayers:
              - {id: card, frame: [0, 0, 40, 40], mask: {id: hole, type: shape, path: {oval: [0, 0, 40, 40]}}}
        """)
        let copies = try #require(t.frame(at: 0, index: 0).layers.first?.sublayers)
        #expect(copies.map(\.id) == ["card", "card#1"])
        #expect(copies.map { $0.mask?.id } == ["hole", "hole#1"])
    }

    /// Without a replicator the tree comes back as it is (no copy suffixes to remove), and the
    /// layer limit counts it as the expansion does: every layer, masks included. Here four
    /// (card, its mask, two dots), so a limit of 3 is exceeded and 4 is not.
    @Test func aTreeWithoutReplicatorsIsReturnedAndCounted() throws {
        var card = Layer(id: "card", place: "0")
        card.mask = Layer(id: "hole", place: "0.mask")
        card.sublayers = [Layer(id: "dot", place: "0.0"), Layer(place: "0.1")]
        let over = Replication.expand([card], at: 0, limit: 3) { _ in [] }
        #expect(over.exceeded)
        let within = Replication.expand([card], at: 0, limit: 4) { _ in [] }
        #expect(!within.exceeded)
        #expect(within.layers == [card])
    }
}
