// UIKit Dynamics on Chipmunk2D: UIDynamicAnimator's model, stepped at a fixed rate.
import Foundation
import KineticGeometry

/// A collision reported by the animator (UICollisionBehaviorDelegate).
public struct ContactEvent: Hashable, Sendable {
    public enum Phase: Hashable, Sendable { case began, ended }

    /// What `item` touched.
    public enum Other: Hashable, Sendable {
        case item(String)
        /// A boundary by identifier (`CollisionBehavior.referenceBoundsIdentifier` for the
        /// reference bounds).
        case boundary(String)
    }

    public var phase: Phase
    /// Simulation time at the end of the step in which the contact began or ended.
    public var time: Double
    public var item: String
    public var other: Other
    /// The collision behavior the boundary belongs to (nil for item–item contacts).
    public var behavior: String?

    public init(phase: Phase, time: Double, item: String, other: Other, behavior: String? = nil) {
        self.phase = phase
        self.time = time
        self.item = item
        self.other = other
        self.behavior = behavior
    }
}

/// UIDynamicAnimator: items and behaviors simulated in fixed steps of
/// 1 / `stepsPerSecond` seconds, so results depend only on the inputs — not on the frame
/// rate the caller samples at, nor on how often it calls `step(to:)`.
///
/// Behaviors are live in `[begin, end)`; at each step the animator first brings
/// behaviors live or retires them, then applies forces, then steps Chipmunk.
public final class DynamicAnimator {
    public let referenceBounds: Rect
    public let stepsPerSecond: Int
    public let items: [DynamicItem]
    /// Seeds the noise and turbulence fields.
    public let seed: UInt64

    /// The simulated time: the number of steps taken / `stepsPerSecond`.
    public var time: Double { Double(stepIndex) / Double(stepsPerSecond) }

    /// The behaviors, in the order added (later item behaviors win).
    public var behaviors: [DynamicBehavior] { entries.map(\.behavior) }

    private var stepIndex = 0
    private let space: ChipmunkSpace
    private let itemIndex: [String: Int]
    private let bodies: [ItemBody]
    private var entries: [Entry] = []
    private var materials: [ItemMaterial]
    private var materialsDirty = true
    /// Owner of each boundary tag: (behavior id, identifier).
    private var boundaryOwners: [(behavior: String, identifier: String)] = []
    /// Live collision behaviors: id, mode and item indices.
    private var collisionGroups: [(id: String, mode: CollisionMode, items: Set<Int>)] = []
    /// Contacts begun and not ended, counted per item pair or item–boundary pair, so a
    /// boundary made of many segments reports one contact.
    private var touching: [ContactKey: Int] = [:]
    private var pendingEvents: [ContactEvent] = []
    /// An item whose velocity would have become non-finite (or absurd): reported by the
    /// current step instead of being handed to Chipmunk.
    private var blownUpItem: Int?
    /// A problem found while making joints, thrown by the current step.
    private var pendingError: DynamicsError?

    private struct Entry {
        var behavior: DynamicBehavior
        var isLive = false
        var joints: Int?
        var boundaries: [Int] = []
        /// The boundary outlines in the space, for the debug overlay (closed ones repeat their start).
        var outlines: [[Point]] = []
        /// An attachment's length when none was given: the distance when it first went live.
        var resolvedLength: Double?
        /// An instantaneous push waiting to fire at the next step.
        var armed = false
        /// For attachments: which ends could move and turn when the joints were made.
        var jointEnds: JointEnds?
    }

    /// Whether each end of an attachment moves and turns; Chipmunk's solver divides by
    /// the ends' summed inverse masses, so a joint between two immovable ends must not exist.
    private struct JointEnds: Equatable {
        var moves: Bool
        var turns: Bool
    }

    private enum ContactKey: Hashable {
        case items(Int, Int)
        case boundary(Int, behavior: String, identifier: String)
    }

    /// The per-item properties item behaviors set (UIKit's defaults otherwise).
    private struct ItemMaterial: Equatable {
        var elasticity = 0.0, friction = 0.0, density = 1.0
        var resistance = 0.0, angularResistance = 0.0
        var allowsRotation = true, anchored = false, charge = 0.0
    }

