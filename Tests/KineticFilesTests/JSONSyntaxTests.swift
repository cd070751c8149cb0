import KineticFiles
import Testing

/// The JSON checker on its own; its messages and places in scene files are
/// SceneLoaderErrorTests'.
struct JSONSyntaxTests {
    /// A million nested brackets are valid JSON, passed on unchanged: the scanner keeps its
    /// own stack (340a5e0's called itself for each opening one and overflowed).
    @Test func deepNestingPassesUnchanged() {
        let depth = 1_000_000
        let json = #"{"kinetic": 1, "x": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect((try? JSONSyntax.check(json).get()) == json)
    }
}
