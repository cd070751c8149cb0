import Testing
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// The ping transition's circle mask: an animated mask path reveals exactly the pixels
/// inside the oval of each frame.
@Suite struct MaskTransitionTests {
    @Test func animatedOvalMaskRevealsExactlyItsInside() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], scale: 1, duration: 1, fps: 10, background: white}
        layers:
          - id: photo
            frame: [0, 0, 200, 200]
            backgroundColor: "#FF9500"
            mask:
              id: hole
              type: shape
              path: {oval: [90, 90, 20, 20]}
        animations:
          - {layer: hole, keyPath: path, to: {oval: [-40, -40, 280, 280]}, duration: 1}
        """, file: "mask.yaml")
        let timeline = Timeline(scene: scene)
        let renderer = Renderer(scale: 1)
        for frame in [0, 3, 5, 8] {
            let u = Double(frame) / 10
            // Linear timing: the oval's rect moves linearly from its start to its end.
            let radius = 10 + (140 - 10) * u
            let image = renderer.render(timeline.frame(frame))
            for y in stride(from: 0, to: 200, by: 7) {
                for x in stride(from: 0, to: 200, by: 7) {
                    let d = Point(Double(x) + 0.5, Double(y) + 0.5).distance(to: Point(100, 100))
                    guard abs(d - radius) > 1.5 else { continue }  // antialiased rim
                    let p = image.rgba(x: x, y: y)
                    if d < radius {
                        #expect(p.r == 255 && p.g == 149 && p.b == 0, "frame \(frame) (\(x), \(y)) inside")
                    } else {
                        #expect(p.r == 255 && p.g == 255 && p.b == 255, "frame \(frame) (\(x), \(y)) outside: the white background")
                    }
                }
            }
        }
    }
}
