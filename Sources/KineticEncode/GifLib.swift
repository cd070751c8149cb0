// The one file that touches giflib's C API (5.2): the streaming GIF89a encoder.
import CGif

/// A giflib encoder writing into memory; its owner drains the bytes to a file.
///
/// Noncopyable because it owns the `GifFileType` handle and the output buffer.
struct GifEncoder: ~Copyable {
    private var handle: UnsafeMutablePointer<GifFileType>?
    /// Where giflib's output callback appends bytes (giflib's `UserData`).
    private let sink: UnsafeMutablePointer<[UInt8]>

    /// Starts a GIF89a stream: screen descriptor (with `globalPalette` as the global
    /// colour table of `tableSize` entries, a power of two from 2 to 256, if any)
    /// followed by the NETSCAPE2.0 looping extension.
    init(width: Int, height: Int, globalPalette: [GIFColor]?, tableSize: Int,
         loopCount: Int) throws(EncodeError) {
        sink = .allocate(capacity: 1)
        sink.initialize(to: [])
        var error: Int32 = 0
        handle = EGifOpen(sink, { gif, bytes, length in
            guard let gif, let bytes, length >= 0, let sink = gif.pointee.UserData else { return 0 }
            sink.assumingMemoryBound(to: [UInt8].self).pointee
                .append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
            return length
        }, &error)
        guard let gif = handle else { throw Self.failure(error) }
        EGifSetGifVersion(gif, true)
        let colorMap = globalPalette.map { Self.makeColorMap($0, size: tableSize) }
        defer { if let colorMap { GifFreeMapObject(colorMap) } }
        guard EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, colorMap ?? nil) == GIF_OK else {
            throw Self.failure(gif.pointee.Error)
        }
        // Application extension "NETSCAPE2.0", sub-block 1 = loop count (little-endian).
        let identifier = Array("NETSCAPE2.0".utf8)
        let loop: [UInt8] = [1, UInt8(loopCount & 0xFF), UInt8((loopCount >> 8) & 0xFF)]
        guard EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(identifier.count), identifier) == GIF_OK,
              EGifPutExtensionBlock(gif, Int32(loop.count), loop) == GIF_OK,
              EGifPutExtensionTrailer(gif) == GIF_OK
        else { throw Self.failure(gif.pointee.Error) }
    }

    /// Appends a graphic control extension (delay, disposal, `transparentIndex`) and the
    /// frame's image, with its local colour table (`tableSize` entries, a power of two
    /// from 2 to 256, padded with black) if it has one.
    mutating func put(_ frame: PreparedGIFFrame, transparentIndex: Int, tableSize: Int,
                      delayCentiseconds: Int) throws(EncodeError) {
        guard let gif = handle else { throw .invalidImage(reason: "GIF stream already closed") }
        var control = GraphicsControlBlock()
        control.DisposalMode = frame.disposal == .doNotDispose ? DISPOSE_DO_NOT : DISPOSE_BACKGROUND
        control.UserInputFlag = false
        control.DelayTime = Int32(delayCentiseconds)
        control.TransparentColor = Int32(transparentIndex)
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        guard EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes) == GIF_OK else {
            throw Self.failure(gif.pointee.Error)
        }
        let colorMap = frame.localPalette.map { Self.makeColorMap($0, size: tableSize) }
        defer { if let colorMap { GifFreeMapObject(colorMap) } }
        let rect = frame.rect
        guard EGifPutImageDesc(gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height),
                               false, colorMap ?? nil) == GIF_OK
        else { throw Self.failure(gif.pointee.Error) }
        // giflib takes the whole raster in one call; it does not modify the pixels.
        let status = frame.indices.withUnsafeBufferPointer { pixels in
            EGifPutLine(gif, UnsafeMutablePointer(mutating: pixels.baseAddress!), Int32(pixels.count))
        }
        guard status == GIF_OK else { throw Self.failure(gif.pointee.Error) }
    }

    /// Writes the trailer and releases the handle.
    mutating func close() throws(EncodeError) {
        guard let gif = handle else { return }
        handle = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw Self.failure(error) }
    }

    /// The bytes produced so far, removed from the buffer.
    mutating func takeBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &sink.pointee)
        return bytes
    }

    deinit {
        if let handle { EGifCloseFile(handle, nil) }
        sink.deinitialize(count: 1)
        sink.deallocate()
    }

    /// A colour map of `size` entries (a power of two, 2…256): the transparent index must
    /// exist in the table, so short palettes are padded with black.
    private static func makeColorMap(_ colors: [GIFColor], size: Int) -> UnsafeMutablePointer<ColorMapObject>? {
        var entries = colors.prefix(size).map { GifColorType(Red: $0.red, Green: $0.green, Blue: $0.blue) }
        entries += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: size - entries.count)
        return GifMakeMapObject(Int32(size), entries)
    }

    private static func failure(_ code: Int32) -> EncodeError {
        let reason = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .invalidImage(reason: "giflib: " + reason)
    }
}
