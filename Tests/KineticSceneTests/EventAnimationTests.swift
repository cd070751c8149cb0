import Testing
import KineticGeometry
import KineticLayers
@testable import KineticScene

/// Section 7's `animate` action: a contact handler starts animations on `$item` at the
/// contact's time (the collision-fade demo).
@Suite struct EventAnimationTests {
    @Test func contactStartsAnimationsOnTheItem() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [375, 667], scale: 1, duration: 2, fps: 100}
        layers:
          - {id: box, frame: [150, 100, 50, 50], backgroundColor: green}
        dynamics:
          behaviors:
            - gravity: {items: [box]}
            - collision: {items: [box], collisionMode: boundaries, boundaries: [{identifier: line, from: [0, 567], to: [375, 567]}]}
        events:
          - on: {contact: began, boundary: line}
            do:
              - animate: {layer: $item, keyPath: opacity, to: 0, duration: 0.5}
              - removeLayers: [$item]
                delay: 0.5
        """, file: "t.yaml")
        let simulation = Simulation(timeline: Timeline(scene: scene))
        var contactFrame: Int?
        var opacities: [Double] = []
        for i in 0..<200 {
            let frame = try simulation.frame(i)
            guard let box = frame.layers.first(where: { $0.id == "box" }) else { continue }
            opacities.append(box.isHidden ? -1 : box.opacity)
            if contactFrame == nil, box.opacity < 1 { contactFrame = i }
        }
        let c = try #require(contactFrame)
        // The box (bottom at 125 + ½·1000·t²) meets the line at y = 567: t = √(2·442/1000) ≈ 0.94 s.
        #expect(abs(Double(c) / 100 - 0.94) < 0.03)
        // Linear fade over 0.5 s from the contact, then removed (hidden).
        let halfWay = opacities[c + 24]
        #expect(halfWay > 0.45 && halfWay < 0.55)
        #expect(opacities[c + 55] == -1)
    }
}
