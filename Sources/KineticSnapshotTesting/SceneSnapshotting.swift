import Foundation
import Kinetic
import SnapshotTesting

extension Snapshotting where Value == Kinetic.Scene, Format == Data {
    /// The scene's frames at `times` (seconds, ascending), side by side in one PNG.
    ///
    /// Frames come from the scene's own clock, so no test waits for an animation: the
    /// state at 0.5 s is rendered directly, the same pixels every run.
    ///
    /// - Parameters:
    ///   - times: The moments to show; each is shown by the frame ⌊time × fps⌋.
    ///   - precision: The fraction of pixels that must match exactly (1: all of them).
    public static func frames(at times: [Double], precision: Float = 1) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .scenePixels(precision: precision)) { scene in
            // A strategy cannot throw: a scene that fails to render records its error, which
            // then fails the comparison with the error in the message.
            do { return try scene.filmstripPNGData(atFrames: times.map(scene.frame(at:))) } catch {
                return Data("\(error)".utf8)
            }
        }
    }
}

extension Snapshotting where Value == Kinetic.Scene, Format == String {
    /// Every frame's presentation state as text, each value a line where it changes —
    /// the animation as numbers, diffable in a pull request.
    public static var timeline: Snapshotting { timeline(frames: nil) }

    /// The presentation states of `frames` (ascending; every frame when nil) as text.
    public static func timeline(frames: [Int]?) -> Snapshotting {
        SimplySnapshotting.lines.pullback { (scene: Kinetic.Scene) in
            do { return try scene.timelineText(frames: frames) } catch { return "error: \(error)\n" }
        }
    }
}

extension Diffing where Value == Data {
    /// PNG images compared pixel by pixel; they match when at least `precision` of their
    /// pixels are equal.
    static func scenePixels(precision: Float) -> Diffing {
        .diff(toData: { $0 }, fromData: { $0 }) { old, new in
            guard old != new else { return nil }
            guard let a = PixelComparison(png: old), let b = PixelComparison(png: new) else {
                return ("the snapshot is not a PNG image: \(String(decoding: new.prefix(300), as: UTF8.self))",
                        [.data(new, name: "actual")])
            }
            guard a.width == b.width, a.height == b.height else {
                return ("expected a \(a.width)×\(a.height) image, got \(b.width)×\(b.height)", [.data(new, name: "actual.png")])
            }
            let differing = a.differingPixels(from: b)
            let total = a.width * a.height
            if Float(total - differing) / Float(max(total, 1)) >= precision { return nil }
            return ("\(differing) of \(total) pixels differ (precision \(precision))",
                    [.data(old, name: "reference.png"), .data(new, name: "actual.png")])
        }
    }
}
