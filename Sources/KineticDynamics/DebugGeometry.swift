// UIDynamicAnimator's debug mode: what it draws over the scene.
import Foundation
import KineticGeometry

/// The debug overlay's geometry (UIDynamicAnimator's debug mode): polylines in
/// reference-bounds coordinates.
public struct DynamicsDebugGeometry {
    /// Each item's collision outline, closed.
    public var bodies: [[Point]] = []
    /// From each item's center to where it will be in 0.1 s at its velocity.
    public var velocities: [(Point, Point)] = []
    /// Attachment and snap lines, from the item's attach point to the other end.
    public var joints: [(Point, Point)] = []
    /// Anchor, snap and field points.
    public var anchors: [Point] = []
    /// Boundary outlines of live collision behaviors.
    public var boundaries: [[Point]] = []
    /// Field force directions on a grid around each field.
    public var fieldArrows: [(Point, Point)] = []
    /// Other marks (a circle's radius, showing its rotation).
    public var segments: [(Point, Point)] = []

    public init() {}
}

extension DynamicAnimator {
    /// What UIDynamicAnimator's debug mode draws, in reference-bounds coordinates.
    public func debugGeometry() -> DynamicsDebugGeometry {
        var g = DynamicsDebugGeometry()
        for (i, body) in bodies.enumerated() {
            let center = space.position(i), angle = space.angle(i)
            let outline: [Point]
            switch body.shape {
            case .circle(let r):
                outline = (0...24).map { k in
                    let t = 2 * Double.pi * Double(k) / 24
                    return center + rotate(Point(r * cos(t), r * sin(t)), by: angle)
                }
                g.segments.append((center, center + rotate(Point(r, 0), by: angle)))   // shows the turning
            case .polygon(let points):
                outline = (points + [points[0]]).map { center + rotate($0, by: angle) }
            }
            g.bodies.append(outline)
            // A tenth of a second of travel.
            g.velocities.append((center, center + space.velocity(i) * 0.1))
        }
        for entry in entries where entry.isLive {
            g.boundaries += entry.outlines
            switch entry.behavior.kind {
            case .attachment(let a):
                let i = entry.items[0]
                let pA = space.position(i) + rotate(a.offsetFromCenter, by: space.angle(i))
                let pB: Point
                switch a.attachedTo {
                case .anchor(let p): pB = p; g.anchors.append(p)
                case .item(_, let offset):
                    guard entry.items.count > 1 else { continue }
                    let j = entry.items[1]
                    pB = space.position(j) + rotate(offset, by: space.angle(j))
                }
                g.joints.append((pA, pB))
            case .snap(let s):
                g.anchors.append(s.snapPoint)
                g.joints.append((space.position(entry.items[0]), s.snapPoint))
            case .field(let f):
                g.anchors.append(f.position)
                g.fieldArrows += fieldArrows(f)
            default: break
            }
        }
        return g
    }

    /// Arrows of the force on a still unit mass over the field's whole region (clipped to
    /// the reference bounds; all of them for an infinite region), as UIKit's field debug
    /// view covers it: a grid of at most 24 cells along the longer side, each arrow scaled
    /// against the strongest one so the field's pattern shows whatever its strength.
    func fieldArrows(_ f: FieldBehavior) -> [(Point, Point)] {
        let area: Rect
        switch f.region {
        case .infinite: area = referenceBounds
        case .radius(let r): area = Rect(f.position.x - r, f.position.y - r, 2 * r, 2 * r)
        case .rect(let r): area = Rect(f.position.x + r.origin.x, f.position.y + r.origin.y, r.size.width, r.size.height)
        }
        let minX = max(area.origin.x, referenceBounds.origin.x)
        let minY = max(area.origin.y, referenceBounds.origin.y)
        let maxX = min(area.origin.x + area.size.width, referenceBounds.origin.x + referenceBounds.size.width)
        let maxY = min(area.origin.y + area.size.height, referenceBounds.origin.y + referenceBounds.size.height)
        guard maxX > minX, maxY > minY else { return [] }
        let pitch = max(16, max(maxX - minX, maxY - minY) / 24)
        // The tiny tolerance keeps 400 / (400 / 24) at 24 whatever the rounding.
        let columns = max(1, Int((maxX - minX) / pitch + 1e-9)), rows = max(1, Int((maxY - minY) / pitch + 1e-9))
        // The grid centred in the area.
        let x0 = minX + (maxX - minX - Double(columns - 1) * pitch) / 2
        let y0 = minY + (maxY - minY - Double(rows - 1) * pitch) / 2
        var samples: [(Point, Point)] = []
        for cx in 0..<columns {
            for cy in 0..<rows {
                let p = Point(x0 + Double(cx) * pitch, y0 + Double(cy) * pitch)
                guard f.contains(p) else { continue }
                samples.append((p, f.force(center: p, velocity: .zero, mass: 1, charge: 1, time: time, seed: seed)))
            }
        }
        let strongest = samples.map { $0.1.length }.max() ?? 0
        guard strongest > 0 else { return [] }
        return samples.compactMap { p, force in
            force.length > 0 ? (p, p + force / strongest * (0.8 * pitch)) : nil
        }
    }
}
