import Foundation
import KineticEncode
import KineticGeometry

/// The frames of one ``FrameStream`` run between the thread that makes them known in
/// order (``publish(_:)``) and the workers that draw, encode and write them: each worker
/// takes the next frame, draws it, encodes it once the frame before it is drawn, and
/// writes every frame that is next in order and encoded, one writer at a time.
///
/// No step waits for a group of frames: a worker that finishes a frame takes the next
/// one whatever the others are doing, and the frame that is next to be written is written
/// by whichever worker finishes it, with no thread of its own for the writer. Frames in
/// flight (published, not yet written) stay within ``limit``, so memory is bounded by
/// it whatever the frame count (issue 42).
// @unchecked: every stored property but the constants is only touched with `condition`
// locked; `consume` runs on one thread at a time (the writer's turn, `writing`).
final class FrameSchedule<Encoded: Sendable>: @unchecked Sendable {
    /// A frame as published: where its raster comes from and what changed since the one
    /// before it.
    struct Item {
        var frame: Int
        var source: FrameStream.Source
        var change: FrameChange
    }

    /// Frames published and not yet written, at most.
    let limit: Int
    private let encode: @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded
    private let consume: (Int, Encoded) throws -> Void
    private let buffers: FrameBufferPool?
    private let progress: Progress
    private let condition = NSCondition()

    /// Published frames not yet taken, by position in the stream.
    private var items: [Int: Item] = [:]
    private var published = 0, taken = 0, written = 0
    /// Every position below it is encoded: the raster before it is the one still needed.
    private var encodedUpTo = 0
    private var encodedAhead: Set<Int> = []
    /// Rasters drawn and still needed (by the next frame's encoding), by position.
    private var rasters: [Int: PixelImage] = [:]
    /// Frames that could not be drawn: what a frame waiting for one rethrows.
    private var failures: [Int: any Error] = [:]
    /// Encoded frames waiting for their turn to be written, with their frame numbers.
    private var encoded: [Int: (frame: Int, value: Encoded)] = [:]
    /// A worker is writing: the others leave their frames to it.
    private var writing = false
    private var allPublished = false
    /// The first error anywhere: every worker stops taking frames.
    private var stopped: (any Error)?

    init(limit: Int, buffers: FrameBufferPool?, progress: Progress,
         encode: @escaping @Sendable (PixelImage, PixelImage?, FrameChange) throws -> Encoded,
         consume: @escaping (Int, Encoded) throws -> Void) {
        precondition(limit >= 1, "at least one frame in flight")
        self.limit = limit; self.buffers = buffers; self.progress = progress
        self.encode = encode; self.consume = consume
    }

    /// Whether `count` more frames fit within ``limit`` now (the stream stopped: false).
    func hasRoom(for count: Int) -> Bool {
        condition.lock(); defer { condition.unlock() }
        return stopped == nil && published - written + count <= limit
    }

    /// Makes `items` the next frames to take.
    func publish(_ new: [Item]) {
        condition.lock()
        for item in new {
            items[published] = item
            published += 1
        }
        condition.broadcast(); condition.unlock()
    }

    /// No frame comes after those published: workers waiting for one return.
    func finishPublishing() {
        condition.lock(); allPublished = true; condition.broadcast(); condition.unlock()
    }

    /// Stops the stream with `error` unless an earlier error did.
    func stop(_ error: any Error) {
        condition.lock()
        if stopped == nil { stopped = error }
        condition.broadcast(); condition.unlock()
    }

    /// The first error, rethrown.
    func rethrow() throws {
        condition.lock(); let error = stopped; condition.unlock()
        if let error { throw error }
    }

    /// What a thread does next.
    enum Turn {
        /// The frame at this position to draw, encode and write in turn.
        case frame(Int, Item)
        /// Room for the feeder's next frames.
        case room
        /// Everything is taken and no more will come, or the stream stopped.
        case over
    }

    /// The next frame to take, once one is published; for the feeder (`roomFor`: its next
    /// chunk's frame count) room for its next frames, if that comes first. A feeder that
    /// does not work (`takes` false) only waits for room.
    func next(roomFor count: Int? = nil, takes: Bool = true) -> Turn {
        condition.lock(); defer { condition.unlock() }
        while true {
            if stopped != nil { return .over }
            if takes, taken < published, let item = items.removeValue(forKey: taken) {
                defer { taken += 1 }
                return .frame(taken, item)
            }
            if allPublished { return .over }
            if let count, published - written + count <= limit { return .room }
            condition.wait()
        }
    }

