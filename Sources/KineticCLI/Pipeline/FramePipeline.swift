import Foundation
import KineticGeometry
import KineticLayers
import KineticRender
import KineticScene

/// The render loop: presentation trees are computed in order (simulation is sequential),
/// then rasterized and encoded in parallel, then handed to a sink in frame order.
///
/// Frames go through in chunks of `2 × jobs`, so memory holds at most one chunk of
/// rasters (plus the last frame of the previous chunk, which frame differencing needs)
/// whatever the frame count.
struct FramePipeline {
    var timeline: Timeline
    var renderer: Renderer
    var fps: Double
    var frames: [Int]
    var jobs: Int
    var progress: Progress
    /// The particle limit (section 9).
    var maxParticles = SceneLimits().maxParticles

    /// Runs `encode(frame, previous)` on worker threads and `consume(index, encoded)` on the
    /// calling thread in frame order.
    func run<Encoded>(encode: @escaping @Sendable (PixelImage, PixelImage?) throws -> Encoded,
                      consume: (Int, Encoded) throws -> Void) throws {
        let chunkSize = max(2, jobs * 2)
        var previous: PixelImage?
        var start = 0
        // Physics and emitters are stateful: they advance with the frames, in order.
        let simulation = Simulation(timeline: timeline)
        var particles = ParticleSimulation(scene: timeline.scene, maxParticles: maxParticles)
        while start < frames.count {
            let chunk = Array(frames[start..<min(start + chunkSize, frames.count)])
            // Sequential: the scene's state advances frame by frame.
            let trees = try chunk.map { try particles.addingParticles(to: simulation.frame($0, fps: fps)) }
            let renderer = self.renderer
            let rasters = try Parallel.map(trees, jobs: jobs) { try renderer.rasterize($0) }
            let carried = previous
            let encoded = try Parallel.map(Array(rasters.indices), jobs: jobs) { k in
                try encode(rasters[k], k == 0 ? carried : rasters[k - 1])
            }
            for (k, e) in encoded.enumerated() {
                try consume(chunk[k], e)
                progress.advance()
            }
            previous = rasters.last
            start += chunk.count
        }
    }
}

/// A parallel map over at most `jobs` threads that keeps the order and rethrows the first
/// error.
enum Parallel {
    static func map<T, R>(_ items: [T], jobs: Int, _ body: @escaping @Sendable (T) throws -> R) throws -> [R] {
        let results = ResultSlots<R>(count: items.count)
        let workers = max(1, min(jobs, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < items.count {
                results.set(i, Result { try body(items[i]) })
                i += workers
            }
        }
        return try results.values()
    }
}

/// Result storage written from several threads, each slot by exactly one.
private final class ResultSlots<R>: @unchecked Sendable {
    private var slots: [Result<R, Error>?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ r: Result<R, Error>) { lock.lock(); slots[i] = r; lock.unlock() }
    func values() throws -> [R] { try slots.map { try $0!.get() } }
}
