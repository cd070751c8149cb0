@testable import KineticCLI
import Dispatch
import Glibc
import Kinetic
import KineticEncode
import KineticGeometry
import KineticScene
import Synchronization
import Testing

/// `FramePipeline`: a frame drawn like the one before it takes that frame's raster
/// instead of being drawn again, and only then.
@Suite struct FramePipelineTests {
    /// A square slides for 0.2 s of a 0.5 s scene at 20 fps, then rests.
    static let scene = """
        kinetic: 1
        scene: {size: [40, 30], fps: 20, duration: 0.5, background: white}
        layers:
          - {id: square, position: [10, 15], bounds: [8, 8], backgroundColor: systemRed}
        animations:
          - {layer: square, keyPath: position.x, from: 10, to: 30, duration: 0.2}
        """

    static func storage(_ image: PixelImage) -> UnsafeRawPointer? {
        image.bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test(arguments: [1, 2])
    func framesAtRestShareTheRasterBeforeThem(jobs: Int) throws {
        let scene = try SceneLoader.load(text: Self.scene, file: "t.yaml")
        let renderer = try SceneRenderer(scene: scene, limits: SceneLimits(), jobs: jobs, showsProgress: false)
        let frames = try renderer.images(frames: Array(0..<10)).map(\.image)
        // Every frame drawn anew, for comparison.
        let drawn = try (0..<10).map { index in
            try renderer.images(frames: [index]).map(\.image)[0]
        }
        #expect(frames.map(\.bytes) == drawn.map(\.bytes))
        // Moving (frames 0–4: the slide ends at 0.2 s, frame 4) each is its own raster;
        // at rest (5–9) each is the one before it, across chunks too.
        for k in 1..<10 {
            let shared = Self.storage(frames[k]) == Self.storage(frames[k - 1])
            #expect(shared == (k >= 5), "frame \(k)")
        }
    }

    /// A stream told where frames change passes that on for a frame that directly
    /// follows the one before it, across chunks, and nothing for one that does not.
    @Test(arguments: [1, 2])
    func aFrameIsToldItsChangeOnlyAfterTheFrameBeforeIt(jobs: Int) throws {
        let frames = [0, 1, 2, 5, 6, 7, 9]
        let stream = FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false),
                                 changes: { .runs([PixelRun(y: 0, x: Int32($0), count: 1)]) })
        var told: [Int: FrameChange] = [:]
        try stream.run(rasters: { $0.map { _ in PixelImage(width: 1, height: 1) } },
                       encode: { _, _, change in change }, consume: { told[$0] = $1 })
        #expect(told.count == frames.count)
        for frame in frames {
            let follows = frame > 0 && frames.contains(frame - 1)
            #expect(told[frame] == (follows ? .runs([PixelRun(y: 0, x: Int32(frame), count: 1)]) : .unknown), "frame \(frame)")
        }
    }

    /// `--jobs 1` bounds the work to one thread, as `make -j1` does: frames are encoded and
    /// consumed on the calling thread (a writer thread beside it made one job use two
    /// cores, issue 42). With more jobs the writer has no thread of its own either: each
    /// frame is consumed by one of the `jobs` threads that encode (a third thread beside
    /// two workers took turns with them on two cores).
    @Test(arguments: [1, 2, 3])
    func framesAreConsumedOnlyByTheThreadsThatEncode(jobs: Int) throws {
        let caller = pthread_self()
        let frames = Array(0..<24)
        let encoders = Mutex<Set<UInt>>([])
        var consumers: Set<UInt> = [], consumedOnCaller: [Bool] = []
        try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
            .run(rasters: { $0.map { _ in PixelImage(width: 1, height: 1) } },
                 encode: { _, _, _ in
                     // Long enough for every worker to take frames.
                     usleep(2_000)
                     _ = encoders.withLock { $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
                 },
                 consume: { _, _ in
                     consumers.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
                     consumedOnCaller.append(pthread_equal(pthread_self(), caller) != 0)
                 })
        #expect(consumedOnCaller.count == frames.count)
        let encodedOn = encoders.withLock { $0 }
        #expect(encodedOn.count <= jobs)
        #expect(consumers.isSubset(of: encodedOn), "consumed on \(consumers.count) threads, encoded on \(encodedOn.count)")
        if jobs == 1 { #expect(consumedOnCaller.allSatisfy { $0 }) }
    }
}

/// `FrameStream`'s workers: no wait for a whole chunk, and the frames in flight bounded.
@Suite struct FrameScheduleTests {
    /// A frame slow to draw holds up only the frames that need its raster: the next chunk
    /// is drawn and encoded meanwhile (one chunk at a time left every worker but the slow
    /// one idle at each chunk's end, issue 42). Three workers at least: the slow frame
    /// holds one, the frame after it (its encoding) another.
    @Test(arguments: [3, 4])
    func aSlowFrameDoesNotStopTheWorkersAtItsChunksEnd(jobs: Int) throws {
        let chunk = FrameStream.chunkSize(jobs: jobs)
        let frames = Array(0..<(3 * chunk))
        // The chunk's last frame is drawn only once the second frame of the next chunk is
        // encoded (or after 5 s); the next chunk's first frame waits for it.
        let slow = chunk - 1, beyond = chunk + 1
        let encodedBeyond = DispatchSemaphore(value: 0)
        let waited = Mutex(DispatchTimeoutResult.timedOut)
        try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
            .run(sources: { chunk in
                chunk.map { i -> FrameStream.Source in
                    .draw {
                        if i == slow { waited.withLock { $0 = encodedBeyond.wait(timeout: .now() + 5) } }
                        return PixelImage(width: 1, height: 1, stride: 4, bytes: [UInt8(i), 0, 0, 0])
                    }
                }
            }, encode: { frame, _, _ in
                if frame.bytes[0] == UInt8(beyond) { encodedBeyond.signal() }
            }, consume: { _, _ in })
        #expect(waited.withLock { $0 } == .success)
    }

    /// Frames drawn and not yet consumed never exceed the frames in flight, however slow
    /// the writer, and the other workers draw ahead of a writer that stalls.
    @Test(arguments: [1, 2, 3])
    func framesInFlightStayWithinTheBound(jobs: Int) throws {
        let frames = Array(0..<40)
        let limit = FrameStream.framesInFlight(jobs: jobs)
        struct Counts { var drawn = 0, consumed = 0, most = 0 }
        let counts = Mutex(Counts())
        try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
            .run(sources: { chunk in
                chunk.map { _ -> FrameStream.Source in
                    .draw {
                        counts.withLock { c in
                            c.drawn += 1
                            c.most = max(c.most, c.drawn - c.consumed)
                        }
                        return PixelImage(width: 1, height: 1)
                    }
                }
            }, encode: { _, _, _ in }, consume: { index, _ in
                // A slow writer: the workers fill the bound meanwhile.
                if index % 10 == 0 { usleep(50_000) }
                counts.withLock { $0.consumed += 1 }
            })
        let most = counts.withLock { $0.most }
        #expect(most <= limit)
        if jobs > 1 { #expect(most > jobs, "drawn ahead of the writer: \(most)") }
    }
}

/// `FrameStream`: a frame consumed is held nowhere while the rest of its chunk is.
@Suite struct ConsumedFrameTests {
    final class Token: Sendable {}

    /// What a frame's encoder made is freed as soon as the frame is consumed, not with its
    /// chunk: a GIF frame's source colours are then lent to a later frame in place
    /// (`AnimationWriter`), never copied because the stream still held them.
    @Test(arguments: [1, 2, 3])
    func aConsumedFrameIsFreedBeforeTheNextIsConsumed(jobs: Int) throws {
        let frames = Array(0..<13)
        weak var last: Token?
        var stillHeld: [Int] = []
        try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
            .run(rasters: { $0.map { _ in PixelImage(width: 1, height: 1) } },
                 encode: { _, _, _ in Token() },
                 consume: { index, token in
                     if last != nil { stillHeld.append(index - 1) }
                     last = token
                 })
        #expect(stillHeld == [])
    }
}

/// `FrameStream.run(sources:)`: frames drawn by the workers that encode them.
@Suite struct FrameSourceTests {
    struct Unreadable: Error, Equatable { let frame: Int }

    /// Each frame is encoded with the raster of the frame before it (across chunks and
    /// repeats), whichever worker draws it.
    @Test(arguments: [1, 2, 3])
    func eachFrameIsEncodedWithTheFrameBeforeIt(jobs: Int) throws {
        let frames = Array(0..<23)
        // Frame i is one pixel of value i; frames 7 and 8 repeat the raster before them.
        let repeats: Set<Int> = [7, 8]
        var pairs: [Int: [UInt8?]] = [:]
        try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
            .run(sources: { chunk in
                chunk.map { i -> FrameStream.Source in
                    repeats.contains(i) ? .previous
                        : .draw { PixelImage(width: 1, height: 1, stride: 4, bytes: [UInt8(i), 0, 0, 0]) }
                }
            }, encode: { frame, previous, _ in [frame.bytes[0], previous?.bytes[0]] }, consume: { pairs[$0] = $1 })
        for i in frames {
            let drawn = repeats.contains(i) ? 6 : i
            let before: UInt8? = i == 0 ? nil : UInt8(repeats.contains(i - 1) ? 6 : i - 1)
            #expect(pairs[i] == [UInt8(drawn), before], "frame \(i)")
        }
    }

    /// A frame that cannot be drawn stops the stream with its own error, never a hang,
    /// even when the worker encoding the frame after it gets to the error first.
    @Test(arguments: [1, 2, 3])
    func aFrameThatCannotBeDrawnStopsTheStreamWithItsError(jobs: Int) {
        let frames = Array(0..<12)
        #expect(throws: Unreadable(frame: 5)) {
            try FrameStream(frames: frames, jobs: jobs, progress: Progress(total: frames.count, enabled: false))
                .run(sources: { chunk in
                    chunk.map { i -> FrameStream.Source in
                        .draw {
                            if i == 5 { throw Unreadable(frame: 5) }
                            return PixelImage(width: 1, height: 1)
                        }
                    }
                }, encode: { _, _, _ in () }, consume: { _, _ in })
        }
    }
}
