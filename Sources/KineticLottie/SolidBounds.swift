import KineticGeometry

/// A region certainly inside a layer's rounded bounds, whatever its corner curve: the
/// bounds less, at each corner, what lies outside a disc of the corner radius placed as
/// far in as the corner reaches (a circular corner: its own arc; a continuous one reaches
/// ≈ 1.53 radii along each edge, and that disc lies beyond the chord its convex curve
/// bows out of).
struct SolidBounds {
    let bounds: Rect
    let radius: Double
    let reach: Double

    /// None when UIKit would clamp the radius (the shape is then a pill, not covered here).
    init?(_ bounds: Rect, corners: RoundedCorners) {
        let radius = max(0, corners.radius)
        let reach = corners.curve == .continuous ? radius * RoundedCorners.continuousExtent : radius
        guard bounds.width > 0, bounds.height > 0, 2 * reach <= min(bounds.width, bounds.height) else { return nil }
        self.bounds = bounds; self.radius = radius; self.reach = reach
    }

    func contains(_ p: Point) -> Bool {
        guard bounds.contains(p) else { return false }
        let nearest = Point(min(max(p.x, bounds.minX + reach), bounds.maxX - reach),
                            min(max(p.y, bounds.minY + reach), bounds.maxY - reach))
        return p.distance(to: nearest) <= radius
    }
}
