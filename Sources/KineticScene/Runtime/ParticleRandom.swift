import KineticGeometry

/// A counter-based random source for particles: SplitMix64 started from a hash of (emitter
/// key, cell, particle index). Every particle's draws depend only on those three numbers,
/// so the same seed gives the same particles whatever the frame rate or the frames asked.
struct ParticleRandom {
    private var state: UInt64

    init(key: UInt64, cell: Int, particle: UInt64) {
        state = Self.mix(Self.mix(key ^ Self.mix(UInt64(truncatingIfNeeded: cell) &+ 0x632B_E59B_D9B4_E019)) ^ particle)
    }

    /// SplitMix64's step and finalizer: a bijective avalanche of 64 bits.
    static func mix(_ z0: UInt64) -> UInt64 { SplitMix64.scramble(z0 &+ SplitMix64.increment) }

    mutating func next() -> UInt64 {
        state &+= SplitMix64.increment
        return Self.mix(state)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [−1, 1): the factor a `…Range` is multiplied by.
    mutating func signed() -> Double { unit() * 2 - 1 }
}
