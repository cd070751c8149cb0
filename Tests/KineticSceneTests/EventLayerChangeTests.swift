import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 7's layer changes reach every replicator copy of the layer they name, and mask
/// layers, as Core Animation's copies and masks are the layers themselves.
@Suite struct EventLayerChangeTests {
    func frame(_ body: String, at time: Double) throws -> [Layer] {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [300, 120], duration: 1, fps: 10}

        """ + body, file: "t.yaml")
        return try Simulation(timeline: Timeline(scene: scene)).frame(at: time, index: 0).layers
    }

    let replicated = """
    layers:
      - id: rep
        type: replicator
        frame: [0, 0, 150, 60]
        instanceCount: 3
        instanceDelay: 0.2
        instanceTransform: {translate: [40, 0, 0]}
        sublayers:
          - {id: sq, frame: [10, 10, 30, 30], backgroundColor: red}
          - {id: sq2, frame: [10, 45, 30, 10], backgroundColor: blue}

    """

    @Test func setAndRemoveReachEveryCopy() throws {
        let layers = try frame(replicated + """
        events:
          - {at: 0.3, set: {sq.position: [25, 80], sq.backgroundColor: green}}
          - {at: 0.5, removeLayers: [sq2]}
        """, at: 0.7)
        for id in ["sq", "sq#1", "sq#2"] {
            let copy = try #require(findLayer(layers, id: id))
            #expect(copy.position == Point(25, 80), "\(id)")
            #expect(copy.backgroundColor == Color(red: 0, green: 1, blue: 0), "\(id)")
        }
        for id in ["sq2", "sq2#1", "sq2#2"] { #expect(try #require(findLayer(layers, id: id)).isHidden, "\(id)") }
    }

    @Test func startedAnimationsLagInEachCopy() throws {
        let layers = try frame(replicated + """
        events:
          - {at: 0.2, animate: {layer: sq, keyPath: opacity, from: 1, to: 0, duration: 0.5}}
        """, at: 0.6)
        // Copy k runs the animation k × 0.2 s later: 0.4, 0.2 and 0 s into it.
        for (k, id) in ["sq", "sq#1", "sq#2"].enumerated() {
            let expected = 1 - (0.4 - 0.2 * Double(k)) / 0.5
            #expect(abs(try #require(findLayer(layers, id: id)).opacity - expected) < 1e-9, "\(id)")
        }
    }

    @Test func setChangesAMaskLayer() throws {
        let body = """
        layers:
          - id: p
            frame: [0, 0, 120, 120]
            backgroundColor: white
            mask: {id: m, frame: [10, 10, 100, 100], backgroundColor: black}
        events:
          - {at: 0.5, set: {m.opacity: 0.5, m.position: [30, 30]}}
        """
        let before = try #require(try frame(body, at: 0.4).first?.mask)
        #expect(before.opacity == 1)
        let after = try #require(try frame(body, at: 0.7).first?.mask)
        #expect(after.opacity == 0.5)
        #expect(after.position == Point(30, 30))
    }

    @Test func setChangesPropertiesNoAnimationReaches() throws {
        let layers = try frame("""
        layers:
          - {id: rep, type: replicator, frame: [0, 0, 150, 60], instanceCount: 2,
             sublayers: [{id: dot, frame: [0, 0, 10, 10], backgroundColor: red}]}
          - {id: label, type: text, frame: [0, 80, 200, 30], string: Hello, fontSize: 12}
          - {id: line, type: shape, path: "M 0 0 L 100 0", strokeColor: black}
          - {id: box, frame: [200, 0, 50, 50], masksToBounds: false}
        events:
          - at: 0.5
            set: {rep.instanceCount: 4, label.string: Goodbye, label.font: DejaVu Sans Bold,
                  label.alignmentMode: center, line.lineDashPattern: [4, 2], line.lineCap: round,
                  box.masksToBounds: true}
        """, at: 0.7)
        #expect(["dot", "dot#1", "dot#2", "dot#3"].allSatisfy { findLayer(layers, id: $0) != nil })
        let text = try #require(findLayer(layers, id: "label")?.text)
        #expect(text.string == "Goodbye" && text.font == "DejaVu Sans Bold" && text.alignmentMode == .center)
        #expect(text.fontSize == 12)  // untouched
        let shape = try #require(findLayer(layers, id: "line")?.shape)
        #expect(shape.lineDashPattern == [4, 2] && shape.lineCap == .round)
        #expect(findLayer(layers, id: "box")?.masksToBounds == true)
        // Before the event, the model values.
        let before = try frame("""
        layers: [{id: label, type: text, frame: [0, 0, 200, 30], string: Hello}]
        events: [{at: 0.5, set: {label.string: Goodbye}}]
        """, at: 0.4)
        #expect(findLayer(before, id: "label")?.text?.string == "Hello")
    }

    @Test func setRejectsAPropertyTheLayerHasNot() {
        let error = #expect(throws: SceneLoadError.self) {
            _ = try frame("""
            layers: [{id: box, frame: [0, 0, 50, 50]}]
            events: [{at: 0.5, set: {box.string: Hi}}]
            """, at: 0)
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("events[0].set.box.string: 'string' does not apply to plain layer 'box'"))
    }

    @Test func sublayerTransformAnimates() throws {
        let layers = try frame("""
        layers: [{id: stage, frame: [0, 0, 300, 120]}]
        animations: [{layer: stage, keyPath: sublayerTransform, from: {rotate: 0}, to: {rotate: 90deg}, duration: 1}]
        """, at: 0.5)
        let c = try #require(layers.first).sublayerTransform.components
        #expect(abs(c.rotationZ - Double.pi / 4) < 1e-9)
    }
}

