import Foundation

/// The repository's root (scenes/ is under it).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The `kinetic` command built beside the test bundle (`swift test` builds it), or
/// `$KINETIC`: the independent path the library's output is compared with.
func kineticCommand() -> URL {
    if let path = ProcessInfo.processInfo.environment["KINETIC"] { return URL(fileURLWithPath: path) }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("kinetic")
}

/// Runs `kinetic` with `arguments`; its standard output.
func runKinetic(_ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = kineticCommand()
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "kinetic \(arguments) exited \(process.terminationStatus)"])
    }
    return output
}
