import Foundation
import KineticGeometry
import KineticLayers
@testable import KineticRender

let red = Color(red: 1, green: 0, blue: 0)
let blue = Color(red: 0, green: 0, blue: 1)
let green = Color(red: 0, green: 1, blue: 0)

/// A plain layer filled with `color`, `size` points, at `position`.
func solid(_ color: Color, size: Size, at position: Point, place: String = "l") -> Layer {
    var layer = Layer(place: place)
    layer.bounds = Rect(origin: .zero, size: size)
    layer.position = position
    layer.backgroundColor = color
    return layer
}

/// An emitter layer over the 200 × 200 canvas whose one cell draws a `side`-point white square.
func squareEmitter(side: Double, particles: ParticleSnapshot, mode: EmitterRenderMode = .unordered) -> Layer {
    var layer = Layer(place: "e", type: .emitter)
    layer.bounds = Rect(0, 0, 200, 200)
    layer.position = Point(100, 100)
    var style = EmitterStyle()
    var cell = EmitterCell()
    cell.contents = .path(BezierPath.rect(Rect(0, 0, side, side)), size: Size(side, side), fillColor: .white)
    style.emitterCells = [cell]
    style.renderMode = mode
    style.particles = particles
    layer.content = .emitter(style)
    return layer
}

extension ParticleSnapshot {
    /// Appends a particle of the first cell at rest at (`x`, `y`), of lifetime 100; the
    /// caller sets `alive` and `born`.
    mutating func appendResting(x: Double, y: Double, age: Double, scale: Double = 1, angle: Double = 0,
                                color: (r: Float, g: Float, b: Float, a: Float) = (1, 1, 1, 1)) {
        cell.append(0); self.x.append(x); self.y.append(y); z.append(0)
        vx.append(0); vy.append(0); vz.append(0)
        self.age.append(age); lifetime.append(100)
        self.scale.append(scale); self.angle.append(angle)
        red.append(color.r); green.append(color.g); blue.append(color.b); alpha.append(color.a)
    }
}

func frame(_ layers: [Layer], size: Size = Size(200, 200), background: Background = .color(.clear)) -> SceneFrame {
    SceneFrame(index: 0, time: 0, size: size, background: background, layers: layers)
}

func render(_ layers: [Layer], size: Size = Size(200, 200), scale: Double = 1,
            background: Background = .color(.clear), name: String? = nil) -> PixelImage {
    let image = Renderer(scale: scale).render(frame(layers, size: size, background: background))
    if let name { try? writePNG(image, to: "/tmp/kinetic-render-\(name).png") }
    return image
}

extension PixelImage {
    func alpha(_ x: Int, _ y: Int) -> Int { Int(rgba(x: x, y: y).a) }
    /// True when the pixel is opaque `color` (within one step of rounding).
    func isOpaque(_ color: Color, _ x: Int, _ y: Int) -> Bool {
        let p = rgba(x: x, y: y)
        func near(_ v: UInt8, _ c: Double) -> Bool { abs(Int(v) - Int((c * 255).rounded())) <= 1 }
        return p.a == 255 && near(p.r, color.red) && near(p.g, color.green) && near(p.b, color.blue)
    }
    func isClear(_ x: Int, _ y: Int) -> Bool { rgba(x: x, y: y).a == 0 }
}
