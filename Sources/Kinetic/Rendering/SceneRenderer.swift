import Foundation
import KineticFiles
import KineticCairo
import KineticEncode
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// Why a loaded scene cannot be rendered as asked; each case maps to one exit status.
package enum SceneRenderError: Error, CustomStringConvertible {
    /// An image asset is missing or unreadable (exit 65: the scene names it).
    case assets(ImageCacheError)
    /// The canvas or frame count is over a limit, or a frame range is out of the scene
    /// (exit 64: a flag can change it).
    case outOfLimits(String)
    /// The system's memory limit (`ulimit -v`, a cgroup) leaves too little to render
    /// (exit 71: no flag can change it).
    case outOfMemory(String)

    package var description: String {
        switch self {
        case .assets(let error): "\(error)"
        case .outOfLimits(let message): message
        case .outOfMemory(let message): "out of memory: \(message)"
        }
    }
}

/// One loaded scene ready to render: its timeline and a renderer with its image assets
/// decoded. The GIF and PNG-frame code path shared by `render`, `batch` and `golden`.
package struct SceneRenderer {
    package let timeline: Timeline
    package var renderer: Renderer
    /// Worker threads for rasterizing and encoding frames.
    package var jobs: Int
    /// Whether a progress bar is drawn on stderr (only when it is a terminal).
    package var showsProgress: Bool
    /// Live particles allowed at once (section 9).
    package var maxParticles: Int

    package var scene: KineticScene.Scene { timeline.scene }
    package var fps: Double { scene.settings.fps }

    /// Decodes the scene's image assets and checks the canvas and frame count against
    /// `limits`, so nothing is rendered that would be refused halfway.
    package init(scene: KineticScene.Scene, limits: SceneLimits, jobs: Int, showsProgress: Bool,
                 warn: (String) -> Void = SceneRenderer.printWarning) throws(SceneRenderError) {
        maxParticles = limits.maxParticles
        if let problem = limits.canvasProblem(size: scene.settings.size, scale: scene.settings.scale) {
            throw .outOfLimits(problem)
        }
        if let problem = limits.timingProblem(duration: scene.settings.duration, fps: scene.settings.fps) {
            throw .outOfLimits(problem)
        }
        // The system's limit, when tighter than the budget, is the budget (checked before
        // assets are decoded: decoding needs memory too).
        let (budget, ceiling) = try MemoryCeiling.frameBudget(limits.maxMemory)
        let images: ImageCache
        do { images = try ImageCache(loading: scene.assets) } catch { throw .assets(error) }
        self.timeline = Timeline(scene: scene)
        self.renderer = Renderer(scale: scene.settings.scale, images: images)
        self.showsProgress = showsProgress
        self.jobs = max(1, jobs)
        // Frames in flight share the memory budget with the decoded assets: fewer workers
        // when the canvas is large, a refusal when not even one fits.
        let size = renderer.pixelSize(of: scene.settings.size)
        let frameBytes = Double(size.width) * Double(size.height) * 4
        let free = Double(budget) - Double(images.byteCount)
        // Under a system limit each worker also needs its own memory besides frames.
        let perJob = frameBytes * Self.framesInFlightPerJob + Double(ceiling == nil ? 0 : MemoryCeiling.perWorker)
        let fitting = Int(max(0, min((free - frameBytes * Self.framesInFlightBase) / perJob, 1e6)))
        let needed = ByteCount.format(Int(frameBytes * (Self.framesInFlightBase + Self.framesInFlightPerJob)))
        guard fitting >= 1 else {
            // Over --max-memory itself, the flag's refusal; within it, the system's.
            let overBudget = Double(limits.maxMemory) - Double(images.byteCount) < frameBytes * (Self.framesInFlightBase + Self.framesInFlightPerJob)
            if let ceiling, !overBudget {
                throw .outOfMemory("a \(size.width)×\(size.height) px frame needs about \(needed) to render; "
                                   + "\(ceiling.name) leaves \(ByteCount.format(max(0, Int(free)))) for frames")
            }
            throw .outOfLimits("a \(size.width)×\(size.height) px frame needs about \(needed) "
                               + "to render, over the memory budget (raise --max-memory or lower --scale)")
        }
        if fitting < self.jobs {
            let why = ceiling.map { "fit \($0.name)" } ?? "fit --max-memory"
            warn("\(fitting) workers instead of \(self.jobs): more \(size.width)×\(size.height) px frames in flight would not \(why)")
            self.jobs = fitting
        }
        // A frame draws in one scratch surface at a time: one a worker.
        renderer.scratch = ScratchImages(limit: self.jobs)
        frameBuffers = FrameBufferPool(limit: FrameBufferPool.limit(jobs: self.jobs))
        let left = free - frameBytes * Self.framesInFlightBase - perJob * Double(self.jobs)
        keptFramesBudget = Int(max(0, min(left, Double(Self.keptFramesLimit))))
    }

    /// Prints `message` as a warning on stderr, as the command prints its warnings.
    package static func printWarning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }

    /// Frames' pixel buffers handed on from pass to pass (a GIF's palette pass to its
    /// frames pass) and frame to frame: a pass's first chunk no longer draws into fresh pages.
    private let frameBuffers: FrameBufferPool

    /// Bytes one pass over the frames may keep for the passes after it (``KeptFrames``):
    /// what the memory budget leaves past the frames in flight, at most ``keptFramesLimit``.
    package var keptFramesBudget: Int
    /// A render is not to grow by more than this to save passes. Of the gallery's GIFs,
    /// fireworks-button keeps 3 MB, elasticity 12, snap-demo 46 and lock-screen 172 (a
    /// 4 MB frame whole, the others as their changed spans).
    package static let keptFramesLimit = 256 << 20

    /// Rasters held per worker (its chunk of two frames, their encoded and straight
    /// copies) and besides the workers (the previous frame, the encoder's canvas).
    package static let framesInFlightPerJob = 5.0
    package static let framesInFlightBase = 2.0

    /// Browsers show a frame shorter than a format allows (GIF's 0–1 cs, WebP's and
    /// APNG's under 11 ms) for 100 ms, so GIF plays at most 50 fps, WebP and APNG 90: a
    /// faster scene is resampled to that rate unless the user asked for its rate with
    /// `--fps` (then only warned). Video has no limit. Returns the warning to print, if any.
    package static func applyFrameRateRule(to scene: inout KineticScene.Scene, format: AnimationFormat, fpsGiven: Bool) -> String? {
        guard let limit = format.maximumFPS, scene.settings.fps > limit else { return nil }
        let fps = ValueRange.format(scene.settings.fps), name = format.rawValue.uppercased()
        let shortest = format == .gif ? "2 cs" : "11 ms"
        if fpsGiven {
            return "at \(fps) fps some \(name) delays fall below \(shortest), which browsers clamp (play slower)"
        }
        scene.settings.fps = limit
        return "\(name) delays below \(shortest) are clamped by browsers; resampling \(fps) fps to "
            + "\(ValueRange.format(limit)) fps (pass --fps to insist)"
    }

    /// The frame indices `--frames A-B` selects (every frame without it).
    package func frames(_ range: ClosedRange<Int>?) throws(SceneRenderError) -> [Int] {
        let count = scene.frameCount
        guard let range else { return Array(0..<count) }
        guard range.upperBound < count else {
            throw .outOfLimits("--frames \(range.lowerBound)-\(range.upperBound): the scene has frames 0-\(count - 1)")
        }
        return Array(range)
    }

    /// Whether passes over frames draw a progress bar on stderr.
    private var showsProgressBar: Bool { showsProgress && isatty(2) != 0 }

    /// The canvas in pixels.
    package var pixelSize: (width: Int, height: Int) { renderer.pixelSize(of: scene.settings.size) }

    /// A pipeline over `frames` whose progress bar counts `unit`.
    /// `reusesBuffers`: whether what is done with a frame keeps none of its raster, so
    /// frames are drawn into the buffers of frames already encoded (``FrameBufferPool``).
    private func pipeline(frames: [Int], unit: String = "frames", reusesBuffers: Bool = true) -> FramePipeline {
        FramePipeline(timeline: timeline, renderer: renderer, fps: fps, frames: frames, jobs: jobs,
                      progress: Progress(total: frames.count, enabled: showsProgressBar, unit: unit),
                      maxParticles: maxParticles,
                      buffers: reusesBuffers ? frameBuffers : nil)
    }

    /// Writes `frames` as an animation at `path` (atomically: nothing appears on error).
    /// `settings.fps` and `settings.transparent` come from the scene.
    ///
    /// An opaque GIF passes over its frames up to three times (palette samples, the frames
    /// between them, the encoding). When there is a second pass, every frame is simulated
    /// and rasterized once, into a ``KeptFrames``, and the second and third passes replay
    /// them, if they fit ``keptFramesBudget``; otherwise each pass simulates the scene from
    /// the start again and rasterizes only the frames it needs.
    package func renderAnimation(frames: [Int], to path: String, format: AnimationFormat, settings: AnimationSettings) throws {
        var settings = settings
        settings.fps = fps
        settings.transparent = scene.settings.background.mayBeTransparent
        settings.jobs = jobs
        let size = pixelSize
        var kept: KeptFrames?
        try AnimationOutput.write(frameCount: frames.count, width: size.width, height: size.height,
                                  to: path, format: format, settings: settings, sample: { positions, pass, prepare, add in
            // The first pass takes 16 samples. The frames between them, when the palette
            // wants them, are most of the frames (every one, up to 256, for few colours).
            if pass != .samples, kept == nil { kept = try keptFrames(frames) }
            if let kept, kept.isComplete, pass == .colorsBetween {
                try countColors(kept, positions: positions, add: add)
            } else {
                try run(positions, of: frames, kept: kept, unit: "palette frames",
                        encode: { frame, _, _ in prepare(frame) }, consume: add)
            }
        }) { encode, consume in
            try run(Array(frames.indices), of: frames, kept: kept, unit: "frames", encode: encode, consume: consume)
        }
    }

    /// Runs `encode` on worker threads and `consume` in order on the frames at `positions`
    /// (ascending) of `frames`: replayed from `kept` when it holds them, else simulated
    /// from the start and rasterized (physics advances only frame by frame; a long scene
    /// takes a while to reach its last sample, so each pass shows its own bar).
    private func run<Encoded: Sendable>(_ positions: [Int], of frames: [Int], kept: KeptFrames?, unit: String,
                                        encode: @escaping @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded,
                                        consume: (Encoded) throws -> Void) throws {
        if let kept, kept.isComplete {
            let progress = Progress(total: positions.count, enabled: showsProgressBar, unit: unit)
            defer { progress.finish() }
            try FrameStream(frames: positions, jobs: jobs, progress: progress, changes: { kept.change(at: $0) })
                .run(rasters: { kept.rasters($0) }, encode: encode, consume: { _, encoded in try consume(encoded) })
        } else {
            let p = pipeline(frames: positions.map { frames[$0] }, unit: unit)
            defer { p.progress.finish() }
            try p.run(encode: { frame, previous in try encode(frame, previous, .unknown) },
                      consume: { _, encoded in try consume(encoded) })
        }
    }

    /// `frames` simulated and rasterized into ``KeptFrames``, incomplete when they
    /// would not fit ``keptFramesBudget`` (the pass then stops early: the frames it kept
    /// project past the budget).
    private func keptFrames(_ frames: [Int]) throws -> KeptFrames {
        let kept = KeptFrames(expected: frames.count, budget: keptFramesBudget)
        var p = pipeline(frames: frames, unit: "frames kept")
        p.keep = kept
        defer { p.progress.finish() }
        do {
            try p.run(encode: { _, _ in () }, consume: { _, _ in })
        } catch KeptFrames.Full.full {}
        return kept
    }

    /// Hands `add` the exact colours of the kept frames at `positions` (ascending),
    /// counted from what changed between frames.
    private func countColors(_ kept: KeptFrames, positions: [Int],
                             add: (GIFPaletteBuilder.Sample) throws -> Void) throws {
        let progress = Progress(total: positions.count, enabled: showsProgressBar, unit: "palette frames")
        defer { progress.finish() }
        var running: RunningColorCounts?
        try kept.walk(to: positions, start: { running = RunningColorCounts($0) }, change: { old, new in
            if running?.replace(old, with: new) == false { running = nil }
        }, reached: { _, frame in
            // Past the counts' capacity the frame is counted whole, as without kept frames.
            if running == nil { running = RunningColorCounts(frame) }
            if let counts = running, counts.isExact {
                try add(GIFPaletteBuilder.colors(counts))
            } else {
                running = nil
                try add(GIFPaletteBuilder.colors(frame))
            }
            progress.advance()
        })
    }

    /// Writes `frames` as an animated GIF at `path` (`batch`'s output).
    package func renderGIF(frames: [Int], to path: String, loopCount: Int) throws {
        try renderAnimation(frames: frames, to: path, format: .gif, settings: AnimationSettings(fps: fps, loopCount: loopCount))
    }

    /// Writes each of `frames` as a PNG named by `pattern` (`%04d` and the like), creating
    /// the pattern's folder.
    package func renderPNGFrames(frames: [Int], pattern: String) throws {
        let folder = (pattern as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw EncodeError.cannotWrite(path: folder, reason: error.localizedDescription)
            }
        }
        let p = pipeline(frames: frames)
        defer { p.progress.finish() }
        // Each frame says which scene it comes from, for `encode` (FrameOrigin).
        let origin = FrameOrigin(of: scene).text
        // The files are written a few at a time (ConcurrentFileWrites): one after another,
        // their fsyncs held the writer thread longer than the frames took to encode.
        let files = ConcurrentFileWrites()
        // On an error the writes in flight end before it is thrown (their own errors lost).
        defer { try? files.finish() }
        try p.run(encode: { frame, _ in PNGHeader.inserting(text: origin, into: try PNGWriter.encode(frame)) }, consume: { index, bytes in
            try files.write(bytes, to: OutputTarget.fileName(pattern: pattern, index: index))
        })
        try files.finish()
    }

    /// Simulates and rasterizes `frames` and keeps nothing: times the render without
    /// any encoder (`render --discard`, for benchmarks).
    package func discard(frames: [Int]) throws {
        try pipeline(frames: frames).run(encode: { _, _ in () }, consume: { _, _ in })
    }

    /// The rasters of `frames`, in the order given (golden frames are compared in memory).
    package func images(frames: [Int]) throws -> [(index: Int, image: PixelImage)] {
        var result: [(index: Int, image: PixelImage)] = []
        // The frames themselves are the result: none is drawn over.
        try pipeline(frames: frames, reusesBuffers: false).run(encode: { frame, _ in frame }, consume: { index, image in
            result.append((index, image))
        })
        return result
    }
}

/// File sizes as the summaries print them: `812.4 kB`, `1.23 MB` (decimal units).
package enum ByteCount {
    package static func format(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? String(format: "%.2f MB", Double(bytes) / 1e6) : String(format: "%.1f kB", Double(bytes) / 1e3)
    }

    /// The size of the file at `path` in bytes; nil when it cannot be had.
    package static func ofFile(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    /// The size of the file at `path` as the summaries print it (0 when it cannot be had).
    package static func formatFile(_ path: String) -> String { format(ofFile(path) ?? 0) }
}
