/// SplitMix64 (Steele, Lea and Flood, 2014): a seeded 64-bit generator whose values
/// depend on the seed alone, the same on every machine and run. Particles draw from its
/// finalizer (`ParticleRandom`); tests draw their random scenes and rasters from it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The golden-ratio step added to the state before each value.
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.scramble(state)
    }

    /// Uniform in [0, 1): the value's top 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// The finalizer: a bijective avalanche of 64 bits.
    public static func scramble(_ z0: UInt64) -> UInt64 {
        var z = z0
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