    /// Creates the animator (UIDynamicAnimator(referenceView:) plus its behaviors).
    ///
    /// - Throws: `DynamicsError` for an invalid value, a duplicate behavior id or an
    ///   unknown item; nothing invalid ever reaches Chipmunk.
    public init(referenceBounds: Rect, stepsPerSecond: Int = 240, items: [DynamicItem],
                behaviors: [DynamicBehavior] = [], seed: UInt64 = 1) throws(DynamicsError) {
        guard stepsPerSecond > 0, stepsPerSecond <= 100_000 else {
            throw .invalidValue(path: "stepsPerSecond", reason: "must be 1…100000, got \(stepsPerSecond)")
        }
        try Self.check([referenceBounds.origin.x, referenceBounds.origin.y,
                        referenceBounds.size.width, referenceBounds.size.height], "referenceBounds")
        var index: [String: Int] = [:]
        var bodies: [ItemBody] = []
        for item in items {
            guard index[item.id] == nil else {
                throw .invalidValue(path: "item \(item.id)", reason: "listed twice")
            }
            try Self.check([item.center.x, item.center.y, item.angle], "item \(item.id)")
            index[item.id] = bodies.count
            bodies.append(try ItemBody(item))
        }
        self.referenceBounds = referenceBounds
        self.stepsPerSecond = stepsPerSecond
        self.items = items
        self.seed = seed
        self.itemIndex = index
        self.bodies = bodies
        self.materials = Array(repeating: ItemMaterial(), count: items.count)
        // Iterations: rods and piles stay stiff at 240 Hz with 10 (Chipmunk's default is 10).
        space = ChipmunkSpace(iterations: 10)
        for (i, item) in items.enumerated() {
            let mass = itemMass(density: 1, size: item.size)
            space.addBody(shape: bodies[i].shape, mass: mass, moment: mass * bodies[i].momentPerMass,
                          position: item.center, angle: item.angle)
        }
        space.contactDelegate = self
        for b in behaviors { try addBehavior(b) }
    }

    // MARK: Reading state

    /// An item's current state, or nil for an unknown id.
    public func state(of id: String) -> DynamicItemState? {
        guard let i = itemIndex[id] else { return nil }
        return state(at: i)
    }

    private func state(at i: Int) -> DynamicItemState {
        DynamicItemState(center: space.position(i), angle: space.angle(i),
                         velocity: space.velocity(i), angularVelocity: space.angularVelocity(i))
    }

    /// An item's mass in UIKit units (density × width × height / 10000).
    public func mass(of id: String) -> Double? {
        guard let i = itemIndex[id] else { return nil }
        return itemMass(density: materials[i].density, size: items[i].size)
    }

    /// The behavior with this id.
    public func behavior(id: String) -> DynamicBehavior? {
        entries.first { $0.behavior.id == id }?.behavior
    }

    /// The contacts that began or ended since the last call, in simulation order.
    public func takeContactEvents() -> [ContactEvent] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    // MARK: Changing behaviors

    /// Adds a behavior; it becomes live at the next step whose time is in `[begin, end)`.
    public func addBehavior(_ behavior: DynamicBehavior) throws(DynamicsError) {
        guard !entries.contains(where: { $0.behavior.id == behavior.id }) else {
            throw .duplicateBehavior(behavior.id)
        }
        try validate(behavior)
        entries.append(Entry(behavior: behavior))
    }

    /// Removes a behavior at once (UIDynamicAnimator.removeBehavior); its joints and
    /// boundaries leave the space before the next step.
    public func removeBehavior(id: String) throws(DynamicsError) {
        guard let k = entries.firstIndex(where: { $0.behavior.id == id }) else { throw .unknownBehavior(id) }
        setLive(k, false)
        entries.remove(at: k)
    }

    /// Removes every behavior (UIDynamicAnimator.removeAllBehaviors).
    public func removeAllBehaviors() {
        for k in entries.indices { setLive(k, false) }
        entries.removeAll()
    }

    /// Takes an item out of every behavior (a view removed from its superview); behaviors
    /// left with no item, and attachments or snaps of the item, are removed.
    public func removeItem(_ id: String) throws(DynamicsError) {
        for behavior in behaviors where behavior.itemIDs.contains(id) {
            if let reduced = behavior.removingItem(id) {
                try updateBehavior(id: behavior.id) { $0 = reduced }
            } else {
                try removeBehavior(id: behavior.id)
            }
        }
    }

    /// Changes a behavior's properties (an animated anchor point, a tilted gravity, a
    /// push made active again…). The change takes effect at the next step; an
    /// instantaneous push whose `active` turns true fires again.
    public func updateBehavior(id: String, _ change: (inout DynamicBehavior) -> Void) throws(DynamicsError) {
        guard let k = entries.firstIndex(where: { $0.behavior.id == id }) else { throw .unknownBehavior(id) }
        var updated = entries[k].behavior
        change(&updated)
        guard updated != entries[k].behavior else { return }
        updated.id = id
        try validate(updated)
        let wasLive = entries[k].isLive
        let old = entries[k].behavior
        // Only the anchor moved: keep the joints; the anchor body travels there next step.
        var anchorOnly = false
        if case .attachment(var before) = old.kind, case .attachment(let after) = updated.kind,
           before.anchorPoint != nil, old.begin == updated.begin, old.end == updated.end {
            before.anchorPoint = after.anchorPoint
            anchorOnly = before == after
        }
        if wasLive && !anchorOnly { detachResources(k) }
        entries[k].behavior = updated
        if wasLive && !anchorOnly {
            attachResources(k)
            if case .push(let before) = old.kind, case .push(let after) = updated.kind,
               after.mode == .instantaneous, after.active, !before.active {
                entries[k].armed = true
            }
        }
        materialsDirty = true
    }

    // MARK: Stepping

