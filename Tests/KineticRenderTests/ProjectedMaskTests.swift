import Testing
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// A masked sublayer inside a layer under perspective still draws (Cairo reports no ink
/// for masks on an unbounded recording, which once made such cards vanish).
@Suite struct ProjectedMaskTests {
    @Test func maskedSublayerOfATiltedLayerDraws() throws {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], scale: 1, duration: 1, background: white}
        layers:
          - frame: [0, 0, 200, 200]
            sublayerTransform: {perspective: 500}
            sublayers:
              - position: [100, 100]
                bounds: [100, 100]
                transform: {rotateY: 20deg}
                sublayers:
                  - frame: [0, 0, 100, 100]
                    backgroundColor: "#0000FF"
                    mask: {type: shape, path: {roundedRect: [0, 0, 100, 100], cornerRadius: 10}}
        """, file: "t.yaml")
        let image = Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
        let center = image.rgba(x: 100, y: 100)
        #expect(center.b == 255 && center.r == 0 && center.a == 255)
        // The rounded corner of the mask stays clear (white background).
        let corner = image.rgba(x: 2, y: 2)
        #expect(corner.r == 255 && corner.g == 255)
    }
}