    /// Takes frames and handles them until the stream is over.
    func work() {
        while case let .frame(position, item) = next() { handle(position, item) }
    }

    /// Draws, encodes and (in its turn) writes the frame at `position`.
    func handle(_ position: Int, _ item: Item) {
        do {
            let raster: PixelImage
            do {
                switch item.source {
                case .drawn(let image): raster = image
                case .draw(let draw): raster = try draw()
                case .previous:
                    guard position > 0 else { preconditionFailure("the first frame streamed repeats no frame") }
                    raster = try self.raster(position - 1)
                }
            } catch {
                fail(position, error)
                return
            }
            set(position, raster)
            try encodeFrame(position, item, raster)
            writeInTurn()
        } catch {
            stop(error)
        }
    }

    /// Encodes the frame at `position` once the frame before it is drawn, and keeps the
    /// result for its turn — held by the schedule alone, so that writing it frees it: the
    /// result is moved in (`consume`), not copied, or this worker would hold it until it
    /// returns, possibly after another has written the frame.
    private func encodeFrame(_ position: Int, _ item: Item, _ raster: PixelImage) throws {
        let before = try position == 0 ? nil : self.raster(position - 1)
        let result = try StageTrace.shared.measure(.encode, frame: item.frame) {
            try encode(raster, before, item.change)
        }
        finishEncoding(position, frame: item.frame, consume result)
    }

    private func set(_ position: Int, _ raster: PixelImage) {
        condition.lock(); rasters[position] = raster; condition.broadcast(); condition.unlock()
    }

    /// The frame at `position` will never be drawn: `error` is why.
    private func fail(_ position: Int, _ error: any Error) {
        condition.lock()
        failures[position] = error
        if stopped == nil { stopped = error }
        condition.broadcast(); condition.unlock()
    }

    /// The raster at `position`, once drawn; the error that stopped its drawing (or the
    /// stream) rethrown, so the stream reports that error whichever worker gets there first.
    private func raster(_ position: Int) throws -> PixelImage {
        condition.lock(); defer { condition.unlock() }
        while true {
            if let raster = rasters[position] { return raster }
            if let error = failures[position] ?? stopped { throw error }
            condition.wait()
        }
    }

    /// Keeps `result` for its turn, and lets go of the rasters no frame still needs: each
    /// but the last of those encoded without a gap, whose next frame is then encoded.
    private func finishEncoding(_ position: Int, frame: Int, _ result: consuming Encoded) {
        condition.lock()
        encoded[position] = (frame, consume result)
        encodedAhead.insert(position)
        let from = encodedUpTo
        while encodedAhead.remove(encodedUpTo) != nil { encodedUpTo += 1 }
        // Positions from - 1 up to encodedUpTo - 2 are no longer needed: the frame after
        // each is encoded. encodedUpTo - 1's raster stays for the frame after it.
        var released: [PixelImage] = []
        if encodedUpTo > from {
            for p in max(0, from - 1)..<(encodedUpTo - 1) {
                if let raster = rasters.removeValue(forKey: p) { released.append(raster) }
            }
        }
        let held = encodedUpTo > 0 ? rasters[encodedUpTo - 1] : nil
        condition.unlock()
        if let buffers, !released.isEmpty { FrameStream.recycle(released, holding: held, to: buffers) }
    }

    /// Writes the frames that are next in order and encoded, unless another worker is
    /// writing (it then writes these too: it looks for the next one after each write).
    private func writeInTurn() {
        condition.lock()
        guard !writing else { condition.unlock(); return }
        writing = true
        while stopped == nil, let next = encoded.removeValue(forKey: written) {
            condition.unlock()
            let wrote = write(frame: next.frame, next.value)
            condition.lock()
            guard wrote else { break }
            written += 1
            condition.broadcast()
        }
        writing = false
        condition.unlock()
    }

    /// Hands one frame to `consume`; false when it threw (the stream then stops). The
    /// frame is held nowhere once written: what its encoder handed back for later frames
    /// (a GIF frame's source colours, ``AnimationWriter``) is then reused in place.
    private func write(frame: Int, _ value: consuming Encoded) -> Bool {
        do {
            try StageTrace.shared.measure(.consume, frame: frame) { try consume(frame, value) }
            progress.advance()
            return true
        } catch {
            stop(error)
            return false
        }
    }

    /// Whether every frame published was written (after the workers are done).
    var wroteEverything: Bool {
        condition.lock(); defer { condition.unlock() }
        return written == published && allPublished
    }
}