    /// Advances in fixed steps to the last step boundary at or before `time` (a time
    /// before the current one does nothing: the simulation does not run backwards).
    ///
    /// - Throws: `DynamicsError.nonFiniteState` when an item's state stops being finite
    ///   (or exceeds 1e12); the animator must not be stepped again after that.
    public func step(to time: Double) throws(DynamicsError) {
        let steps = (time * Double(stepsPerSecond) + 1e-7).rounded(.down)
        // A step count past 1e12 would take days: a time no scene's limits let through.
        guard steps.isFinite, steps < 1e12 else { throw .invalidValue(path: "time", reason: "must be finite and under 1e12 steps") }
        let target = Int(steps)
        while stepIndex < target { try stepOnce() }
        // Behaviors due now are live in what the caller reads (joints, added velocities).
        refreshLiveness()
        if let pendingError { throw pendingError }
    }

    /// Brings behaviors live or retires them for the current time, with their materials and joints.
    private func refreshLiveness() {
        let t = time
        for k in entries.indices {
            let b = entries[k].behavior
            setLive(k, Instant.reached(t, b.begin) && !Instant.reached(t, b.end))
        }
        if materialsDirty { applyMaterials() }
        syncJoints()
    }

    private func stepOnce() throws(DynamicsError) {
        let h = 1 / Double(stepsPerSecond)
        let t = time
        refreshLiveness()
        firePushes()
        try applyForces(h: h, time: t)
        updateSprings()
        moveAnchors(h: h)
        if let pendingError { throw pendingError }
        if let i = blownUpItem ?? items.indices.first(where: { !isSane($0) }) {
            throw .nonFiniteState(time: t, item: items[i].id)
        }
        space.step(h)
        stepIndex += 1
        for i in items.indices where !isSane(i) { throw .nonFiniteState(time: time, item: items[i].id) }
    }

    /// Finite and below 1e12 everywhere: Chipmunk's debug build aborts on NaN, so a
    /// blow-up is caught here, before Chipmunk's next step sees it.
    private func isSane(_ i: Int) -> Bool {
        let p = space.position(i), v = space.velocity(i)
        return Self.isSane(p.x) && Self.isSane(p.y) && Self.isSane(v.x) && Self.isSane(v.y)
            && Self.isSane(space.angle(i)) && Self.isSane(space.angularVelocity(i))
    }

    private static func isSane(_ x: Double) -> Bool { x.isFinite && abs(x) < 1e12 }

    /// Sets a body's velocities unless they are not sane, which marks a blow-up instead.
    private func setVelocity(_ i: Int, _ v: Point, _ w: Double) {
        guard Self.isSane(v.x), Self.isSane(v.y), Self.isSane(w) else {
            if blownUpItem == nil { blownUpItem = i }
            return
        }
        space.setVelocity(i, v)
        space.setAngularVelocity(i, w)
    }

    // MARK: Liveness

    private func setLive(_ k: Int, _ live: Bool) {
        guard entries[k].isLive != live else { return }
        entries[k].isLive = live
        materialsDirty = true
        if live {
            attachResources(k)
            switch entries[k].behavior.kind {
            case .push(let push) where push.mode == .instantaneous && push.active:
                entries[k].armed = true
            case .itemBehavior(let ib):
                for id in ib.items {
                    guard let i = itemIndex[id] else { continue }
                    setVelocity(i, space.velocity(i) + ib.linearVelocity, space.angularVelocity(i) + ib.angularVelocity)
                }
            default: break
            }
        } else {
            detachResources(k)
            entries[k].armed = false
        }
    }

    /// Puts a live behavior's joints or boundaries into the space.
    private func attachResources(_ k: Int) {
        switch entries[k].behavior.kind {
        case .attachment: break   // made by syncJoints, once the item materials are known
        case .collision(let c):
            let polylines: [(String, [Point], Bool)] = c.boundaries.flatMap { boundary -> [(String, [Point], Bool)] in
                switch boundary.shape {
                case .line(let from, let to): return [(boundary.identifier, [from, to], false)]
                case .path(let path):
                    // Fine enough that a ball rolling along the curve keeps its energy: each
                    // joint between chords takes away about sin²(turn) of the kinetic energy.
                    // Relative to the path's size too, so a huge path does not become millions of chords.
                    let extent = max(path.boundingBox.width, path.boundingBox.height)
                    return path.flattened(tolerance: max(CollisionBoundary.flatness, extent * 1e-7)).map { line in
                        var points = line
                        if points.count > 2, points.first == points.last { points.removeLast() }
                        return (boundary.identifier, points, points.count > 2)
                    }
                }
            }
            if c.translatesReferenceBoundsIntoBoundary {
                let r = referenceBounds, e = c.insets
                let box = Rect(r.minX + e.left, r.minY + e.top,
                               r.width - e.left - e.right, r.height - e.top - e.bottom)
                let tag = boundaryOwners.count
                boundaryOwners.append((entries[k].behavior.id, CollisionBehavior.referenceBoundsIdentifier))
                // Insets that close the box to a line (the lock screen's top = height) leave
                // UIKit a line boundary, with the items outside it: deep walls would fill
                // where they are, so such a box collides as its outline.
                if box.width > 1 && box.height > 1 {
                    entries[k].boundaries.append(space.addBoundary(walls: Self.walls(around: box), tag: tag,
                                                                   elasticity: 1, friction: 1))
                } else {
                    entries[k].boundaries.append(space.addBoundary(polyline: box.corners, closed: true, tag: tag,
                                                                   elasticity: 1, friction: 1))
                }
                entries[k].outlines.append(box.corners + [box.corners[0]])
            }
            for (identifier, points, closed) in polylines where points.count >= 2 {
                let tag = boundaryOwners.count
                boundaryOwners.append((entries[k].behavior.id, identifier))
                entries[k].boundaries.append(space.addBoundary(polyline: points, closed: closed, tag: tag,
                                                               elasticity: 1, friction: 1))
                entries[k].outlines.append(closed ? points + [points[0]] : points)
            }
        default: break
        }
        rebuildCollisionGroups()
    }

