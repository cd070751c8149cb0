/// Writes an animated GIF frame by frame, in order, to a path that receives the file
/// only once ``finish()`` succeeds.
///
/// Frames come from ``GIFFramePreparer`` (which may run on many threads); the writer is
/// used from one thread. Any error, ``cancel()``, or dropping the writer unfinished
/// removes the temporary file and leaves the destination as it was.
public final class GIFWriter {
    public let path: String
    public let width: Int
    public let height: Int
    public let options: GIFOptions
    private var file: AtomicFile?
    private var encoder: GifEncoder?

    /// The hidden file being written until ``finish()`` or ``cancel()``, then nil — for a
    /// signal handler that must remove it when the process is interrupted.
    public var temporaryPath: String? { file?.temporaryPath }

    /// Opens the temporary file and writes the header, screen descriptor (with the shared
    /// palette as global colour table, if ``GIFOptions/palette`` is `.shared`) and the
    /// NETSCAPE2.0 loop extension.
    /// - Throws: ``EncodeError/cannotWrite(path:reason:)``, or `.invalidOptions` /
    ///   `.invalidImage` for bad options or a canvas outside 1…65535 pixels a side.
    public init(path: String, width: Int, height: Int, options: GIFOptions) throws(EncodeError) {
        try options.validate()
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw .invalidImage(reason: "a GIF canvas must be 1…65535 pixels a side, not \(width)×\(height)")
        }
        self.path = path; self.width = width; self.height = height; self.options = options
        var globalPalette: [GIFColor]? = nil
        if case let .shared(palette) = options.palette { globalPalette = palette.colors }
        file = try AtomicFile(path: path)
        encoder = try GifEncoder(width: width, height: height, globalPalette: globalPalette,
                                 loopCount: options.loopCount)
        try flush()
    }

    /// Appends `frame`, shown for `delayCentiseconds` (clamped to 0…65535; see
    /// ``GIFTiming``).
    /// - Throws: `.invalidImage` if the frame does not fit the canvas or lacks a palette,
    ///   ``EncodeError/cannotWrite(path:reason:)`` on I/O failure; either cancels the file.
    public func write(_ frame: PreparedGIFFrame, delayCentiseconds: Int) throws(EncodeError) {
        do throws(EncodeError) {
            let r = frame.rect
            guard r.x >= 0, r.y >= 0, r.width > 0, r.height > 0,
                  r.x + r.width <= width, r.y + r.height <= height else {
                throw .invalidImage(reason: "frame rectangle \(r) is outside the \(width)×\(height) canvas")
            }
            guard frame.indices.count == r.width * r.height else {
                throw .invalidImage(reason: "frame has \(frame.indices.count) pixels for a \(r.width)×\(r.height) rectangle")
            }
            if let palette = frame.localPalette, palette.count > 255 {
                throw .invalidImage(reason: "frame palette has \(palette.count) colours; at most 255 fit beside the transparent index")
            }
            if frame.localPalette == nil, case .perFrame = options.palette {
                throw .invalidImage(reason: "frame has no palette and the GIF has no shared palette")
            }
            guard encoder != nil else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            try encoder!.put(frame, delayCentiseconds: min(max(delayCentiseconds, 0), 65535))
            try flush()
        } catch {
            cancel()
            throw error
        }
    }

    /// Writes the trailer and renames the file into place.
    public func finish() throws(EncodeError) {
        do throws(EncodeError) {
            guard encoder != nil else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            try encoder!.close()
            try flush()
            encoder = nil
            guard let done = file.take() else { throw .cannotWrite(path: path, reason: "writer already finished or cancelled") }
            try done.commit()
        } catch {
            cancel()
            throw error
        }
    }

    /// Abandons the GIF: removes the temporary file; the destination is untouched.
    /// Does nothing after ``finish()``.
    public func cancel() {
        encoder = nil
        file = nil
    }

    deinit {
        cancel()
    }

    /// Moves what giflib produced so far to the file, so memory stays bounded.
    private func flush() throws(EncodeError) {
        guard encoder != nil, file != nil else { return }
        let bytes = encoder!.takeBytes()
        if !bytes.isEmpty { try file!.write(bytes) }
    }
}
