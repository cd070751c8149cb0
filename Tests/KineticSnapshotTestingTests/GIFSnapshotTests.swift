import Foundation
import Kinetic
import KineticSnapshotTesting
import SnapshotTesting
import Testing

/// The `.gif` strategy through swift-snapshot-testing's own recording and comparison:
/// a reference is recorded, the same scene then matches it, and a changed scene fails
/// with what changed.
struct GIFSnapshotTests {
    /// A fresh folder for references, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-gif-snapshots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The loader with its fade starting at `fadeBegin` seconds (1 in the example).
    static func loader(fadeBegin: Double = 1, duration: Double = 1.5) throws -> Scene {
        try Scene(size: [120, 120], scale: 1, fps: 10, duration: duration, layers: [
            ShapeLayer("ring").path("M 60 20 A 40 40 0 1 1 59.99 20").fillColor("clear")
                .strokeColor("systemBlue").lineWidth(8).lineCap("round").strokeEnd(0),
        ], animations: [
            BasicAnimation("strokeEnd", of: "ring", from: 0, to: 1, duration: 1).timingFunction("easeInEaseOut"),
            BasicAnimation("opacity", of: "ring", from: 1, to: 0, duration: 0.5).begin(fadeBegin),
        ])
    }

    @Test func recordsThenMatchesThenFailsOnAChange() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One palette serves a whole GIF, so a change anywhere can move a few pixels of
        // every frame by a palette step: frames match when 99% of their pixels do.
        func verify(_ scene: Scene, record: SnapshotTestingConfiguration.Record) -> String? {
            verifySnapshot(of: scene, as: .gif(precision: 0.99), named: "loader", record: record,
                           snapshotDirectory: folder.path)
        }
        // Recording writes the reference, and (as swift-snapshot-testing does) fails to say so.
        let recorded = try #require(verify(try Self.loader(), record: .all))
        #expect(recorded.contains("Record mode is on"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasSuffix(".gif"))
        let reference = try Data(contentsOf: folder.appendingPathComponent(files[0]))
        #expect(reference.starts(with: Array("GIF89a".utf8)))
        // The reference is the GIF the library writes: 1.5 s at 10 fps is 15 frames of 10 cs.
        let decoded = try #require(GIFComparison(gif: reference))
        #expect(decoded.width == 120 && decoded.height == 120)
        #expect(decoded.delays == Array(repeating: 10, count: 15))

        // The same scene matches, frame for frame.
        #expect(verify(try Self.loader(), record: .never) == nil)

        // A fade that begins at 0.8 s instead of 1 s: frame 8 shows its start (opacity 1,
        // as the reference), frames 9-12 are 0.8-0.2 where the reference is still 1 or
        // fading behind, and 13-14 are past its end where the reference is at 0.4 and 0.2.
        // The ring is about 2,000 of the 14,400 pixels, so each of them is over 1% off.
        let changed = try #require(verify(try Self.loader(fadeBegin: 0.8), record: .never))
        #expect(changed.contains("6 of 15 frames differ; the first, frame 9,"), "\(changed)")

        // A longer scene has more frames.
        let longer = try #require(verify(try Self.loader(duration: 2), record: .never))
        #expect(longer.contains("expected 15 frames, got 20"), "\(longer)")
    }

    @Test func precisionForgivesPixels() throws {
        let reference = try Self.loader().gifData()
        let changed = try Self.loader(fadeBegin: 0.8).gifData()
        let strict = Snapshotting<Scene, Data>.gif.diffing
        #expect(strict.diffV2(reference, reference) == nil)
        let failure = try #require(strict.diffV2(reference, changed))
        // Strictly, the frames before the fade differ too, in a few pixels each: the
        // palette moved.
        #expect(failure.0.contains("of 15 frames differ"))
        // The failure attaches both animations.
        #expect(failure.1.count == 2)
        // With precision 0 any animation of the same size, frames and delays matches.
        #expect(Snapshotting<Scene, Data>.gif(precision: 0).diffing.diffV2(reference, changed) == nil)
    }
}