    /// Four deep walls just outside `box`: a crowd pressing on the reference bounds
    /// cannot squeeze an item through them.
    private static func walls(around box: Rect) -> [[Point]] {
        let d = max(box.width, box.height, 100)
        let (x0, y0, x1, y1) = (box.minX, box.minY, box.maxX, box.maxY)
        func rect(_ a: Double, _ b: Double, _ c: Double, _ e: Double) -> [Point] {
            [Point(a, b), Point(c, b), Point(c, e), Point(a, e)]
        }
        return [rect(x0 - d, y0 - d, x1 + d, y0), rect(x0 - d, y1, x1 + d, y1 + d),
                rect(x0 - d, y0, x0, y1), rect(x1, y0, x1 + d, y1)]
    }

    private func detachResources(_ k: Int) {
        if let handle = entries[k].joints { space.removeJoints(handle) }
        entries[k].joints = nil
        entries[k].jointEnds = nil
        for handle in entries[k].boundaries { space.removeBoundary(handle) }
        entries[k].boundaries = []
        entries[k].outlines = []
        rebuildCollisionGroups()
    }

    private func rebuildCollisionGroups() {
        collisionGroups = entries.compactMap { entry in
            guard entry.isLive, case .collision(let c) = entry.behavior.kind else { return nil }
            return (entry.behavior.id, c.collisionMode, Set(c.items.compactMap { itemIndex[$0] }))
        }
    }

    /// Makes (or remakes) the joints of live attachments whose ends changed between
    /// movable and immovable; leaves out joints no end could satisfy.
    private func syncJoints() {
        for k in entries.indices where entries[k].isLive {
            guard case .attachment(let a) = entries[k].behavior.kind, let i = itemIndex[a.item] else { continue }
            var ends = JointEnds(moves: !materials[i].anchored, turns: !materials[i].anchored && materials[i].allowsRotation)
            if case .item(let other, _) = a.attachedTo, let j = itemIndex[other] {
                ends.moves = ends.moves || !materials[j].anchored
                ends.turns = ends.turns || (!materials[j].anchored && materials[j].allowsRotation)
            }
            guard entries[k].jointEnds != ends else { continue }
            if let handle = entries[k].joints { space.removeJoints(handle) }
            entries[k].joints = nil
            entries[k].jointEnds = ends
            if ends.moves { attachJoints(k, a, turns: ends.turns) }
        }
    }

    /// Chipmunk's point joints (pivot, groove) invert a 2×2 mass tensor whose determinant
    /// cancels away when an attach point lies very far from a small item (lever arm ≫ the
    /// item's radius of gyration), and it aborts on a zero determinant. The ratio
    /// Σ(r²/I)/Σ(1/m) measures that; beyond 1e8 the joint is refused.
    private func pointJointIsSolvable(_ a: AttachmentBehavior) -> Bool {
        var inverseMass = 0.0, leverage = 0.0
        func add(_ i: Int, _ offset: Point) {
            guard !materials[i].anchored else { return }
            inverseMass += 1 / itemMass(density: materials[i].density, size: items[i].size)
            let moment = space.moment(i)
            if moment.isFinite && moment > 0 { leverage += offset.dot(offset) / moment }
        }
        if let i = itemIndex[a.item] { add(i, a.offsetFromCenter) }
        if case .item(let other, let offset) = a.attachedTo, let j = itemIndex[other] { add(j, offset) }
        return inverseMass > 0 && leverage / inverseMass <= 1e8
    }

