import Dispatch
import Foundation

/// The state behind the preview page: the last scene that loaded, the problems of the
/// file as it is now, and the encoded frames. Everything runs on one serial queue
/// (rendering is sequential anyway: the simulation advances frame by frame), so the
/// server's tasks never block the concurrency pool on a render.
public final class PreviewSession: @unchecked Sendable {
    public let path: String
    private let loader: PreviewLoader
    private let queue = DispatchQueue(label: "kinetic.preview.session")
    /// Where scenes load: off the session's queue, so a slow load (a large scene) never
    /// holds up the frames and JSON of the last good scene meanwhile.
    private let loadQueue = DispatchQueue(label: "kinetic.preview.load")

    // Queue-confined state.
    private var scene: (any PreviewScene)?
    private var problems: [String] = []
    /// Counts successful loads; frame URLs carry it, so a browser never shows a stale frame.
    private var generation = 0
    private var cache: FrameCache<FrameKey>
    private var watcher: FileWatcher

    struct FrameKey: Hashable, Sendable {
        var generation: Int
        var frame: Int
        var debug: Bool
    }

    /// - Parameter cacheBytes: the most bytes of encoded frames kept.
    public init(path: String, cacheBytes: Int, loader: @escaping PreviewLoader) {
        self.path = path
        self.loader = loader
        cache = FrameCache(capacity: cacheBytes)
        watcher = FileWatcher(paths: [path])
        let first = loader(path)
        queue.sync { apply(first) }
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in queue.async { c.resume(returning: body()) } }
    }

    /// A load's result handed from the load queue to the session's queue: the scene is
    /// made on the one and then used only on the other.
    private struct Handoff: @unchecked Sendable {
        let result: Result<any PreviewScene, PreviewLoadFailure>
    }

    /// Takes a load's result (on the session's queue): on success the new scene replaces
    /// the old; on failure the last good scene stays and the problems are reported.
    private func apply(_ result: Result<any PreviewScene, PreviewLoadFailure>) {
        switch result {
        case .success(let loaded):
            scene = loaded
            problems = []
            generation += 1
            cache.removeAll()
            watcher.watch([path] + loaded.info.files.filter { $0 != path })
        case .failure(let failure):
            problems = failure.messages
        }
    }

    /// Polls the watched files; when one changed, reloads and returns true.
    public func reloadIfChanged() async -> Bool {
        guard await run({ [self] in watcher.poll() }) else { return false }
        let loaded = await withCheckedContinuation { c in
            loadQueue.async { [loader, path] in c.resume(returning: Handoff(result: loader(path))) }
        }
        await run { [self] in apply(loaded.result) }
        return true
    }

    /// The page's state as JSON: the scene's timing and canvas, the generation and the
    /// current problems.
    public func stateJSON() async -> [UInt8] {
        await run { [self] in
            var state: [String: Any] = [
                "file": path,
                "generation": generation,
                "problems": problems,
                "cacheBytes": cache.bytes,
                "cacheCapacity": cache.capacity,
            ]
            if let info = scene?.info {
                state["fps"] = info.fps
                state["frameCount"] = info.frameCount
                state["width"] = info.width
                state["height"] = info.height
                state["scale"] = info.scale
                state["exportFormats"] = info.exportFormats
            }
            return Self.json(state)
        }
    }

    public enum FrameFailure: Error, Sendable {
        /// No scene has loaded yet, or the frame is out of the scene (404).
        case notFound(String)
        /// Rendering failed (a simulation that blew up): the scene's problem (422).
        case failed(String)
        /// The request asked for something the scene does not offer (400).
        case invalid(String)
    }

    /// Frame `index` as PNG, from the cache or rendered now.
    public func png(frame index: Int, debug: Bool) async -> Result<[UInt8], FrameFailure> {
        await run { [self] in
            guard let scene else { return .failure(.notFound("the scene has not loaded")) }
            guard index >= 0, index < scene.info.frameCount else {
                return .failure(.notFound("frame \(index) is outside 0-\(scene.info.frameCount - 1)"))
            }
            let key = FrameKey(generation: generation, frame: index, debug: debug)
            if let bytes = cache.value(for: key) { return .success(bytes) }
            do {
                let bytes = try scene.png(frame: index, debug: debug)
                cache.insert(bytes, for: key)
                return .success(bytes)
            } catch {
                return .failure(.failed("\(path): \(error)"))
            }
        }
    }

    /// `inspect`'s JSON of frame `index`.
    public func inspect(frame index: Int) async -> Result<[UInt8], FrameFailure> {
        await run { [self] in
            guard let scene else { return .failure(.notFound("the scene has not loaded")) }
            guard index >= 0, index < scene.info.frameCount else {
                return .failure(.notFound("frame \(index) is outside 0-\(scene.info.frameCount - 1)"))
            }
            do { return .success(Array(try scene.inspect(frame: index).utf8)) } catch {
                return .failure(.failed("\(path): \(error)"))
            }
        }
    }

    /// Writes the scene as `format` (GIF, or another of the scene's export formats) next to it.
    public func export(format: String) async -> Result<String, FrameFailure> {
        await run { [self] in
            guard let scene else { return .failure(.notFound("the scene has not loaded")) }
            let formats = scene.info.exportFormats
            guard formats.contains(format) else {
                return .failure(.invalid("cannot export .\(format); the formats are \(formats.joined(separator: ", "))"))
            }
            do { return .success(try scene.export(format: format)) } catch { return .failure(.failed("\(error)")) }
        }
    }

    static func json(_ object: Any) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data)
    }
}
