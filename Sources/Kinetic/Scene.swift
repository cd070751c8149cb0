import Foundation
import KineticEncode
import KineticGeometry
import KineticRender
import KineticScene

/// A loaded, validated scene: layers, animations and dynamics on a fixed frame clock.
///
/// Load one from a scene file or its text, then ask for the state or the pixels of any
/// frame. Frames are deterministic: the same scene gives the same bytes every time, and
/// the same bytes as the `kinetic` command.
///
/// ```swift
/// let scene = try Scene(contentsOf: URL(fileURLWithPath: "ring.yaml"))
/// let png = try scene.pngData(atFrame: 25)
/// ```
public struct Scene: Sendable {
    /// The validated model the stages share (its settings changed only through the library's
    /// setters of SceneSettings.swift).
    package internal(set) var model: KineticScene.Scene
    /// The limits the scene was loaded under; frames are produced under them too.
    public let limits: SceneLimits

    /// Loads and validates the scene file at `url` (YAML or JSON).
    ///
    /// Image assets and SVG files the scene names are found relative to the file.
    ///
    /// - Throws: ``SceneFileError`` when the file cannot be read, or ``SceneLoadError``
    ///   listing every problem at its `FILE:LINE:COLUMN` and key path, as `kinetic
    ///   validate` reports them.
    public init(contentsOf url: URL, limits: SceneLimits = SceneLimits()) throws {
        try self.init(path: url.path, limits: limits)
    }

    /// Loads the scene file at `path` as the command names it (its problems are located
    /// under that spelling).
    package init(path: String, limits: SceneLimits) throws {
        model = try SceneLoader.load(path: path, limits: limits)
        self.limits = limits
    }

    /// Loads and validates scene text (YAML or JSON).
    ///
    /// - Parameters:
    ///   - yaml: The scene, as a scene file holds it.
    ///   - fileName: The name problems are reported under.
    ///   - baseURL: The folder relative asset paths are resolved in.
    /// - Throws: ``SceneLoadError`` listing every problem, located in `yaml`.
    public init(yaml: String, fileName: String = "<scene>", baseURL: URL? = nil,
                limits: SceneLimits = SceneLimits()) throws {
        model = try SceneLoader.load(text: yaml, file: fileName, baseDirectory: baseURL?.path ?? ".", limits: limits)
        self.limits = limits
    }

    /// The number of frames: the duration times the frame rate, rounded up.
    public var frameCount: Int { model.frameCount }

    /// Frames per second.
    public var framesPerSecond: Double { model.settings.fps }

    /// The length of the scene in seconds.
    public var duration: Double { model.settings.duration }

    /// The frame showing `time` (seconds): ⌊time × fps⌋, the last frame for the end itself.
    public func frame(at time: Double) -> Int {
        min(Int((time * framesPerSecond).rounded(.down)), frameCount - 1)
    }
}