    private func attachJoints(_ k: Int, _ a: AttachmentBehavior, turns: Bool) {
        guard let i = itemIndex[a.item] else { return }
        let endA = ChipmunkEnd.body(i)
        let endB: ChipmunkEnd, anchorB: Point, worldB: Point
        switch a.attachedTo {
        case .anchor(let p):
            endB = .anchor(p); anchorB = .zero; worldB = p
        case .item(let other, let offset):
            guard let j = itemIndex[other] else { return }
            endB = .body(j); anchorB = offset
            worldB = space.position(j) + rotate(offset, by: space.angle(j))
        }

        let worldA = space.position(i) + rotate(a.offsetFromCenter, by: space.angle(i))
        let length = a.length ?? entries[k].resolvedLength ?? worldA.distance(to: worldB)
        entries[k].resolvedLength = length
        let usesPointJoint: Bool
        switch a.kind {
        case .pin, .fixed, .sliding: usesPointJoint = true
        case .distance, .limit: usesPointJoint = length <= 1e-9
        }
        if usesPointJoint && !pointJointIsSolvable(a) {
            if pendingError == nil {
                pendingError = .invalidValue(path: "behavior \(entries[k].behavior.id)",
                                             reason: "an attach point this far from so small an item cannot be solved; attach nearer the item")
            }
            return
        }
        var kinds: [ChipmunkJoint]
        switch a.kind {
        case .distance:
            // Spring constants are set from the effective mass each step (updateSprings).
            // A rod of length 0 is a pivot (Chipmunk's pin joint cannot hold zero length).
            kinds = [a.frequency > 0 ? .spring(restLength: length, stiffness: 0, damping: 0)
                     : length > 1e-9 ? .rod(distance: length) : .pivot]
        case .limit:
            kinds = [length > 1e-9 ? .slide(min: 0, max: length) : .pivot]
        case .pin:
            kinds = [.pivot]
        case .fixed:
            kinds = turns ? [.pivot, .keepAngle] : [.pivot]
        case .sliding(let axis):
            // The groove lies on B (the anchor's world, or the other item) through B's
            // attach point; A's attach point rides it and A keeps its angle to B.
            let u = axis / axis.length
            let range = a.attachmentRange ?? -10_000...10_000
            let g0 = anchorB + u * range.lowerBound, g1 = anchorB + u * range.upperBound   // B's coordinates
            let handle = space.addJoints([.groove(grooveA: g0, grooveB: g1)] + (turns ? [.keepAngle] : []),
                                         endB, anchorB, endA, a.offsetFromCenter)
            entries[k].joints = handle
            return
        }
        if turns, a.frictionTorque > 0, a.kind == .pin || a.kind == .distance || a.kind == .limit {
            kinds.append(.rotaryFriction(maxTorque: a.frictionTorque))
        }
        entries[k].joints = space.addJoints(kinds, endA, a.offsetFromCenter, endB, anchorB)
    }

    // MARK: Per-step physics

    private func applyMaterials() {
        var result = Array(repeating: ItemMaterial(), count: items.count)
        for entry in entries where entry.isLive {
            guard case .itemBehavior(let ib) = entry.behavior.kind else { continue }
            for id in ib.items {
                guard let i = itemIndex[id] else { continue }
                if let v = ib.elasticity { result[i].elasticity = v }
                if let v = ib.friction { result[i].friction = v }
                if let v = ib.density { result[i].density = v }
                if let v = ib.resistance { result[i].resistance = v }
                if let v = ib.angularResistance { result[i].angularResistance = v }
                if let v = ib.allowsRotation { result[i].allowsRotation = v }
                if let v = ib.anchored { result[i].anchored = v }
                if let v = ib.charge { result[i].charge = v }
            }
        }
        for i in items.indices where result[i] != materials[i] {
            let m = result[i]
            let mass = itemMass(density: m.density, size: items[i].size)
            space.setMassProperties(i, mass: mass, moment: m.allowsRotation ? mass * bodies[i].momentPerMass : .infinity,
                                    anchored: m.anchored)
            space.setMaterial(i, elasticity: m.elasticity, friction: m.friction)
        }
        materials = result
        materialsDirty = false
    }

    private func firePushes() {
        for k in entries.indices where entries[k].armed {
            entries[k].armed = false
            guard case .push(var push) = entries[k].behavior.kind else { continue }
            let impulse = push.pushDirection * PushBehavior.forcePerMagnitude
            for id in push.items {
                guard let i = itemIndex[id], !materials[i].anchored else { continue }
                let mass = itemMass(density: materials[i].density, size: items[i].size)
                let moment = space.moment(i)
                let spin = moment.isFinite ? cross(push.targetOffsetFromCenter, impulse) / moment : 0
                setVelocity(i, space.velocity(i) + impulse / mass, space.angularVelocity(i) + spin)
            }
            // UIKit turns an instantaneous push inactive once it has fired.
            push.active = false
            entries[k].behavior.kind = .push(push)
        }
    }

