// The one file that touches giflib's C API (5.2): the streaming GIF89a encoder.
import CGif

/// A giflib encoder writing into memory; its owner drains the bytes to a file.
///
/// Noncopyable because it owns the `GifFileType` handle and the output buffer.
struct GifEncoder: ~Copyable {
    private var handle: UnsafeMutablePointer<GifFileType>?
    /// Where giflib's output callback appends bytes (giflib's `UserData`).
    private let sink: UnsafeMutablePointer<[UInt8]>
    /// The image data compressor, its dictionary table kept from frame to frame.
    private var lzw = GIFLZW()

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
    /// from 2 to 256, padded with black) if it has one. The image data is compressed by
    /// ``GIFLZW`` (giflib's bytes, faster), or by giflib's own `EGifPutLine` with
    /// `giflibCompressor`, which only the tests use, to compare the two. `frame.indices`
    /// holds `rect.width × rect.height` indices (``GIFWriter`` checks); `alternatives`, if
    /// given, as many indices each pixel may be written as instead (see ``GIFLZW``).
    /// `compressed`, when given, is the image data ``GIFLZW`` made of these indices and
    /// alternatives for `bitsPerPixel` (on a worker, see ``GIFCompressionQueue``); it is
    /// used when the colour table giflib sets up has that many bits, else compressed again.
    mutating func put(_ frame: PreparedGIFFrame, transparentIndex: Int, tableSize: Int,
                      delayCentiseconds: Int, alternatives: [UInt8]? = nil,
                      compressed: (bitsPerPixel: Int, blocks: [UInt8])? = nil,
                      giflibCompressor: Bool = false) throws(EncodeError) {
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
        // Writes the descriptor, the colour table and the LZW minimum code size byte; the
        // first clear code giflib's compressor makes stays in its bit buffer, which the
        // next image descriptor resets: GIFLZW writes its own.
        guard EGifPutImageDesc(gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height),
                               false, colorMap ?? nil) == GIF_OK
        else { throw Self.failure(gif.pointee.Error) }
        if giflibCompressor {
            // giflib masks the indices in place, so it gets a copy.
            var pixels = frame.indices
            let status = pixels.withUnsafeMutableBufferPointer { pixels in
                EGifPutLine(gif, pixels.baseAddress, Int32(pixels.count))
            }
            guard status == GIF_OK else { throw Self.failure(gif.pointee.Error) }
            return
        }
        // The colour map giflib's EGifSetupCompress took its code size from.
        guard let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap else {
            throw .invalidImage(reason: "GIF frame without a colour table")
        }
        let bits = Int(map.pointee.BitsPerPixel)
        let blocks = compressed.flatMap { $0.bitsPerPixel == bits ? $0.blocks : nil }
            ?? lzw.encode(frame.indices, alternatives: alternatives, bitsPerPixel: bits)
        // Each sub-block goes out as it is, length byte first (EGifPutCode ignores its code
        // size argument: EGifPutImageDesc wrote it); the empty block after them ends the
        // image and sets giflib's pixel count to done.
        let status = blocks.withUnsafeBufferPointer { blocks -> Int32 in
            guard let base = blocks.baseAddress else { return GIF_OK }
            var offset = 0
            while offset < blocks.count {
                let block = base + offset
                let status = offset == 0 ? EGifPutCode(gif, 0, block) : EGifPutCodeNext(gif, block)
                guard status == GIF_OK else { return status }
                offset += Int(block.pointee) + 1
            }
            return GIF_OK
        }
        guard status == GIF_OK, EGifPutCodeNext(gif, nil) == GIF_OK else { throw Self.failure(gif.pointee.Error) }
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
