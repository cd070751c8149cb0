@testable import Kinetic
import KineticGeometry
import KineticScene
import Testing

/// `FrameBufferPool`: frames are drawn into the buffers of frames already encoded, a
/// bounded number of buffers whatever the frame count, and never over a frame still in use.
@Suite struct FrameBufferPoolTests {
    /// A square that moves every frame of 40, so no frame repeats the one before it.
    static let scene = """
        kinetic: 1
        scene: {size: [40, 30], fps: 20, duration: 2, background: {colors: ["#102030", "#E0F0FF"]}}
        layers:
          - {id: square, position: [5, 15], bounds: [8, 8], backgroundColor: systemRed}
        animations:
          - {layer: square, keyPath: position.x, from: 5, to: 35, duration: 2}
        """

    static let frames = Array(0..<40)

    static func storage(_ image: PixelImage) -> UnsafeRawPointer? {
        image.bytes.withUnsafeBytes { $0.baseAddress }
    }

    static func renderer(jobs: Int) throws -> SceneRenderer {
        try SceneRenderer(scene: try SceneLoader.load(text: scene, file: "t.yaml"), limits: SceneLimits(),
                          jobs: jobs, showsProgress: false)
    }

    static func pipeline(_ renderer: SceneRenderer, buffers: FrameBufferPool) -> FramePipeline {
        FramePipeline(timeline: renderer.timeline, renderer: renderer.renderer, fps: renderer.fps, frames: frames,
                      jobs: renderer.jobs, progress: Progress(total: frames.count, enabled: false), buffers: buffers)
    }

    @Test func aBufferHandedBackIsTheNextTakenUpToTheLimit() {
        let pool = FrameBufferPool(limit: 2)
        let images = (0..<3).map { _ in PixelImage(width: 4, height: 2) }
        for image in images { pool.recycle(image) }
        // The third is over the limit: freed, not kept.
        let taken = (0..<3).map { _ in pool.take() }
        #expect(taken[0].map { $0.withUnsafeBytes { $0.baseAddress } } == Self.storage(images[1]))
        #expect(taken[1].map { $0.withUnsafeBytes { $0.baseAddress } } == Self.storage(images[0]))
        #expect(taken[2] == nil)
        #expect(pool.counts.taken == 3)
        #expect(pool.counts.reused == 2)
    }

    /// Buffers sized to what is asked (a GIF frame's changed rectangle) keep room for the
    /// largest ask: a buffer handed back serves a larger frame in its own storage, never
    /// grown (growing copied its old bytes to fresh pages), and its length is the one asked.
    @Test func aBufferLentForFewerBytesServesMoreInPlace() {
        let pool = FrameBufferPool(limit: 1)
        let small = pool.take(count: 10, capacity: 4096) { $0.initializeMemory(as: UInt8.self, repeating: 7) }
        #expect(small == [UInt8](repeating: 7, count: 10))
        let storage = small.withUnsafeBytes { $0.baseAddress }
        pool.recycle(bytes: consume small)
        let large = pool.take(count: 4096, capacity: 4096) { $0.initializeMemory(as: UInt8.self, repeating: 8) }
        #expect(large == [UInt8](repeating: 8, count: 4096))
        #expect(large.withUnsafeBytes { $0.baseAddress } == storage)
        pool.recycle(bytes: consume large)
        let cut = pool.take(count: 3, capacity: 4096) { $0.initializeMemory(as: UInt8.self, repeating: 9) }
        #expect(cut == [9, 9, 9])
        #expect(cut.withUnsafeBytes { $0.baseAddress } == storage)
        #expect(pool.counts.taken == 3)
        #expect(pool.counts.reused == 2)
    }

    /// Every frame is what a render without the pool draws, while after the first frames
    /// no frame needs a new buffer: as many are allocated as the frames in flight and the
    /// frame before them, whatever the frame count.
    @Test(arguments: [1, 2, 3])
    func encodedFramesLendTheirBuffersToLaterFrames(jobs: Int) throws {
        let renderer = try Self.renderer(jobs: jobs)
        let pool = FrameBufferPool(limit: FrameBufferPool.limit(jobs: jobs))
        var seen: [Int: [UInt8]] = [:]
        // A copy of each frame's bytes, taken while it is encoded.
        try Self.pipeline(renderer, buffers: pool).run(encode: { frame, _ in frame.bytes.withUnsafeBytes { Array($0) } },
                                                      consume: { index, bytes in seen[index] = bytes })
        let fresh = try renderer.images(frames: Self.frames)
        #expect(fresh.count == Self.frames.count)
        for (index, image) in fresh {
            #expect(seen[index] == image.bytes, "frame \(index)")
        }
        let counts = pool.counts
        #expect(counts.taken == Self.frames.count)
        #expect(counts.taken - counts.reused <= FrameBufferPool.limit(jobs: jobs))
    }

    /// An encoder whose result is the frame itself still holds it when its buffer comes
    /// back to the pool: the next frame drawn into that buffer copies it first, so no
    /// frame changes after it was handed on, at any thread count.
    @Test(arguments: [1, 2, 4])
    func aFrameStillHeldIsNeverDrawnOver(jobs: Int) throws {
        let renderer = try Self.renderer(jobs: jobs)
        let pool = FrameBufferPool(limit: FrameBufferPool.limit(jobs: jobs))
        var kept: [Int: PixelImage] = [:]
        // The bytes each frame had when it was consumed.
        var whenConsumed: [Int: [UInt8]] = [:]
        try Self.pipeline(renderer, buffers: pool).run(encode: { frame, _ in frame }, consume: { index, frame in
            kept[index] = frame
            whenConsumed[index] = frame.bytes.withUnsafeBytes { Array($0) }
        })
        let fresh = try renderer.images(frames: Self.frames)
        for (index, image) in fresh {
            #expect(whenConsumed[index] == image.bytes, "frame \(index) when consumed")
            #expect(kept[index]?.bytes == image.bytes, "frame \(index) after the render")
        }
    }
}
