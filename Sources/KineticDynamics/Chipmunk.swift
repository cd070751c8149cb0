// The one file that touches Chipmunk2D's C API (7.0): bodies, shapes, joints, stepping
// and the collision callbacks. Everything else in KineticDynamics is plain Swift.
//
// Chipmunk (Debian's debug build) aborts the process on invalid input, so callers
// validate every value first; this file only asserts what it is handed is finite.
import CChipmunk
import Foundation
import KineticGeometry

/// A collision shape in body coordinates (points, y down, origin at the body's center).
enum ChipmunkShape {
    case circle(radius: Double)
    /// A convex polygon, counter-clockwise or clockwise (Chipmunk takes the hull).
    case polygon([Point])
}

/// What a joint connects one end to: an item's body, or an anchor point in the world.
enum ChipmunkEnd: Equatable {
    case body(Int)
    /// A kinematic body at this world point (angle 0) that the joint's anchor is
    /// relative to; `moveAnchor` moves it with a velocity, so joints see the motion.
    case anchor(Point)
}

/// The joints UIKit's attachment kinds map to (see `AttachmentBehavior.Kind`).
enum ChipmunkJoint {
    /// A rod holding the anchors at `distance` (cpPinJoint).
    case rod(distance: Double)
    /// A spring of rest length `restLength` (cpDampedSpring, force = stiffness × stretch).
    case spring(restLength: Double, stiffness: Double, damping: Double)
    /// A rope: distance between `min` and `max` (cpSlideJoint).
    case slide(min: Double, max: Double)
    /// The anchors held together, rotation free (cpPivotJoint).
    case pivot
    /// The relative angle held at its current value (cpGearJoint, ratio 1).
    case keepAngle
    /// Rotation resisted by at most `maxTorque` (cpSimpleMotor at rate 0).
    case rotaryFriction(maxTorque: Double)
    /// Anchor B slides along the segment `grooveA…grooveB` given in A's coordinates (cpGrooveJoint).
    case groove(grooveA: Point, grooveB: Point)
}

/// Identifies the shapes the collision callbacks report: an item or a boundary segment.
enum ChipmunkShapeTag: Hashable {
    case item(Int)
    case boundary(Int)

    fileprivate var bits: Int {
        switch self {
        case .item(let i): return 2 * i + 2
        case .boundary(let b): return 2 * b + 3
        }
    }

    fileprivate init?(bits: Int) {
        guard bits >= 2 else { return nil }
        self = bits % 2 == 0 ? .item(bits / 2 - 1) : .boundary((bits - 3) / 2)
    }
}

/// Receives Chipmunk's collision callbacks during `ChipmunkSpace.step`.
protocol ChipmunkContactDelegate: AnyObject {
    /// Whether the two shapes collide now (asked when they start touching and every step after).
    func shouldCollide(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) -> Bool
    /// The two shapes started touching (and `shouldCollide` allowed it).
    func contactBegan(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag)
    /// Two shapes whose contact had begun stopped touching.
    func contactEnded(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag)
}

/// Chipmunk prints "Initializing cpSpace – Chipmunk v7 (Debug Enabled)" on stdout at its
/// first `cpSpaceNew`; stdout carries JSON (`inspect`) or image data, so that first call
/// runs once, here, with file descriptor 1 pointed at /dev/null.
private let chipmunkBannerSilenced: Void = {
    fflush(stdout)
    let saved = dup(1)
    let null = open("/dev/null", O_WRONLY)
    if saved >= 0, null >= 0 { dup2(null, 1) }
    let space = cpSpaceNew()
    fflush(stdout)
    if saved >= 0, null >= 0 { dup2(saved, 1) }
    if null >= 0 { close(null) }
    if saved >= 0 { close(saved) }
    if let space { cpSpaceFree(space) }
}()

private func vect(_ p: Point) -> cpVect { cpv(p.x, p.y) }
private func point(_ v: cpVect) -> Point { Point(v.x, v.y) }

/// A Chipmunk space owning its bodies (one per dynamic item, by index), boundary
/// segments and joints. Not thread-safe; one per simulation.
final class ChipmunkSpace {
    private let space: OpaquePointer
    private var bodies: [OpaquePointer] = []
    private var itemShapes: [OpaquePointer] = []
    private var boundaries: [Int: [OpaquePointer]] = [:]
    private var joints: [Int: [OpaquePointer]] = [:]
    /// The kinematic anchor body of a joint handle, if it has one.
    private var anchorBodies: [Int: OpaquePointer] = [:]
    private var nextHandle = 0
    /// Arbiters whose begin was accepted: Chipmunk also calls separate for rejected ones.
    private var acceptedArbiters: Set<OpaquePointer> = []
    weak var contactDelegate: ChipmunkContactDelegate?