    private func applyForces(h: Double, time t: Double) throws(DynamicsError) {
        let n = items.count
        var force = Array(repeating: Point.zero, count: n)
        var torque = Array(repeating: 0.0, count: n)
        var snaps: [(Int, SnapBehavior)] = []
        for entry in entries where entry.isLive {
            switch entry.behavior.kind {
            case .gravity(let g):
                for id in g.items {
                    guard let i = itemIndex[id] else { continue }
                    let mass = itemMass(density: materials[i].density, size: items[i].size)
                    force[i] = force[i] + g.gravityDirection * (GravityBehavior.accelerationPerMagnitude * mass)
                }
            case .push(let p) where p.mode == .continuous && p.active:
                let f = p.pushDirection * PushBehavior.forcePerMagnitude
                for id in p.items {
                    guard let i = itemIndex[id] else { continue }
                    force[i] = force[i] + f
                    torque[i] += cross(p.targetOffsetFromCenter, f)
                }
            case .field(let field):
                for id in field.items {
                    guard let i = itemIndex[id] else { continue }
                    let mass = itemMass(density: materials[i].density, size: items[i].size)
                    force[i] = force[i] + field.force(center: space.position(i), velocity: space.velocity(i),
                                                      mass: mass, charge: materials[i].charge, time: t, seed: seed)
                }
            case .snap(let s):
                if let i = itemIndex[s.item] { snaps.append((i, s)) }
            default: break
            }
        }
        for i in 0..<n where !materials[i].anchored && (materials[i].resistance > 0 || materials[i].angularResistance > 0) {
            var v = space.velocity(i), w = space.angularVelocity(i)
            // Box2D's damping law, applied before the forces integrate.
            v = v / (1 + h * materials[i].resistance)
            w = w / (1 + h * materials[i].angularResistance)
            setVelocity(i, v, w)
        }
        // UIKit keeps one snap per item: the last live one wins.
        var snapOf: [Int: SnapBehavior] = [:]
        for (i, s) in snaps { snapOf[i] = s }
        for (i, s) in snapOf.sorted(by: { $0.key < $1.key }) where !materials[i].anchored { snap(i, s, h: h) }
        for i in 0..<n {
            guard force[i].isFinite, torque[i].isFinite, abs(force[i].x) < 1e15, abs(force[i].y) < 1e15 else {
                throw .nonFiniteState(time: t, item: items[i].id)
            }
            space.setForce(i, materials[i].anchored ? .zero : force[i], torque: materials[i].anchored ? 0 : torque[i])
        }
    }

    /// UISnapBehavior as UIKit builds it: four soft distance joints of `springLength`
    /// between the item and a fixed copy of it at the snap point — from its top-left
    /// corner to points `springLength` left of and above the copy's, from its
    /// bottom-right corner to points as far right of and below the copy's — each of
    /// `frequency` Hz and damping ratio `damping` (Box2D's soft joint: stiffness m·ω²,
    /// damping 2·m·ζ·ω with m the effective mass along the joint, solved implicitly on
    /// velocities). At rest every joint has its length and the angle is 0; on the way the
    /// joints pull unevenly and the item tilts, then wobbles back.
    private func snap(_ i: Int, _ s: SnapBehavior, h: Double) {
        let mass = itemMass(density: materials[i].density, size: items[i].size)
        let moment = space.moment(i)
        let inverseMoment = materials[i].allowsRotation && moment.isFinite && moment > 0 ? 1 / moment : 0
        let omega = 2 * Double.pi * SnapBehavior.frequency, zeta = s.damping, length = SnapBehavior.springLength
        let half = Point(items[i].size.width / 2, items[i].size.height / 2)
        let joints = [(Point(-half.x, -half.y), Point(-half.x - length, -half.y)),
                      (Point(-half.x, -half.y), Point(-half.x, -half.y - length)),
                      (half, Point(half.x + length, half.y)),
                      (half, Point(half.x, half.y + length))]
        let center = space.position(i), angle = space.angle(i)
        var v = space.velocity(i), w = space.angularVelocity(i)
        var accumulated = [Double](repeating: 0, count: joints.count)
        // Box2D's velocity iterations, with the impulses accumulated across them.
        for _ in 0..<Self.snapIterations {
            for (k, (onItem, onAnchor)) in joints.enumerated() {
                let r = rotate(onItem, by: angle)
                let delta = s.snapPoint + onAnchor - (center + r)
                let distance = delta.length
                guard distance > 1e-9 else { continue }
                let u = delta / distance
                let rn = cross(r, u)
                let inverseMass = 1 / mass + rn * rn * inverseMoment
                let effective = 1 / inverseMass
                let stiffness = effective * omega * omega, damping = 2 * effective * zeta * omega
                let softness = h * (damping + h * stiffness)
                let gamma = softness > 0 ? 1 / softness : 0
                let bias = (distance - length) * h * stiffness * gamma
                let pointVelocity = v + Point(-w * r.y, w * r.x)
                let impulse = -(-u.dot(pointVelocity) + bias + gamma * accumulated[k]) / (inverseMass + gamma)
                accumulated[k] += impulse
                v = v - u * (impulse / mass)
                w -= rn * impulse * inverseMoment
            }
        }
        setVelocity(i, v, w)
    }

    /// Velocity iterations of the snap's joints (Box2D's default is 8).
    private static let snapIterations = 8

