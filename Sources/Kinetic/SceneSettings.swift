import KineticScene

extension Scene {
    /// Pixels per point: the scene file's `scale`, or the one set here (as `kinetic
    /// render --scale` sets it).
    ///
    /// A canvas this makes larger than ``limits`` allows is refused when frames are
    /// produced.
    public var scale: Double {
        get { model.settings.scale }
        set { model.settings.scale = newValue }
    }

    /// Replaces the frame rate, the length, or both (as `kinetic render --fps` and
    /// `--duration` do); nil keeps the scene's own.
    ///
    /// ```swift
    /// var scene = try Scene(contentsOf: URL(fileURLWithPath: "ring.yaml"))
    /// try scene.setTiming(framesPerSecond: 30)
    /// ```
    ///
    /// - Throws: ``FrameRenderError`` when a value is not a finite number greater than 0,
    ///   or the two together are over ``limits`` (frames, seconds); the scene is then left
    ///   as it was.
    public mutating func setTiming(framesPerSecond: Double? = nil, duration: Double? = nil) throws(FrameRenderError) {
        let fps = framesPerSecond ?? self.framesPerSecond, seconds = duration ?? self.duration
        guard fps.isFinite, fps > 0 else { throw FrameRenderError(message: "the frame rate must be greater than 0") }
        guard seconds.isFinite, seconds > 0 else { throw FrameRenderError(message: "the duration must be greater than 0") }
        if let problem = limits.timingProblem(duration: seconds, fps: fps) {
            throw FrameRenderError(message: problem)
        }
        model.settings.fps = fps
        model.settings.duration = seconds
    }

    /// Fills the background with one color instead of the scene's background (as
    /// `kinetic render --background` does).
    ///
    /// - Parameter color: A color as a scene file writes one: `"#RRGGBB"`, `"#RRGGBBAA"`,
    ///   a name such as `"clear"`, or a system color such as `"systemBackground"`.
    /// - Throws: ``FrameRenderError`` when `color` is not a color.
    public mutating func setBackgroundColor(_ color: String) throws(FrameRenderError) {
        guard let value = SceneValues.color(color) else { throw FrameRenderError(message: "'\(color)' is not a color") }
        model.settings.background = .color(value)
    }
}

extension Scene {
    /// Whether the physics (bodies, velocities, joints, boundaries, fields) is drawn over
    /// every frame, as `dynamics.debug` asks; ``OutputOptions/drawsDebugOverlay`` turns
    /// it on for one output.
    package var drawsDebugOverlay: Bool {
        get { model.dynamics?.debug ?? false }
        set { model.dynamics?.debug = newValue }
    }
}
