import Foundation
import Kinetic
import Testing

/// Loading reports what `kinetic validate` reports: every problem at FILE:LINE:COLUMN
/// with its key path.
struct SceneLoadingTests {
    @Test func aBadValueIsLocatedInTheText() throws {
        let text = """
            kinetic: 1
            scene: {size: [100, 100], duration: 1}
            layers:
              - id: box
                opacity: lots
            """
        let error = try #require(throws: SceneLoadError.self) { try Scene(yaml: text, fileName: "box.yaml") }
        let problem = try #require(error.problems.first)
        // Line 5, column 14: `    opacity: ` is 13 characters.
        #expect(problem.location == SourceLocation(file: "box.yaml", line: 5, column: 14))
        #expect(problem.keyPath == "layers[0].opacity")
        #expect(error.description.hasPrefix("box.yaml:5:14: layers[0].opacity: "))
    }

    @Test func aMissingFileIsAFileError() {
        #expect(throws: SceneFileError.self) {
            try Scene(contentsOf: repositoryRoot.appendingPathComponent("scenes/no-such-scene.yaml"))
        }
    }

    @Test func aFileLoadsWithItsTiming() throws {
        let scene = try Scene(contentsOf: repositoryRoot.appendingPathComponent("scenes/gravity-angle.yaml"))
        // duration 1 s at 50 fps.
        #expect(scene.frameCount == 50)
        #expect(scene.frame(at: 0.5) == 25)
        #expect(scene.frame(at: 1) == 49)
    }

    @Test func aMisspelledBuiltKeyIsLocatedInTheBuiltText() throws {
        let error = try #require(throws: SceneLoadError.self) {
            try Scene(size: [100, 100], duration: 1, layers: [ShapeLayer("ring").strokeEnf(0)])
        }
        #expect(error.problems.map(\.keyPath) == ["layers[0].strokeEnf"])
        #expect(error.problems.first?.location.file == "<built scene>")
    }
}
