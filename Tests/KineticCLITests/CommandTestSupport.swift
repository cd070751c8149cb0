import ArgumentParser
import Foundation
@testable import KineticCLI

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "kinetic-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name`, creating its folder.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `kinetic ARGS…` in process; the exit status it would end with.
func kinetic(_ arguments: [String]) -> Int32 {
    do {
        var command = try KineticCommand.parseAsRoot(arguments)
        try command.run()
        return 0
    } catch let code as ExitCode {
        return code.rawValue
    } catch {
        return KineticCommand.exitCode(for: error).rawValue
    }
}

/// A small scene: a square slides right over a grey background (120×80 at scale 2, 25
/// frames); `golden` is appended as its golden block.
func slidingSquareScene(golden: String) -> String {
    """
    kinetic: 1
    scene: {size: [120, 80], scale: 2, fps: 50, duration: 0.5, background: "#F2F2F7"}
    layers:
      - id: square
        position: [20, 40]
        bounds: [20, 20]
        backgroundColor: systemRed
    animations:
      - {layer: square, keyPath: position.x, from: 20, to: 60, duration: 0.4}
    \(golden)
    """
}