    /// Spring attachments: stiffness k = m·ω² and damping c = 2·m·ζ·ω with m the
    /// effective mass along the spring's axis (Box2D's soft distance joint), so the
    /// frequency in Hz and damping ratio hold whatever the items weigh.
    private func updateSprings() {
        for entry in entries where entry.isLive {
            guard case .attachment(let a) = entry.behavior.kind, a.kind == .distance, a.frequency > 0,
                  let handle = entry.joints, let i = itemIndex[a.item] else { continue }
            let rA = rotate(a.offsetFromCenter, by: space.angle(i))
            let pA = space.position(i) + rA
            var pB: Point, inverseMass = effectiveInverseMass(i, arm: rA, axis: .zero)
            switch a.attachedTo {
            case .anchor(let p): pB = p
            case .item(let other, let offset):
                guard let j = itemIndex[other] else { continue }
                let rB = rotate(offset, by: space.angle(j))
                pB = space.position(j) + rB
                let delta = pB - pA
                let u = delta.length > 0 ? delta / delta.length : Point(1, 0)
                inverseMass = effectiveInverseMass(i, arm: rA, axis: u) + effectiveInverseMass(j, arm: rB, axis: u)
            }
            if case .anchor = a.attachedTo {
                let delta = pB - pA
                let u = delta.length > 0 ? delta / delta.length : Point(1, 0)
                inverseMass = effectiveInverseMass(i, arm: rA, axis: u)
            }
            guard inverseMass > 0 else { continue }
            let mass = 1 / inverseMass, omega = 2 * Double.pi * a.frequency
            space.setSpring(handle, stiffness: mass * omega * omega, damping: 2 * mass * a.damping * omega)
        }
    }

    private func moveAnchors(h: Double) {
        for entry in entries where entry.isLive {
            guard case .attachment(let a) = entry.behavior.kind, let p = a.anchorPoint, let handle = entry.joints else { continue }
            space.moveAnchor(handle, to: p, within: h)
        }
    }

    private func effectiveInverseMass(_ i: Int, arm: Point, axis: Point) -> Double {
        guard !materials[i].anchored else { return 0 }
        let rn = cross(arm, axis)
        let moment = space.moment(i)
        return 1 / itemMass(density: materials[i].density, size: items[i].size)
            + (moment.isFinite && moment > 0 ? rn * rn / moment : 0)
    }

    // MARK: Debug overlay

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
                guard let i = itemIndex[a.item] else { continue }
                let pA = space.position(i) + rotate(a.offsetFromCenter, by: space.angle(i))
                let pB: Point
                switch a.attachedTo {
                case .anchor(let p): pB = p; g.anchors.append(p)
                case .item(let other, let offset):
                    guard let j = itemIndex[other] else { continue }
                    pB = space.position(j) + rotate(offset, by: space.angle(j))
                }
                g.joints.append((pA, pB))
            case .snap(let s):
                g.anchors.append(s.snapPoint)
                if let i = itemIndex[s.item] { g.joints.append((space.position(i), s.snapPoint)) }
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

    // MARK: Validation

    /// The largest coordinate or vector component accepted: far beyond any canvas, still
    /// well inside the range where Chipmunk's sums keep their precision.
    public static let largestValue = 1e7

