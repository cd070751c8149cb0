import Foundation
import Kinetic
import KineticSnapshotTesting
import SnapshotTesting
import Testing

/// The example of docs/library.md: an animation snapshot-tested at chosen times and as
/// its whole timeline, with no waiting. The references are in __Snapshots__/.
struct LoaderSnapshotTests {
    /// A progress ring drawn in over one second, then faded out.
    static func loader() throws -> Scene {
        try Scene(size: [120, 120], scale: 1, fps: 10, duration: 1.5, layers: [
            ShapeLayer("ring").path("M 60 20 A 40 40 0 1 1 59.99 20").fillColor("clear")
                .strokeColor("systemBlue").lineWidth(8).lineCap("round").strokeEnd(0),
        ], animations: [
            BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 1).timingFunction("easeInEaseOut"),
            BasicAnimation("opacity", of: "ring", from: 1, to: 0, duration: 0.5).begin(1),
        ])
    }

    @Test func framesAtChosenTimes() throws {
        assertSnapshot(of: try Self.loader(), as: .frames(at: [0, 0.5, 1, 1.25]))
    }

    @Test func wholeTimeline() throws {
        assertSnapshot(of: try Self.loader(), as: .timeline)
    }

    @Test func asAnAnimatedGIF() throws {
        // One palette serves the whole GIF: 99% of each frame's pixels must match.
        assertSnapshot(of: try Self.loader(), as: .gif(precision: 0.99))
    }
}

/// The image strategy fails on a changed frame and reports how much changed.
struct FramesDiffingTests {
    @Test func aChangedFrameFailsWithTheCountOfPixels() throws {
        let strategy = Snapshotting<Scene, Data>.frames(at: [0.5])
        let reference = try LoaderSnapshotTests.loader().pngData(atFrame: 5)
        let changed = try LoaderSnapshotTests.loader().pngData(atFrame: 6)
        #expect(strategy.diffing.diffV2(reference, reference) == nil)
        let failure = try #require(strategy.diffing.diffV2(reference, changed))
        #expect(failure.0.contains("pixels differ"))
        // With precision 0 any image of the same size matches.
        #expect(Snapshotting<Scene, Data>.frames(at: [0.5], precision: 0).diffing.diffV2(reference, changed) == nil)
    }
}
