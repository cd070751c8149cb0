// What moves the items between Chipmunk's steps: item behaviors' materials, gravity,
// pushes, fields, resistance and snaps, applied as forces or velocity changes.
import Foundation
import KineticGeometry

extension DynamicAnimator {
    func applyMaterials() {
        var result = Array(repeating: ItemMaterial(), count: items.count)
        for entry in entries where entry.isLive {
            guard case .itemBehavior(let ib) = entry.behavior.kind else { continue }
            for i in entry.items {
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
            masses[i] = mass
            space.setMassProperties(i, mass: mass, moment: m.allowsRotation ? mass * bodies[i].momentPerMass : .infinity,
                                    anchored: m.anchored)
            space.setMaterial(i, elasticity: m.elasticity, friction: m.friction)
        }
        materials = result
        resistsAny = result.contains { !$0.anchored && ($0.resistance > 0 || $0.angularResistance > 0) }
        materialsDirty = false
    }

    func firePushes() {
        for k in entries.indices where entries[k].armed {
            entries[k].armed = false
            guard case .push(var push) = entries[k].behavior.kind else { continue }
            let impulse = push.pushDirection * PushBehavior.forcePerMagnitude
            for i in entries[k].items where !materials[i].anchored {
                let moment = space.moment(i)
                let spin = moment.isFinite ? cross(push.targetOffsetFromCenter, impulse) / moment : 0
                setVelocity(i, space.velocity(i) + impulse / mass(i), space.angularVelocity(i) + spin)
            }
            // UIKit turns an instantaneous push inactive once it has fired.
            push.active = false
            entries[k].behavior.kind = .push(push)
        }
    }

    func applyForces(h: Double, time t: Double) throws(DynamicsError) {
        // Locals, uniquely referenced (the stored scratch arrays are emptied meanwhile), and
        // their buffers below: a class's arrays pay an exclusivity check at every element
        // access, and a local array a uniqueness check at every write.
        var force = self.force, torque = self.torque
        self.force = []
        self.torque = []
        defer { self.force = force; self.torque = torque }
        let materials = self.materials, masses = self.masses
        var snaps: [(Int, SnapBehavior)] = []
        var fields: [Int: [FieldBehavior]] = [:]
        force.withUnsafeMutableBufferPointer { force in
            torque.withUnsafeMutableBufferPointer { torque in
                masses.withUnsafeBufferPointer { masses in
                    force.update(repeating: .zero)
                    torque.update(repeating: 0)
                    for entry in entries where entry.isLive {
                        switch entry.behavior.kind {
                        case .gravity(let g):
                            let direction = g.gravityDirection, acceleration = GravityBehavior.accelerationPerMagnitude
                            for i in entry.items {
                                force[i] = force[i] + direction * (acceleration * masses[i])
                            }
                        case .push(let p) where p.mode == .continuous && p.active:
                            let f = p.pushDirection * PushBehavior.forcePerMagnitude
                            let spin = cross(p.targetOffsetFromCenter, f)
                            for i in entry.items {
                                force[i] = force[i] + f
                                torque[i] += spin
                            }
                        case .field(let field):
                            for i in entry.items { fields[i, default: []].append(field) }
                        case .snap(let s):
                            snaps.append((entry.items[0], s))
                        default: break
                        }
                    }
                }
            }
        }
        if resistsAny {
            for i in materials.indices where !materials[i].anchored && (materials[i].resistance > 0 || materials[i].angularResistance > 0) {
                var v = space.velocity(i), w = space.angularVelocity(i)
                // Box2D's damping law, applied before the forces integrate.
                v = v / (1 + h * materials[i].resistance)
                w = w / (1 + h * materials[i].angularResistance)
                setVelocity(i, v, w)
            }
        }
        // UIKit keeps one snap per item: the last live one wins.
        if !snaps.isEmpty {
            var snapOf: [Int: SnapBehavior] = [:]
            for (i, s) in snaps { snapOf[i] = s }
            for (i, s) in snapOf.sorted(by: { $0.key < $1.key }) where !materials[i].anchored { snap(i, s, h: h) }
        }
        applyFields(fields, time: t + h)
        // Anchored items get no force; the first unusable force stops the step (after the
        // items before it got theirs, as one pass would leave them).
        let refused: Int? = force.withUnsafeMutableBufferPointer { force in
            torque.withUnsafeMutableBufferPointer { torque in
                materials.withUnsafeBufferPointer { materials in
                    var count = force.count
                    for i in 0..<force.count {
                        guard force[i].isFinite, torque[i].isFinite, abs(force[i].x) < 1e15, abs(force[i].y) < 1e15 else {
                            count = i
                            break
                        }
                        if materials[i].anchored { force[i] = .zero; torque[i] = 0 }
                    }
                    space.setForces(UnsafeBufferPointer(rebasing: force[..<count]),
                                    torques: UnsafeBufferPointer(rebasing: torque[..<count]))
                    return count < force.count ? count : nil
                }
            }
        }
        if let refused { throw .nonFiniteState(time: t, item: items[refused].id) }
    }

    /// Hands Chipmunk the live fields of each item, evaluated during the step at `time`
    /// (the step's end, where the positions they are read at have moved to).
    private func applyFields(_ fields: [Int: [FieldBehavior]], time: Double) {
        guard !fields.isEmpty else {
            space.fieldAcceleration = nil
            return
        }
        let materials = self.materials, items = self.items, seed = self.seed
        space.fieldAcceleration = { i, position, velocity in
            guard let list = fields[i], !materials[i].anchored else { return .zero }
            let mass = itemMass(density: materials[i].density, size: items[i].size)
            return list.reduce(.zero) { sum, field in
                sum + field.acceleration(center: position, velocity: velocity, mass: mass,
                                         charge: materials[i].charge, time: time, seed: seed)
            }
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
        let mass = mass(i)
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
    private static var snapIterations: Int { 8 }
}