    /// `v` as messages print it: whole numbers without a fraction.
    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }

    private static func check(_ values: [Double], _ path: String) throws(DynamicsError) {
        guard values.allSatisfy({ $0.isFinite && abs($0) <= largestValue }) else {
            throw .invalidValue(path: path, reason: "must be finite and within ±\(Int(largestValue))")
        }
    }

    private func validate(_ behavior: DynamicBehavior) throws(DynamicsError) {
        let path = "behavior \(behavior.id)"
        guard !behavior.begin.isNaN, !behavior.end.isNaN, behavior.begin <= behavior.end,
              behavior.begin < .infinity else {
            throw .invalidValue(path: path, reason: "begin must be finite and ≤ end")
        }
        for id in behavior.itemIDs where itemIndex[id] == nil { throw .unknownItem(behavior: behavior.id, item: id) }
        do { try Self.checkValues(of: behavior.kind) } catch {
            guard case .invalidValue(let key, let reason) = error else { throw error }
            throw .invalidValue(path: "\(path).\(key)", reason: reason)
        }
    }

    /// The largest attachment `frequency` (Hz) and `damping` ratio accepted: far past any
    /// spring a scene animates, small enough that a spring too stiff for the step rate
    /// blows up through finite values (caught as a blow-up, exit 70), never into the NaN
    /// Chipmunk aborts on.
    public static let largestSpringValue = 1e4

    /// Checks a behavior's values as the animator will see them; the scene loader calls
    /// it too, so `validate` refuses what a render would. The error's path is the key
    /// (`frequency`, `boundaries.wall`, `region.radius`), without the behavior.
    public static func checkValues(of kind: DynamicBehavior.Kind) throws(DynamicsError) {
        func finite(_ key: String, _ values: Double...) throws(DynamicsError) {
            try Self.check(values, key)
        }
        func range(_ key: String, _ v: Double?, _ lo: Double, _ hi: Double = .infinity, open: Bool = false) throws(DynamicsError) {
            guard let v else { return }
            guard v.isFinite, open ? v > lo : v >= lo, v <= hi else {
                throw .invalidValue(path: key,
                                    reason: "must be \(open ? ">" : "≥") \(Self.format(lo))\(hi.isFinite ? " and ≤ \(Self.format(hi))" : ""), got \(Self.format(v))")
            }
        }
        switch kind {
        case .gravity(let g): try finite("gravityDirection", g.gravityDirection.x, g.gravityDirection.y)
        case .collision(let c):
            let e = c.insets
            try finite("insets", e.top, e.left, e.bottom, e.right)
            for b in c.boundaries {
                switch b.shape {
                case .line(let from, let to): try finite("boundaries.\(b.identifier)", from.x, from.y, to.x, to.y)
                case .path(let p):
                    try Self.check(p.elements.flatMap(\.points).flatMap { [$0.x, $0.y] }, "boundaries.\(b.identifier)")
                }
            }
        case .push(let p):
            try finite("pushDirection", p.pushDirection.x, p.pushDirection.y)
            try finite("targetOffsetFromCenter", p.targetOffsetFromCenter.x, p.targetOffsetFromCenter.y)
        case .attachment(let a):
            try finite("offsetFromCenter", a.offsetFromCenter.x, a.offsetFromCenter.y)
            switch a.attachedTo {
            case .anchor(let p): try finite("anchorPoint", p.x, p.y)
            case .item(let other, let o):
                try finite("attachedOffsetFromCenter", o.x, o.y)
                guard other != a.item else {
                    throw .invalidValue(path: "attachedTo", reason: "an item cannot be attached to itself")
                }
            }
            try range("length", a.length, 0)
            try range("frequency", a.frequency, 0, largestSpringValue)
            try range("damping", a.damping, 0, largestSpringValue)
            try range("frictionTorque", a.frictionTorque, 0)
            if let r = a.attachmentRange { try finite("attachmentRange", r.lowerBound, r.upperBound) }
            if case .sliding(let axis) = a.kind {
                try finite("axisOfTranslation", axis.x, axis.y)
                guard axis.length > 0 else {
                    throw .invalidValue(path: "axisOfTranslation", reason: "must not be the zero vector")
                }
            }
        case .snap(let s):
            try finite("snapPoint", s.snapPoint.x, s.snapPoint.y)
            try range("damping", s.damping, 0, 1)
        case .itemBehavior(let ib):
            try range("elasticity", ib.elasticity, 0)
            try range("friction", ib.friction, 0)
            try range("density", ib.density, 0, 1e6, open: true)
            try range("resistance", ib.resistance, 0)
            try range("angularResistance", ib.angularResistance, 0)
            try finite("charge", ib.charge ?? 0)
            try finite("linearVelocity", ib.linearVelocity.x, ib.linearVelocity.y)
            try finite("angularVelocity", ib.angularVelocity)
        case .field(let f):
            try finite("position", f.position.x, f.position.y)
            try finite("strength", f.strength)
            try finite("direction", f.direction.x, f.direction.y)
            try range("falloff", f.falloff, 0)
            try range("minimumRadius", f.minimumRadius, 0)
            try range("smoothness", f.smoothness, 0, 1)
            try finite("animationSpeed", f.animationSpeed)
            switch f.region {
            case .infinite: break
            case .radius(let r): try range("region.radius", r, 0)
            case .rect(let r): try finite("region.rect", r.origin.x, r.origin.y, r.size.width, r.size.height)
            }
        }
    }
}

extension DynamicAnimator: ChipmunkContactDelegate {
    func shouldCollide(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) -> Bool {
        switch (a, b) {
        case (.item(let i), .item(let j)):
            return collisionGroups.contains { $0.mode.contains(.items) && $0.items.contains(i) && $0.items.contains(j) }
        case (.item(let i), .boundary(let tag)), (.boundary(let tag), .item(let i)):
            let owner = boundaryOwners[tag].behavior
            return collisionGroups.contains { $0.id == owner && $0.mode.contains(.boundaries) && $0.items.contains(i) }
        case (.boundary, .boundary):
            return false
        }
    }

    private func contactKey(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) -> (ContactKey, ContactEvent)? {
        let t = Double(stepIndex + 1) / Double(stepsPerSecond)
        switch (a, b) {
        case (.item(let i), .item(let j)):
            return (.items(min(i, j), max(i, j)),
                    ContactEvent(phase: .began, time: t, item: items[i].id, other: .item(items[j].id)))
        case (.item(let i), .boundary(let tag)), (.boundary(let tag), .item(let i)):
            let owner = boundaryOwners[tag]
            return (.boundary(i, behavior: owner.behavior, identifier: owner.identifier),
                    ContactEvent(phase: .began, time: t, item: items[i].id, other: .boundary(owner.identifier),
                                 behavior: owner.behavior))
        case (.boundary, .boundary):
            return nil
        }
    }

    func contactBegan(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) {
        guard let (key, event) = contactKey(a, b) else { return }
        touching[key, default: 0] += 1
        if touching[key] == 1 { pendingEvents.append(event) }
    }

    func contactEnded(_ a: ChipmunkShapeTag, _ b: ChipmunkShapeTag) {
        guard let (key, began) = contactKey(a, b), let count = touching[key] else { return }
        if count <= 1 {
            touching[key] = nil
            var event = began
            event.phase = .ended
            pendingEvents.append(event)
        } else {
            touching[key] = count - 1
        }
    }
}
