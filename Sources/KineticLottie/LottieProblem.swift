/// A construct of the scene that Lottie cannot express, at its scene key path
/// (`layers[2].filters`): a refusal, or with `approximate` a warning that it was dropped.
public struct LottieProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var keyPath: String
    public var message: String

    public init(keyPath: String, message: String) {
        self.keyPath = keyPath; self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }
}

/// How an export treats what Lottie cannot say, and how large it may grow.
public struct LottieOptions: Sendable {
    /// Drop what Lottie cannot express (one warning per key) instead of refusing the scene.
    public var approximate = false
    /// The most Lottie layers an export makes (particles and replicator copies each are
    /// one): past it the scene is refused, as a file that large would not play.
    public var maximumLayers = LottieOptions.defaultMaximumLayers
    public static let defaultMaximumLayers = 5_000
    /// The most bytes of PNG contents an export embeds, all images together (base64 adds
    /// a third): past it the scene is refused.
    public var maximumImageBytes = LottieOptions.defaultMaximumImageBytes
    public static let defaultMaximumImageBytes = 8 << 20

    public init(approximate: Bool = false) { self.approximate = approximate }
}
