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

extension Snapshotting where Value == Kinetic.Scene, Format == Data {
    /// The whole scene as an animated GIF, as `kinetic render SCENE -o FILE.gif` writes
    /// it: a reference a pull request shows playing.
    ///
    /// Two animations match when they have the same size, frame count and delays and
    /// every frame's pixels (composited as a browser shows them) are equal.
    public static var gif: Snapshotting { gif(precision: 1) }

    /// The whole scene as an animated GIF.
    ///
    /// - Parameters:
    ///   - precision: The fraction of each frame's pixels that must match exactly.
    ///   - options: How the GIF is written: its frames, loop count, colours.
    public static func gif(precision: Float, options: OutputOptions = OutputOptions()) -> Snapshotting {
        Snapshotting(pathExtension: "gif", diffing: .sceneGIF(precision: precision)) { scene in
            do { return try scene.gifData(options: options) } catch { return Data("\(error)".utf8) }
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

extension Diffing where Value == Data {
    /// Animated GIFs compared frame by frame; they match when their size, frame count
    /// and delays are equal and at least `precision` of each frame's pixels are.
    static func sceneGIF(precision: Float) -> Diffing {
        .diff(toData: { $0 }, fromData: { $0 }) { old, new in
            guard old != new else { return nil }
            guard let reference = GIFComparison(gif: old), let actual = GIFComparison(gif: new) else {
                return ("the snapshot is not a GIF: \(String(decoding: new.prefix(300), as: UTF8.self))",
                        [.data(new, name: "actual")])
            }
            guard let difference = actual.difference(from: reference, precision: precision) else { return nil }
            return (difference, [.data(old, name: "reference.gif"), .data(new, name: "actual.gif")])
        }
    }
}
