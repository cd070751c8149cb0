import KineticGeometry

/// What a field (or several summed) adds to an item's acceleration, split so that the
/// velocity integration can treat each part as it needs: a part that depends on where
/// the item is (`constant`, evaluated at the position just integrated) and a part linear
/// in its velocity, `−damping·v + turning·(vy, −vx)` (drag, the velocity field's pull,
/// the magnetic field's turn).
///
/// The linear part is integrated with the trapezoidal rule, which keeps a pure turn's
/// speed exactly and decays a pure damping as e^(−damping·t) to O(h³) per step; an
/// explicit step would let a magnetic field add speed at every step.
struct FieldAcceleration: Equatable, Sendable {
    var constant = Point.zero
    var damping = 0.0
    var turning = 0.0

    static let zero = FieldAcceleration()

    static func + (a: FieldAcceleration, b: FieldAcceleration) -> FieldAcceleration {
        FieldAcceleration(constant: a.constant + b.constant, damping: a.damping + b.damping, turning: a.turning + b.turning)
    }

    /// The acceleration at `velocity`.
    func at(_ velocity: Point) -> Point {
        constant + linear(velocity, damping: damping, turning: turning)
    }

    /// The velocity after `h` seconds from `velocity`, with `other` (gravity, pushes: what
    /// Chipmunk would add) added to the constant part: v₁ = v₀ + h·(a₀ + L·(v₀ + v₁)/2),
    /// solved for v₁. L = −damping·I + turning·J with J² = −I, so (a·I + b·J)⁻¹ = (a·I − b·J)/(a² + b²).
    func integrate(_ velocity: Point, plus other: Point, over h: Double) -> Point {
        let explicit = velocity + linear(velocity, damping: damping * h / 2, turning: turning * h / 2)
            + (constant + other) * h
        // (I − hL/2) = (1 + h·damping/2)·I − (h·turning/2)·J
        let a = 1 + h * damping / 2, b = -h * turning / 2
        return linear(explicit, damping: -a, turning: -b) / (a * a + b * b)
    }

    /// −damping·v + turning·J·v, with J·(x, y) = (y, −x).
    private func linear(_ v: Point, damping: Double, turning: Double) -> Point {
        v * -damping + Point(v.y, -v.x) * turning
    }
}