    init(iterations: Int) {
        _ = chipmunkBannerSilenced
        // Safe: cpSpaceNew only returns nil when malloc fails, which Chipmunk does not handle either.
        space = cpSpaceNew()!
        cpSpaceSetIterations(space, Int32(iterations))
        cpSpaceSetGravity(space, cpvzero)   // gravity is per item (UIGravityBehavior), applied as force
        cpSpaceSetSleepTimeThreshold(space, .infinity)
        let handler = cpSpaceAddDefaultCollisionHandler(space)!
        handler.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        handler.pointee.beginFunc = { arbiter, _, data in
            guard let arbiter, let data, let (a, b) = ChipmunkSpace.tags(arbiter) else { return 1 }
            let owner = Unmanaged<ChipmunkSpace>.fromOpaque(data).takeUnretainedValue()
            guard let delegate = owner.contactDelegate else { return 1 }
            guard delegate.shouldCollide(a, b) else { return 0 }
            owner.acceptedArbiters.insert(arbiter)
            delegate.contactBegan(a, b)
            return 1
        }
        handler.pointee.preSolveFunc = { arbiter, _, data in
            guard let arbiter, let data, let (a, b) = ChipmunkSpace.tags(arbiter) else { return 1 }
            let owner = Unmanaged<ChipmunkSpace>.fromOpaque(data).takeUnretainedValue()
            return (owner.contactDelegate?.shouldCollide(a, b) ?? true) ? 1 : 0
        }
        handler.pointee.separateFunc = { arbiter, _, data in
            guard let arbiter, let data, let (a, b) = ChipmunkSpace.tags(arbiter) else { return }
            let owner = Unmanaged<ChipmunkSpace>.fromOpaque(data).takeUnretainedValue()
            guard owner.acceptedArbiters.remove(arbiter) != nil else { return }
            owner.contactDelegate?.contactEnded(a, b)
        }
    }

    deinit {
        // Separate callbacks fire while shapes are removed: the delegate must not hear them.
        contactDelegate = nil
        for handle in Array(joints.keys) { removeJoints(handle) }
        for list in boundaries.values { for s in list { cpSpaceRemoveShape(space, s); cpShapeFree(s) } }
        for s in itemShapes { cpSpaceRemoveShape(space, s); cpShapeFree(s) }
        for b in bodies { cpSpaceRemoveBody(space, b); cpBodyFree(b) }
        cpSpaceFree(space)
    }

    private static func tags(_ arbiter: OpaquePointer) -> (ChipmunkShapeTag, ChipmunkShapeTag)? {
        var a: OpaquePointer?, b: OpaquePointer?
        cpArbiterGetShapes(arbiter, &a, &b)
        guard let a, let b,
              let ta = ChipmunkShapeTag(bits: Int(bitPattern: cpShapeGetUserData(a))),
              let tb = ChipmunkShapeTag(bits: Int(bitPattern: cpShapeGetUserData(b)))
        else { return nil }
        return (ta, tb)
    }

    private func makeShape(_ shape: ChipmunkShape, body: OpaquePointer) -> OpaquePointer {
        switch shape {
        case .circle(let radius):
            return cpCircleShapeNew(body, radius, cpvzero)!
        case .polygon(let points):
            let verts = points.map(vect)
            return cpPolyShapeNew(body, Int32(verts.count), verts, cpTransformIdentity, 0)!
        }
    }

    // MARK: Bodies

    /// Adds a dynamic body for item `index` (indices must be added in order 0, 1, 2…).
    func addBody(shape: ChipmunkShape, mass: Double, moment: Double, position: Point, angle: Double) {
        let body = cpBodyNew(mass, moment)!
        cpBodySetPosition(body, vect(position))
        cpBodySetAngle(body, angle)
        cpSpaceAddBody(space, body)
        let s = makeShape(shape, body: body)
        cpShapeSetUserData(s, UnsafeMutableRawPointer(bitPattern: ChipmunkShapeTag.item(bodies.count).bits))
        cpSpaceAddShape(space, s)
        bodies.append(body)
        itemShapes.append(s)
    }

