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

/// A set of collision groups. The animator gives each live collision behavior a group
/// for its items (mode `.items`: two items collide when they share one) and one for its
/// boundaries (`.boundaries`: an item collides with a boundary whose group it is in).
struct CollisionGroups: Equatable {
    /// Bit k of word k / 64 = member of group k.
    private(set) var words: [UInt64] = []

    static let none = CollisionGroups()

    mutating func insert(_ group: Int) {
        while words.count <= group / 64 { words.append(0) }
        words[group / 64] |= 1 << UInt64(group % 64)
    }

    func intersects(_ other: CollisionGroups) -> Bool {
        zip(words, other.words).contains { $0 & $1 != 0 }
    }

    /// The groups as bits of a Chipmunk bitmask, when they fit its 31 low bits (the top
    /// one marks items, see `setCollisionGroups`).
    var bitmask: UInt32? {
        guard words.dropFirst().allSatisfy({ $0 == 0 }) else { return nil }
        let w = words.first ?? 0
        return w < 1 << 31 ? UInt32(w) : nil
    }
}

/// A contact as Chipmunk's callbacks saw it, in callback order.
struct ChipmunkContact {
    var a: ChipmunkShapeTag
    var b: ChipmunkShapeTag
    var began: Bool
}

/// Chipmunk prints "Initializing cpSpace – Chipmunk v7 (Debug Enabled)" on stdout at its
/// first `cpSpaceNew`; stdout carries JSON (`inspect`) or image data, so that first call
/// runs once, here, with file descriptor 1 pointed at /dev/null. (`fflush(nil)` flushes
/// every stream, stdout included, without touching the C global Swift 6 calls unsafe.)
private let chipmunkBannerSilenced: Void = {
    fflush(nil)
    let saved = dup(1)
    let null = open("/dev/null", O_WRONLY)
    if saved >= 0, null >= 0 { dup2(null, 1) }
    let space = cpSpaceNew()
    fflush(nil)
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
    /// The boundary tag of each boundary handle.
    private var boundaryTags: [Int: Int] = [:]
    /// Each item's item groups and boundary groups, each boundary's group, for the
    /// callback filter (more groups than a Chipmunk bitmask holds).
    private var itemGroups: [CollisionGroups] = []
    private var itemBoundaryGroups: [CollisionGroups] = []
    private var boundaryGroups: [Int: CollisionGroups] = [:]
    /// Whether the collision callbacks decide which shapes collide (more than 32 groups),
    /// instead of Chipmunk's shape filters.
    private var filtersInCallbacks = false
    /// Whether contacts are logged in `contacts`.
    private var reportsContacts = false
    /// Arbiters whose begin was accepted (callback filter only: Chipmunk also calls
    /// separate for the ones begin rejected).
    private var acceptedArbiters: Set<OpaquePointer> = []
    /// Contacts begun and ended since the caller last emptied it (when `reportsContacts`).
    var contacts: [ChipmunkContact] = []

    /// A space in which no shape collides until `setCollisionGroups` says which do.
    /// Without `reportsContacts` no collision callback is installed: Chipmunk runs its
    /// own do-nothing handler, and the shape filters alone decide what collides.
    init(iterations: Int, reportsContacts: Bool) {
        _ = chipmunkBannerSilenced
        // Safe: cpSpaceNew only returns nil when malloc fails, which Chipmunk does not handle either.
        space = cpSpaceNew()!
        cpSpaceSetIterations(space, Int32(iterations))
        cpSpaceSetGravity(space, cpvzero)   // gravity is per item (UIGravityBehavior), applied as force
        cpSpaceSetSleepTimeThreshold(space, .infinity)
        self.reportsContacts = reportsContacts
        cpSpaceSetUserData(space, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
    }

    /// Installs the default handler's callbacks this space needs: begin and separate to
    /// log contacts, begin and pre-solve to filter when the groups outgrow the bitmasks.
    /// (Chipmunk has no way to remove a handler: once installed, unneeded callbacks
    /// become trivial ones.)
    private func installCallbacks() {
        guard reportsContacts || filtersInCallbacks || handlerInstalled else { return }
        // Safe: cpSpaceAddDefaultCollisionHandler returns the space's own handler struct.
        let handler = cpSpaceAddDefaultCollisionHandler(space)!
        handlerInstalled = true
        handler.pointee.userData = Unmanaged.passUnretained(self).toOpaque()
        // Chipmunk's default pre- and post-solve look up wildcard handlers at every contact.
        handler.pointee.postSolveFunc = { _, _, _ in }
        if filtersInCallbacks {
            handler.pointee.beginFunc = { arbiter, _, data in
                guard let arbiter, let data else { return 1 }
                return Unmanaged<ChipmunkSpace>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.begin(arbiter) } ? 1 : 0
            }
            handler.pointee.preSolveFunc = { arbiter, _, data in
                guard let arbiter, let data else { return 1 }
                return Unmanaged<ChipmunkSpace>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.collides(arbiter) } ? 1 : 0
            }
        } else {
            if reportsContacts {
                handler.pointee.beginFunc = { arbiter, _, data in
                    guard let arbiter, let data else { return 1 }
                    return Unmanaged<ChipmunkSpace>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.begin(arbiter) } ? 1 : 0
                }
            } else {
                handler.pointee.beginFunc = { _, _, _ in 1 }
            }
            handler.pointee.preSolveFunc = { _, _, _ in 1 }
        }
        if reportsContacts || filtersInCallbacks {
            handler.pointee.separateFunc = { arbiter, _, data in
                guard let arbiter, let data else { return }
                Unmanaged<ChipmunkSpace>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.separate(arbiter) }
            }
        } else {
            handler.pointee.separateFunc = { _, _, _ in }
        }
    }

    private var handlerInstalled = false

    /// Two shapes start touching: whether they collide (the callback filter), logged.
    private func begin(_ arbiter: OpaquePointer) -> Bool {
        guard let (a, b) = Self.tags(arbiter) else { return true }
        if filtersInCallbacks {
            guard collide(a, b) else { return false }
            acceptedArbiters.insert(arbiter)
        }
        if reportsContacts { contacts.append(ChipmunkContact(a: a, b: b, began: true)) }
        return true
    }

    private func collides(_ arbiter: OpaquePointer) -> Bool {
        guard let (a, b) = Self.tags(arbiter) else { return true }
        return collide(a, b)
    }

    private func separate(_ arbiter: OpaquePointer) {
        if filtersInCallbacks { guard acceptedArbiters.remove(arbiter) != nil else { return } }
        guard reportsContacts, let (a, b) = Self.tags(arbiter) else { return }
        contacts.append(ChipmunkContact(a: a, b: b, began: false))
    }

    private func collide(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) -> Bool {
        switch (a, b) {
        case (.item(let i), .item(let j)): return itemGroups[i].intersects(itemGroups[j])
        case (.item(let i), .boundary(let t)), (.boundary(let t), .item(let i)):
            return itemBoundaryGroups[i].intersects(boundaryGroups[t] ?? .none)
        case (.boundary, .boundary): return false
        }
    }

    /// Says which shapes collide: each item's item groups and boundary groups (by item
    /// index), each boundary's group (by handle; absent = none). Chipmunk's shape filters
    /// do it while the groups fit 31 bits — an item's categories are its item groups and
    /// bit 31, its mask its item and boundary groups; a boundary's category is its group,
    /// its mask everything — so the broad phase drops the other pairs before any callback;
    /// beyond, the callbacks do.
    func setCollisionGroups(items: [CollisionGroups], itemBoundaries: [CollisionGroups],
                            boundaries byHandle: [Int: CollisionGroups]) {
        itemGroups = items
        itemBoundaryGroups = itemBoundaries
        boundaryGroups = [:]
        for (handle, groups) in byHandle { if let tag = boundaryTags[handle] { boundaryGroups[tag] = groups } }
        let masks = items.map(\.bitmask) + itemBoundaries.map(\.bitmask) + byHandle.values.map(\.bitmask)
        let inCallbacks = masks.contains(nil)
        let all = cpShapeFilter(group: 0, categories: UInt32.max, mask: UInt32.max)
        func apply(_ f: cpShapeFilter, to shape: OpaquePointer) {
            let old = cpShapeGetFilter(shape)
            if old.categories != f.categories || old.mask != f.mask { cpShapeSetFilter(shape, f) }
        }
        for (i, shape) in itemShapes.enumerated() {
            let own = i < items.count ? items[i].bitmask ?? 0 : 0
            let boundaries = i < itemBoundaries.count ? itemBoundaries[i].bitmask ?? 0 : 0
            apply(inCallbacks ? all : cpShapeFilter(group: 0, categories: own | 1 << 31, mask: own | boundaries), to: shape)
        }
        for (handle, shapes) in boundaries {
            let bits = byHandle[handle]?.bitmask ?? 0
            let f = inCallbacks ? all : cpShapeFilter(group: 0, categories: bits, mask: UInt32.max)
            for shape in shapes { apply(f, to: shape) }
        }
        if inCallbacks != filtersInCallbacks {
            filtersInCallbacks = inCallbacks
            installCallbacks()
        }
    }

    deinit {
        // Separate callbacks fire while shapes are removed: nothing may be logged then.
        reportsContacts = false
        filtersInCallbacks = false
        for handle in Array(joints.keys) { removeJoints(handle) }
        for list in boundaries.values { for s in list { cpSpaceRemoveShape(space, s); cpShapeFree(s) } }
        for s in itemShapes { cpSpaceRemoveShape(space, s); cpShapeFree(s) }
        for b in bodies { cpSpaceRemoveBody(space, b); cpBodyFree(b) }
        cpSpaceFree(space)
    }

    /// A filter no other shape passes (until `setCollisionGroups`).
    private static let collidesWithNothing = cpShapeFilter(group: 0, categories: 0, mask: 0)

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
        cpBodySetUserData(body, UnsafeMutableRawPointer(bitPattern: bodies.count))
        if fieldAcceleration != nil { cpBodySetVelocityUpdateFunc(body, Self.velocityWithFields) }
        cpShapeSetUserData(s, UnsafeMutableRawPointer(bitPattern: ChipmunkShapeTag.item(bodies.count).bits))
        cpShapeSetFilter(s, Self.collidesWithNothing)
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
    /// Written into the body directly: cpBodySetForce and cpBodySetTorque would also call
    /// cpBodyActivate, which walks the body's contacts to reset idle timers that only
    /// sleeping reads (this space never sleeps), and cpBodySanityCheck, whose assertion
    /// (finite force and torque) the caller guarantees — `applyForces` refuses any force
    /// that is not finite or exceeds 1e15 before it gets here.
    func setForce(_ i: Int, _ f: Point, torque: Double) {
        KineticBodySetForceAndTorque(bodies[i], vect(f), torque)
    }
    /// `setForce` for bodies 0..<forces.count, in one pass over the bodies.
    func setForces(_ forces: UnsafeBufferPointer<Point>, torques: UnsafeBufferPointer<Double>) {
        bodies.withUnsafeBufferPointer { bodies in
            for i in 0..<min(forces.count, torques.count, bodies.count) {
                KineticBodySetForceAndTorque(bodies[i], vect(forces[i]), torques[i])
            }
        }
    }
    /// The first body whose position, velocity, angle or angular velocity is not sane
    /// (`DynamicAnimator.isSane`), each body's state read once; nil when all are.
    func firstInsaneBody() -> Int? {
        bodies.withUnsafeBufferPointer { bodies in
            for i in bodies.indices {
                let s = KineticBodyGetState(bodies[i])
                guard DynamicAnimator.isSane(s.position.x), DynamicAnimator.isSane(s.position.y),
                      DynamicAnimator.isSane(s.velocity.x), DynamicAnimator.isSane(s.velocity.y),
                      DynamicAnimator.isSane(s.angle), DynamicAnimator.isSane(s.angularVelocity) else { return i }
            }
            return nil
        }
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
            cpShapeSetFilter(s, Self.collidesWithNothing)
            cpSpaceAddShape(space, s)
        }
        nextHandle += 1
        boundaries[nextHandle] = shapes
        boundaryTags[nextHandle] = tag
        return nextHandle
    }

    func removeBoundary(_ handle: Int) {
        boundaryTags[handle] = nil
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

    // MARK: Fields

    /// The fields' acceleration on item `i` at a position and velocity, asked for inside
    /// each step's velocity integration — after Chipmunk has moved the positions, as its
    /// springs see them — so that a field is integrated like every other force, semi-
    /// implicitly (x₁ = x₀ + h·v₀, v₁ = v₀ + h·a(x₁)); a force set before the step would
    /// be read at x₀, an explicit Euler step that gains energy every period. Nil: none.
    var fieldAcceleration: ((_ item: Int, _ position: Point, _ velocity: Point) -> FieldAcceleration)? {
        didSet {
            guard (oldValue == nil) != (fieldAcceleration == nil) else { return }
            for body in bodies {
                cpBodySetVelocityUpdateFunc(body, fieldAcceleration == nil ? cpBodyUpdateVelocity : Self.velocityWithFields)
            }
        }
    }

    /// The first item whose velocity with the fields was not sane during the last step
    /// (its field was left out, so Chipmunk never sees the value); nil when none.
    private(set) var refusedFieldVelocity: Int?

    private static let velocityWithFields: cpBodyVelocityFunc = { body, gravity, damping, dt in
        guard let body, let space = cpBodyGetSpace(body), let data = cpSpaceGetUserData(space) else { return }
        Unmanaged<ChipmunkSpace>.fromOpaque(data)._withUnsafeGuaranteedRef {
            $0.updateVelocity(body, gravity: gravity, damping: damping, dt: dt)
        }
    }

    /// Chipmunk's own velocity update (forces, gravity, damping; it clears the forces),
    /// with the fields' acceleration added to the linear velocity.
    private func updateVelocity(_ body: OpaquePointer, gravity: cpVect, damping: Double, dt: Double) {
        let i = Int(bitPattern: cpBodyGetUserData(body))
        guard cpBodyGetType(body) == CP_BODY_TYPE_DYNAMIC, let fieldAcceleration, bodies.indices.contains(i) else {
            cpBodyUpdateVelocity(body, gravity, damping, dt)
            return
        }
        let v0 = point(cpBodyGetVelocity(body))
        let other = point(gravity) + point(cpBodyGetForce(body)) * (1 / cpBodyGetMass(body))
        let v1 = fieldAcceleration(i, point(cpBodyGetPosition(body)), v0).integrate(v0 * damping, plus: other, over: dt)
        cpBodyUpdateVelocity(body, gravity, damping, dt)
        guard DynamicAnimator.isSane(v1.x), DynamicAnimator.isSane(v1.y) else {
            if refusedFieldVelocity == nil { refusedFieldVelocity = i }
            return
        }
        cpBodySetVelocity(body, vect(v1))
    }

    // MARK: Stepping

    func step(_ dt: Double) {
        refusedFieldVelocity = nil
        cpSpaceStep(space, dt)
    }
}
