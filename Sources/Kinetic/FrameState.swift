import Foundation
import KineticLayers
import KineticScene

/// The presentation state of one frame, as `kinetic inspect` reports it: every layer's
/// animatable values and corners on the canvas, the dynamic items' simulated states and
/// the emitters' particle counts (docs/inspect.md).
public struct FrameState: Codable, Equatable, Sendable {
    /// The frame's index.
    public var frame: Int
    /// The time it shows, in seconds.
    public var time: Double
    /// Each layer's values, by its id (or its place, such as `layers[1].mask`).
    public var layers: [String: ReportValue]
    /// Each dynamic item's `center`, `angle`, `velocity` and `angularVelocity`.
    public var items: [String: ReportValue]
    /// Each emitter's live particles, by cell.
    public var emitters: [String: ReportValue]

    /// The state as `kinetic inspect` prints it (keys sorted, indented).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

extension Scene {
    /// The presentation state of frame `index`: what `kinetic inspect SCENE --frame N`
    /// prints, as values.
    public func state(atFrame index: Int) throws(FrameRenderError) -> FrameState {
        try states(atFrames: [index])[0]
    }

    /// The states of `frames` (ascending), simulated in one pass.
    public func states(atFrames frames: [Int]) throws(FrameRenderError) -> [FrameState] {
        try states(atFrames: frames, detail: .standard)
    }

    /// The states in the given detail (`.state` is what a state golden keeps).
    package func states(atFrames frames: [Int], detail: InspectReport.Detail) throws(FrameRenderError) -> [FrameState] {
        var states: [FrameState] = []
        try forEachFrame(frames) { tree, clock in
            // The same report `inspect` prints; its sections are objects by construction.
            let report = InspectReport.report(for: tree, items: clock.itemStates, detail: detail)
            func section(_ key: String) -> [String: ReportValue] {
                if case .object(let values)? = report[key] { return values }
                return [:]
            }
            states.append(FrameState(frame: tree.index, time: InspectReport.number(tree.time),
                                     layers: section("layers"), items: section("items"), emitters: section("emitters")))
        }
        return states
    }
}