    func position(_ i: Int) -> Point { point(cpBodyGetPosition(bodies[i])) }
    func angle(_ i: Int) -> Double { cpBodyGetAngle(bodies[i]) }
    func velocity(_ i: Int) -> Point { point(cpBodyGetVelocity(bodies[i])) }
    func angularVelocity(_ i: Int) -> Double { cpBodyGetAngularVelocity(bodies[i]) }
    func moment(_ i: Int) -> Double { cpBodyGetMoment(bodies[i]) }

    func setVelocity(_ i: Int, _ v: Point) { cpBodySetVelocity(bodies[i], vect(v)) }
    func setAngularVelocity(_ i: Int, _ w: Double) { cpBodySetAngularVelocity(bodies[i], w) }
    /// The force and torque applied during the next step (Chipmunk clears them after it).
    func setForce(_ i: Int, _ f: Point, torque: Double) {
        cpBodySetForce(bodies[i], vect(f))
        cpBodySetTorque(bodies[i], torque)
    }
    /// Sets mass, moment (infinite = no rotation) and whether the body is anchored
    /// (kinematic at rest: it still collides but nothing moves it).
    func setMassProperties(_ i: Int, mass: Double, moment: Double, anchored: Bool) {
        let body = bodies[i]
        let isKinematic = cpBodyGetType(body) == CP_BODY_TYPE_KINEMATIC
        if anchored {
            if !isKinematic { cpBodySetType(body, CP_BODY_TYPE_KINEMATIC) }
            cpBodySetVelocity(body, cpvzero)
            cpBodySetAngularVelocity(body, 0)
            return
        }
        if isKinematic { cpBodySetType(body, CP_BODY_TYPE_DYNAMIC) }
        cpBodySetMass(body, mass)
        cpBodySetMoment(body, moment)
    }

    func setMaterial(_ i: Int, elasticity: Double, friction: Double) {
        cpShapeSetElasticity(itemShapes[i], elasticity)
        cpShapeSetFriction(itemShapes[i], friction)
    }

    // MARK: Boundaries

    /// Adds static segments along `polyline` (consecutive segments told of their
    /// neighbours so items roll across the joints), tagged `.boundary(tag)`; returns a
    /// handle for `removeBoundary`.
    func addBoundary(polyline: [Point], closed: Bool, tag: Int, elasticity: Double, friction: Double) -> Int {
        let staticBody = cpSpaceGetStaticBody(space)!
        let n = polyline.count
        var shapes: [OpaquePointer] = []
        let segmentCount = closed ? n : n - 1
        for k in 0..<max(0, segmentCount) {
            let a = polyline[k], b = polyline[(k + 1) % n]
            guard a != b else { continue }
            let s = cpSegmentShapeNew(staticBody, vect(a), vect(b), 0)!
            let previous = closed || k > 0 ? polyline[(k + n - 1) % n] : a
            let next = closed || k + 2 < n ? polyline[(k + 2) % n] : b
            cpSegmentShapeSetNeighbors(s, vect(previous), vect(next))
            shapes.append(s)
        }
        return registerBoundary(shapes, tag: tag, elasticity: elasticity, friction: friction)
    }

    /// Adds static convex polygons (walls with depth, which nothing tunnels through the
    /// way it can through a zero-thickness segment), tagged `.boundary(tag)`.
    func addBoundary(walls: [[Point]], tag: Int, elasticity: Double, friction: Double) -> Int {
        let staticBody = cpSpaceGetStaticBody(space)!
        var shapes: [OpaquePointer] = []
        for wall in walls { shapes.append(makeShape(.polygon(wall), body: staticBody)) }
        return registerBoundary(shapes, tag: tag, elasticity: elasticity, friction: friction)
    }

    /// Gives static boundary shapes their material and tag, adds them to the space and
    /// returns the handle that removes them together.
    private func registerBoundary(_ shapes: [OpaquePointer], tag: Int, elasticity: Double, friction: Double) -> Int {
        for s in shapes {
            cpShapeSetElasticity(s, elasticity)
            cpShapeSetFriction(s, friction)
            cpShapeSetUserData(s, UnsafeMutableRawPointer(bitPattern: ChipmunkShapeTag.boundary(tag).bits))
            cpSpaceAddShape(space, s)
        }
        nextHandle += 1
        boundaries[nextHandle] = shapes
        return nextHandle
    }

