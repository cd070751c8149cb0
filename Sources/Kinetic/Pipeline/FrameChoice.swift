import KineticGeometry
import KineticScene

/// The one frame `--frame N` or `--time T` asks for, checked against the scene's frames:
/// both stop at the scene's end.
package struct FrameChoice {
    /// The frame's index (0-based).
    package var index: Int
    /// The time it is computed at: T itself for `--time T` (exactly there, not at the
    /// start of the frame showing it), N / fps for `--frame N`.
    package var time: Double

    /// Frame N is past the end when N ≥ `frameCount`. Time T is past the end when it is
    /// after the end of the last frame, `frameCount` / fps (the duration, when that is a
    /// whole number of frames); T is shown by frame ⌊T × fps⌋, and the end itself by the
    /// last frame (the state the scene ends in).
    package init(frame: Int?, time: Double?, frameCount: Int, fps: Double) throws(FrameChoiceError) {
        let last = frameCount - 1
        if let time {
            let end = Double(frameCount) / fps
            guard time <= end else { throw .timePastEnd(time: time, end: end, lastFrame: last) }
            self.index = min(Int((time * fps).rounded(.down)), last)
            self.time = time
        } else {
            let index = frame ?? 0
            guard index < frameCount else { throw .framePastEnd(frame: index, lastFrame: last) }
            self.index = index
            self.time = Double(index) / fps
        }
    }
}

/// A `--frame` or `--time` past the scene's end: a usage error (exit 64).
package enum FrameChoiceError: Error, Equatable, CustomStringConvertible {
    case framePastEnd(frame: Int, lastFrame: Int)
    /// `end`: when the last frame ends, the last time `--time` accepts.
    case timePastEnd(time: Double, end: Double, lastFrame: Int)

    package var description: String {
        switch self {
        case .framePastEnd(let frame, let last):
            "--frame \(frame) is past the last frame (\(last))"
        case .timePastEnd(let time, let end, let last):
            "--time \(ValueRange.format(time)) is past the scene's end (\(Self.seconds(end)) s; the last frame is \(last))"
        }
    }

    /// Computed seconds for a message: at most 6 decimals, no trailing zeros.
    package static func seconds(_ t: Double) -> String {
        ValueRange.format((t * 1e6).rounded() / 1e6)
    }
}
