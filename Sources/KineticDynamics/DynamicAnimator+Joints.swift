// UIAttachmentBehavior in the animator: Chipmunk joints made and remade as the ends'
// materials allow, springs tuned to the items' masses, anchors moved.
import Foundation
import KineticGeometry

extension DynamicAnimator {
    /// Makes (or remakes) the joints of live attachments whose ends changed between
    /// movable and immovable; leaves out joints no end could satisfy.
    func syncJoints() {
        for k in entries.indices where entries[k].isLive {
            guard case .attachment(let a) = entries[k].behavior.kind else { continue }
            let i = entries[k].items[0]
            var ends = JointEnds(moves: !materials[i].anchored, turns: !materials[i].anchored && materials[i].allowsRotation)
            if entries[k].items.count > 1 {
                let j = entries[k].items[1]
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
    private func pointJointIsSolvable(_ k: Int, _ a: AttachmentBehavior) -> Bool {
        var inverseMass = 0.0, leverage = 0.0
        func add(_ i: Int, _ offset: Point) {
            guard !materials[i].anchored else { return }
            inverseMass += 1 / mass(i)
            let moment = space.moment(i)
            if moment.isFinite && moment > 0 { leverage += offset.dot(offset) / moment }
        }
        add(entries[k].items[0], a.offsetFromCenter)
        if case .item(_, let offset) = a.attachedTo, entries[k].items.count > 1 { add(entries[k].items[1], offset) }
        return inverseMass > 0 && leverage / inverseMass <= 1e8
    }

    private func attachJoints(_ k: Int, _ a: AttachmentBehavior, turns: Bool) {
        let i = entries[k].items[0]
        let endA = ChipmunkEnd.body(i)
        let endB: ChipmunkEnd, anchorB: Point, worldB: Point
        switch a.attachedTo {
        case .anchor(let p):
            endB = .anchor(p); anchorB = .zero; worldB = p
        case .item(_, let offset):
            guard entries[k].items.count > 1 else { return }
            let j = entries[k].items[1]
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
        if usesPointJoint && !pointJointIsSolvable(k, a) {
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
        case .sliding:
            // The groove lies on B (the anchor's world, or the other item) through B's
            // attach point; A's attach point rides it and A keeps its angle to B.
            let u = a.axisOfTranslation / a.axisOfTranslation.length
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

    /// Spring attachments: stiffness k = m·ω² and damping c = 2·m·ζ·ω with m the
    /// effective mass along the spring's axis (Box2D's soft distance joint), so the
    /// frequency in Hz and damping ratio hold whatever the items weigh.
    func updateSprings() {
        for entry in entries where entry.isLive {
            guard case .attachment(let a) = entry.behavior.kind, a.kind == .distance, a.frequency > 0,
                  let handle = entry.joints else { continue }
            let i = entry.items[0]
            let rA = rotate(a.offsetFromCenter, by: space.angle(i))
            let pA = space.position(i) + rA
            var pB: Point, inverseMass = effectiveInverseMass(i, arm: rA, axis: .zero)
            switch a.attachedTo {
            case .anchor(let p): pB = p
            case .item(_, let offset):
                guard entry.items.count > 1 else { continue }
                let j = entry.items[1]
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

    func moveAnchors(h: Double) {
        for entry in entries where entry.isLive {
            guard case .attachment(let a) = entry.behavior.kind, let p = a.anchorPoint, let handle = entry.joints else { continue }
            space.moveAnchor(handle, to: p, within: h)
        }
    }

    private func effectiveInverseMass(_ i: Int, arm: Point, axis: Point) -> Double {
        guard !materials[i].anchored else { return 0 }
        let rn = cross(arm, axis)
        let moment = space.moment(i)
        return 1 / mass(i) + (moment.isFinite && moment > 0 ? rn * rn / moment : 0)
    }
}
