import Foundation
import Kinetic
import Testing

/// `Scene.compareWithGoldens(in:)` judges a scene against its golden folder as
/// `kinetic golden check` does.
struct GoldenComparisonTests {
    let scene = repositoryRoot.appendingPathComponent("scenes/jump-star.yaml")
    let goldens = repositoryRoot.appendingPathComponent("golden/jump-star")

    /// The golden frames the folder holds, by the names the check reports.
    func goldenFrameNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: goldens.path).filter { $0.hasPrefix("frame-") }.sorted()
            .map { "frame " + $0.dropFirst("frame-".count).prefix(4) }
    }

    @Test func theGalleryScenesGoldensMatch() throws {
        let comparison = try Scene(contentsOf: scene).compareWithGoldens(in: goldens, jobs: 2)
        #expect(comparison.matches)
        // Every golden frame of the folder, then the state (jump-star keeps golden.state on).
        #expect(comparison.results.map(\.name) == (try goldenFrameNames()) + ["state"])
    }

    @Test func aChangedBackgroundFailsTheFramesNotTheState() throws {
        var changed = try Scene(contentsOf: scene)
        try changed.setBackgroundColor("#FF00FF")
        let comparison = try changed.compareWithGoldens(in: goldens, jobs: 2)
        #expect(!comparison.matches)
        let frames = comparison.results.filter { $0.name.hasPrefix("frame ") }
        #expect(!frames.isEmpty && frames.allSatisfy { !$0.matches && $0.message.hasPrefix("differing ") })
        // The background is no layer's state.
        #expect(comparison.results.last?.name == "state" && comparison.results.last?.matches == true)
    }

    @Test func aMissingFolderFailsEveryGolden() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("kinetic-no-goldens-\(UUID().uuidString)")
        let comparison = try Scene(contentsOf: scene).compareWithGoldens(in: empty, jobs: 2)
        #expect(!comparison.results.isEmpty && comparison.results.allSatisfy { !$0.matches })
        #expect(comparison.results.first?.message.hasPrefix("no golden image ") == true)
        // Nothing was written.
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }
}
