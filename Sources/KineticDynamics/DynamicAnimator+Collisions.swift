// UICollisionBehavior in the animator: boundaries in the space, which shapes collide,
// and the contact events (UICollisionBehaviorDelegate).
import Foundation
import KineticGeometry

extension DynamicAnimator {
    /// Puts a live collision behavior's boundaries into the space.
    func addBoundaries(_ k: Int, _ c: CollisionBehavior) {
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
    }

    /// Four deep walls just outside `box`: a crowd pressing on the reference bounds
    /// cannot squeeze an item through them.
    static func walls(around box: Rect) -> [[Point]] {
        let d = max(box.width, box.height, 100)
        let (x0, y0, x1, y1) = (box.minX, box.minY, box.maxX, box.maxY)
        func rect(_ a: Double, _ b: Double, _ c: Double, _ e: Double) -> [Point] {
            [Point(a, b), Point(c, b), Point(c, e), Point(a, e)]
        }
        return [rect(x0 - d, y0 - d, x1 + d, y0), rect(x0 - d, y1, x1 + d, y1 + d),
                rect(x0 - d, y0, x0, y1), rect(x1, y0, x1 + d, y1)]
    }

    /// Tells the space which shapes collide, from the live collision behaviors: each
    /// gives its items a group of their own (mode `.items`: they collide with one
    /// another) and its boundaries a group its items collide with (mode `.boundaries`).
    /// Items in no live collision behavior collide with nothing.
    func rebuildCollisionGroups() {
        var itemGroups = Array(repeating: CollisionGroups.none, count: items.count)
        var itemBoundaryGroups = itemGroups
        var boundaryGroups: [Int: CollisionGroups] = [:]
        var next = 0
        for entry in entries where entry.isLive {
            guard case .collision(let c) = entry.behavior.kind else { continue }
            if c.collisionMode.contains(.items) {
                for i in entry.items { itemGroups[i].insert(next) }
                next += 1
            }
            if c.collisionMode.contains(.boundaries) {
                for i in entry.items { itemBoundaryGroups[i].insert(next) }
                for handle in entry.boundaries { boundaryGroups[handle, default: .none].insert(next) }
                next += 1
            }
        }
        space.setCollisionGroups(items: itemGroups, itemBoundaries: itemBoundaryGroups, boundaries: boundaryGroups)
    }

    /// Turns the contacts the space logged into events (time: the end of the current step).
    func collectContacts() {
        guard reportsContacts, !space.contacts.isEmpty else { return }
        let log = space.contacts
        space.contacts.removeAll()
        for contact in log {
            guard let (key, event) = contactKey(contact.a, contact.b) else { continue }
            if contact.began {
                touching[key, default: 0] += 1
                if touching[key] == 1 { pendingEvents.append(event) }
            } else if let count = touching[key] {
                if count <= 1 {
                    touching[key] = nil
                    var ended = event
                    ended.phase = .ended
                    pendingEvents.append(ended)
                } else {
                    touching[key] = count - 1
                }
            }
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
}
