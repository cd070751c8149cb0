import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Timestamps of the frame stream's stages, per frame and thread, printed on stderr when
/// the environment sets `KINETIC_TRACE` (1: a summary a pass; `frames`: every span too).
///
/// Where a parallel render's wall time goes: which stage runs on one thread (the scene's
/// trees, the ordered write) and how long the workers wait for it, for Amdahl's law
/// (issue 42). Off, a span costs one load of a flag.
package final class StageTrace: Sendable {
    /// The stages a frame goes through, and the waits between them.
    package enum Stage: String, CaseIterable, Sendable {
        /// The frame's presentation tree (sequential: the scene's state advances).
        case tree
        /// Drawing the frame (workers).
        case raster
        /// The encoder's per-frame work (workers).
        case encode
        /// The ordered hand-off to the writer (one thread).
        case consume
        /// The calling thread waiting for the previous chunk's writer.
        case waitWriter = "wait-writer"
    }

    private struct Span {
        var stage: Stage
        var frame: Int
        var thread: Int
        var start: Double
        var end: Double
    }

    /// The trace of this process's renders, on when `KINETIC_TRACE` is set (not to 0).
    package static let shared: StageTrace = {
        let value = ProcessInfo.processInfo.environment["KINETIC_TRACE"] ?? ""
        return StageTrace(isOn: !value.isEmpty && value != "0", listsSpans: value == "frames")
    }()

    package let isOn: Bool
    private let listsSpans: Bool
    private let spans = Mutex<[Span]>([])
    private let origin = StageTrace.now()

    package init(isOn: Bool, listsSpans: Bool) { self.isOn = isOn; self.listsSpans = listsSpans }

    /// Runs `body` as `stage` of `frame` on this thread, timed when the trace is on.
    package func measure<R>(_ stage: Stage, frame: Int, _ body: () throws -> R) rethrows -> R {
        guard isOn else { return try body() }
        let start = Self.now()
        defer { record(stage, frame: frame, from: start, to: Self.now()) }
        return try body()
    }

    package func record(_ stage: Stage, frame: Int, from start: Double, to end: Double) {
        let span = Span(stage: stage, frame: frame, thread: Self.threadNumber(), start: start - origin, end: end - origin)
        spans.withLock { $0.append(span) }
    }

    /// Prints what was recorded since the last call (one pass of frames) and forgets it:
    /// per stage its spans, their summed seconds and the threads they ran on; the pass's
    /// wall time; the spans themselves when asked for.
    package func report(pass: String) {
        guard isOn else { return }
        let taken = spans.withLock { s in defer { s.removeAll() }; return s }
        guard let first = taken.map(\.start).min(), let last = taken.map(\.end).max() else { return }
        var lines: [String] = []
        if listsSpans {
            for s in taken.sorted(by: { $0.start < $1.start }) {
                lines.append(String(format: "trace %@ %@ frame=%d thread=%d start=%.2fms end=%.2fms", pass, s.stage.rawValue,
                                    s.frame, s.thread, s.start * 1e3, s.end * 1e3))
            }
        }
        lines.append(String(format: "trace %@ wall=%.3fs", pass, last - first))
        for stage in Stage.allCases {
            let of = taken.filter { $0.stage == stage }
            guard !of.isEmpty else { continue }
            let seconds = of.reduce(0) { $0 + $1.end - $1.start }
            lines.append(String(format: "trace %@ %@ spans=%d sum=%.3fs threads=%d", pass, stage.rawValue, of.count,
                                seconds, Set(of.map(\.thread)).count))
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    /// A small number per thread, in the order threads first record.
    private static func threadNumber() -> Int {
        let key = "kinetic.traceThread"
        if let n = Thread.current.threadDictionary[key] as? Int { return n }
        let n = nextThread.withLock { n in defer { n += 1 }; return n }
        Thread.current.threadDictionary[key] = n
        return n
    }

    private static let nextThread = Mutex(0)
}
