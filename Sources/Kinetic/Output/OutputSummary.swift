/// What ``Scene/write(to:options:)`` wrote.
public struct OutputSummary: Sendable {
    /// The frames written (1 for a still image).
    public var frameCount: Int
    /// What writing changed or left out, one sentence each: a frame rate resampled for
    /// the format, a transparent background an MP4 cannot keep, a construct a Lottie
    /// export dropped.
    public var warnings: [String]
    /// A Lottie export's keyframes, and the samples they stand for.
    package var lottieKeyframes: (kept: Int, sampled: Int)?
}
