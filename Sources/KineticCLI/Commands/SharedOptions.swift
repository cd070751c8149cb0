import ArgumentParser
import Foundation

/// `--jobs N`, shared by every command that rasterizes or encodes frames.
struct JobOptions: ParsableArguments {
    @Option(help: "Worker threads for rasterizing, decoding and encoding frames; 1 does all on one thread (default: one per core).")
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }
}

/// `--loop N`, shared by the commands that write looping animations.
struct LoopOptions: ParsableArguments {
    @Option(help: "GIF, WebP and APNG loop count; 0 loops forever.")
    var loop = 0

    func validate() throws {
        if loop < 0 || loop > 65535 { throw ValidationError("--loop must be 0…65535") }
    }
}

/// `--frames A-B`, shared by `render` and `batch`.
struct FrameRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Render only frames A through B (0-based, inclusive), e.g. 0-49; N alone is one frame.",
                               valueName: "A-B"))
    var frames: FrameRange?
}

/// Frames A through B, 0-based and inclusive, 0 ≤ A ≤ B: `--frames 0-49`, or `--frames 7`
/// for one frame.
struct FrameRange: ExpressibleByArgument, Equatable, Sendable {
    var range: ClosedRange<Int>

    init(_ range: ClosedRange<Int>) { self.range = range }

    init?(argument text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b {
            range = a...b
        } else if let single = Int(text), single >= 0 {
            range = single...single
        } else {
            return nil
        }
    }
}