    func removeBoundary(_ handle: Int) {
        for s in boundaries.removeValue(forKey: handle) ?? [] { cpSpaceRemoveShape(space, s); cpShapeFree(s) }
    }

    // MARK: Joints

    /// Adds joints between `a` and `b` (anchors in each end's body coordinates, relative
    /// to the point for `.anchor`). Returns a handle for `removeJoints` / updates.
    func addJoints(_ kinds: [ChipmunkJoint], _ a: ChipmunkEnd, _ anchorA: Point, _ b: ChipmunkEnd, _ anchorB: Point) -> Int {
        nextHandle += 1
        let bodyA = body(a, handle: nextHandle), bodyB = body(b, handle: nextHandle)
        let va = vect(anchorA), vb = vect(anchorB)
        var list: [OpaquePointer] = []
        for kind in kinds {
            let joint: OpaquePointer
            switch kind {
            case .rod(let distance):
                joint = cpPinJointNew(bodyA, bodyB, va, vb)!
                cpPinJointSetDist(joint, distance)
            case .spring(let rest, let stiffness, let damping):
                joint = cpDampedSpringNew(bodyA, bodyB, va, vb, rest, stiffness, damping)!
            case .slide(let lo, let hi):
                joint = cpSlideJointNew(bodyA, bodyB, va, vb, lo, hi)!
            case .pivot:
                joint = cpPivotJointNew2(bodyA, bodyB, va, vb)!
            case .keepAngle:
                joint = cpGearJointNew(bodyA, bodyB, cpBodyGetAngle(bodyB) - cpBodyGetAngle(bodyA), 1)!
            case .rotaryFriction(let maxTorque):
                joint = cpSimpleMotorNew(bodyA, bodyB, 0)!
                cpConstraintSetMaxForce(joint, maxTorque)
            case .groove(let ga, let gb):
                joint = cpGrooveJointNew(bodyA, bodyB, vect(ga), vect(gb), vb)!
            }
            cpSpaceAddConstraint(space, joint)
            list.append(joint)
        }
        joints[nextHandle] = list
        return nextHandle
    }

    private func body(_ end: ChipmunkEnd, handle: Int) -> OpaquePointer {
        switch end {
        case .body(let i): return bodies[i]
        case .anchor(let p):
            let body = cpBodyNewKinematic()!
            cpBodySetPosition(body, vect(p))
            cpSpaceAddBody(space, body)
            anchorBodies[handle] = body
            return body
        }
    }

    func removeJoints(_ handle: Int) {
        for j in joints.removeValue(forKey: handle) ?? [] { cpSpaceRemoveConstraint(space, j); cpConstraintFree(j) }
        if let body = anchorBodies.removeValue(forKey: handle) { cpSpaceRemoveBody(space, body); cpBodyFree(body) }
    }

    /// Moves the anchor body of `handle` to `target`. Under rigid joints it gets the
    /// velocity that brings it there in `dt` (zero once there), so a moving anchor drags
    /// the item at its speed. Under a spring it jumps there and stays at rest:
    /// UIKit's anchor point has no velocity, so the spring's damping acts on the item's
    /// own velocity, and a moved anchor pulls the item without a damping kick.
    func moveAnchor(_ handle: Int, to target: Point, within dt: Double) {
        guard let body = anchorBodies[handle] else { return }
        // A spring is never mixed with a rigid joint (at most with rotary friction).
        if (joints[handle] ?? []).contains(where: { cpConstraintIsDampedSpring($0) != 0 }) {
            if point(cpBodyGetPosition(body)) != target { cpBodySetPosition(body, vect(target)) }
            cpBodySetVelocity(body, cpvzero)
        } else {
            cpBodySetVelocity(body, vect((target - point(cpBodyGetPosition(body))) / dt))
        }
    }

    /// Updates the stiffness and damping of the springs under `handle`.
    func setSpring(_ handle: Int, stiffness: Double, damping: Double) {
        for j in joints[handle] ?? [] where cpConstraintIsDampedSpring(j) != 0 {
            cpDampedSpringSetStiffness(j, stiffness)
            cpDampedSpringSetDamping(j, damping)
        }
    }

    // MARK: Stepping

    func step(_ dt: Double) { cpSpaceStep(space, dt) }
}
