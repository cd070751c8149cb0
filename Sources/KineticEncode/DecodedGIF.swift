import CGif
import Foundation

/// A GIF decoded with giflib's `DGifSlurp` and composited frame by frame as a browser
/// shows it: an independent reader of what the GIF writer wrote (the `.gif` snapshot's
/// comparison, the encoder's tests).
package struct DecodedGIF: Sendable {
    package var width = 0, height = 0
    /// The RGBA canvas after each frame (alpha 0 where nothing was drawn).
    package var canvases: [[UInt8]] = []
    /// Each frame's delay in centiseconds.
    package var delays: [Int] = []
    package var disposals: [Int32] = []
    package var rects: [GIFRect] = []
    /// Each frame's colour indices as stored, its rectangle's size.
    package var rasters: [[UInt8]] = []
    package var transparentIndices: [Int32] = []
    /// Entries in each frame's local colour table (0 when it uses the global one).
    package var colorCounts: [Int] = []
    /// Entries in the global colour table (0 when there is none).
    package var globalColorCount = 0
    /// Entries in the table each frame's indices refer to (local, else global).
    package var tableSizes: [Int] { colorCounts.map { $0 == 0 ? globalColorCount : $0 } }

    /// Decodes the GIF file at `path`.
    package init(path: String) throws(GIFDecodingError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw GIFDecodingError(code: D_GIF_ERR_OPEN_FAILED) }
        try self.init(bytes: [UInt8](data))
    }

    /// Decodes GIF bytes.
    ///
    /// - Throws: ``GIFDecodingError`` with giflib's code, or `D_GIF_ERR_WRONG_RECORD` for a
    ///   frame outside the canvas.
    package init(bytes: [UInt8]) throws(GIFDecodingError) {
        let source = Source(bytes: bytes)
        var error: Int32 = 0
        // giflib pulls the bytes through `read`, which finds them through UserData.
        guard let gif = withExtendedLifetime(source, {
            DGifOpen(Unmanaged.passUnretained(source).toOpaque(), { file, buffer, count in
                guard let file, let buffer, let user = file.pointee.UserData else { return 0 }
                return Unmanaged<Source>.fromOpaque(user).takeUnretainedValue().read(into: buffer, count: Int(count))
            }, &error)
        }) else { throw GIFDecodingError(code: error) }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { throw GIFDecodingError(code: gif.pointee.Error) }
        width = Int(gif.pointee.SWidth)
        height = Int(gif.pointee.SHeight)
        globalColorCount = Int(gif.pointee.SColorMap?.pointee.ColorCount ?? 0)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[i]
            var control = GraphicsControlBlock()
            if DGifSavedExtensionToGCB(gif, Int32(i), &control) != GIF_OK { control.TransparentColor = NO_TRANSPARENT_COLOR }
            let d = image.ImageDesc
            let rect = GIFRect(x: Int(d.Left), y: Int(d.Top), width: Int(d.Width), height: Int(d.Height))
            guard let map = d.ColorMap ?? gif.pointee.SColorMap, rect.x >= 0, rect.y >= 0,
                  rect.x + rect.width <= width, rect.y + rect.height <= height else {
                throw GIFDecodingError(code: D_GIF_ERR_WRONG_RECORD)
            }
            let colors = Int(map.pointee.ColorCount)
            for y in 0..<rect.height {
                for x in 0..<rect.width {
                    let index = Int32(image.RasterBits[y * rect.width + x])
                    guard index != control.TransparentColor, index < colors else { continue }
                    let c = map.pointee.Colors[Int(index)]
                    let o = ((rect.y + y) * width + rect.x + x) * 4
                    canvas[o] = c.Red; canvas[o + 1] = c.Green; canvas[o + 2] = c.Blue; canvas[o + 3] = 255
                }
            }
            canvases.append(canvas)
            delays.append(Int(control.DelayTime))
            disposals.append(control.DisposalMode)
            rects.append(rect)
            transparentIndices.append(control.TransparentColor)
            rasters.append(Array(UnsafeBufferPointer(start: image.RasterBits, count: rect.width * rect.height)))
            colorCounts.append(Int(d.ColorMap?.pointee.ColorCount ?? 0))
            if control.DisposalMode == DISPOSE_BACKGROUND {
                for y in rect.y..<(rect.y + rect.height) {
                    canvas.replaceSubrange((y * width + rect.x) * 4..<(y * width + rect.x + rect.width) * 4,
                                           with: repeatElement(0, count: rect.width * 4))
                }
            }
        }
    }

    /// The bytes giflib reads, with its position.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0
        init(bytes: [UInt8]) { self.bytes = bytes }

        func read(into buffer: UnsafeMutablePointer<GifByteType>, count: Int) -> Int32 {
            let n = max(0, min(count, bytes.count - offset))
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { buffer.update(from: base + offset, count: n) }
            }
            offset += n
            return Int32(n)
        }
    }
}

/// A GIF giflib cannot read, with giflib's error code (`D_GIF_ERR_…`).
package struct GIFDecodingError: Error, CustomStringConvertible {
    package var code: Int32
    package var description: String { "giflib could not decode the GIF (error \(code))" }
}
