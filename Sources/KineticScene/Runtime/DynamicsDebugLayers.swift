import Foundation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// The `dynamics.debug` overlay (stage 8 of `FrameOrder`) as layers.
extension Simulation {
    /// The debug overlay as shape layers drawn over the scene, one per kind of mark, in
    /// the colours of UIKit's debug mode (bodies blue, velocities green, joints red,
    /// boundaries grey, fields purple).
    static func overlay(_ g: DynamicsDebugGeometry) -> [Layer] {
        func path(_ polylines: [[Point]]) -> BezierPath {
            var p = BezierPath()
            for line in polylines where line.count >= 2 {
                p.move(to: line[0])
                for q in line.dropFirst() { p.addLine(to: q) }
            }
            return p
        }
        func arrows(_ segments: [(Point, Point)]) -> [[Point]] {
            segments.flatMap { a, b -> [[Point]] in
                let d = b - a, length = d.length
                guard length > 0 else { return [] }
                let u = d / length, n = Point(-u.y, u.x), head = min(5, length / 3)
                return [[a, b], [b - u * head + n * (head / 2), b, b - u * head - n * (head / 2)]]
            }
        }
        let dots = g.anchors.map { c in (0...12).map { k in
            c + Point(cos(Double(k) * .pi / 6), sin(Double(k) * .pi / 6)) * 3 } }
        let marks: [(String, Color, [[Point]])] = [
            ("boundaries", Color(r255: 142, g255: 142, b255: 147), g.boundaries),
            ("bodies", Color(r255: 0, g255: 122, b255: 255), g.bodies + g.segments.map { [$0.0, $0.1] }),
            ("joints", Color(r255: 255, g255: 59, b255: 48), g.joints.map { [$0.0, $0.1] } + dots),
            ("velocities", Color(r255: 52, g255: 199, b255: 89), arrows(g.velocities)),
            ("fields", Color(r255: 175, g255: 82, b255: 222), arrows(g.fieldArrows)),
        ]
        return marks.filter { !$0.2.isEmpty }.map { name, color, lines in
            var layer = Layer(place: "dynamics.debug.\(name)", type: .shape)
            var style = ShapeStyle()
            style.path = path(lines)
            style.fillColor = nil
            style.strokeColor = color
            style.lineWidth = 1
            layer.shape = style
            return layer
        }
    }
}
