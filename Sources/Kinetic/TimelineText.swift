import Foundation

/// The states of a run of frames as text a pull request can diff: the first frame's
/// every value, then at each frame only the values that changed, one `key = value` a line
/// (`ring.strokeEnd = 0.5`). Layers' values are kept as a state golden keeps them
/// (docs/golden.md): without corners, a path as its bounding box and length.
package enum TimelineText {
    package static func text(of states: [FrameState]) -> String {
        var lines: [String] = []
        var previous: [String: String] = [:]
        for state in states {
            var values: [String: String] = [:]
            for (section, entries) in [("", state.layers), ("items.", state.items), ("emitters.", state.emitters)] {
                for (key, value) in entries { flatten(value, key: section + key, into: &values) }
            }
            lines.append("frame \(state.frame) (\(state.time) s)")
            for key in values.keys.sorted() where previous[key] != values[key] {
                lines.append("  \(key) = \(values[key] ?? "")")
            }
            for key in previous.keys.sorted() where values[key] == nil { lines.append("  \(key) removed") }
            previous = values
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Objects become dotted keys; anything else is one value in compact JSON.
    private static func flatten(_ value: ReportValue, key: String, into out: inout [String: String]) {
        if case .object(let entries) = value {
            for (k, v) in entries { flatten(v, key: "\(key).\(k)", into: &out) }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        out[key] = String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}

extension Scene {
    /// The states of `frames` (every frame when nil) as ``TimelineText``.
    package func timelineText(frames: [Int]? = nil) throws(FrameRenderError) -> String {
        TimelineText.text(of: try states(atFrames: frames ?? Array(0..<frameCount), detail: .state))
    }
}
