import KineticEncode
import KineticGeometry

/// One animation file written from a stream of frames: the writer and its per-frame
/// preparation, shared by `render` (frames from the scene) and `encode` (from PNGs), so
/// both give the same bytes for the same pixels.
enum AnimationOutput {
    typealias Prepare = @Sendable (PixelImage, PixelImage?) throws -> PreparedAnimationFrame

    /// Opens the writer, lets `stream` run `prepare` on worker threads and hand each
    /// result to `write` in frame order, then finishes the file; on any error the
    /// temporary file goes and the destination is untouched.
    static func write(frameCount: Int, width: Int, height: Int, to path: String, format: AnimationFormat,
                      settings: AnimationSettings,
                      stream: (_ prepare: @escaping Prepare, _ write: (PreparedAnimationFrame) throws -> Void) throws -> Void) throws {
        let writer = try AnimationWriter(path: path, format: format, width: width, height: height,
                                         frameCount: frameCount, settings: settings)
        let preparer = writer.preparer
        do {
            try stream({ frame, previous in try preparer.prepare(frame, previous: previous) },
                       { prepared in try writer.write(prepared) })
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
    }
}
