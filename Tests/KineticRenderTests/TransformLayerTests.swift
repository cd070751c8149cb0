import Testing
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// CATransformLayer: a cube of six faces whose sublayers share one 3D space.
@Suite struct TransformLayerTests {
    /// A 100-point cube centred at (100, 100), turned `rotateY: 30deg`, no perspective.
    /// Faces: front red (+z), back green, right blue (+x), left yellow, top cyan, bottom
    /// magenta, listed so that file order would draw the back and the right over the front.
    static func cube(opacity: Double = 1) throws -> PixelImage {
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], scale: 1, duration: 1, background: clear}
        layers:
          - type: transformLayer
            position: [100, 100]
            bounds: [100, 100]
            opacity: \(opacity)
            transform: {rotateY: 30deg}
            sublayers:
              - {frame: [0, 0, 100, 100], backgroundColor: "#FF0000", transform: {translate: [0, 0, 50]}}
              - {frame: [0, 0, 100, 100], backgroundColor: "#00FF00", transform: {rotateY: 180deg, translate: [0, 0, -50]}}
              - {frame: [0, 0, 100, 100], backgroundColor: "#0000FF", transform: {rotateY: 90deg, translate: [50, 0, 0]}}
              - {frame: [0, 0, 100, 100], backgroundColor: "#FFFF00", transform: {rotateY: -90deg, translate: [-50, 0, 0]}}
              - {frame: [0, 0, 100, 100], backgroundColor: "#00FFFF", transform: {rotateX: 90deg, translate: [0, -50, 0]}}
              - {frame: [0, 0, 100, 100], backgroundColor: "#FF00FF", transform: {rotateX: -90deg, translate: [0, 50, 0]}}
        """, file: "t.yaml")
        return Renderer(scale: 1).render(Timeline(scene: scene).frame(0))
    }

    @Test func theFacesTowardTheViewerShowInFront() throws {
        // By hand: rotateY(θ) maps (x, y, z) to (x cos θ + z sin θ, y, −x sin θ + z cos θ)
        // (CATransform3D's row-vector form). At θ = 30°: the front's normal (0, 0, 1) →
        // z 0.866, the left's (−1, 0, 0) → z 0.5: both face the viewer; the right's → −0.5,
        // the back's → −0.866; top and bottom are edge-on. Centres: front (0, 0, 50) →
        // x 25, depth 43.3; left (−50, 0, 0) → x −43.3, depth 25; right (50, 0, 0) → x 43.3,
        // depth −25; back → x −25, depth −43.3.
        let image = try Self.cube()
        // x = 125: the front (x from −18.3 to 68.3) over the right face (18.3…68.3).
        let front = image.rgba(x: 125, y: 100)
        #expect(front.r == 255 && front.g == 0 && front.b == 0 && front.a == 255)
        // x = 57: the left face (−68.3…−18.3) over the back (−68.3…18.3).
        let left = image.rgba(x: 57, y: 100)
        #expect(left.r == 255 && left.g == 255 && left.b == 0)
        // Outside the cube's outline (±68.3): nothing.
        #expect(image.rgba(x: 30, y: 100).a == 0 && image.rgba(x: 170, y: 100).a == 0)
        #expect(image.rgba(x: 100, y: 49).a == 0 && image.rgba(x: 100, y: 151).a == 0)
    }

    @Test func opacityAppliesToEachFaceAlone() throws {
        // No compositing group: at x = 125 the front (α 0.5) lies over the right face
        // (α 0.5): α = 0.5 + 0.5 × 0.5 = 0.75, premultiplied red 0.5 and blue 0.25, i.e.
        // straight (170, 0, 85, 191). A group would show the front alone: (255, 0, 0, 128).
        let pixel = try Self.cube(opacity: 0.5).rgba(x: 125, y: 100)
        #expect(abs(Int(pixel.a) - 191) <= 1 && abs(Int(pixel.r) - 170) <= 1 && abs(Int(pixel.b) - 85) <= 1)
    }

    @Test func singleSidedFacesHideByTheirWholeThreeDimensionalTurn() throws {
        // With doubleSided: false, a face hides while its whole 3D map turns it away. The
        // right face is rotateY 90° inside the cube's rotateY 30°: 120° in all, facing
        // away (cos 120° < 0). Flattened into the cube's plane first, its 90° turn would
        // collapse to a line and keep its facing, and it would not hide.
        let scene = try SceneLoader.load(text: """
        kinetic: 1
        scene: {size: [200, 200], scale: 1, duration: 1}
        layers:
          - type: transformLayer
            position: [100, 100]
            bounds: [100, 100]
            transform: {rotateY: 30deg}
            sublayers:
              - {id: front, frame: [0, 0, 100, 100], doubleSided: false, transform: {translate: [0, 0, 50]}}
              - {id: back, frame: [0, 0, 100, 100], doubleSided: false, transform: {rotateY: 180deg, translate: [0, 0, -50]}}
              - {id: right, frame: [0, 0, 100, 100], doubleSided: false, transform: {rotateY: 90deg, translate: [50, 0, 0]}}
              - {id: left, frame: [0, 0, 100, 100], doubleSided: false, transform: {rotateY: -90deg, translate: [-50, 0, 0]}}
        """, file: "t.yaml")
        let faces = Layer.hidingBackFaces(scene.layers)[0].sublayers
        let hidden = Dictionary(uniqueKeysWithValues: faces.map { ($0.id ?? "", $0.isHidden) })
        #expect(hidden == ["front": false, "back": true, "right": true, "left": false])
    }

    @Test func whatATransformLayerWouldDrawItselfIsALocatedError() {
        #expect(throws: SceneLoadError.self) {
            _ = try SceneLoader.load(text: """
            kinetic: 1
            scene: {size: [10, 10], duration: 1}
            layers:
              - {type: transformLayer, frame: [0, 0, 10, 10], backgroundColor: red}
            """, file: "t.yaml")
        }
    }
}
