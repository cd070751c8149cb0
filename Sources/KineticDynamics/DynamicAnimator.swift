// UIKit Dynamics on Chipmunk2D: UIDynamicAnimator's model, stepped at a fixed rate.
//
// The animator is split by concern, one file each: this one holds its state, the
// behaviors' life cycle and the step loop; +Collisions the boundaries, which shapes
// collide and the contact events; +Joints attachments; +Forces materials, forces,
// pushes and snaps; DebugGeometry the debug overlay. Behaviors name items by id; the
// animator resolves them to item indices once, when a behavior is added or changed,
// so nothing in the step loop looks up a string.
import Foundation
import KineticGeometry

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

    var stepIndex = 0
    let space: ChipmunkSpace
    let itemIndex: [String: Int]
    let bodies: [ItemBody]
    var entries: [Entry] = []
    var materials: [ItemMaterial]
    var materialsDirty = true
    /// Each item's mass under its current material (`itemMass`), kept with `materials`.
    var masses: [Double]
    /// Whether any movable item has linear or angular resistance (else `applyForces`
    /// skips its damping pass).
    var resistsAny = false
    /// Owner of each boundary tag: (behavior id, identifier).
    var boundaryOwners: [(behavior: String, identifier: String)] = []
    /// Whether contacts are reported (`takeContactEvents`).
    let reportsContacts: Bool
    /// Contacts begun and not ended, counted per item pair or item–boundary pair, so a
    /// boundary made of many segments reports one contact.
    var touching: [ContactKey: Int] = [:]
    var pendingEvents: [ContactEvent] = []
    /// An item whose velocity would have become non-finite (or absurd): reported by the
    /// current step instead of being handed to Chipmunk.
    var blownUpItem: Int?
    /// A problem found while making joints, thrown by the current step.
    var pendingError: DynamicsError?
    /// Per-step scratch: each item's force and torque.
    var force: [Point]
    var torque: [Double]

    /// A behavior in the animator, with its items resolved to indices.
    struct Entry {
        var behavior: DynamicBehavior
        /// `behavior.itemIDs` as item indices (an attachment's item, then its other item).
        var items: [Int]
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
    struct JointEnds: Equatable {
        var moves: Bool
        var turns: Bool
    }

    enum ContactKey: Hashable {
        case items(Int, Int)
        case boundary(Int, behavior: String, identifier: String)
    }

    /// The per-item properties item behaviors set (UIKit's defaults otherwise).
    struct ItemMaterial: Equatable {
        var elasticity = 0.0, friction = 0.0, density = 1.0
        var resistance = 0.0, angularResistance = 0.0
        var allowsRotation = true, anchored = false, charge = 0.0
    }

    /// Creates the animator (UIDynamicAnimator(referenceView:) plus its behaviors).
    /// `reportsContacts: false` (nobody listens to contact events) lets Chipmunk run
    /// without collision callbacks.
    ///
    /// - Throws: `DynamicsError` for an invalid value, a duplicate behavior id or an
    ///   unknown item; nothing invalid ever reaches Chipmunk.
    public init(referenceBounds: Rect, stepsPerSecond: Int = 240, items: [DynamicItem],
                behaviors: [DynamicBehavior] = [], seed: UInt64 = 1, reportsContacts: Bool = true) throws(DynamicsError) {
        guard stepsPerSecond > 0, stepsPerSecond <= 100_000 else {
            throw .invalidValue(path: "stepsPerSecond", reason: "must be 1…100000, got \(stepsPerSecond)")
        }
        try DynamicsLimits.checkFinite([referenceBounds.origin.x, referenceBounds.origin.y,
                                        referenceBounds.size.width, referenceBounds.size.height], "referenceBounds")
        var index: [String: Int] = [:]
        var bodies: [ItemBody] = []
        for item in items {
            guard index[item.id] == nil else {
                throw .invalidValue(path: "item \(item.id)", reason: "listed twice")
            }
            try DynamicsLimits.checkFinite([item.center.x, item.center.y, item.angle], "item \(item.id)")
            index[item.id] = bodies.count
            bodies.append(try ItemBody(item))
        }
        self.referenceBounds = referenceBounds
        self.stepsPerSecond = stepsPerSecond
        self.items = items
        self.seed = seed
        self.itemIndex = index
        self.bodies = bodies
        self.reportsContacts = reportsContacts
        self.materials = Array(repeating: ItemMaterial(), count: items.count)
        self.masses = items.map { itemMass(density: ItemMaterial().density, size: $0.size) }
        self.force = Array(repeating: .zero, count: items.count)
        self.torque = Array(repeating: 0, count: items.count)
        // Iterations: rods and piles stay stiff at 240 Hz with 10 (Chipmunk's default is 10).
        space = ChipmunkSpace(iterations: 10, reportsContacts: reportsContacts)
        for (i, item) in items.enumerated() {
            let mass = itemMass(density: 1, size: item.size)
            space.addBody(shape: bodies[i].shape, mass: mass, moment: mass * bodies[i].momentPerMass,
                          position: item.center, angle: item.angle)
        }
        for b in behaviors { try addBehavior(b) }
    }

    // MARK: Reading state

    /// An item's current state, or nil for an unknown id.
    public func state(of id: String) -> DynamicItemState? {
        guard let i = itemIndex[id] else { return nil }
        return state(at: i)
    }

    func state(at i: Int) -> DynamicItemState {
        DynamicItemState(center: space.position(i), angle: space.angle(i),
                         velocity: space.velocity(i), angularVelocity: space.angularVelocity(i))
    }

    /// An item's mass in UIKit units (density × width × height / 10000).
    public func mass(of id: String) -> Double? {
        guard let i = itemIndex[id] else { return nil }
        return mass(i)
    }

    /// Item `i`'s mass with its current density.
    func mass(_ i: Int) -> Double { masses[i] }

    /// The behavior with this id.
    public func behavior(id: String) -> DynamicBehavior? {
        entries.first { $0.behavior.id == id }?.behavior
    }

    /// The contacts that began or ended since the last call, in simulation order (none
    /// when the animator was made with `reportsContacts: false`).
    public func takeContactEvents() -> [ContactEvent] {
        collectContacts()
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    // MARK: Changing behaviors

    /// Adds a behavior; it becomes live at the next step whose time is in `[begin, end)`.
    public func addBehavior(_ behavior: DynamicBehavior) throws(DynamicsError) {
        guard !entries.contains(where: { $0.behavior.id == behavior.id }) else {
            throw .duplicateBehavior(behavior.id)
        }
        entries.append(Entry(behavior: behavior, items: try resolve(behavior)))
    }

    /// Validates a behavior and resolves its item ids to indices.
    private func resolve(_ behavior: DynamicBehavior) throws(DynamicsError) -> [Int] {
        let path = "behavior \(behavior.id)"
        guard !behavior.begin.isNaN, !behavior.end.isNaN, behavior.begin <= behavior.end,
              behavior.begin < .infinity else {
            throw .invalidValue(path: path, reason: "begin must be finite and ≤ end")
        }
        var indices: [Int] = []
        for id in behavior.itemIDs {
            guard let i = itemIndex[id] else { throw .unknownItem(behavior: behavior.id, item: id) }
            indices.append(i)
        }
        do { try behavior.validate() } catch {
            guard case .invalidValue(let key, let reason) = error else { throw error }
            throw .invalidValue(path: "\(path).\(key)", reason: reason)
        }
        return indices
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
        let indices = try resolve(updated)
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
        entries[k].items = indices
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
        // Every state was sane after the last step, and velocities set since were checked
        // (`setVelocity`): only a velocity refused there can be wrong now.
        if let i = blownUpItem { throw .nonFiniteState(time: t, item: items[i].id) }
        space.step(h)
        if let i = space.refusedFieldVelocity { throw .nonFiniteState(time: time, item: items[i].id) }
        collectContacts()
        stepIndex += 1
        // Chipmunk's debug build aborts on NaN: a blow-up is caught here, before its next step sees it.
        if let i = space.firstInsaneBody() { throw .nonFiniteState(time: time, item: items[i].id) }
    }

    /// Finite and below 1e12 (an item's coordinates, velocities, angle).
    /// (`abs(x) < 1e12` alone: it is false for NaN and the infinities.)
    static func isSane(_ x: Double) -> Bool { abs(x) < 1e12 }

    /// Sets a body's velocities unless they are not sane, which marks a blow-up instead.
    func setVelocity(_ i: Int, _ v: Point, _ w: Double) {
        guard Self.isSane(v.x), Self.isSane(v.y), Self.isSane(w) else {
            if blownUpItem == nil { blownUpItem = i }
            return
        }
        space.setVelocity(i, v)
        space.setAngularVelocity(i, w)
    }

    // MARK: Liveness

    func setLive(_ k: Int, _ live: Bool) {
        guard entries[k].isLive != live else { return }
        entries[k].isLive = live
        materialsDirty = true
        if live {
            attachResources(k)
            switch entries[k].behavior.kind {
            case .push(let push) where push.mode == .instantaneous && push.active:
                entries[k].armed = true
            case .itemBehavior(let ib):
                for i in entries[k].items {
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
    func attachResources(_ k: Int) {
        // Attachments' joints are made by syncJoints, once the item materials are known.
        if case .collision(let c) = entries[k].behavior.kind { addBoundaries(k, c) }
        rebuildCollisionGroups()
    }

    func detachResources(_ k: Int) {
        if let handle = entries[k].joints { space.removeJoints(handle) }
        entries[k].joints = nil
        entries[k].jointEnds = nil
        for handle in entries[k].boundaries { space.removeBoundary(handle) }
        entries[k].boundaries = []
        entries[k].outlines = []
        rebuildCollisionGroups()
    }
}
