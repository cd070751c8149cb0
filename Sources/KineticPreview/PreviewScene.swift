/// A scene as the preview shows it: loaded and ready to render. The command line
/// provides it (with the renderer `kinetic render` uses), so the server renders nothing
/// itself and every frame is the one `render --frame N` writes.
///
/// Used on the session's queue only, one call at a time: implementations may keep
/// simulation state between calls (frames asked in increasing order are simulated
/// forward from the last one).
public protocol PreviewScene: AnyObject {
    var info: PreviewSceneInfo { get }
    /// Frame `index` as PNG bytes; `debug` adds the physics overlay and layer bounds
    /// (`render --debug`).
    func png(frame index: Int, debug: Bool) throws -> [UInt8]
    /// `kinetic inspect --frame index`'s JSON.
    func inspect(frame index: Int) throws -> String
    /// Writes the scene as `format` (one of ``PreviewSceneInfo/exportFormats``) next to
    /// the scene file, as `render SCENE -o NAME.format` does; returns what was written.
    func export(format: String) throws -> String
}

/// What the page needs to lay out the player.
public struct PreviewSceneInfo: Sendable, Equatable {
    public var fps: Double
    public var frameCount: Int
    /// The canvas in points and pixels per point (inspect's corners are in points).
    public var width: Double
    public var height: Double
    public var scale: Double
    /// The scene file and every asset it reads: watched for changes.
    public var files: [String]
    /// The extensions the export button offers, the first the default (`gif`).
    public var exportFormats: [String]

    public init(fps: Double, frameCount: Int, width: Double, height: Double, scale: Double, files: [String],
                exportFormats: [String] = ["gif"]) {
        self.fps = fps
        self.frameCount = frameCount
        self.width = width
        self.height = height
        self.scale = scale
        self.files = files
        self.exportFormats = exportFormats
    }
}

/// Why a scene could not be loaded: every problem as `FILE:LINE:COL: key.path: message`.
public struct PreviewLoadFailure: Error, Sendable {
    public var messages: [String]
    public init(messages: [String]) { self.messages = messages }
}

/// Loads the scene file at a path (the command line's loader with its limits).
public typealias PreviewLoader = @Sendable (String) -> Result<any PreviewScene, PreviewLoadFailure>
