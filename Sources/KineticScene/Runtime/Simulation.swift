import Foundation
import KineticAnimation
import KineticDynamics
import KineticGeometry
import KineticLayers

/// An item's simulated state (center, angle, velocity, angular velocity), as
/// `kinetic inspect` lists it under `items`.
public typealias DynamicItemState = KineticDynamics.DynamicItemState

/// Why a scene's physics could not go on: invalid values the loader could not see
/// (exit 65), or a blow-up at `time` (exit 70).
public struct SimulationError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// A layer or behavior value Chipmunk must not see (a zero-size item, a flat collision path).
        case invalidScene
        /// The state of `item` stopped being finite at `time`.
        case blewUp(time: Double, item: String)
    }

    public var kind: Kind
    public var description: String

    init(_ error: DynamicsError) {
        if case .nonFiniteState(let time, let item) = error {
            kind = .blewUp(time: time, item: item)
        } else {
            kind = .invalidScene
        }
        description = "dynamics: \(error)"
    }
}

/// The frames of a scene in order. Without `dynamics` a frame is `Timeline`'s; with it,
/// a `DynamicAnimator` is stepped up to each frame's time (at the fixed
/// `stepsPerSecond`, so the result does not depend on the fps or on which frames are
/// asked for) and each dynamic item's center and angle are written over the animated
/// layer's `position` and `transform.rotation.z`.
///
/// Stateful: ask for frames in increasing time. Asking for an earlier time starts the
/// simulation again from 0 (correct, only slower).
public final class Simulation {
    public let timeline: Timeline
    private var animator: DynamicAnimator?
    private var bindings: [Binding] = []

    /// The state of every dynamic item at the last frame computed, by layer id.
    public private(set) var itemStates: [String: DynamicItemState] = [:]

    /// Where an item's layer is and how its center relates to its `position`.
    private struct Binding {
        var id: String
        var address: LayerAddress
        /// From the anchor point (`position`) to the bounds' center, in the layer's scaled,
        /// unrotated space: center = position + rotate(offset, angle).
        var offset: Point
    }

    public init(timeline: Timeline) { self.timeline = timeline }

    /// Frame `index` at `fps` (default the scene's): time `index / fps`.
    public func frame(_ index: Int, fps: Double? = nil) throws(SimulationError) -> SceneFrame {
        try frame(at: Double(index) / (fps ?? timeline.scene.settings.fps), index: index)
    }

    /// The presentation tree at `time`: the animations applied, then the physics.
    public func frame(at time: Double, index: Int) throws(SimulationError) -> SceneFrame {
        var frame = timeline.frame(at: time, index: index)
        guard let spec = timeline.scene.dynamics else { return frame }
        if let animator, time + 1e-9 < animator.time { self.animator = nil }
        do throws(DynamicsError) {
            if animator == nil { try start(spec) }
            guard let animator else { return frame }
            try animator.step(to: time)
            for b in bindings {
                guard let s = animator.state(of: b.id) else { continue }
                itemStates[b.id] = s
                frame.layers.modify(at: b.address) { layer in
                    layer.position = s.center - Self.rotate(b.offset, by: s.angle)
                    layer.setValue(.number(s.angle), at: .transformRotationZ)
                }
            }
        } catch {
            throw SimulationError(error)
        }
        return frame
    }

    /// Builds the animator from the layers as they are at time 0.
    private func start(_ spec: DynamicsSpec) throws(DynamicsError) {
        let scene = timeline.scene
        let initial = timeline.frame(at: 0, index: 0).layers
        let addresses = Self.addresses(of: scene.layers)
        var items: [DynamicItem] = []
        bindings = []
        for id in spec.itemIDs {
            guard let address = addresses[id], let layer = initial[address] else { continue }
            let c = layer.transform.components
            let angle = c.rotationZ
            let center = layer.toSuperlayer.apply(to: Point(layer.bounds.midX, layer.bounds.midY))
            let size = Size(layer.bounds.width * abs(c.sx), layer.bounds.height * abs(c.sy))
            items.append(DynamicItem(id: id, center: center, size: size, angle: angle,
                                     collisionBoundsType: spec.collisionBounds[id] ?? .rectangle))
            bindings.append(Binding(id: id, address: address, offset: Self.rotate(center - layer.position, by: -angle)))
        }
        let bounds = spec.referenceBounds ?? Rect(origin: .zero, size: scene.settings.size)
        animator = try DynamicAnimator(referenceBounds: bounds, stepsPerSecond: spec.stepsPerSecond, items: items,
                                       behaviors: spec.behaviors, seed: scene.settings.seed)
        itemStates = [:]
    }

    private static func rotate(_ v: Point, by angle: Double) -> Point {
        Point(cos(angle) * v.x - sin(angle) * v.y, sin(angle) * v.x + cos(angle) * v.y)
    }

    /// Every layer id's address in the tree.
    private static func addresses(of layers: [Layer], parent: [Int] = []) -> [String: LayerAddress] {
        var result: [String: LayerAddress] = [:]
        for (i, layer) in layers.enumerated() {
            let address = parent + [i]
            if let id = layer.id { result[id] = LayerAddress(address) }
            result.merge(addresses(of: layer.sublayers, parent: address)) { first, _ in first }
        }
        return result
    }
}
