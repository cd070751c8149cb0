import KineticFiles
import KineticGeometry

/// Limits of section 9, checked before anything is allocated; flags can raise them.
public struct SceneLimits: Sendable {
    public var maxCanvasSide = 16384
    public var maxCanvasPixels = 64_000_000
    public var maxFrames = 100_000
    public var maxParticles = 1_000_000
    /// Not a limit but a load setting every command passes with the limits: the
    /// `--appearance` override of `scene.appearance`.
    public var appearance: Appearance? = nil
    /// The longest scene, in seconds (a day): simulation steps and GIF delays are counted
    /// in integers from it.
    public var maxDuration = 86_400.0
    /// The memory budget in bytes (`--max-memory`, 4 GiB by default). The limits on
    /// totals below derive from it, and a render's frames in flight are fitted into it.
    public var maxMemory = 4 << 30
    /// Layers in one frame once replicators expand (nested ones multiply), at about
    /// 16 KiB each: 262,144 with the default budget.
    public var maxLayerInstances: Int { maxMemory / 16_384 }
    /// YAML nodes in one scene file, an alias counted again each time it is used (the
    /// "billion laughs" defence), at about 8 KiB each decoded: 524,288 by default.
    public var maxYAMLNodes: Int { maxMemory / 8_192 }
    /// The largest scene file read, in bytes: 16 MiB by default, far past any scene
    /// (the largest of the gallery is under 20 KB), so a huge file is refused before it
    /// is read rather than after minutes of parsing.
    public var maxSceneFileBytes: Int { maxMemory / 256 }
    /// Bytes a live particle takes (its state, snapshot and draw record).
    public static let bytesPerParticle = 256
    /// Which image assets may be read; decoded images are capped at a sixteenth of the
    /// budget (64 Mpx by default).
    public var assets = AssetPolicy()
    public init() {}
}

extension SceneLimits {
    /// The duration and frame-count limits, checked on the numbers before any becomes an
    /// integer; nil when within them.
    public func timingProblem(duration: Double, fps: Double) -> String? {
        if !(duration <= maxDuration) {
            return "a duration of \(Field.format(duration)) s is over the limit of \(Field.format(maxDuration)) s"
        }
        let frames = (duration * fps).rounded()
        if !(frames <= Double(maxFrames)) {
            return "\(Field.format(frames)) frames exceed the limit of \(maxFrames) (raise it with --max-frames)"
        }
        // The frames' own span: one frame at least, each 1 / fps long.
        if !(max(frames, 1) / fps <= maxDuration) {
            return "at \(Field.format(fps)) fps the frames last longer than the limit of \(Field.format(maxDuration)) s"
        }
        return nil
    }

    /// The canvas limit of section 9, in pixels; nil when within it.
    public func canvasProblem(size: Size, scale: Double) -> String? {
        let w = (size.width * scale).rounded(), h = (size.height * scale).rounded()
        let drawn = "\(Field.format(size.width))×\(Field.format(size.height)) pt at scale \(Field.format(scale))"
        if w > Double(maxCanvasSide) || h > Double(maxCanvasSide) {
            return "the canvas would be \(Field.format(w))×\(Field.format(h)) px (\(drawn)), over the limit of "
                + "\(maxCanvasSide) px a side (lower it with --scale, or raise the limit with --max-canvas-side)"
        }
        if w * h > Double(maxCanvasPixels) {
            return "the canvas would be \(Field.format(w * h)) px (\(drawn)), over the limit of \(maxCanvasPixels) px "
                + "(lower it with --scale, or raise the limit with --max-canvas-pixels)"
        }
        if w < 1 || h < 1 { return "the canvas would be smaller than one pixel" }
        return nil
    }
}
