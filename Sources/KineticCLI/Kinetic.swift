import ArgumentParser

/// The `kinetic` command: subcommands are added as the pipeline stages land.
public struct Kinetic: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "kinetic",
        abstract: "Render UIKit Dynamics and Core Animation scenes to PNG frames or animated GIFs.")
    public init() {}
}
