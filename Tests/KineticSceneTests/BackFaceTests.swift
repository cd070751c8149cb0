import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// `doubleSided: false` (CALayer.isDoubleSided): a layer facing away is hidden.
@Suite struct BackFaceTests {
    /// A card flip: the back starts turned over (rotateY 180°), the container turns
    /// half a turn about y under perspective; each side shows only while it faces us.
    @Test func aCardFlipShowsOneSideAtATime() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], duration: 2, fps: 10}
        layers:
          - id: stage
            frame: [0, 0, 200, 200]
            sublayerTransform: {perspective: 500}
            sublayers:
              - id: card
                position: [100, 100]
                bounds: [100, 140]
                sublayers:
                  - {id: front, frame: [0, 0, 100, 140], backgroundColor: red, doubleSided: false}
                  - {id: back, frame: [0, 0, 100, 140], backgroundColor: blue, doubleSided: false,
                     transform: {rotateY: 180deg}}
                  - {id: both, frame: [0, 0, 10, 10], backgroundColor: green}
        animations:
          - {layer: card, keyPath: transform.rotation.y, from: 0, to: 180deg, duration: 1, fillMode: forwards}
        """, file: "t.yaml")
        let timeline = Timeline(scene: scene)
        func hidden(_ id: String, at time: Double) throws -> Bool {
            try #require(findLayer(timeline.frame(at: time, index: 0).layers, id: id)).isHidden
        }
        // 0 s and 0.4 s (72°): the front faces us; 0.6 s (108°) and after: the back.
        for time in [0.0, 0.4] {
            #expect(try !hidden("front", at: time) && hidden("back", at: time), "t=\(time)")
        }
        for time in [0.6, 1.5] {
            #expect(try hidden("front", at: time) && !hidden("back", at: time), "t=\(time)")
        }
        // A double-sided layer shows both ways.
        #expect(try !hidden("both", at: 1.5))
    }

    /// A mirror (scale x −1) turns the plane over too; a turn about z does not.
    @Test func mirroringFacesAwayAndTurningInThePlaneDoesNot() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 1}
        layers:
          - {id: mirrored, frame: [0, 0, 50, 50], doubleSided: false, transform: {scale: [-1, 1]}}
          - {id: turned, frame: [0, 0, 50, 50], doubleSided: false, transform: {rotate: 180deg}}
        """, file: "t.yaml")
        let layers = Timeline(scene: scene).frame(at: 0, index: 0).layers
        #expect(findLayer(layers, id: "mirrored")?.isHidden == true)
        #expect(findLayer(layers, id: "turned")?.isHidden == false)
    }

    /// An event's `set:` makes a layer single-sided from its time on.
    @Test func anEventCanMakeALayerSingleSided() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [100, 100], duration: 2, fps: 10}
        layers:
          - {id: mirrored, frame: [0, 0, 50, 50], transform: {scale: [-1, 1]}}
        events:
          - {at: 1, set: {mirrored.doubleSided: false}}
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        #expect(try findLayer(simulation.frame(at: 0.5, index: 5).layers, id: "mirrored")?.isHidden == false)
        #expect(try findLayer(simulation.frame(at: 1.5, index: 15).layers, id: "mirrored")?.isHidden == true)
    }
}
