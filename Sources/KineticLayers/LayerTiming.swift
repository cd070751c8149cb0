import KineticGeometry

/// CAMediaTiming on a layer (`begin`, `speed`, `timeOffset`): Core Animation's
/// hierarchical time. A layer's local time is its superlayer's through
/// `(parent − begin) × speed + timeOffset`, composed down the tree, and its animations
/// run in it; `speed` 0 holds a subtree at `timeOffset`.
public struct LayerTiming: Hashable, Sendable {
    /// CAMediaTiming's `beginTime`, in the superlayer's seconds.
    public var begin = 0.0
    /// How fast local time runs against the superlayer's (≥ 0).
    public var speed = 1.0
    /// Added to local time, in local seconds.
    public var timeOffset = 0.0

    public init(begin: Double = 0, speed: Double = 1, timeOffset: Double = 0) {
        self.begin = begin; self.speed = speed; self.timeOffset = timeOffset
    }
}

/// The map from scene seconds to a layer's local seconds, `scale × t + offset`: its own
/// `LayerTiming` composed with every ancestor's.
public struct LayerClock: Hashable, Sendable {
    public var scale = 1.0
    public var offset = 0.0

    public static let scene = LayerClock()

    /// Local seconds at scene time `t`.
    public func local(_ t: Double) -> Double { scale * t + offset }

    /// Scene time at local time `local`; nil when the clock is stopped (speed 0 above).
    public func sceneTime(_ local: Double) -> Double? {
        scale > 0 ? (local - offset) / scale : nil
    }

    /// The first scene time at which this clock reads `local` or later: −∞ when it
    /// already does for good (a stopped clock past it), +∞ when it never will.
    public func firstSceneTime(reaching local: Double) -> Double {
        if let t = sceneTime(local) { return t }
        return offset >= local ? -.infinity : .infinity
    }

    /// This clock followed by a sublayer's timing.
    public func then(_ timing: LayerTiming) -> LayerClock {
        LayerClock(scale: scale * timing.speed, offset: (offset - timing.begin) * timing.speed + timing.timeOffset)
    }
}
